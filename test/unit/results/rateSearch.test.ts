// The rate search's confirmation, instability and uncertainty, on scripted probe outcomes: what a server
// answers is a function the test writes (fast, deterministic), driven through pointsToRun as the runner does.
import assert from 'node:assert/strict';
import type { LoadResult } from '../../../src/engine/types';
import { rateCurve, rateCurveText, searchSentence } from '../../../src/results/rateCurve';
import {
  CONFIRM_MIN_MS,
  MAX_CONFIRMATIONS,
  MAX_PROBES,
  pointCount,
  pointsToRun,
  rateOfProbeLabel,
  rateSearchOutcome,
  thresholdPoints,
} from '../../../src/results/rateSearch';
import type { PointResult, RunFile } from '../../../src/results/runFile';
import { summariseRepeats } from '../../../src/results/summary';
import { runWarnings } from '../../../src/results/warnings';
import { checkText, type ScenarioPlan } from '../../../src/scenario';
import { loadResult, makeRun } from '../compare/fixtures';

const TEXT = '### s\nfind rate where p99 < 2ms from 1k/s to 1M/s\nduration 1s\nSET k v\n';

function planOf(text: string): ScenarioPlan {
  const resolved = checkText(text);
  assert.deepEqual(
    resolved.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
    [],
  );
  return resolved.scenarios[0];
}

interface Ran {
  rate: number;
  confirm: boolean;
  durationMs: number;
}

/** The p99 (µs) the scripted server gives a probe: under the 2 ms limit passes. */
type Server = (probe: Ran, repeat: number) => number;

/** Drives pointsToRun as runScenario does; returns the points and what each probe was asked to run. */
function search(plan: ScenarioPlan, server: Server): { points: PointResult[]; ran: Ran[] } {
  const points: PointResult[] = [];
  const ran: Ran[] = [];
  for (const point of pointsToRun(plan, points)) {
    assert.ok(points.length < MAX_PROBES + MAX_CONFIRMATIONS, 'the search ends');
    const load = point.phases[0].load;
    const probe = { rate: load.rate!, confirm: point.label.startsWith('confirm '), durationMs: load.durationMs! };
    ran.push(probe);
    const repeats: LoadResult[][] = [];
    for (let repeat = 0; repeat < plan.repeat; repeat++) {
      repeats.push([loadResult('main', 'SET', { ops: probe.rate * (1 + repeat * 0.001), p99: server(probe, repeat) })]);
    }
    points.push({ label: point.label, sweep: point.sweep, repeats, summary: summariseRepeats(repeats) });
  }
  return { points, ran };
}

const under = 500;
const over = 50_000;
/** A server that breaks at `capacity` for short probes and at `longCapacity` when the load lasts. */
const saturating =
  (capacity: number, longCapacity = capacity): Server =>
  ({ rate, confirm }) =>
    rate < (confirm ? longCapacity : capacity) ? under : over;

const runOf = (plan: ScenarioPlan, points: PointResult[]): RunFile => ({ ...makeRun({ text: TEXT, id: 'search', results: {} }), plan, points });

describe('rate search: confirmation', () => {
  const plan = planOf(TEXT);

  it('reruns the found rate and the step above it for at least 5 s, and reports the bracket', () => {
    const { points, ran } = search(plan, saturating(37_000));
    const outcome = rateSearchOutcome(plan, points)!;
    const confirms = ran.filter((probe) => probe.confirm);
    assert.equal(confirms.length, 2, JSON.stringify(ran));
    assert.deepEqual(
      confirms.map((probe) => probe.durationMs),
      [CONFIRM_MIN_MS, CONFIRM_MIN_MS],
      'a 1 s probe is confirmed over 5 s',
    );
    assert.equal(confirms[0].rate, outcome.searchedRate, 'first the rate the search found');
    assert.ok(confirms[1].rate > confirms[0].rate && confirms[1].rate >= 37_000, 'then the step above it');
    assert.ok(
      ran.filter((probe) => !probe.confirm).every((probe) => probe.durationMs === 1000),
      'probes keep their duration',
    );
    assert.equal(outcome.confirmation, 'held');
    assert.equal(outcome.foundRate, outcome.searchedRate);
    assert.ok(outcome.foundRate! < 37_000 && outcome.failedRate! >= 37_000, `${outcome.foundRate} < 37,000 <= ${outcome.failedRate}`);
    assert.deepEqual(outcome.disagreements, []);
    assert.deepEqual(runWarnings(runOf(plan, points)), [], 'a clean search warns of nothing');
    const found = outcome.foundRate!.toLocaleString('en-US');
    assert.match(
      searchSentence(outcome),
      new RegExp(
        `^Highest rate with p99 < 2\\.00 ms: ${found}/s, confirmed by a 5\\.0s rerun; ${outcome.failedRate!.toLocaleString('en-US')}/s failed, so the limit lies between the two \\(\\d+ probes, 2 confirmations\\)\\.$`,
      ),
    );
    assert.match(rateCurveText(rateCurve(runOf(plan, points))!), new RegExp(`${found} .* held \\(rerun\\)`));
    // `expect` lines judge the rerun at the found rate: the longer, surer measurement.
    assert.deepEqual(
      thresholdPoints(plan, points).map((point) => point.label),
      [`confirm rate=${outcome.foundRate}`],
    );
    assert.equal(rateOfProbeLabel(`confirm rate=${outcome.foundRate}`), outcome.foundRate);
    assert.ok(pointCount(plan) >= points.length);
  });

  it('a found rate that does not hold when rerun is not reported: the search steps down and says so', () => {
    // Short probes pass up to 37k/s; a 5 s load holds only below 30k/s (a queue that builds slowly).
    const { points, ran } = search(plan, saturating(37_000, 30_000));
    const outcome = rateSearchOutcome(plan, points)!;
    const confirms = ran.filter((probe) => probe.confirm).map((probe) => probe.rate);
    assert.ok(outcome.searchedRate! > 33_000, `searched ${outcome.searchedRate}`);
    assert.equal(confirms[0], outcome.searchedRate);
    for (let i = 1; i < confirms.length; i++)
      assert.ok(confirms[i] < confirms[i - 1] && confirms[i] > confirms[i - 1] / 1.2, `steps of about 10%: ${confirms}`);
    assert.equal(outcome.confirmation, 'stepped-down');
    assert.ok(outcome.foundRate! < 30_000 && outcome.foundRate! > 30_000 / 1.2, `found ${outcome.foundRate}`);
    assert.ok(outcome.failedRate! >= 30_000 && outcome.failedRate! / outcome.foundRate! < 1.11, `bracket ${outcome.foundRate}–${outcome.failedRate}`);
    assert.deepEqual(outcome.disagreements, [], 'a longer load failing is not noise');
    assert.match(
      searchSentence(outcome),
      new RegExp(
        `: ${outcome.foundRate!.toLocaleString('en-US')}/s, confirmed by a 5\\.0s rerun after the search's ${outcome.searchedRate!.toLocaleString('en-US')}/s did not hold; `,
      ),
    );
  });

  it('when no rerun holds, no rate is found', () => {
    const { points, ran } = search(plan, saturating(37_000, 10_000));
    const outcome = rateSearchOutcome(plan, points)!;
    assert.equal(ran.filter((probe) => probe.confirm).length, MAX_CONFIRMATIONS);
    assert.equal(outcome.confirmation, 'not-held');
    assert.equal(outcome.foundRate, undefined);
    assert.deepEqual(thresholdPoints(plan, points), [], '`expect` lines fail as not measured');
    assert.match(searchSentence(outcome), /^No rate held p99 < 2\.00 ms over a 5\.0s rerun: the search found [\d,]+\/s, but [\d,]+\/s, .* did not hold/);
  });

  it('the top of the search is confirmed without a step above it', () => {
    const { points, ran } = search(plan, saturating(5_000_000));
    const outcome = rateSearchOutcome(plan, points)!;
    assert.deepEqual(
      ran.filter((probe) => probe.confirm).map((probe) => probe.rate),
      [1_000_000],
    );
    assert.deepEqual([outcome.end, outcome.confirmation, outcome.foundRate, outcome.failedRate], ['reached-top', 'held', 1_000_000, undefined]);
    assert.match(searchSentence(outcome), /1,000,000\/s, confirmed by a 5\.0s rerun; that is the top of the search/);
  });

  it('a run file with probes only (stopped before confirming, or from before confirmations) reports its rate as not confirmed', () => {
    const probesOnly = search(plan, saturating(37_000)).points.filter((point) => !point.label.startsWith('confirm '));
    const outcome = rateSearchOutcome(plan, probesOnly)!;
    assert.deepEqual([outcome.end, outcome.confirmation, outcome.foundRate], ['resolved', 'not-run', outcome.searchedRate]);
    assert.match(
      searchSentence(outcome),
      /^Highest rate with p99 < 2\.00 ms: [\d,]+\/s, not confirmed by a rerun \(the run stopped before it, or predates confirmations\); /,
    );
  });

  it('a longer probe duration is confirmed over twice as long', () => {
    const long = planOf('### s\nfind rate where p99 < 2ms from 1k/s to 1M/s\nduration 4s\nSET k v\n');
    const { ran } = search(long, saturating(37_000));
    assert.deepEqual([...new Set(ran.filter((probe) => probe.confirm).map((probe) => probe.durationMs))], [8000]);
  });
});

describe('rate search: unstable probes', () => {
  const plan = planOf(TEXT);

  it('a spurious failure (one noisy short probe) is caught by the reruns, raised past and flagged', () => {
    // The server holds 37k/s, but the probe at 16k/s hit a hiccup.
    const server: Server = (probe, repeat) => (probe.rate === 16_000 && !probe.confirm ? over : saturating(37_000)(probe, repeat));
    const { points } = search(plan, server);
    const outcome = rateSearchOutcome(plan, points)!;
    assert.ok(outcome.searchedRate! < 16_000, `searched ${outcome.searchedRate}`);
    assert.equal(outcome.confirmation, 'raised');
    assert.ok(outcome.foundRate! >= 16_000, `found ${outcome.foundRate}`);
    assert.equal(outcome.failedRate, undefined, 'no rate above it failed: the bracket is open');
    assert.ok(outcome.disagreements.length > 0);
    assert.deepEqual([outcome.disagreements[0].failed.rate, outcome.disagreements[0].failed.confirm], [16_000, false]);
    const warnings = runWarnings(runOf(plan, points));
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0], /^The rate search is unstable: 16,000\/s failed \(p99 50\.0 ms\) while [\d,]+\/s \(rerun\) passed \(p99 500 µs\)/);
    assert.match(
      searchSentence(outcome),
      /above the search's [\d,]+\/s, as the step up held on its rerun; no rate above it failed, so the limit may be higher/,
    );
  });

  it('flags a lower rate failing while a higher one passed, as in a run file (3,363/s failed, 4,000/s passed)', () => {
    const points: PointResult[] = [
      [4000, 5_600],
      [3363, 13_900],
    ].map(([rate, p99]) => {
      const repeats = [[loadResult('main', 'SET', { ops: rate, p99 })]];
      return { label: `rate=${rate}`, sweep: { rate }, repeats, summary: summariseRepeats(repeats) };
    });
    const limited = planOf('### s\nfind rate where p99 < 10ms from 1k/s to 8k/s\nduration 1s\nSET k v\n');
    const outcome = rateSearchOutcome(limited, points)!;
    assert.equal(outcome.disagreements.length, 1);
    assert.match(
      runWarnings(runOf(limited, points)).join('\n'),
      /The rate search is unstable: 3,363\/s failed \(p99 13\.9 ms\) while 4,000\/s passed \(p99 5\.60 ms\)\. A lower rate should not fail where a higher one passes/,
    );
  });

  it('with repeat, a rerun holds only when every repeat does, and the spread at the found rate is reported', () => {
    const repeated = planOf('### s\nfind rate where p99 < 2ms from 1k/s to 1M/s\nrepeat 3\nduration 1s\nSET k v\n');
    // Each rerun's third repeat breaks at 30k/s, its first two at 37k/s; their p99 varies with the repeat.
    const server: Server = (probe, repeat) => {
      const limit = probe.confirm && repeat === 2 ? 30_000 : 37_000;
      return probe.rate < limit ? 400 + repeat * 300 : over;
    };
    const { points } = search(repeated, server);
    const outcome = rateSearchOutcome(repeated, points)!;
    assert.equal(outcome.confirmation, 'stepped-down', 'two of three repeats passing is not holding');
    assert.ok(outcome.foundRate! < 30_000);
    assert.deepEqual(outcome.spreadUs, { min: 400, max: 1000, runs: 3 });
    assert.match(searchSentence(outcome), /; p99 400 µs–1\.00 ms over 3 repeats \(/);
  });
});

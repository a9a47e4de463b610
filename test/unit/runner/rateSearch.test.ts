// Latency against offered load: the search's decisions on modelled servers (fast, deterministic), then a
// rate sweep and a search end to end on a throwaway redis-server (real processes, bounded and short).
import assert from 'node:assert/strict';
import type { LoadResult } from '../../../src/engine/types';
import { rateCurve, rateCurveText } from '../../../src/results/rateCurve';
import type { PointResult, RunFile } from '../../../src/results/runFile';
import { summariseRepeats } from '../../../src/results/summary';
import {
  MAX_CONFIRMATIONS,
  MAX_PROBES,
  pointsToRun,
  rateOfProbeLabel,
  rateSearchOutcome,
  SEARCH_RESOLUTION,
  thresholdPoints,
} from '../../../src/results/rateSearch';
import { checkRegression } from '../../../src/results/regression';
import { errorStatusVerdict } from '../../../src/results/errorStatus';
import { runVerdict } from '../../../src/results/verdict';
import { evaluateThresholds } from '../../../src/results/thresholds';
import { runScenario, type RunProgress } from '../../../src/runner/runScenario';
import { checkText, type ScenarioPlan } from '../../../src/scenario';
import { applyProgress, buildLiveViewModel, liveRunFile, newLiveRun, rateChart } from '../../../src/views/model';
import { useRedisServer } from '../../helpers/redis';
import { loadResult, makeRun } from '../compare/fixtures';

function planOf(text: string): ScenarioPlan {
  const resolved = checkText(text);
  const errors = resolved.diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(
    errors.map((d) => d.message),
    [],
  );
  return resolved.scenarios[0];
}

/** Drives pointsToRun as runScenario does, against a modelled server: p99 is 0.5 ms below `capacity`, 50 ms above. */
function searchAgainst(plan: ScenarioPlan, capacity: number): PointResult[] {
  const done: PointResult[] = [];
  for (const point of pointsToRun(plan, done)) {
    assert.ok(done.length < 50, 'the search ends');
    const rate = point.phases[0].load.rate!;
    assert.equal(point.sweep.rate, rate, 'a probe runs at its rate');
    const load: LoadResult = loadResult('main', 'SET', { ops: Math.min(rate, capacity), p99: rate < capacity ? 500 : 50_000 });
    done.push({ label: point.label, sweep: point.sweep, repeats: [[load]], summary: [] });
  }
  return done;
}

describe('rate search: decisions', () => {
  const plan = planOf('### s\nfind rate where p99 < 2ms from 1k/s to 1M/s\nduration 1s\nSET k v\n');

  for (const capacity of [1_500, 37_000, 123_456, 640_000]) {
    it(`finds the highest passing rate within ${Math.round((SEARCH_RESOLUTION - 1) * 100)}% of a server that breaks at ${capacity.toLocaleString('en-US')}/s`, () => {
      const points = searchAgainst(plan, capacity);
      const outcome = rateSearchOutcome(plan, points)!;
      assert.ok(outcome.probes.length <= MAX_PROBES, `${outcome.probes.length} probes`);
      assert.equal(outcome.end, 'resolved');
      assert.ok(outcome.foundRate! < capacity && outcome.failedRate! >= capacity, `${outcome.foundRate} < ${capacity} <= ${outcome.failedRate}`);
      assert.ok(outcome.failedRate! / outcome.foundRate! <= SEARCH_RESOLUTION);
      assert.deepEqual(
        outcome.probes.slice(0, 2).map((p) => p.rate),
        [1000, 2000],
        'doubles from `from`',
      );
    });
  }

  it('ends when `to` passes, and when the first probe fails', () => {
    const top = rateSearchOutcome(plan, searchAgainst(plan, 5_000_000))!;
    assert.deepEqual([top.end, top.foundRate, top.failedRate], ['reached-top', 1_000_000, undefined]);
    const none = rateSearchOutcome(plan, searchAgainst(plan, 500))!;
    assert.deepEqual([none.end, none.foundRate, none.probes.length], ['none-passed', undefined, 1]);
    const points = searchAgainst(plan, 500).map((point) => ({ ...point, summary: summariseRepeats(point.repeats) }));
    assert.match(rateCurveText(rateCurve({ plan, points } as never)!), /No rate met p99 < 2\.00 ms: the first probe, 1,000\/s, failed/);
  });

  it('judges `expect` lines on the found rate only, and gates a search on the rate it found', () => {
    const text = '### s\nfind rate where p99 < 2ms from 1k/s to 1M/s\nexpect throughput > 30k/s\nduration 1s\nSET k v\n';
    const searched = planOf(text);
    const runAt = (capacity: number, id: string): RunFile => ({
      ...makeRun({ text, id, results: {} }),
      points: searchAgainst(searched, capacity).map((point) => ({ ...point, summary: summariseRepeats(point.repeats) })),
    });
    const baseline = runAt(37_000, 'before');
    const found = rateSearchOutcome(baseline.plan, baseline.points)!.foundRate!;
    const judged = thresholdPoints(baseline.plan, baseline.points);
    assert.deepEqual(
      judged.map((point) => point.sweep.rate),
      [found],
    );
    assert.deepEqual(
      evaluateThresholds(baseline.plan.expects, judged).map((t) => [t.point, t.passed]),
      [[`confirm rate=${found}`, true]],
      'failing probes do not fail the run; the rerun at the found rate is judged',
    );
    assert.deepEqual(checkRegression(baseline, runAt(36_000, 'same'), { maxRegressionPercent: 10 }), [], 'no rows missing: probes are not compared one by one');
    const slower = checkRegression(baseline, runAt(20_000, 'slower'), { maxRegressionPercent: 10 });
    assert.equal(slower.length, 1);
    assert.match(slower[0].message, /^the highest rate with p99 < 2\.00 ms dropped \d+\.\d% \([\d,]+\/s → [\d,]+\/s\), more than the 10% allowed$/);
    assert.match(
      checkRegression(baseline, runAt(500, 'none'), { maxRegressionPercent: 10 })[0].message,
      /^the search found no rate with p99 < 2\.00 ms \(the baseline found [\d,]+\/s\)$/,
    );
  });

  it("a probe that failed on errors (timeouts past the limit) is the search's finding, not a failed run", () => {
    const text = '### s\nfind rate where p99 < 2ms from 1k/s to 1M/s\nduration 1s\nSET k v\n';
    const searched = planOf(text);
    const points = searchAgainst(searched, 37_000).map((point) => {
      if (point.sweep.rate! < 37_000) return point;
      // Past capacity the open loop's backlog outlives the drain: TIMEOUT errors, and the engine marks the load.
      const [[load]] = point.repeats;
      const errored: LoadResult = {
        ...load,
        status: 'complete-with-errors',
        errorStatusReason: '12% of requests failed (TIMEOUT 759)',
        total: { ...load.total, errors: Math.round(load.total.requests * 0.12) },
      };
      return { ...point, repeats: [[errored]] };
    });
    const run: RunFile = {
      ...makeRun({ text, id: 'search', results: {} }),
      points: points.map((point) => ({ ...point, summary: summariseRepeats(point.repeats) })),
    };
    assert.ok(rateSearchOutcome(run.plan, run.points)!.foundRate! < 37_000);
    assert.deepEqual(errorStatusVerdict(run), { failed: false, reasons: [] });
    assert.deepEqual(runVerdict({ ...run, status: 'complete' }), { kind: 'passed' });
  });

  it('runs a plan without a search point by point, as written', () => {
    const sweep = planOf('### s\nsweep rate 1k/s, 2k/s\nSET k v\n');
    assert.deepEqual(
      [...pointsToRun(sweep, [])].map((p) => p.label),
      ['rate=1000', 'rate=2000'],
    );
  });
});

describe('rate sweep and search on a throwaway redis-server', function () {
  this.timeout(90_000);
  const server = useRedisServer();
  const run = (text: string, onProgress?: (event: RunProgress) => void) => {
    const { host, port } = server();
    return runScenario(planOf(text), {
      connection: { host, port, resp: 2, connectTimeoutMs: 2000 },
      targetDisplay: `redis://${host}:${port}`,
      local: true,
      source: text,
      onProgress,
    });
  };

  it('a rate sweep gives a curve whose achieved rate follows the offered one, in the CLI table and the panel chart', async () => {
    const file = await run('### sweep\nsweep rate 500/s, 1k/s, 2k/s\nduration 1s\nclients 4\nSET k:__key__ __value__\n');
    assert.equal(file.status, 'complete', file.error);
    const curve = rateCurve(file)!;
    assert.deepEqual(
      curve.rows.map((row) => row.offered),
      [500, 1000, 2000],
    );
    for (const row of curve.rows) {
      assert.ok(Math.abs(row.achieved - row.offered) / row.offered < 0.15, `achieved ${row.achieved} at ${row.offered}/s offered`);
      assert.ok(row.p50Us > 0 && row.p50Us <= row.p99Us, JSON.stringify(row));
    }
    for (let i = 1; i < curve.rows.length; i++) assert.ok(curve.rows[i].achieved > curve.rows[i - 1].achieved, 'achieved rises with the offered rate');
    assert.match(rateCurveText(curve), /^Latency against offered load \(open loop\):\noffered\/s +achieved\/s +p50 ms +p99 ms +errors\n/);
    const chart = rateChart(file)!;
    assert.deepEqual(chart.x, [500, 1000, 2000]);
    assert.deepEqual(
      chart.series.map((s) => s.label),
      ['offered ops/s', 'p50', 'p99', 'achieved ops/s'],
    );
  });

  it('the search finds a bounded rate on a server slowed by a CPU-heavy script (about 0.5 ms per call)', async function () {
    this.timeout(180_000); // up to two searches of ~30 s each
    // Each EVAL spins Lua for ~0.3–1 ms (a shared machine), so the server saturates near 1–3k/s: at 100/s it is
    // mostly idle, and past saturation the queue of a 1 s probe grows far beyond 100 ms. p90, not p99: on a
    // machine shared with other work a single scheduling stall moves the p99 of 100 requests, not their p90.
    const search = async () => {
      const events: RunProgress[] = [];
      const file = await run(
        '### search\nfind rate where p90 < 100ms from 100/s to 25600/s\nduration 1s\nclients 8\nEVAL "local x = 0 for i = 1, 50000 do x = x + i end return x" 0\n',
        (event) => events.push(event),
      );
      assert.equal(file.status, 'complete', file.error);
      return { events, file, outcome: rateSearchOutcome(file.plan, file.points)! };
    };
    let { events, file, outcome } = await search();
    if (outcome.foundRate === undefined) {
      // On a shared 2-core host the script's capacity can fall by a quarter between the 1 s probes and their
      // 5 s confirmations (seen: probes held ~3.3k/s, every confirmation from 3.8k down to 2.9k/s failed).
      // Each failed confirmation must then show it: the server answered well below the rate it was offered.
      // The search is physics, so it is run once more; the assertions below hold the second run to the same rules.
      // A server short of the offered rate by a share d queues d × 5 s of work by the end of a 5 s confirmation; a
      // p90 past 100 ms needs about d ≥ 0.1 s / 5 s = 2 % (seen: 2,356/s of 2,405 offered, 2.0 % short, failed). So
      // "it kept up" is within half that: 1 %.
      const limitS = 0.1;
      const confirmS = 5;
      for (const point of file.points.filter((p) => p.label.startsWith('confirm '))) {
        const rate = rateOfProbeLabel(point.label);
        const achieved = Math.min(...point.repeats.flat().map((r) => r.total.opsPerSec));
        assert.ok(achieved < (1 - limitS / (2 * confirmS)) * rate, `confirmation ${point.label} failed though the server kept up (${Math.round(achieved)}/s)`);
      }
      ({ events, file, outcome } = await search());
    }
    const summary = JSON.stringify(outcome.probes.map((p) => [p.label, p.passed, p.valueUs]));
    assert.ok(outcome.probes.length >= 3 && outcome.probes.length <= MAX_PROBES + MAX_CONFIRMATIONS, summary);
    assert.ok(
      outcome.foundRate !== undefined && outcome.foundRate >= 100 && outcome.foundRate < 25600,
      `found ${outcome.foundRate} (${outcome.end}): ${summary}`,
    );
    assert.deepEqual(
      file.points.map((point) => point.label),
      outcome.probes.map((probe) => probe.label),
      'every probe and confirmation is a point of the run file',
    );
    const text = rateCurveText(rateCurve(file)!);
    assert.match(text, new RegExp(`Highest rate with p90 < 100\\.0 ms: ${outcome.foundRate.toLocaleString('en-US')}/s, confirmed by a 5\\.0s rerun`), summary);
    if (outcome.failedRate === undefined) {
      // On a loaded machine a short probe can fail on noise and its rerun hold: the search climbs past it and says it is unstable.
      assert.equal(outcome.confirmation, 'raised', summary);
      assert.ok(outcome.disagreements.length > 0, summary);
    } else {
      assert.ok(outcome.failedRate > outcome.foundRate, 'a higher rate failed');
      // The failing probe at that rate: a short probe there may have passed before its longer rerun failed.
      const failing = outcome.probes.find((probe) => probe.rate === outcome.failedRate && !probe.passed)!;
      assert.ok(failing.errors > 0 || failing.valueUs! >= 100_000, JSON.stringify(failing));
      assert.match(text, new RegExp(`; ${outcome.failedRate.toLocaleString('en-US')}/s failed, so the limit lies between the two`), summary);
    }
    assert.equal(rateChart(file)!.limitMs, 100);
    assert.match(text, /p99 ms +p90 ms +errors +probe/, 'the searched metric has its column');
    assert.deepEqual(
      rateChart(file)!.series.map((s) => s.label),
      ['offered ops/s', 'p50', 'p99', 'p90', 'achieved ops/s'],
      'and its line, under the limit',
    );
    // The live panel follows the probes as they run.
    const live = newLiveRun(file.plan, file.startedAt);
    events.forEach((event, i) => applyProgress(live, { atMs: i, event }));
    assert.deepEqual(
      liveRunFile(live).points.map((point) => point.label),
      file.points.map((point) => point.label),
    );
    assert.deepEqual(
      buildLiveViewModel(live).rate?.x,
      [...new Set(outcome.probes.map((probe) => probe.rate))].sort((a, b) => a - b),
    );
  });
});

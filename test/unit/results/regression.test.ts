// The regression gate (`rbench run --baseline … --max-regression`), pinned down case by case
// (bench/mutation.mjs --gate regression): limits at their boundary, noise, partial and missing results,
// several phases and points, a rate search's found rate, and the lines that say what failed and why.
import assert from 'node:assert/strict';
import type { LoadResult } from '../../../src/engine/types';
import { formatOps } from '../../../src/results/format';
import { rateSearchOutcome } from '../../../src/results/rateSearch';
import { checkRegression, gateComparison, gateNoisePercent, runGate } from '../../../src/results/regression';
import type { RunFile } from '../../../src/results/runFile';
import { summariseRepeats } from '../../../src/results/summary';
import { loadResult, makeRun, setGetRun, type Numbers } from '../compare/fixtures';

const limits = { maxRegressionPercent: 10 };

describe('regression gate: the comparison it judges', () => {
  const run = setGetRun({ set: { ops: 10_000, p99: 1000 } });

  it("labels the runs baseline and this run, and uses the table's noise threshold or the limit when that is smaller", () => {
    const comparison = gateComparison(run, run, limits);
    assert.deepEqual(
      comparison.runs.map((r) => r.label),
      ['baseline', 'this run'],
    );
    assert.equal(comparison.noisePercent, 5);
    assert.equal(gateNoisePercent({ maxRegressionPercent: 10 }), 5);
    assert.equal(gateNoisePercent({ maxRegressionPercent: 3 }), 3);
    assert.equal(gateComparison(run, run, { maxRegressionPercent: 3 }).noisePercent, 3);
  });
});

describe('regression gate: limits at their boundary', () => {
  const baseline = setGetRun({ set: { ops: 10_000, p99: 1000 } });
  const run = (set: Numbers) => setGetRun({ set });

  it('a throughput drop of exactly the limit passes; a larger one fails', () => {
    assert.deepEqual(runGate(baseline, run({ ops: 9_000, p99: 1000 }), limits), { regressions: [], withinNoise: [] });
    assert.deepEqual(checkRegression(baseline, run({ ops: 8_999, p99: 1000 }), limits), [
      {
        kind: 'throughput',
        point: '',
        phase: 'main',
        test: 'SET',
        baseline: 10_000,
        actual: 8_999,
        percent: -10.01,
        message: 'SET: throughput dropped 10.0% (10,000 → 8,999 ops/s), more than the 10% allowed',
      },
    ]);
  });

  it('a p99 rise of exactly the limit passes; a larger one fails', () => {
    assert.deepEqual(runGate(baseline, run({ ops: 10_000, p99: 1100 }), limits), { regressions: [], withinNoise: [] });
    assert.deepEqual(checkRegression(baseline, run({ ops: 10_000, p99: 1200 }), limits), [
      {
        kind: 'p99',
        point: '',
        phase: 'main',
        test: 'SET',
        baseline: 1000,
        actual: 1200,
        percent: 20,
        message: 'SET: p99 rose 20.0% (1.000 → 1.200 ms), more than the 10% allowed',
      },
    ]);
  });

  it('a p99 that rose from 0 fails however small, and says "from 0"', () => {
    const zero = setGetRun({ set: { ops: 10_000, p99: 0 } });
    const [regression] = checkRegression(zero, run({ ops: 10_000, p99: 100 }), limits);
    assert.deepEqual(
      [regression.kind, regression.percent, regression.message],
      ['p99', Infinity, 'SET: p99 rose from 0 (0.000 → 0.100 ms), more than the 10% allowed'],
    );
    assert.deepEqual(checkRegression(zero, zero, limits), [], 'a p99 of 0 both times is no change');
  });

  it('throughput from 0 is no drop', () => {
    const zero = setGetRun({ set: { ops: 0, p99: 1000 } });
    assert.deepEqual(checkRegression(zero, run({ ops: 5_000, p99: 1000 }), limits), []);
  });
});

describe('regression gate: noise', () => {
  const text = '### set\nrequests 10000\nrepeat 5\nSET k v\n';
  const repeated = (ops: number[], p99s: number[], id: string) =>
    makeRun({ id, text, results: { '': ops.map((o, i) => [loadResult('main', 'SET', { ops: o, p99: p99s[i] })]) } });
  const scaled = (values: number[], by: number) => values.map((value) => value * by);
  const wideOps = [10_000, 6_000, 14_000, 8_000, 12_000];
  const wideP99 = [1000, 600, 1400, 800, 1200];
  const wide = repeated(wideOps, wideP99, 'before');

  it('a change within noise and within the limit is neither a regression nor noted', () => {
    assert.deepEqual(runGate(wide, repeated(scaled(wideOps, 0.95), wideP99, 'after'), limits), { regressions: [], withinNoise: [] });
  });

  it('a noisy drop or rise just within the limit is not noted either', () => {
    assert.deepEqual(runGate(wide, repeated(scaled(wideOps, 0.9001), scaled(wideP99, 1.0999), 'after'), limits), { regressions: [], withinNoise: [] });
  });

  it("a p99 rise beyond the limit within noise is noted, not failed, quoting the repeats' centres", () => {
    const gate = runGate(wide, repeated(wideOps, scaled(wideP99, 1.5), 'after'), limits);
    assert.deepEqual(gate.regressions, []);
    assert.equal(gate.withinNoise.length, 1);
    assert.match(
      gate.withinNoise[0],
      /^SET: p99 rose 50\.0% \(0\.986 → 1\.480 ms, centres of 5 and 5 repeats \(geometric means; from 5 repeats without the highest and lowest\); ranges 0\.600–1\.400 and 0\.900–2\.100 ms; 95% interval of the change \[-\d+\.\d%, \+\d+\.\d%\]\), beyond the 10% limit but within noise \(its 95% interval includes 0\): not a regression$/,
    );
  });

  it('a p99 rise beyond the limit outside noise fails, with the centres and the ranges', () => {
    const narrow = repeated([10_000, 9_900, 10_100, 9_950, 10_050], [1000, 990, 1010, 995, 1005], 'before');
    const [regression] = checkRegression(narrow, repeated([10_000, 9_900, 10_100, 9_950, 10_050], [2000, 1990, 2010, 1995, 2005], 'after'), limits);
    assert.match(
      regression.message,
      /^SET: p99 rose 100\.0% \(1\.000 → 2\.000 ms, centres of 5 and 5 repeats \(geometric means; from 5 repeats without the highest and lowest\); ranges 0\.990–1\.010 and 1\.990–2\.010 ms; 95% interval of the change \[\+9\d\.\d%, \+10\d\.\d%\]\), more than the 10% allowed$/,
    );
  });

  it('a run cut short after one of its repeats is quoted by its one value (no ranges)', () => {
    const narrow = repeated([10_000, 9_900, 10_100, 9_950, 10_050], [1000, 990, 1010, 995, 1005], 'before');
    const short: RunFile = { ...repeated([5_000], [1000], 'after'), status: 'cancelled' };
    assert.deepEqual(
      checkRegression(narrow, short, limits).map((r) => r.message),
      ['SET: throughput dropped 50.0% (10,000 → 5,000 ops/s), more than the 10% allowed'],
    );
  });
});

describe('regression gate: runs that cannot be compared, and results that are missing', () => {
  const baseline = setGetRun({ set: { ops: 10_000, p99: 1000 }, get: { ops: 20_000, p99: 500 } });

  it('plans that differ: one line naming every difference, and nothing else judged', () => {
    const gate = runGate(baseline, setGetRun({ clients: 50, pipeline: 8, set: { ops: 1_000, p99: 9000 } }), limits);
    assert.equal(gate.regressions.length, 1);
    assert.deepEqual(gate.withinNoise, []);
    const [regression] = gate.regressions;
    assert.deepEqual([regression.kind, regression.point, regression.phase, regression.test], ['not-comparable', '', '', '']);
    assert.match(regression.message, /^not comparable with the baseline: the plans differ \((?=.*clients: 4 → 50)(?=.*; )(?=.*pipeline: 1 → 8)[^)]*\)/);
    assert.match(regression.message, /\. Pin a new baseline after changing the scenario\.$/);
  });

  it('a partial baseline: named as not comparable, what it measured still judged, what it did not skipped', () => {
    const partial = setGetRun({ status: 'cancelled', id: 'partial', set: { ops: 10_000, p99: 1000 } });
    assert.deepEqual(checkRegression(partial, setGetRun({ set: { ops: 5_000, p99: 1000 }, get: { ops: 20_000, p99: 500 } }), limits), [
      {
        kind: 'not-comparable',
        point: '',
        phase: '',
        test: '',
        message: 'not comparable with the baseline: the baseline run partial is cancelled (partial results). Pin a complete run.',
      },
      {
        kind: 'throughput',
        point: '',
        phase: 'main',
        test: 'SET',
        baseline: 10_000,
        actual: 5_000,
        percent: -50,
        message: 'SET: throughput dropped 50.0% (10,000 → 5,000 ops/s), more than the 10% allowed',
      },
    ]);
  });

  it('a test the baseline measured and this run did not', () => {
    assert.deepEqual(checkRegression(baseline, setGetRun({ set: { ops: 10_000, p99: 1000 } }), limits), [
      { kind: 'missing', point: '', phase: 'main', test: 'GET', message: 'GET: measured in the baseline but not in this run' },
    ]);
  });
});

describe('regression gate: several phases and sweep points', () => {
  const text = '### phases\nrequests 1000\nsweep clients 1, 2\nphase write\nSET k v\nphase read\nGET k\n';
  const labels = makeRun({ text, results: {} }).plan.points.map((p) => p.label);
  const run = (setOps: number, withRead = true) =>
    makeRun({
      text,
      results: Object.fromEntries(
        labels.map((label) => [
          label,
          [[loadResult('write', 'SET', { ops: setOps, p99: 1000 }), ...(withRead ? [loadResult('read', 'GET', { ops: 20_000, p99: 500 })] : [])]],
        ]),
      ),
    });

  it('names the phase and the point of each regression', () => {
    const regressions = checkRegression(run(10_000), run(8_000), limits);
    assert.deepEqual(
      regressions.map((r) => [r.point, r.phase, r.test, r.message]),
      labels.map((label) => [
        label,
        'write',
        'SET',
        `SET (phase write) [${label}]: throughput dropped 20.0% (10,000 → 8,000 ops/s), more than the 10% allowed`,
      ]),
    );
  });

  it('names the phase and the point of a missing test', () => {
    assert.deepEqual(
      checkRegression(run(10_000), run(10_000, false), limits).map((r) => [r.kind, r.message]),
      labels.map((label) => ['missing', `GET (phase read) [${label}]: measured in the baseline but not in this run`]),
    );
  });
});

describe('regression gate: a rate search is gated on the rate it found', () => {
  const text = '### s\nfind rate where p99 < 2ms from 1k/s to 1M/s\nduration 1s\nSET k v\n';
  /** A run of the search whose probes at `passed` rates met the condition and at `failed` rates did not. */
  const searched = (id: string, passed: number[], failed: number[] = []): RunFile => {
    const probe = (rate: number, ok: boolean) => {
      const repeats: LoadResult[][] = [[loadResult('main', 'SET', { ops: rate, p99: ok ? 500 : 50_000 })]];
      return { label: `rate=${rate}`, sweep: { rate }, repeats, summary: summariseRepeats(repeats) };
    };
    return { ...makeRun({ text, id, results: {} }), points: [...passed.map((r) => probe(r, true)), ...failed.map((r) => probe(r, false))] };
  };
  const found = (run: RunFile) => rateSearchOutcome(run.plan, run.points)?.foundRate;
  const baseline = searched('before', [1_000, 2_000, 10_000], [20_000]);

  it('the same found rate passes, though the probes on the way differ (they are not compared one by one)', () => {
    const other = searched('after', [1_000, 2_000, 4_000, 10_000], [16_000]);
    assert.equal(found(other), found(baseline));
    assert.deepEqual(runGate(baseline, other, limits), { regressions: [], withinNoise: [] });
  });

  it('a found rate lower by exactly the limit passes; by more, it fails with both rates', () => {
    assert.equal(found(baseline), 10_000);
    assert.deepEqual(checkRegression(baseline, searched('after', [1_000, 9_000], [9_500]), limits), []);
    assert.deepEqual(checkRegression(baseline, searched('after', [1_000, 8_000], [9_000]), limits), [
      {
        kind: 'throughput',
        point: '',
        phase: '',
        test: '',
        baseline: 10_000,
        actual: 8_000,
        percent: -20,
        message: 'the highest rate with p99 < 2.00 ms dropped 20.0% (10,000/s → 8,000/s), more than the 10% allowed',
      },
    ]);
  });

  it('a higher found rate passes', () => {
    assert.deepEqual(checkRegression(baseline, searched('after', [1_000, 40_000]), limits), []);
  });

  it('a search that found no rate fails, naming what the baseline found', () => {
    assert.deepEqual(checkRegression(baseline, searched('after', [], [1_000]), limits), [
      {
        kind: 'throughput',
        point: '',
        phase: '',
        test: '',
        baseline: 10_000,
        actual: 0,
        percent: -100,
        message: `the search found no rate with p99 < 2.00 ms (the baseline found ${formatOps(10_000)}/s)`,
      },
    ]);
  });

  it('a search with another condition or range, or none, is not comparable (its found rate measures something else)', () => {
    const other = (condition: string) => ({
      ...makeRun({ text: text.replace('p99 < 2ms from 1k/s to 1M/s', condition), id: 'after', results: {} }),
      points: baseline.points,
    });
    for (const condition of ['p99 < 10ms from 1k/s to 1M/s', 'p99.9 < 2ms from 1k/s to 1M/s', 'p99 < 2ms from 2k/s to 1M/s', 'p99 < 2ms from 1k/s to 2M/s']) {
      assert.deepEqual(
        checkRegression(baseline, other(condition), limits).map((r) => r.kind),
        ['not-comparable'],
        condition,
      );
    }
    assert.deepEqual(checkRegression(baseline, other('p99 < 2000us from 1000/s to 1000k/s'), limits), [], 'the same search written otherwise');
    const closedLoop = makeRun({
      text: '### s\nduration 1s\nSET k v\n',
      id: 'after',
      results: { '': [[loadResult('main', 'SET', { ops: 10_000, p99: 500 })]] },
    });
    for (const [before, after] of [
      [baseline, closedLoop],
      [closedLoop, baseline],
    ]) {
      const regressions = checkRegression(before, after, limits);
      assert.deepEqual(
        regressions.map((r) => r.kind),
        ['not-comparable'],
      );
      assert.match(regressions[0].message, /the plans differ \(.*find rate/);
    }
  });

  it('a baseline whose search found no rate gates nothing', () => {
    const none = searched('before', [], [1_000]);
    assert.deepEqual(checkRegression(none, searched('after', [], [1_000]), limits), []);
    assert.deepEqual(checkRegression(none, searched('after', [1_000, 2_000], [4_000]), limits), []);
  });
});

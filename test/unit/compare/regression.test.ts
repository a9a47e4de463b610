import assert from 'node:assert/strict';
import { compareRuns } from '../../../src/results/compare';
import { checkRegression, gateComparison, runGate } from '../../../src/results/regression';
import { loadResult, makeRun, setGetRun } from './fixtures';

describe('compare: the regression gate', () => {
  const baseline = setGetRun({ set: { ops: 10_000, p99: 1000 }, get: { ops: 20_000, p99: 500 } });
  const limits = { maxRegressionPercent: 10 };

  it('passes changes within the limit and improvements', () => {
    assert.deepEqual(checkRegression(baseline, setGetRun({ set: { ops: 9_100, p99: 1090 }, get: { ops: 20_000, p99: 500 } }), limits), []);
    assert.deepEqual(checkRegression(baseline, setGetRun({ set: { ops: 30_000, p99: 100 }, get: { ops: 40_000, p99: 100 } }), limits), []);
  });

  it('fails a throughput drop beyond the limit, naming the test and the numbers', () => {
    const regressions = checkRegression(baseline, setGetRun({ set: { ops: 8_000, p99: 1000 }, get: { ops: 20_000, p99: 500 } }), limits);
    assert.deepEqual(
      regressions.map((r) => [r.kind, r.test, r.baseline, r.actual, r.percent]),
      [['throughput', 'SET', 10_000, 8_000, -20]],
    );
    assert.equal(regressions[0].message, 'SET: throughput dropped 20.0% (10,000 → 8,000 ops/s), more than the 10% allowed');
  });

  it('fails a p99 rise beyond the limit', () => {
    const regressions = checkRegression(baseline, setGetRun({ set: { ops: 10_000, p99: 1000 }, get: { ops: 20_000, p99: 750 } }), limits);
    assert.deepEqual(
      regressions.map((r) => [r.kind, r.test, r.percent]),
      [['p99', 'GET', 50]],
    );
    assert.equal(regressions[0].message, 'GET: p99 rose 50.0% (0.500 → 0.750 ms), more than the 10% allowed');
  });

  it('reports both when a test got slower in both ways; the limit decides', () => {
    const slower = setGetRun({ set: { ops: 7_000, p99: 2000 }, get: { ops: 20_000, p99: 500 } });
    assert.deepEqual(
      checkRegression(baseline, slower, limits).map((r) => r.kind),
      ['throughput', 'p99'],
    );
    assert.deepEqual(checkRegression(baseline, slower, { maxRegressionPercent: 200 }), []);
  });

  it('fails runs whose plans differ as not comparable, even when the numbers look better', () => {
    const regressions = checkRegression(baseline, setGetRun({ clients: 50, set: { ops: 90_000, p99: 100 }, get: { ops: 90_000, p99: 100 } }), limits);
    assert.equal(regressions.length, 1);
    assert.equal(regressions[0].kind, 'not-comparable');
    assert.match(regressions[0].message, /^not comparable with the baseline: the plans differ \(clients: 4 → 50\)/);
  });

  it('does not fail on a different machine or server version alone', () => {
    const elsewhere = setGetRun({ cores: 2, serverVersion: '7.4.0', set: { ops: 10_000, p99: 1000 }, get: { ops: 20_000, p99: 500 } });
    assert.deepEqual(checkRegression(baseline, elsewhere, limits), []);
  });

  it('fails a test the baseline measured and the run did not, and a partial baseline', () => {
    const missing = setGetRun({ set: { ops: 10_000, p99: 1000 } });
    assert.deepEqual(
      checkRegression(baseline, missing, limits).map((r) => r.message),
      ['GET: measured in the baseline but not in this run'],
    );
    const partial = setGetRun({ status: 'cancelled', id: 'partial', set: { ops: 10_000, p99: 1000 }, get: { ops: 20_000, p99: 500 } });
    assert.match(checkRegression(partial, baseline, limits)[0].message, /baseline run partial is cancelled/);
  });

  it('gates each test total, not the commands inside a mix, and names the sweep point', () => {
    const text = '### mix\nrequests 1000\nsweep clients 1, 2\n50% GET k\n50% SET k v\n';
    const labels = makeRun({ text, results: {} }).plan.points.map((p) => p.label);
    const run = (setOps: number, totalOps: number) =>
      makeRun({
        text,
        results: Object.fromEntries(
          labels.map((label) => [
            label,
            [[loadResult('main', 'mix', { ops: totalOps, p99: 100 }, { GET: { ops: 500, p99: 100 }, SET: { ops: setOps, p99: 100 } })]],
          ]),
        ),
      });
    assert.deepEqual(checkRegression(run(500, 1000), run(100, 1000), limits), [], 'a mix command alone does not gate');
    const regressions = checkRegression(run(500, 1000), run(500, 500), limits);
    assert.deepEqual(
      regressions.map((r) => r.message.split(':')[0]),
      labels.map((label) => `mix [${label}]`),
    );
  });

  describe('agrees with the comparison table', () => {
    const text = '### set\nrequests 10000\nrepeat 5\nSET k v\n';
    const repeated = (ops: number[], p99s: number[], id: string) =>
      makeRun({ id, text, results: { '': ops.map((o, i) => [loadResult('main', 'SET', { ops: o, p99: p99s[i] })]) } });

    it('a drop beyond the limit that the table marks noise (repeats that interleave: an interval through 0) does not fail, and says why', () => {
      const before = repeated([10_000, 6_000, 14_000, 8_000, 12_000], [1000, 1000, 1000, 1000, 1000], 'before');
      const after = repeated([8_500, 5_000, 13_000, 7_000, 11_000], [1000, 1000, 1000, 1000, 1000], 'after');
      const table = compareRuns([before, after]);
      assert.equal(table.rows[0].cells[1]!.metrics.ops.delta!.verdict, 'noise', 'the table calls it noise');
      assert.deepEqual(checkRegression(before, after, limits), []);
      const { withinNoise } = runGate(before, after, limits);
      assert.equal(withinNoise.length, 1);
      assert.match(
        withinNoise[0],
        /^SET: throughput dropped 12\.\d% \(9,865 → 8,6\d\d ops\/s, centres of 5 and 5 repeats \(geometric means; from 5 repeats without the highest and lowest\); ranges 6,000–14,000 and 5,000–13,000 ops\/s; 95% interval of the change \[-\d+\.\d%, \+\d+\.\d%\]\), beyond the 10% limit but within noise \(its 95% interval includes 0\)/,
      );
    });

    it('a drop whose repeat ranges do not overlap fails, the line naming the centres and the ranges', () => {
      const before = repeated([10_000, 9_900, 10_100, 9_950, 10_050], [1000, 1000, 1000, 1000, 1000], 'before');
      const after = repeated([8_000, 7_900, 8_100, 7_950, 8_050], [1000, 1000, 1000, 1000, 1000], 'after');
      const [regression] = checkRegression(before, after, limits);
      assert.equal(regression.kind, 'throughput');
      assert.match(
        regression.message,
        /^SET: throughput dropped 20\.0% \(10,000 → 8,000 ops\/s, centres of 5 and 5 repeats \(geometric means; from 5 repeats without the highest and lowest\); ranges 9,900–10,100 and 7,900–8,100 ops\/s; 95% interval of the change \[-2\d\.\d%, -1\d\.\d%\]\), more than the 10% allowed$/,
      );
      assert.equal(gateComparison(before, after, limits).rows[0].cells[1]!.metrics.ops.delta!.verdict, 'worse');
    });

    it("a limit below the table's default noise: the comparison the gate prints uses the limit, so a failing change is never shown as noise", () => {
      const tight = { maxRegressionPercent: 2 };
      const after = setGetRun({ set: { ops: 9_700, p99: 1000 }, get: { ops: 20_000, p99: 500 } });
      assert.deepEqual(
        checkRegression(baseline, after, tight).map((r) => r.kind),
        ['throughput'],
      );
      const printed = gateComparison(baseline, after, tight);
      assert.equal(printed.noisePercent, 2);
      assert.equal(printed.rows.find((r) => r.test === 'SET')!.cells[1]!.metrics.ops.delta!.verdict, 'worse');
    });

    it('never fails a metric the printed comparison marks noise (seeded random repeats)', () => {
      let seed = 11;
      const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      for (let round = 0; round < 200; round++) {
        const series = (base: number) => [0, 1, 2].map(() => Math.round(base * (0.7 + 0.6 * next())));
        const before = repeated(series(10_000), series(1000), 'before');
        const after = repeated(series(10_000 * (0.6 + 0.6 * next())), series(1000 * (0.8 + 0.8 * next())), 'after');
        const comparison = gateComparison(before, after, limits);
        const cell = comparison.rows[0].cells[1]!;
        for (const regression of runGate(before, after, limits, comparison).regressions) {
          const metric = regression.kind === 'throughput' ? 'ops' : 'p99';
          assert.equal(cell.metrics[metric].delta!.verdict, 'worse', `round ${round}: ${regression.message}`);
        }
      }
    });
  });
});

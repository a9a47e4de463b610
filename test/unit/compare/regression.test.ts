import assert from 'node:assert/strict';
import { checkRegression } from '../../../src/results/compare';
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
    assert.deepEqual(regressions.map((r) => [r.kind, r.test, r.baseline, r.actual, r.percent]), [['throughput', 'SET', 10_000, 8_000, -20]]);
    assert.equal(regressions[0].message, 'SET: throughput dropped 20.0% (10,000 → 8,000 ops/s), more than the 10% allowed');
  });

  it('fails a p99 rise beyond the limit', () => {
    const regressions = checkRegression(baseline, setGetRun({ set: { ops: 10_000, p99: 1000 }, get: { ops: 20_000, p99: 750 } }), limits);
    assert.deepEqual(regressions.map((r) => [r.kind, r.test, r.percent]), [['p99', 'GET', 50]]);
    assert.equal(regressions[0].message, 'GET: p99 rose 50.0% (0.500 → 0.750 ms), more than the 10% allowed');
  });

  it('reports both when a test got slower in both ways; the limit decides', () => {
    const slower = setGetRun({ set: { ops: 7_000, p99: 2000 }, get: { ops: 20_000, p99: 500 } });
    assert.deepEqual(checkRegression(baseline, slower, limits).map((r) => r.kind), ['throughput', 'p99']);
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
    assert.deepEqual(checkRegression(baseline, missing, limits).map((r) => r.message), ['GET: measured in the baseline but not in this run']);
    const partial = setGetRun({ status: 'cancelled', id: 'partial', set: { ops: 10_000, p99: 1000 }, get: { ops: 20_000, p99: 500 } });
    assert.match(checkRegression(partial, baseline, limits)[0].message, /baseline run partial is cancelled/);
  });

  it('gates each test total, not the commands inside a mix, and names the sweep point', () => {
    const text = '### mix\nrequests 1000\nsweep clients 1, 2\n50% GET k\n50% SET k v\n';
    const labels = makeRun({ text, results: {} }).plan.points.map((p) => p.label);
    const run = (setOps: number, totalOps: number) =>
      makeRun({
        text,
        results: Object.fromEntries(labels.map((label) => [label, [[loadResult('main', 'mix', { ops: totalOps, p99: 100 }, { GET: { ops: 500, p99: 100 }, SET: { ops: setOps, p99: 100 } })]]])),
      });
    assert.deepEqual(checkRegression(run(500, 1000), run(100, 1000), limits), [], 'a mix command alone does not gate');
    const regressions = checkRegression(run(500, 1000), run(500, 500), limits);
    assert.deepEqual(regressions.map((r) => r.message.split(':')[0]), labels.map((label) => `mix [${label}]`));
  });
});

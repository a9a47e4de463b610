// The comparison and the gate with the server's side: a run named by the status it had, the server's time
// per call and the verdict beside the client's figures, foreign load as a difference, and a baseline with
// foreign load refused.
import assert from 'node:assert/strict';
import type { LoadResult } from '../../../src/engine/types';
import type { ServerDelta } from '../../../src/redis/types';
import { compareRuns } from '../../../src/results/compare';
import { comparisonToCsv, comparisonToMarkdown, comparisonToText } from '../../../src/results/compareFormat';
import { runGate } from '../../../src/results/regression';
import type { RunFile } from '../../../src/results/runFile';
import { setGetRun } from './fixtures';

const numbers = { set: { ops: 100_000, p99: 1000 }, get: { ops: 120_000, p99: 800 } };

/**
 * The run's loads, each with the server's side (a 2 s window, so the verdict is judged), and both sides' schedstat:
 * idle unless `server` says otherwise (the round trip needs both sides' accounting, issue 41).
 */
function withServer(run: RunFile, server: (load: LoadResult) => Partial<ServerDelta>): RunFile {
  for (const load of run.points[0].repeats[0]) {
    load.durationMs = 2000;
    load.health = { ...load.health, threadCpu: { runMs: 600, runnableWaitMs: 40 } };
    const idle = { runMs: 400, runnableWaitMs: 20 };
    load.server = {
      nodes: 1,
      windowMs: 2000,
      calls: 10_000,
      usec: 31_000,
      commands: {},
      usecPerCall: 3.1,
      mainThreadCpuPercent: 20,
      schedule: idle,
      ...server(load),
    };
  }
  return run;
}

describe('compare: the server side', () => {
  it('a complete-with-errors run is named by its status, not "cancelled: partial results" (issue 20, seen 6)', () => {
    const errors = setGetRun({ ...numbers, status: 'complete-with-errors' });
    errors.error = 'SET: 2.5% of requests failed (OOM 250)';
    const [difference] = compareRuns([setGetRun(numbers), errors]).differences;
    assert.equal(difference.kind, 'status');
    assert.equal(difference.text, '#2 ended complete-with-errors: its figures include the failures (SET: 2.5% of requests failed (OOM 250))');
    assert.doesNotMatch(difference.text, /cancelled|partial/);
  });

  it('p99 rose, server time per call unchanged: the round trip changed; the verdicts beside the figures', () => {
    const before = withServer(setGetRun(numbers), () => ({}));
    const after = withServer(setGetRun({ set: { ops: 80_000, p99: 1400 }, get: numbers.get }), () => ({ usecPerCall: 3.2 }));
    const comparison = compareRuns([before, after]);
    const text = comparisonToText(comparison);
    assert.match(text, /^\s+srv µs\/call\s+3\.1\s+3\.2\s+\+3\.2%/m);
    assert.match(text, /^\s+bottleneck\s+round-trip\s+round-trip/m);
    assert.match(
      text,
      /^Where the time went:\n {2}SET: p99 rose 40\.0%, server time per call unchanged \(3\.1 → 3\.2 µs\): the round trip, queueing or the client changed$/m,
    );
    assert.doesNotMatch(text, /GET: p99/, 'GET did not change');
    assert.match(comparisonToMarkdown(comparison), /- SET: p99 rose 40\.0%, server time per call unchanged/);
    assert.match(comparisonToCsv(comparison), /"","main","SET","total","srv_usec_per_call","#2","run-set get","3\.2",/);
  });

  it("p99 rose with the server's time per call: the server's share of the change is named, and so is the verdict change", () => {
    const before = withServer(setGetRun(numbers), () => ({}));
    const after = withServer(setGetRun({ set: { ops: 50_000, p99: 2000 }, get: numbers.get }), (load) =>
      load.test === 'SET' ? { usecPerCall: 18, mainThreadCpuPercent: 98, schedule: { runMs: 1960, runnableWaitMs: 20 } } : {},
    );
    const text = comparisonToText(compareRuns([before, after]));
    assert.match(
      text,
      /SET: p99 rose 100\.0%, server time per call rose 480\.6% \(3\.1 → 18\.0 µs\): the server's time accounts for 15 µs of the 1\.00 ms; the rest is round trip, queueing or client; bottleneck round-trip → server-cpu/,
    );
  });

  it('foreign load is a difference: "the server ran N commands this run did not send"', () => {
    const foreign = withServer(setGetRun(numbers), (load) => (load.test === 'GET' ? { foreign: { calls: 38_112, commands: { set: 38_112 } } } : {}));
    const differences = compareRuns([setGetRun(numbers), foreign]).differences;
    assert.deepEqual(
      differences.filter((d) => d.field === 'foreign load').map((d) => d.text),
      ['#2: the server ran 38,112 commands this run did not send'],
    );
  });

  it('the gate: a baseline with foreign load is not a clean baseline', () => {
    const baseline = withServer(setGetRun(numbers), () => ({ foreign: { calls: 500, commands: { get: 500 } } }));
    const { regressions } = runGate(baseline, setGetRun(numbers), { maxRegressionPercent: 10 });
    assert.equal(regressions.length, 1);
    assert.equal(regressions[0].kind, 'not-comparable');
    assert.match(regressions[0].message, /^not a clean baseline: in run-set get the server ran 1,000 commands this run did not send\. Pin a clean run\.$/);
    assert.deepEqual(runGate(setGetRun(numbers), setGetRun(numbers), { maxRegressionPercent: 10 }).regressions, []);
  });
});

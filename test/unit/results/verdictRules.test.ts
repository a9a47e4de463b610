// The run's one verdict and the words around it, pinned down case by case (bench/mutation.mjs --gate verdict):
// each status, accepted and unaccepted errors, what was saved, and the summaries the views show.
import assert from 'node:assert/strict';
import type { LoadResult } from '../../../src/engine/types';
import type { RunStatus } from '../../../src/results/runFile';
import { measuredAnything, runVerdict, savedAtLine, savedLine, savedNote, statusWords, verdictSummary, type RunVerdict } from '../../../src/results/verdict';
import { loadResult, planOf, runFileOf } from '../editor/fixtures';

/** A GET load that ended with errors past the threshold, as the engine marks it. */
function errored(requests = 1000, errors = 120): LoadResult {
  const load = loadResult('GET', 3000, 500, 'complete-with-errors');
  return { ...load, total: { ...load.total, requests, errors }, errorStatusReason: '12% of requests failed (OOM 120), above the 1% threshold' };
}

describe('verdict: each status of a run', () => {
  const checked = planOf('### g\nGET k\nexpect ops > 2000\n');

  it('a failed run is an error with its message, or a plain one when it has none', () => {
    assert.deepEqual(runVerdict(runFileOf(checked, [], { status: 'failed', error: 'connection refused' })), { kind: 'error', message: 'connection refused' });
    assert.deepEqual(runVerdict(runFileOf(checked, [], { status: 'failed' })), { kind: 'error', message: 'the run failed' });
  });

  it('errors the scenario accepts leave the verdict to its expect lines', () => {
    const accepting = planOf('### g\nGET k\nexpect ops > 2000\nexpect error-rate < 20%\n');
    assert.deepEqual(runVerdict(runFileOf(accepting, [errored()], { status: 'complete-with-errors' })), { kind: 'passed' });
    const slow = { ...errored(), total: { ...errored().total, opsPerSec: 1000 }, commands: [{ ...errored().total, command: 'GET', opsPerSec: 1000 }] };
    const verdict = runVerdict(runFileOf(accepting, [slow], { status: 'complete-with-errors' }));
    assert.deepEqual(verdict, {
      kind: 'failed',
      failures: [{ message: 'FAIL  expect ops > 2000  [GET]  (actual 1,000 ops/s)', expectation: 'expect ops > 2000' }],
    });
  });

  it('errors the scenario accepts still fail a run where nothing succeeded, with the reason', () => {
    const accepting = planOf('### g\nGET k\nexpect error-rate < 100%\n');
    const verdict = runVerdict(runFileOf(accepting, [errored(1000, 1000)], { status: 'complete-with-errors' }));
    assert.equal(verdict.kind, 'failed');
    assert.equal(verdict.kind === 'failed' && verdict.errors, 'GET: 12% of requests failed (OOM 120), above the 1% threshold');
  });

  it("the run's status decides whether its errors fail it: a run recorded complete is judged on its expect lines", () => {
    // The runner records a rate search whose probes failed on errors as complete: the probes are its finding.
    assert.deepEqual(runVerdict(runFileOf(checked, [errored()], { status: 'complete' })), { kind: 'passed' });
  });

  it('a status this version does not know (a newer RBench wrote it) never passes, and says so', () => {
    const verdict = runVerdict(runFileOf(checked, [loadResult('GET', 3000, 500)], { status: 'stalled' as RunStatus }));
    assert.equal(verdict.kind, 'error');
    assert.match(verdict.kind === 'error' ? verdict.message : '', /^the run ended as stalled, a status this version of RBench does not know: update RBench/);
  });
});

describe('verdict: what the run file holds', () => {
  const plan = planOf('### g\nGET k\n');
  const load = loadResult('GET', 3000, 500);

  it('measured anything: any load in any repeat of any point', () => {
    const run = runFileOf(plan, [load]);
    const points = (repeats: LoadResult[][]) => ({ points: [{ ...run.points[0], repeats }] });
    assert.equal(measuredAnything(points([[load]])), true);
    assert.equal(measuredAnything(points([[], [load]])), true, 'a repeat that measured nothing, then one that did');
    assert.equal(measuredAnything(points([[load], []])), true);
    assert.equal(measuredAnything(points([[]])), false, 'a repeat that measured nothing');
    assert.equal(measuredAnything({ points: [] }), false);
  });

  const table: [RunStatus, LoadResult[], string, string][] = [
    ['complete', [load], 'results saved', 'Run saved'],
    ['complete-with-errors', [errored()], 'results saved', 'Run complete with errors, results saved'],
    ['cancelled', [load], 'partial results saved', 'Run cancelled, partial results saved'],
    ['cancelled', [], 'nothing was measured', 'Run cancelled, nothing was measured'],
    ['failed', [load], 'partial results saved', 'Run failed, partial results saved'],
    ['failed', [], 'nothing was measured', 'Run failed, nothing was measured'],
  ];
  for (const [status, loads, note, line] of table) {
    it(`${status}${loads.length ? '' : ', nothing measured'}: "${line}"`, () => {
      const run = runFileOf(plan, loads, { status });
      assert.equal(savedNote(run), note);
      assert.equal(savedLine(run), line);
    });
  }

  it("the saved line names the run file's path and the run's duration", () => {
    assert.equal(savedAtLine(runFileOf(plan, [load]), '.rbench/runs/a.rbench-run.json'), 'Run saved: .rbench/runs/a.rbench-run.json  (1.0s)');
    assert.equal(
      savedAtLine({ ...runFileOf(plan, [], { status: 'cancelled' }), durationMs: 5000 }, 'b.json'),
      'Run cancelled, nothing was measured: b.json  (5.0s)',
    );
  });

  it('status words: every dash a space', () => {
    assert.equal(statusWords({ status: 'complete-with-errors' }), 'complete with errors');
    assert.equal(statusWords({ status: 'complete' }), 'complete');
  });
});

describe('verdict: the summary the views show', () => {
  const failure = { message: 'FAIL  expect p99 < 2ms', expectation: 'expect p99 < 2ms' };
  const table: [RunVerdict, number, string][] = [
    [{ kind: 'passed' }, 3, ''],
    [{ kind: 'error', message: 'connection refused' }, 3, 'run failed'],
    [{ kind: 'cancelled', message: 'cancelled; nothing was measured' }, 3, 'cancelled'],
    [{ kind: 'failed', failures: [failure, failure] }, 3, '2 of 3 expectations failed'],
    [{ kind: 'failed', failures: [failure] }, 1, '1 of 1 expectation failed'],
    [{ kind: 'failed', failures: [], errors: 'GET: too many errors' }, 2, 'ended with errors'],
    [{ kind: 'failed', failures: [failure], errors: 'GET: too many errors' }, 2, 'ended with errors, 1 of 2 expectations failed'],
  ];
  for (const [verdict, expectations, summary] of table) {
    it(`${verdict.kind}${verdict.kind === 'failed' ? ` (${verdict.failures.length} of ${expectations}${verdict.errors ? ', errors' : ''})` : ''}: "${summary}"`, () => {
      assert.equal(verdictSummary(verdict, expectations), summary);
    });
  }
});

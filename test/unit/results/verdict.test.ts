import assert from 'node:assert/strict';
import { historyRun } from '../../../src/editor/historyModel';
import { runEntry } from '../../../src/editor/runsIndex';
import { runVerdict, savedNote } from '../../../src/results/verdict';
import { loadResult, planOf, runFileOf } from '../editor/fixtures';

describe('results: the one run verdict', () => {
  const checked = planOf('### g\nGET k\nexpect ops > 2000\n');

  it('passes a complete run whose expect lines pass, fails one whose expect line fails', () => {
    assert.deepEqual(runVerdict(runFileOf(checked, [loadResult('GET', 3000, 500)])), { kind: 'passed' });
    assert.deepEqual(runVerdict(runFileOf(checked, [loadResult('GET', 1000, 500)])), {
      kind: 'failed',
      failures: [{ message: 'FAIL  expect ops > 2000  [GET]  (actual 1,000 ops/s)', expectation: 'expect ops > 2000' }],
    });
  });

  /** A GET load that ended with errors past the threshold, as the engine marks it. */
  const errored = () =>
    Object.assign(loadResult('GET', 3000, 500, 'complete-with-errors'), { errorStatusReason: '12% of requests failed (OOM 360), above the 1% threshold' });

  it('fails a run that ended with errors even when its expect lines pass, naming the test and the reason', () => {
    const run = runFileOf(checked, [errored()], { status: 'complete-with-errors' });
    const verdict = runVerdict(run);
    assert.equal(verdict.kind, 'failed');
    assert.deepEqual(verdict.kind === 'failed' && verdict.failures, []);
    assert.match(
      verdict.kind === 'failed' ? (verdict.errors ?? '') : '',
      /^GET: 12% of requests failed \(OOM 360\), above the 1% threshold; add `expect error-rate < X%`/,
    );
  });

  it('is an error for a failed run and cancelled for a cancelled one', () => {
    assert.deepEqual(runVerdict(runFileOf(checked, [], { status: 'failed', error: 'connection refused' })), { kind: 'error', message: 'connection refused' });
    assert.deepEqual(runVerdict(runFileOf(checked, [loadResult('GET', 3000, 500, 'cancelled')], { status: 'cancelled' })), {
      kind: 'cancelled',
      message: 'cancelled; partial results saved',
    });
  });

  it('never says partial results were saved for a run that measured nothing', () => {
    assert.equal(savedNote(runFileOf(checked, [], { status: 'failed', error: 'connection refused' })), 'nothing was measured');
    assert.equal(runVerdict(runFileOf(checked, [], { status: 'cancelled' })).kind, 'cancelled');
    assert.deepEqual(runVerdict(runFileOf(checked, [], { status: 'cancelled' })), { kind: 'cancelled', message: 'cancelled; nothing was measured' });
  });

  it('gives the history view the same verdict: a run whose expect failed is not shown as passed', () => {
    const now = Date.parse('2026-11-29T12:01:00.000Z');
    const failed = historyRun(runEntry('/runs/a.rbench-run.json', runFileOf(checked, [loadResult('GET', 1000, 500)])), { now, isBaseline: false });
    assert.equal(failed.icon, 'failed');
    assert.equal(failed.description, '1 min ago · 1 of 1 expectation failed');
    const passed = historyRun(runEntry('/runs/b.rbench-run.json', runFileOf(checked, [loadResult('GET', 3000, 500)])), { now, isBaseline: false });
    assert.equal(passed.icon, 'passed');
    const withErrors = historyRun(runEntry('/runs/c.rbench-run.json', runFileOf(checked, [errored()], { status: 'complete-with-errors' })), {
      now,
      isBaseline: false,
    });
    assert.deepEqual([withErrors.icon, withErrors.description], ['failed', '1 min ago · ended with errors']);
  });
});

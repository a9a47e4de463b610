import assert from 'node:assert/strict';
import { finishedNotice, formatAge, runHeadline, runReport } from '../../../src/editor/runSummary';
import { runVerdict } from '../../../src/results/verdict';
import { loadResult, planOf, runFileOf } from './fixtures';

describe('editor: run summaries', () => {
  const single = planOf('### gets\nGET k\n');
  const pair = planOf('### set and get\nSET k v\nGET k\n');

  it('gives ops/s and p99 for a single result', () => {
    assert.equal(runHeadline(runFileOf(single, [loadResult('GET', 412_345, 1900)])), '412k ops/s · p99 1.90 ms');
  });

  it('gives the range of ops/s and the worst p99 for several results', () => {
    const run = runFileOf(pair, [loadResult('SET', 120_000, 2500), loadResult('GET', 412_000, 1900)]);
    assert.equal(runHeadline(run), '2 results · 120k–412k ops/s · p99 ≤ 2.50 ms');
  });

  it('says when a run was cancelled or failed', () => {
    assert.equal(runHeadline(runFileOf(single, [loadResult('GET', 5000, 800, 'cancelled')], { status: 'cancelled' })), 'cancelled · 5.0k ops/s · p99 800 µs');
    assert.equal(runHeadline(runFileOf(single, [], { status: 'failed', error: 'connection refused' })), 'failed: connection refused');
  });

  it('formats ages', () => {
    assert.deepEqual([10_000, 2 * 60_000 + 5000, 3 * 3_600_000, 26 * 3_600_000, 72 * 3_600_000].map(formatAge), [
      'just now',
      '2 min ago',
      '3 h ago',
      '1 day ago',
      '3 days ago',
    ]);
  });

  it('reports the table, thresholds, the run file and the host lag', () => {
    const plan = planOf('### gets\nGET k\nexpect p99 < 1ms\n');
    const report = runReport(runFileOf(plan, [loadResult('GET', 412_345, 1900)]), '/runs/x.rbench-run.json', 3.25);
    assert.match(report, /^command\s+requests/m);
    assert.match(report, /^FAIL {2}expect p99 < 1ms {2}\[GET\] {2}\(actual 1.90 ms\)$/m);
    assert.match(report, /^Run saved: \/runs\/x.rbench-run.json/m);
    assert.match(report, /event-loop lag p99 3.3 ms/);
  });
});

describe('editor: the notification at the end of a run', () => {
  const single = planOf('### gets\nGET k\n');

  it('names the status once: no "Run cancelled: cancelled"', () => {
    const notice = finishedNotice(runFileOf(single, [loadResult('GET', 5000, 800, 'cancelled')], { status: 'cancelled' }));
    assert.deepEqual(notice, { severity: 'info', text: 'Run cancelled: 5.0k ops/s · p99 800 µs (partial)' });
    assert.equal(finishedNotice(runFileOf(single, [loadResult('GET', 412_345, 1900)])).text, 'Run complete: 412k ops/s · p99 1.90 ms');
  });

  it('says nothing was measured for a run that never connected, never "partial results saved"', () => {
    const refused = runFileOf(single, [], { status: 'failed', error: 'cannot connect to 127.0.0.1:1: connection refused' });
    assert.deepEqual(finishedNotice(refused), { severity: 'error', text: 'Run failed: cannot connect to 127.0.0.1:1: connection refused' });
    const report = runReport(refused, '/runs/x.rbench-run.json');
    assert.doesNotMatch(report, /partial results/);
    assert.match(report, /^Run failed, nothing was measured: \/runs\/x.rbench-run.json/m);
    assert.equal(runHeadline(refused), 'failed: cannot connect to 127.0.0.1:1: connection refused');
    assert.equal(finishedNotice(runFileOf(single, [], { status: 'cancelled' })).text, 'Run cancelled: nothing was measured');
  });

  it('warns with the verdict when an expect line failed or the run ended with errors', () => {
    const checked = planOf('### g\nGET k\nexpect ops > 2000\n');
    assert.deepEqual(finishedNotice(runFileOf(checked, [loadResult('GET', 1000, 500)])), {
      severity: 'warning',
      text: 'Run complete: 1.0k ops/s · p99 500 µs — 1 of 1 expectation failed',
    });
    const withErrors = runFileOf(checked, [loadResult('GET', 3000, 500, 'complete-with-errors')], {
      status: 'complete-with-errors',
      error: '12% of requests failed',
    });
    assert.deepEqual(finishedNotice(withErrors), { severity: 'warning', text: 'Run complete with errors: 3.0k ops/s · p99 500 µs — ended with errors' });
    assert.match(runReport(withErrors, '/r.json'), /^Run complete with errors, results saved: \/r.json/m);
  });

  it('fails a run complete with errors unless the scenario accepts them; never one where nothing succeeded', () => {
    const errored = (errors: number) => {
      const load = loadResult('SET', 1000, 500, 'complete-with-errors');
      load.total = { ...load.total, requests: 1000, errors, errorsByKind: { OOM: errors } };
      load.commands = [{ ...load.commands[0], requests: 1000, errors, errorsByKind: { OOM: errors } }];
      load.errorStatusReason = `${errors / 10}% of requests failed (OOM ${errors}), above the 1% threshold`;
      return load;
    };
    const bare = runVerdict(runFileOf(planOf('### s\nSET k v\n'), [errored(800)], { status: 'complete-with-errors' }));
    assert.equal(bare.kind, 'failed');
    assert.match(bare.kind === 'failed' ? (bare.errors ?? '') : '', /^SET: 80% of requests failed \(OOM 800\)/);
    const accepting = planOf('### s\nSET k v\nexpect error-rate < 100%\n');
    assert.deepEqual(runVerdict(runFileOf(accepting, [errored(800)], { status: 'complete-with-errors' })), { kind: 'passed' });
    assert.equal(
      runVerdict(runFileOf(planOf('### s\nSET k v\nexpect error-rate <= 100%\n'), [errored(1000)], { status: 'complete-with-errors' })).kind,
      'failed',
    );
  });
});

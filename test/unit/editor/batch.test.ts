import assert from 'node:assert/strict';
import { batchQuestion, batchSummary } from '../../../src/editor/batch';
import { describeEstimate, estimateRuns } from '../../../src/runner/estimate';
import type { RunOutcome } from '../../../src/editor/runService';
import { loadResult, planOf, plansOf, runFileOf } from './fixtures';

describe('Run All: the question and the summary', () => {
  it('estimates timed tests (warm-up included) and counts request-count tests', () => {
    const plans = plansOf(
      '### a\nduration 10s\nwarmup 2s\nrepeat 2\nGET k\nSET k v\n### b\nrequests 1000\nPING\n### c\nduration 1m\nsweep clients 1, 2, 4\nGET k\n',
    );
    const estimate = estimateRuns(plans);
    assert.deepEqual(estimate, { timedMs: 2 * 2 * 12_000 + 3 * 60_000, countedTests: 1 });
    assert.equal(describeEstimate(estimate), 'about 3m48s, plus 1 test that runs a request count (as long as the server needs)');
    assert.equal(
      batchQuestion(3, 2, estimate, 'the workspace'),
      'Run 3 scenarios from 2 files in the workspace, one after another? Estimated time: about 3m48s, plus 1 test that runs a request count (as long as the server needs).',
    );
  });

  it('sums up every outcome once', () => {
    const plan = planOf('### s\nrequests 10\nGET k\nexpect ops > 1M/s\n');
    const passing = planOf('### s\nrequests 10\nGET k\n');
    const outcomes = [
      { kind: 'finished', run: runFileOf(passing, [loadResult('GET', 1000, 100)]) },
      { kind: 'finished', run: runFileOf(plan, [loadResult('GET', 1000, 100)]) },
      { kind: 'finished', run: runFileOf(passing, [loadResult('GET', 1000, 100)], { status: 'failed', error: 'x' }) },
      { kind: 'not-run', reason: 'error', message: 'bad' },
    ] as RunOutcome[];
    assert.equal(batchSummary(outcomes), '4 scenarios: 1 passed, 1 failed, 1 errored, 1 not run');
  });
});

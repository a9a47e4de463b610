// Issue 43 (blocking consumers): the queue examples do what their comments say, shortened by --var, on a
// throwaway server: every job pushed is taken by the workers blocked on BRPOP, each stamped job is timed once,
// and the queue is empty when they stop.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { repoRoot } from './helpers';
import { runCli, useScratch } from '../../helpers/cli';

describe('the job-queue examples do what they say', function () {
  this.timeout(240_000);
  const folder = path.join(repoRoot(), 'examples');
  const scratch = useScratch();

  it('job-queue: producers LPUSH at a fixed rate, 8 workers on BRPOP take every job, time each one, and leave the queue empty', async () => {
    const args = ['run', path.join(folder, 'job-queue.rbench'), '--var', 'rate=400/s', '--var', 'duration=1s'];
    const result = await runCli(args, { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const [run] = scratch.runFiles();
    const [producers, workers] = run.points[0].repeats[0];
    assert.equal(producers.openLoop?.targetRate, 400);
    const pushed = producers.sent!.byLabel.LPUSH;
    assert.ok(pushed > 0);
    const consumer = workers.consumer!;
    assert.equal(consumer.consumers, 8);
    assert.equal(consumer.jobs, pushed, 'every job pushed was taken');
    assert.equal(consumer.wakeUp.latency.count, pushed, 'each job carried its send stamp and was timed once');
    assert.deepEqual(consumer.queueLeft, [{ key: 'rbench:jobs', command: 'EXISTS', length: 0 }]);
    assert.match(result.stdout, new RegExp(`^workers: ${pushed} jobs, [\\d,.]+ jobs/s; wake-up p50 .* \\(${pushed} stamped\\);`, 'm'));
  });

  it('list-push-pop: its blocking-consumer variant takes every value the variadic RPUSH pushed', async () => {
    const result = await runCli(['run', path.join(folder, 'list-push-pop.rbench'), '--var', 'values=20k', '--scenario', '3'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const [run] = scratch.runFiles();
    const [pushers, workers] = run.points[0].repeats[0].filter((load) => load.phase === 'push-and-pop');
    assert.equal(pushers.sent!.byLabel.RPUSH, 200);
    assert.equal(workers.consumer?.jobs, 20_000, '200 RPUSH of 100 values: 20,000 jobs');
    assert.equal(workers.consumer?.consumers, 8);
  });
});

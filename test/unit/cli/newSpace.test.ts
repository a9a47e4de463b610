// The CLI's main thread keeps a small young generation (issue 46: memory near the C tools). V8 grows the new
// space to 16 MB while the bundle's top level runs and keeps it for the whole run; the launcher (src/cli/launch.ts)
// stops that growth once the code cache is checked. Observed by a preload in the run's own process
// (test/helpers/heapRecorder.ts), on runs on the main thread (a small one, a long one) and one with engine threads.
import assert from 'node:assert/strict';
import { useRedisServer } from '../../helpers/redis';
import { runCli, useScratch } from '../../helpers/cli';
import { heapByThread, heapRecorderOptions } from '../../helpers/heapRecorder';

/** A quarter of what V8 grows it to by default here (16 MB); without growth it stays at 2–4 MB. */
const SMALL_NEW_SPACE = 4 * 1048576;

describe("the CLI main thread's new space (issue 46)", function () {
  this.timeout(90_000);
  const server = useRedisServer();
  const scratch = useScratch();

  for (const [name, requests, threads] of [
    ['a small run, on the main thread', 1000, 1],
    ['a long one-thread run, on the main thread too (the CLI’s)', 100_000, 1],
    ['a run with engine threads', 100_000, 2],
  ] as const) {
    it(`${name}: the main thread's new space never grows past ${SMALL_NEW_SPACE} bytes`, async () => {
      const file = scratch.write('small.rbench', `### small\nthreads ${threads}\nclients 50\npipeline 4\nrequests ${requests}\nGET new:__key__\n`);
      const run = await runCli(['run', '--yes', file, '--url', server().url, '--quiet', '--out', 'runs'], {
        cwd: scratch.dir,
        env: { NODE_OPTIONS: heapRecorderOptions(scratch) },
      });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(scratch.runFiles('runs')[0].points[0].repeats[0][0].total.requests, requests);
      const main = heapByThread(run.stderr).get(0);
      assert.ok(main, 'the preload reported nothing on the main thread');
      assert.ok(main.largestNewSpace <= SMALL_NEW_SPACE, `the main thread's new space reached ${main.largestNewSpace} bytes`);
    });
  }
});

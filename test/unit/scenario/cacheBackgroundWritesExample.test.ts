// examples/cache-background-writes.rbench does what its comment says (issue 43): 50 readers measured while 8
// background writers write at a fixed 1,000 SET/s, each group's requests what the server counted for its
// command, the writers in a row of their own and not judged by the scenario's `expect` lines.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { repoRoot } from './helpers';
import { runCli, useScratch } from '../../helpers/cli';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';

describe('examples/cache-background-writes.rbench', function () {
  this.timeout(120_000);
  const scratch = useScratch();
  const server = useRedisServer();

  it('the readers and the 1,000/s writers run at once, each group sent exactly what the server counted', async () => {
    const counts = () => withRedis(server(), async (redis) => ({ set: await commandCalls(redis, 'set'), get: await commandCalls(redis, 'get') }));
    const before = await counts();
    const file = path.join(repoRoot(), 'examples', 'cache-background-writes.rbench');
    const result = await runCli(['run', '--yes', file, '--url', server().url, '--var', 'duration=3s', '--var', 'keys=10k'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const after = await counts();
    const [run] = scratch.runFiles();
    assert.equal(run.status, 'complete', run.error);
    const [writers, readers] = run.points[0].repeats[0];
    assert.deepEqual([writers.test, writers.group?.background, readers.test, readers.group?.background], ['writers', true, 'readers', false]);
    assert.equal(readers.connections.opened, 50);
    assert.equal(writers.connections.opened, 8);
    // The prefill's 10k SETs, then the writers'; the readers' GETs and no other.
    assert.equal(after.set - before.set, 10_000 + writers.sent!.byLabel.SET);
    assert.equal(after.get - before.get, readers.sent!.byLabel.GET);
    // A fixed 1,000/s: the open loop schedules rate × window sends (a send or two late at the edges).
    const expected = writers.durationMs;
    const sent = writers.sent!.byLabel.SET;
    assert.ok(Math.abs(sent - expected) <= expected * 0.02 + 8, `writers sent ${sent}, ${expected} expected over ${writers.durationMs} ms`);
    // The `expect` lines judge the readers only, and pass: the prefill filled every key the readers read.
    assert.deepEqual(
      run.thresholds.map((outcome) => [outcome.expectation, outcome.test, outcome.passed]),
      [
        ['expect errors = 0', 'readers', true],
        ['expect GET miss-rate < 1%', 'readers', true],
      ],
    );
  });
});

// Issue 20, seen 3: the client's own pauses must show as the client's share of the tail, not as the
// server's latency. A forced garbage-collection storm in the engine thread (a test hook) against a real
// redis-server: the pauses, the replies that overlapped them, and the tail without them. The load runs in a thread
// of its own: a forced collection then marks the engine's heap, not the test process's (which grows with the suite).
import assert from 'node:assert/strict';
import type { LoadResult } from '../../../src/engine/types';
import { useRedisServer } from '../../helpers/redis';
import { runInOwnThread } from './inProcessLoad';
import { loadRequest, singleTest } from './plans';

describe('client pauses: a GC storm in the engine thread shows as client-made tail', function () {
  this.timeout(40_000);
  const server = useRedisServer();
  const run = (gcStormEveryMs?: number): Promise<LoadResult> =>
    runInOwnThread(
      loadRequest(server(), { test: singleTest('GET key:__rand_int__'), load: { clients: 4, threads: 1, durationMs: 3000 } }),
      gcStormEveryMs !== undefined ? { testHooks: { gcStormEveryMs } } : {},
    );

  it('with the storm: GC pauses counted, the tail overlapped them, p99.9 without them well below', async () => {
    const result = await run(50);
    const pauses = result.health.pauses!;
    const { p999Us } = result.total.latency;
    const summary = JSON.stringify({ p999Us, pauses });
    assert.ok(pauses.gcCount >= 20, summary);
    assert.ok(pauses.gcMaxMs >= 1, summary);
    assert.ok(pauses.pauses >= 20 && pauses.pausedMs >= 20, summary);
    assert.ok(pauses.overlappedReplies > 0, summary);
    assert.ok(pauses.tailShare >= 0.6, summary);
    assert.ok(pauses.p999UsWithoutPauses! < p999Us * 0.6, summary);
    assert.ok(pauses.maxUsWithoutPauses! <= result.total.latency.maxUs, summary);
  });

  // On a quiet machine the tail without the storm is barely the client's; on a shared one (this machine runs
  // other loads) the thread also waits for a core, and those waits are pauses too: what is not GC is that.
  it('without it: GC a small fraction of the storm’s, and the other pauses no more than the waits for a core', async () => {
    const quietRun = await run();
    const quiet = quietRun.health.pauses!;
    const storm = (await run(50)).health.pauses!;
    const waitMs = quietRun.health.threadCpu?.runnableWaitMs;
    const summary = JSON.stringify({ quiet, waitMs, storm });
    assert.ok(quiet.gcMs * 10 <= storm.gcMs, summary);
    // Scavenges happen in any run (a quiet one had 16): the count only has to be well below the storm's; its time is the claim.
    assert.ok(quiet.gcCount * 2 <= storm.gcCount, summary);
    assert.ok(waitMs !== undefined, 'Linux tells the thread’s wait for a core');
    assert.ok(quiet.pausedMs <= quiet.gcMs + waitMs + 300, summary);
  });
});

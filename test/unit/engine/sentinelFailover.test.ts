// A `SENTINEL FAILOVER` during a duration run, on both load paths: the run completes, the load resumes on
// the new primary, the timeline shows the gap, and the requests lost in it are counted as errors.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { runLoad } from '../../../src/engine';
import type { LoadResult } from '../../../src/engine/types';
import type { LocalServer } from '../../../src/redis/localServer';
import { withCurrentPrimary } from '../../../src/redis/sentinel';
import { resolveConnection } from '../../../src/redis/target';
import { commandCalls } from '../../helpers/redis';
import { useSentinelSet } from '../../helpers/sentinel';
import { targetPlan } from '../redis/support';
import { loadRequest, singleTest } from './plans';

async function setCalls(server: LocalServer): Promise<number> {
  const redis = new Redis({ host: server.host, port: server.port, lazyConnect: true });
  try {
    await redis.connect();
    return await commandCalls(redis, 'set');
  } finally {
    redis.disconnect();
  }
}

/** Replies per second in the timeline: the steady (median) rate and the lowest bucket's. */
function rates(result: LoadResult): { steady: number; lowest: number } {
  // Loads under 10 s have 100 ms buckets; the last may be cut short and is left out.
  const sorted = result.timeline
    .slice(0, -1)
    .map((bucket) => bucket.ops)
    .sort((a, b) => a - b);
  return { steady: sorted[Math.floor(sorted.length / 2)], lowest: sorted[0] };
}

describe('a Sentinel failover during a run', function () {
  this.timeout(90_000);
  const set = useSentinelSet();

  for (const client of ['fast', 'ioredis'] as const) {
    it(`is survived on the ${client} path: the run completes, load resumes on the new primary, the gap shows`, async () => {
      const resolved = resolveConnection(targetPlan({ url: set().url }), { env: {} });
      assert.equal(resolved.error, undefined);
      const connection = await withCurrentPrimary(resolved.options!);
      const clients = 4;
      await set().readyForFailover();
      const loading = runLoad({
        ...loadRequest(connection, { client, test: singleTest('SET failover:__key__ __value__'), load: { clients, durationMs: 9000 } }),
        connection,
      });
      await sleep(2500);
      const newPrimary = await set().failover();
      assert.notEqual(newPrimary.port, connection.port, 'the sentinels name another server');
      const atSwitch = await setCalls(newPrimary);
      const result = await loading;
      const onNewPrimary = (await setCalls(newPrimary)) - atSwitch;

      assert.ok(result.status === 'complete' || result.status === 'complete-with-errors', `${result.status}: ${result.error}`);
      assert.ok(onNewPrimary > 100, `the load went on against the new primary (${onNewPrimary} SETs there after the switch)`);
      assert.ok(result.connections.reconnects >= 1, `connections reconnected (${result.connections.reconnects})`);
      const { steady, lowest } = rates(result);
      // On loopback the switch can take well under a 100 ms bucket (seen 20–60% of the steady rate left in
      // the bucket on a loaded machine): a clear dip, not necessarily an empty bucket.
      assert.ok(lowest < steady * 0.75, `the timeline shows the gap: lowest bucket ${lowest}/s against a steady ${steady}/s`);
      // Requests lost when the old primary dropped its clients, or refused by it once a replica, are errors.
      assert.ok(result.total.errors > 0, 'the failover cost requests, and they are counted');
      for (const kind of Object.keys(result.total.errorsByKind)) assert.match(kind, /^(CONNECTION|READONLY|TIMEOUT)$/, kind);
      assert.equal(
        result.total.errors,
        Object.values(result.total.errorsByKind).reduce((a, b) => a + b, 0),
      );
      console.log(
        `      ${client}: ${result.total.requests} requests, ${result.total.errors} errors ${JSON.stringify(result.total.errorsByKind)}, reconnects ${result.connections.reconnects}, steady ${Math.round(steady)}/s, lowest ${Math.round(lowest)}/s`,
      );
    });
  }
});

// A Sentinel primary that crashes (SIGKILL) during a run: every connection is down until the sentinels call
// it down (down-after-milliseconds) and promote the replica, longer than the ordinary 3 s server-lost limit.
// The load waits for the failover and completes on the new primary; with no replica left, it gives up, bounded.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { runLoad } from '../../../src/engine';
import { FAILOVER_ALLOWANCE_MS } from '../../../src/engine/failoverWait';
import { DEFAULT_SERVER_LOST_TIMEOUT_MS } from '../../../src/engine/loadPlan';
import type { LoadResult } from '../../../src/engine/types';
import type { LocalServer } from '../../../src/redis/localServer';
import { withCurrentPrimary } from '../../../src/redis/sentinel';
import { resolveConnection } from '../../../src/redis/target';
import type { ConnectionOptions } from '../../../src/redis/types';
import { commandCalls } from '../../helpers/redis';
import { startSentinelSet, type SentinelSet } from '../../helpers/sentinel';
import { targetPlan } from '../redis/support';
import { loadRequest, singleTest } from './plans';

/** Longer than the server-lost limit once the sentinels' election and the promotion are added. */
const DOWN_AFTER_MS = 3000;

async function setCalls(server: LocalServer): Promise<number> {
  const redis = new Redis({ host: server.host, port: server.port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await commandCalls(redis, 'set');
  } finally {
    redis.disconnect();
  }
}

async function primaryConnection(set: SentinelSet): Promise<ConnectionOptions> {
  const resolved = resolveConnection(targetPlan({ url: set.url }), { env: {} });
  assert.equal(resolved.error, undefined);
  return withCurrentPrimary(resolved.options!);
}

function load(connection: ConnectionOptions, client: 'fast' | 'ioredis', durationMs: number): Promise<LoadResult> {
  return runLoad({ ...loadRequest(connection, { client, test: singleTest('SET crash:__key__ __value__'), load: { clients: 4, durationMs } }), connection });
}

describe('a Sentinel primary that crashes during a run', function () {
  this.timeout(120_000);
  let set: SentinelSet | undefined;
  afterEach(async function () {
    this.timeout(30_000);
    await set?.stop();
    set = undefined;
  });

  for (const client of ['fast', 'ioredis'] as const) {
    it(`is waited for on the ${client} path: the sentinels promote the replica and the run completes there`, async () => {
      set = await startSentinelSet({ downAfterMs: DOWN_AFTER_MS });
      const connection = await primaryConnection(set);
      const [oldPrimary, replica] = set.servers;
      assert.equal(connection.port, oldPrimary.port);
      await set.readyForFailover();
      const loading = load(connection, client, 14_000);
      await sleep(2000);
      const killedAt = Date.now();
      process.kill(oldPrimary.pid, 'SIGKILL');
      const result = await loading;
      assert.ok(result.status === 'complete' || result.status === 'complete-with-errors', `${result.status}: ${result.error}`);
      const newPrimary = await set.primary();
      const onNewPrimary = await setCalls(newPrimary);
      assert.equal(newPrimary.port, replica.port, 'the sentinels promoted the replica');
      assert.ok(onNewPrimary > 100, `the load went on against the new primary (${onNewPrimary} SETs there)`);
      assert.ok(result.connections.reconnects >= 1, `connections reconnected (${result.connections.reconnects})`);
      // The gap: whole seconds with (almost) no replies while the primary was gone.
      const buckets = result.timeline.slice(0, -1).map((bucket) => bucket.ops);
      const steady = [...buckets].sort((a, b) => a - b)[Math.floor(buckets.length / 2)];
      const quiet = buckets.filter((ops) => ops < steady / 10).length;
      assert.ok(quiet >= 3, `the timeline shows a gap of at least 3 s (${quiet} quiet seconds of ${JSON.stringify(buckets.map(Math.round))})`);
      assert.ok(result.total.errors > 0, 'requests in flight at the crash are counted as errors');
      for (const kind of Object.keys(result.total.errorsByKind)) assert.match(kind, /^(CONNECTION|READONLY|TIMEOUT)$/, kind);
      console.log(
        `      ${client}: ${result.total.requests} requests, ${result.total.errors} errors ${JSON.stringify(result.total.errorsByKind)}, ` +
          `reconnects ${result.connections.reconnects}, ${quiet} quiet seconds, load ended ${Math.round((Date.now() - killedAt) / 1000)} s after the kill`,
      );
    });
  }

  it('gives up with a clear message when no new primary comes, within its bound', async () => {
    set = await startSentinelSet({ downAfterMs: 1000 });
    const connection = await primaryConnection(set);
    const loading = load(connection, 'fast', 60_000);
    await sleep(1500);
    // No replica to promote: the sentinels can only keep naming the dead primary.
    const killedAt = Date.now();
    process.kill(set.servers[1].pid, 'SIGKILL');
    process.kill(set.servers[0].pid, 'SIGKILL');
    const result = await loading;
    const tookMs = Date.now() - killedAt;

    assert.equal(result.status, 'failed');
    assert.match(result.error ?? '', /lost the primary "rbench-primary" and the sentinels named no reachable new primary within \d+ s/);
    assert.match(result.error ?? '', /SENTINEL MASTER rbench-primary/);
    const bound = DEFAULT_SERVER_LOST_TIMEOUT_MS + 1000 + FAILOVER_ALLOWANCE_MS;
    assert.ok(tookMs >= bound - 500, `it waited for the sentinels (${tookMs} ms, its bound ${bound} ms)`);
    assert.ok(tookMs < bound + 5000, `it gave up within its bound (${tookMs} ms, bound ${bound} ms)`);
    assert.ok(result.total.requests > 0, 'what was measured before the crash is kept');
  });
});

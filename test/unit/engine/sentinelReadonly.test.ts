// The old primary of a Sentinel target turned replica while the load's clients are still connected to it:
// it answers every write with READONLY. The run must count those replies as errors, leave it, and go on
// on the primary the sentinels name next, on both load paths, without hanging.
//
// A SENTINEL FAILOVER kills the old primary's clients when it demotes it, so the state is made by hand, as an
// operator's REPLICAOF would: the replica is promoted and the old primary demoted while the sentinels still
// name the old one, then the sentinels are pointed at the new primary.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type Redis from 'ioredis';
import { runLoad } from '../../../src/engine';
import type { LocalServer } from '../../../src/redis/localServer';
import { withCurrentPrimary } from '../../../src/redis/sentinel';
import { resolveConnection } from '../../../src/redis/target';
import { commandCalls } from '../../helpers/redis';
import { PRIMARY_NAME, useSentinelSet, withClient } from '../../helpers/sentinel';
import { targetPlan } from '../redis/support';
import { loadRequest, singleTest } from './plans';

const DURATION_MS = 6000;

/** A client of a server or sentinel of the set. */
const on = <T>(server: Pick<LocalServer, 'port'>, fn: (redis: Redis) => Promise<T>): Promise<T> => withClient(server.port, fn);

describe('a Sentinel target whose old primary answers READONLY to connected clients', function () {
  this.timeout(90_000);

  for (const client of ['fast', 'ioredis'] as const) {
    describe(`on the ${client} path`, () => {
      // One set per path: the hand-made switch leaves the set with its roles swapped.
      const set = useSentinelSet();

      it('counts the READONLY replies as errors and goes on on the new primary', async () => {
        const resolved = resolveConnection(targetPlan({ url: set().url }), { env: {} });
        assert.equal(resolved.error, undefined);
        const connection = await withCurrentPrimary(resolved.options!);
        const [old, next] = set().servers;
        assert.equal(connection.port, old.port, 'the run starts on the first primary');
        const started = Date.now();
        const loading = runLoad({
          ...loadRequest(connection, { client, test: singleTest('SET readonly:__key__ __value__'), load: { clients: 4, durationMs: DURATION_MS } }),
          connection,
        });
        await sleep(1500);
        // Promote the replica, demote the old primary; the sentinels still name the old one, so clients come back to it.
        const readonlyReplies = () => on(old, async (r) => Number(/errorstat_READONLY:count=(\d+)/.exec(await r.info('errorstats'))?.[1] ?? 0));
        const readonlyBefore = await readonlyReplies();
        await on(next, (r) => r.call('REPLICAOF', 'NO', 'ONE'));
        await on(old, (r) => r.call('REPLICAOF', '127.0.0.1', String(next.port)));
        await sleep(1000);
        const readonlyOnOld = (await readonlyReplies()) - readonlyBefore;
        // The sentinel now monitors the new primary: what a finished failover leaves behind.
        for (const sentinel of set().sentinels) {
          await on(sentinel, async (r) => {
            await r.call('SENTINEL', 'REMOVE', PRIMARY_NAME);
            await r.call('SENTINEL', 'MONITOR', PRIMARY_NAME, '127.0.0.1', String(next.port), '1');
          });
        }
        const atSwitch = await on(next, (r) => commandCalls(r, 'set'));
        const result = await loading;
        const elapsed = Date.now() - started;
        const onNewPrimary = (await on(next, (r) => commandCalls(r, 'set'))) - atSwitch;

        assert.ok(readonlyOnOld > 0, 'the old primary answered READONLY to the clients connected to it');
        // A client that stayed on the demoted primary would collect thousands of READONLY a second; a READONLY makes it leave.
        assert.ok(readonlyOnOld < 1000, `the clients left the demoted primary (${readonlyOnOld} READONLY replies in the 1 s the sentinels still named it)`);
        assert.ok(result.status === 'complete' || result.status === 'complete-with-errors', `${result.status}: ${result.error}`);
        assert.ok(elapsed < DURATION_MS + 5000, `the run ended on time, no hang (${elapsed} ms for a ${DURATION_MS} ms load)`);
        assert.ok((result.total.errorsByKind.READONLY ?? 0) > 0, `READONLY replies are counted as errors: ${JSON.stringify(result.total.errorsByKind)}`);
        assert.equal(
          result.total.errors,
          Object.values(result.total.errorsByKind).reduce((a, b) => a + b, 0),
        );
        assert.ok(onNewPrimary > 100, `the load went on on the new primary (${onNewPrimary} SETs there after the switch)`);
        assert.ok(result.connections.reconnects >= 1, `connections reconnected (${result.connections.reconnects})`);
        console.log(
          `      ${client}: ${result.total.requests} requests, errors ${JSON.stringify(result.total.errorsByKind)}, ${readonlyOnOld} READONLY in the 1 s the sentinels named the old primary, reconnects ${result.connections.reconnects}, ${onNewPrimary} SETs on the new primary`,
        );
      });
    });
  }
});

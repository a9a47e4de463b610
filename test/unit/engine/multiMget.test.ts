// A per-key read inside a transaction (issue 43): MULTI / MGET k1 k2 k3 k4 / EXEC answers the MGET's keys as nils two
// levels down (inside MGET's element of EXEC's reply). Each key not found is a miss on MGET's row, on both client paths;
// the server's own keyspace_hits / keyspace_misses are the truth. A transaction EXEC discards (nil under WATCH,
// EXECABORT) ran no MGET: it counts neither hits nor misses.
import assert from 'node:assert/strict';
import { runLoad } from '../../../src/engine';
import { lookupsOf, missRateOf } from '../../../src/results/missRate';
import { commandCalls, withRedis } from '../../helpers/redis';
import { groupTest, loadRequest } from './plans';
import { useHalfFilledServer } from './halfFilled';
import { keyspaceCounts } from './keyspaceCounts';
import { missRow } from './missRow';

const SPACE = 2000;
/** Four keys per MGET, each drawn on its own (`__rand_int__` is drawn per argument, in the same 12-digit space). */
const MGET4 = 'MGET k:__key__ k:__rand_int__ k:__rand_int__ k:__rand_int__';

describe('MGET inside MULTI … EXEC: misses per key, two levels down (real server)', function () {
  this.timeout(90_000);
  const { server, truth } = useHalfFilledServer(SPACE);

  beforeEach(() => withRedis(server(), (redis) => redis.config('RESETSTAT')));

  for (const client of ['fast', 'ioredis'] as const) {
    for (const rate of [undefined, 2000]) {
      it(`${client}${rate ? ', open loop' : ''}: each key an MGET in a transaction did not find is a miss; hits + misses = the keys asked, as the server counted them`, async () => {
        const units = 3000;
        const result = await runLoad(
          loadRequest(server(), {
            client,
            test: groupTest('tx', ['MULTI', MGET4, 'EXEC']),
            keys: { space: SPACE, distribution: 'uniform' },
            load: { clients: 3, pipeline: 2, requests: units, rate },
          }),
        );
        assert.equal(result.status, 'complete', result.error);
        assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorExamples));
        const mget = missRow(result.commands, 'MGET');
        assert.equal(mget.lookups, 4 * units, 'four keys asked per transaction');
        const missRate = missRateOf(mget)!;
        assert.ok(Math.abs(missRate - truth()) <= 0.02, `MGET miss rate ${missRate} vs ${truth()}`);
        const server_ = await withRedis(server(), async (redis) => ({ ...(await keyspaceCounts(redis)), mgets: await commandCalls(redis, 'mget') }));
        assert.equal(server_.mgets, units, 'every MGET ran once');
        assert.equal(mget.misses, server_.misses, "misses = the server's keyspace_misses");
        assert.equal(lookupsOf(mget) - mget.misses, server_.hits, "hits = the server's keyspace_hits");
        assert.equal(result.commands.find((c) => c.command === 'EXEC')?.misses, undefined, 'EXEC is no read');
      });
    }

    it(`${client}: a transaction EXEC answers nil (WATCHed key touched) ran no MGET: no hits, no misses`, async () => {
      const units = 400;
      const result = await runLoad(
        loadRequest(server(), {
          client,
          test: groupTest('watched', ['WATCH w', 'SET w 1', 'MULTI', MGET4, 'EXEC']),
          keys: { space: SPACE, distribution: 'uniform' },
          load: { clients: 2, pipeline: 2, requests: units },
        }),
      );
      assert.equal(result.total.errorsByKind['EXEC-NIL'], units, JSON.stringify(result.total.errorsByKind));
      const mget = missRow(result.commands, 'MGET');
      assert.equal(mget.errors, 0, 'a queued MGET is not an error');
      assert.equal(mget.misses, 0);
      assert.equal(mget.lookups, 0, 'no key asked');
      assert.equal(lookupsOf(mget) - mget.misses, 0, 'no hits');
      assert.deepEqual(await withRedis(server(), keyspaceCounts), { hits: 0, misses: 0 }, 'the server looked no key up');
    });

    it(`${client}: a transaction discarded with EXECABORT ran no MGET: no hits, no misses`, async () => {
      const units = 400;
      const result = await runLoad(
        loadRequest(server(), {
          client,
          test: groupTest('aborted', ['MULTI', MGET4, 'INCR a b', 'EXEC']),
          keys: { space: SPACE, distribution: 'uniform' },
          load: { clients: 2, pipeline: 2, requests: units },
        }),
      );
      assert.equal(result.commands.find((c) => c.command === 'EXEC')?.errorsByKind.EXECABORT, units);
      const mget = missRow(result.commands, 'MGET');
      assert.equal(mget.misses, 0);
      assert.equal(mget.lookups, 0, 'no key asked');
      assert.deepEqual(await withRedis(server(), keyspaceCounts), { hits: 0, misses: 0 }, 'the server looked no key up');
    });
  }

  it('fast: a queued GET of a discarded transaction is neither a hit nor a miss either', async () => {
    const result = await runLoad(
      loadRequest(server(), {
        test: groupTest('watched', ['WATCH w', 'SET w 1', 'MULTI', 'GET k:__key__', 'EXEC']),
        keys: { space: SPACE, distribution: 'uniform' },
        load: { clients: 2, requests: 300 },
      }),
    );
    const get = result.commands.find((c) => c.command === 'GET')!;
    assert.equal(get.misses, 0);
    assert.equal(get.lookups, 0, 'no key asked');
  });
});

// Misses inside array replies (issue 43), against a real redis-server whose key space is half filled: a read
// queued in a MULTI … EXEC group counts the misses of its element of EXEC's reply on its own row, and a per-key
// read (MGET) counts each key not found, its miss rate the keys not found over the keys asked.
import assert from 'node:assert/strict';
import { runLoad } from '../../../src/engine';
import { missRateOf } from '../../../src/results/missRate';
import { withRedis } from '../../helpers/redis';
import { groupTest, loadRequest, singleTest } from './plans';
import { useHalfFilledServer } from './halfFilled';
import { missRow } from './missRow';

const SPACE = 2000;

describe('misses inside array replies: EXEC and MGET (real server)', function () {
  this.timeout(60_000);
  const { server, truth } = useHalfFilledServer(SPACE);

  for (const client of ['fast', 'ioredis'] as const) {
    for (const rate of [undefined, 3000]) {
      it(`${client}${rate ? ', open loop' : ''}: MULTI / GET / EXEC — GET's misses are read from EXEC's reply, within 2 points of the keys absent`, async () => {
        const units = 6000;
        const result = await runLoad(
          loadRequest(server(), {
            client,
            test: groupTest('tx', ['MULTI', 'GET k:__key__', 'HGETALL h:__key__', 'EXEC']),
            keys: { space: SPACE, distribution: 'uniform' },
            load: { clients: 3, pipeline: 2, requests: units, rate },
          }),
        );
        assert.equal(result.status, 'complete', result.error);
        assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorExamples));
        const get = missRow(result.commands, 'GET');
        assert.ok(Math.abs(missRateOf(get)! - truth()) <= 0.02, `GET miss rate ${missRateOf(get)} vs ${truth()}`);
        assert.equal(missRow(result.commands, 'HGETALL').misses, units, 'no hash exists: every element is an empty array');
        assert.equal(result.commands.find((c) => c.command === 'EXEC')?.misses, undefined, 'EXEC is no read');
        assert.equal(result.total.misses, undefined, "the unit's row is no read");
      });
    }

    it(`${client}: MGET of a half-filled and an empty space counts misses per key: 75 % of the keys asked`, async () => {
      const requests = 8000;
      const result = await runLoad(
        loadRequest(server(), {
          client,
          test: singleTest('MGET k:__key__ nothing:__key__'),
          keys: { space: SPACE, distribution: 'uniform' },
          load: { clients: 4, pipeline: 4, requests },
        }),
      );
      assert.equal(result.status, 'complete', result.error);
      const mget = missRow(result.commands, 'MGET');
      assert.equal(mget.lookups, 2 * requests, 'two keys asked per request');
      const expected = (truth() + 1) / 2;
      assert.ok(Math.abs(missRateOf(mget)! - expected) <= 0.02, `MGET miss rate ${missRateOf(mget)} vs ${expected}`);
      assert.ok(mget.misses >= requests, 'every `nothing:` key missed');
      assert.equal(result.total.lookups, mget.lookups);
    });

    it(`${client}: HMGET counts each field not found`, async () => {
      await withRedis(server(), async (redis) => {
        const batch = redis.pipeline();
        for (let key = 0; key < 10; key++) batch.hset(`hm:${key}`, 'f', 'v');
        await batch.exec();
      });
      const result = await runLoad(
        loadRequest(server(), { client, test: singleTest('HMGET hm:__key__ f g x'), keys: { space: 10, size: 1 }, load: { clients: 2, requests: 900 } }),
      );
      const hmget = missRow(result.commands, 'HMGET');
      assert.equal(hmget.lookups, 2700);
      assert.equal(hmget.misses, 1800, 'g and x never exist, f always does');
    });
  }
});

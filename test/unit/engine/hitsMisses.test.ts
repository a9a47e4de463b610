// Hits and misses per command (issue 43): against a real redis-server whose key space is half filled, the miss
// rate each client path measures is the share of keys absent (counted on the server), and collection reads of
// absent keys (HGETALL) count their empty arrays as misses.
import assert from 'node:assert/strict';
import { runLoad } from '../../../src/engine';
import type { LoadResult } from '../../../src/engine/types';
import { useRedisServer, withRedis } from '../../helpers/redis';
import { loadRequest, mixTest, singleTest } from './plans';
import { fillHalf } from './halfFilled';

const SPACE = 2000;

function missRate(result: LoadResult, command = 'total'): number {
  const row = command === 'total' ? result.total : result.commands.find((c) => c.command === command)!;
  assert.ok(row.misses !== undefined, `${command} counts misses`);
  return row.misses / (row.requests - row.errors);
}

describe('hits and misses per command (real server)', function () {
  this.timeout(60_000);
  const server = useRedisServer();
  let present = 0;

  before(async () => {
    await withRedis(server(), (redis) => redis.flushall());
    // A sequential prefill of exactly half the key space (keys 0 … SPACE/2 − 1), as a `prefill` phase does.
    await fillHalf(server(), SPACE);
    // The truth: the keys the server holds, not the ones the prefill meant to write.
    present = await withRedis(server(), (redis) => redis.dbsize());
    assert.equal(present, SPACE / 2);
  });

  for (const client of ['fast', 'ioredis'] as const) {
    for (const pipeline of [1, 10]) {
      it(`${client}, pipeline ${pipeline}: GET's miss rate over a half-filled key space is within 2 points of the keys absent`, async () => {
        const result = await runLoad(
          loadRequest(server(), {
            client,
            test: singleTest('GET k:__key__'),
            keys: { space: SPACE, distribution: 'uniform' },
            load: { clients: 4, pipeline, requests: 20_000 },
          }),
        );
        assert.equal(result.status, 'complete');
        const truth = 1 - present / SPACE;
        const measured = missRate(result);
        assert.ok(Math.abs(measured - truth) <= 0.02, `miss rate ${measured} vs truth ${truth}`);
        assert.equal(result.commands[0].misses, result.total.misses, 'the command row and the total agree');
        assert.ok(result.total.misses! > 0 && result.total.misses! < result.total.requests);
      });
    }

    it(`${client}: open loop counts misses too`, async () => {
      const result = await runLoad(
        loadRequest(server(), {
          client,
          test: singleTest('GET k:__key__'),
          keys: { space: SPACE, distribution: 'uniform' },
          load: { clients: 2, pipeline: 2, rate: 4000, requests: 4000 },
        }),
      );
      assert.equal(result.status, 'complete');
      assert.ok(Math.abs(missRate(result) - (1 - present / SPACE)) <= 0.03, `miss rate ${missRate(result)}`);
    });

    it(`${client}: HGETALL of absent keys counts its empty arrays as misses; of present hashes, none`, async () => {
      const absent = await runLoad(
        loadRequest(server(), { client, test: singleTest('HGETALL h:__key__'), keys: { space: SPACE }, load: { clients: 3, pipeline: 4, requests: 3000 } }),
      );
      assert.equal(absent.status, 'complete');
      assert.equal(absent.total.misses, 3000, 'every reply was an empty array');
      await withRedis(server(), async (redis) => {
        const batch = redis.pipeline();
        for (let key = 0; key < 10; key++) batch.hset(`hf:${key}`, 'f', 'v');
        await batch.exec();
      });
      const found = await runLoad(
        loadRequest(server(), { client, test: singleTest('HGETALL hf:__key__'), keys: { space: 10, size: 1 }, load: { clients: 2, requests: 1000 } }),
      );
      assert.equal(found.total.misses, 0);
    });

    it(`${client}: in a mix, the read's row counts misses, the write's none, the total none`, async () => {
      const result = await runLoad(
        loadRequest(server(), {
          client,
          test: mixTest([
            [1, 'GET nothing:__key__'],
            [1, 'SET other:__key__ __value__'],
          ]),
          load: { clients: 2, requests: 2000 },
        }),
      );
      const get = result.commands.find((c) => c.command === 'GET')!;
      const set = result.commands.find((c) => c.command === 'SET')!;
      assert.equal(get.misses, get.requests, 'no `nothing:` key exists');
      assert.equal(set.misses, undefined);
      assert.equal(result.total.misses, undefined);
    });
  }
});

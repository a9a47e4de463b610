import assert from 'node:assert/strict';
import type Redis from 'ioredis';
import { deleteKeysMatching } from '../../../src/redis/cleanup';
import { closeControlConnection, openControlConnection } from '../../../src/redis/control';
import { useRedisServer } from '../../helpers/redis';
import { optionsFor } from './support';

describe('deleteKeysMatching', () => {
  const server = useRedisServer();
  let redis: Redis;
  before(async () => (redis = await openControlConnection(optionsFor(server()))));
  after(async () => closeControlConnection(redis));

  it('deletes exactly the keys under the pattern, in batches, and nothing else', async () => {
    const bench: string[] = [];
    for (let i = 0; i < 5000; i++) bench.push(`bench:${i}`, 'v');
    const others: string[] = [];
    // `benchmark:` shares a prefix with `bench` but not with `bench:*`.
    for (let i = 0; i < 100; i++) others.push(i % 2 ? `other:${i}` : `benchmark:${i}`, 'v');
    await redis.mset(...bench);
    await redis.mset(...others);
    assert.equal(await redis.dbsize(), 5100);

    assert.equal(await deleteKeysMatching(redis, 'bench:*', { count: 500 }), 5000);
    assert.equal(await redis.dbsize(), 100);
    const [, left] = await redis.scan('0', 'MATCH', 'bench:*', 'COUNT', 10_000);
    assert.deepEqual(left, []);
    assert.equal(await deleteKeysMatching(redis, 'bench:*'), 0);
  });
});

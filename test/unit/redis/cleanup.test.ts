import assert from 'node:assert/strict';
import type Redis from 'ioredis';
import { deleteKeysMatching } from '../../../src/redis/cleanup';
import { closeControlConnection, openControlConnection, ioredisLink } from '../../../src/redis/control';
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

    assert.deepEqual(await deleteKeysMatching(ioredisLink(redis), 'bench:*', { count: 500 }), { deleted: 5000, leftAlone: 0 });
    assert.equal(await redis.dbsize(), 100);
    const [, left] = await redis.scan('0', 'MATCH', 'bench:*', 'COUNT', 10_000);
    assert.deepEqual(left, []);
    assert.deepEqual(await deleteKeysMatching(ioredisLink(redis), 'bench:*'), { deleted: 0, leftAlone: 0 });
  });

  it('with `owns`, deletes only the keys it accepts and counts the others once, across SCAN rounds', async () => {
    await redis.flushdb();
    const own: string[] = [];
    for (let i = 0; i < 300; i++) own.push(`user:${String(i).padStart(12, '0')}`, 'x');
    await redis.mset(...own, 'user:alice', 'a', 'user:bob', 'b', 'user:0000000000001', 'one digit too many');
    const owns = (key: string) => /^user:\d{12}$/.test(key);
    assert.deepEqual(await deleteKeysMatching(ioredisLink(redis), 'user:*', { count: 10, owns }), { deleted: 300, leftAlone: 3 });
    assert.deepEqual((await redis.keys('user:*')).sort(), ['user:0000000000001', 'user:alice', 'user:bob']);
  });
});

// A key space filled by half, the ground truth of the hits-and-misses tests: keys 0 … space/2 − 1 of `k:__key__`,
// written by the engine's own SET load with a sequential draw, as a `prefill` phase does.
import assert from 'node:assert/strict';
import { runLoad } from '../../../src/engine';
import type { ConnectionOptions } from '../../../src/redis/types';
import { loadRequest, singleTest } from './plans';
import { useRedisServer, withRedis } from '../../helpers/redis';
import type { LocalServer } from '../../../src/redis/localServer';

export async function fillHalf(target: { host: string; port: number }, space: number, connection?: Partial<ConnectionOptions>): Promise<void> {
  const fill = await runLoad(
    loadRequest(target, {
      test: singleTest('SET k:__key__ __value__'),
      keys: { space, distribution: 'sequential' },
      load: { clients: 4, requests: space / 2 },
      ...(connection ? { connection } : {}),
    }),
  );
  assert.equal(fill.status, 'complete', fill.error);
  assert.equal(fill.total.misses, undefined, 'a write counts no misses');
}

/**
 * A redis-server of the describe block, flushed and half filled (`fillHalf`) before its tests: `truth()` is the
 * share of the key space absent, checked to be one half.
 */
export function useHalfFilledServer(space: number): { server: () => LocalServer; truth: () => number } {
  const server = useRedisServer();
  let truth = 0;
  before(async () => {
    await withRedis(server(), (redis) => redis.flushall());
    await fillHalf(server(), space);
    truth = 1 - (await withRedis(server(), (redis) => redis.dbsize())) / space;
    assert.equal(truth, 0.5);
  });
  return { server, truth: () => truth };
}

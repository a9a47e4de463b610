// Hits and misses on a Redis Cluster (issue 43): both cluster client paths count the nil replies of a read on
// every node, so over a half-filled key space GET's miss rate is the share of keys absent (counted on the
// masters), and hits + misses are the GETs the masters ran.
import assert from 'node:assert/strict';
import { runLoad } from '../../../src/engine';
import type { LoadResult } from '../../../src/engine/types';
import type { ClientPath } from '../../../src/scenario/plan';
import { useCluster, type TestCluster } from '../../helpers/cluster';
import { commandCalls } from '../../helpers/redis';
import { seedOf } from './clusterChecks';
import { groupTest, loadRequest, singleTest } from './plans';
import { fillHalf } from './halfFilled';

const SPACE = 2000;

/** Summed over the masters. */
async function onMasters(cluster: TestCluster, read: (port: number) => Promise<number>): Promise<number> {
  const { masters } = await cluster.roles();
  const counts = await Promise.all(masters.map(read));
  return counts.reduce((sum, n) => sum + n, 0);
}

function row(result: LoadResult, command: string) {
  const found = result.commands.find((c) => c.command === command);
  assert.ok(found, `a ${command} row`);
  assert.ok(found.misses !== undefined, `${command} counts misses`);
  return { ...found, misses: found.misses };
}

describe('hits and misses on a Redis Cluster (3 masters)', function () {
  this.timeout(90_000);
  const cluster = useCluster(3, 0);
  let present = 0;

  before(async () => {
    const { masters } = await cluster().roles();
    await Promise.all(masters.map((port) => cluster().client(port).flushall()));
    // Half of the key space, keys 0 … SPACE/2 − 1 (a sequential draw over the lower half), as a `prefill` phase would.
    await fillHalf(seedOf(cluster()), SPACE, { cluster: true });
    present = await onMasters(cluster(), (port) => cluster().client(port).dbsize());
    assert.equal(present, SPACE / 2);
  });

  beforeEach(async () => {
    const { masters } = await cluster().roles();
    await Promise.all(masters.map((port) => cluster().client(port).config('RESETSTAT')));
  });

  for (const client of ['fast', 'ioredis'] as ClientPath[]) {
    for (const pipeline of [1, 8]) {
      it(`${client}, pipeline ${pipeline}: GET over a half-filled space misses within 2 points of the keys absent; hits + misses = the masters' GETs`, async () => {
        const result = await runLoad(
          loadRequest(seedOf(cluster()), {
            client,
            test: singleTest('GET k:__key__'),
            keys: { space: SPACE, distribution: 'uniform' },
            load: { clients: 4, pipeline, requests: 12_000 },
            connection: { cluster: true },
          }),
        );
        assert.equal(result.status, 'complete', result.error);
        const get = row(result, 'GET');
        assert.equal(get.errors, 0);
        const truth = 1 - present / SPACE;
        const rate = get.misses / (get.requests - get.errors);
        assert.ok(Math.abs(rate - truth) <= 0.02, `miss rate ${rate} vs truth ${truth}`);
        const hits = get.requests - get.errors - get.misses;
        assert.equal(hits + get.misses, await onMasters(cluster(), (port) => commandCalls(cluster().client(port), 'get')));
        assert.equal(result.total.misses, get.misses, 'the total of a one-command test counts them too');
      });
    }

    it(`${client}: HGETALL of absent keys counts every empty array as a miss`, async () => {
      const result = await runLoad(
        loadRequest(seedOf(cluster()), {
          client,
          test: singleTest('HGETALL nothing:__key__'),
          keys: { space: SPACE },
          load: { clients: 3, pipeline: 4, requests: 3000 },
          connection: { cluster: true },
        }),
      );
      assert.equal(result.status, 'complete', result.error);
      assert.equal(row(result, 'HGETALL').misses, 3000);
    });

    it(`${client}: a group's read counts its misses on its own row (units go whole to their slot's master)`, async () => {
      const result = await runLoad(
        loadRequest(seedOf(cluster()), {
          client,
          test: groupTest('read-touch', ['GET k:__key__', 'EXISTS k:__key__']),
          keys: { space: SPACE, distribution: 'uniform' },
          load: { clients: 3, pipeline: 3, requests: 6000 },
          connection: { cluster: true },
        }),
      );
      assert.equal(result.status, 'complete', result.error);
      const get = row(result, 'GET');
      const rate = get.misses / (get.requests - get.errors);
      assert.ok(Math.abs(rate - (1 - present / SPACE)) <= 0.03, `miss rate ${rate}`);
      assert.equal(result.commands.find((c) => c.command === 'EXISTS')?.misses, 0, 'an integer reply is never a miss');
    });

    it(`${client}: MULTI / GET / EXEC on {tag}-free single keys: GET's misses come from EXEC's reply on each master`, async () => {
      const result = await runLoad(
        loadRequest(seedOf(cluster()), {
          client,
          test: groupTest('tx', ['MULTI', 'GET k:__key__', 'EXEC']),
          keys: { space: SPACE, distribution: 'uniform' },
          load: { clients: 3, pipeline: 3, requests: 6000 },
          connection: { cluster: true },
        }),
      );
      assert.equal(result.status, 'complete', result.error);
      assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorExamples));
      const get = row(result, 'GET');
      const rate = get.misses / get.requests;
      assert.ok(Math.abs(rate - (1 - present / SPACE)) <= 0.03, `miss rate ${rate}`);
    });

    it(`${client}: MGET of one key twice (one slot) counts each key not found`, async () => {
      const result = await runLoad(
        loadRequest(seedOf(cluster()), {
          client,
          test: singleTest('MGET k:__key__ k:__key__'),
          keys: { space: SPACE, distribution: 'uniform' },
          load: { clients: 3, pipeline: 4, requests: 6000 },
          connection: { cluster: true },
        }),
      );
      assert.equal(result.status, 'complete', result.error);
      const mget = row(result, 'MGET');
      assert.equal(mget.lookups, 12_000);
      assert.equal(mget.misses % 2, 0, 'a key is found twice or missed twice');
      const rate = mget.misses / mget.lookups!;
      assert.ok(Math.abs(rate - (1 - present / SPACE)) <= 0.03, `miss rate ${rate}`);
    });
  }
});

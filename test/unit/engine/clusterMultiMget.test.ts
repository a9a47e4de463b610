// A per-key read inside a transaction on a Redis Cluster (issue 43): MULTI / MGET of four keys of one slot / EXEC
// goes whole to the slot's master, and each key its MGET did not find (a nil two levels down, in EXEC's reply) is a
// miss, on both cluster client paths. The masters' keyspace_hits / keyspace_misses are the truth; a transaction EXEC
// discards (nil under WATCH) counts neither.
import assert from 'node:assert/strict';
import { runLoad } from '../../../src/engine';
import type { ClientPath } from '../../../src/scenario/plan';
import { lookupsOf, missRateOf } from '../../../src/results/missRate';
import { useCluster, type TestCluster } from '../../helpers/cluster';
import { seedOf } from './clusterChecks';
import { groupTest, loadRequest, singleTest } from './plans';
import { keyspaceCounts } from './keyspaceCounts';
import { missRow } from './missRow';

const SPACE = 2000;
/** Four keys of one slot (the {t} tag) per MGET, each drawn on its own. */
const MGET4 = 'MGET {t}k:__key__ {t}k:__rand_int__ {t}k:__rand_int__ {t}k:__rand_int__';

/** The masters' keyspace counters, summed. */
async function mastersKeyspace(cluster: TestCluster): Promise<{ hits: number; misses: number }> {
  const { masters } = await cluster.roles();
  const counts = await Promise.all(masters.map((port) => keyspaceCounts(cluster.client(port))));
  return counts.reduce((sum, c) => ({ hits: sum.hits + c.hits, misses: sum.misses + c.misses }), { hits: 0, misses: 0 });
}

describe('MGET inside MULTI … EXEC on a Redis Cluster (3 masters): misses per key', function () {
  this.timeout(90_000);
  const cluster = useCluster(3, 0);
  let truth = 0;

  before(async () => {
    const { masters } = await cluster().roles();
    await Promise.all(masters.map((port) => cluster().client(port).flushall()));
    // Half of the key space, keys 0 … SPACE/2 − 1, all in the {t} slot.
    const fill = await runLoad(
      loadRequest(seedOf(cluster()), {
        test: singleTest('SET {t}k:__key__ __value__'),
        keys: { space: SPACE, distribution: 'sequential' },
        load: { clients: 2, requests: SPACE / 2 },
        connection: { cluster: true },
      }),
    );
    assert.equal(fill.status, 'complete', fill.error);
    const sizes = await Promise.all(masters.map((port) => cluster().client(port).dbsize()));
    truth = 1 - sizes.reduce((sum, n) => sum + n, 0) / SPACE;
    assert.equal(truth, 0.5);
  });

  beforeEach(async () => {
    const { masters } = await cluster().roles();
    await Promise.all(masters.map((port) => cluster().client(port).config('RESETSTAT')));
  });

  for (const client of ['fast', 'ioredis'] as ClientPath[]) {
    it(`${client}: each key an MGET in a transaction did not find is a miss; hits + misses = the keys the masters looked up`, async () => {
      const units = 3000;
      const result = await runLoad(
        loadRequest(seedOf(cluster()), {
          client,
          test: groupTest('tx', ['MULTI', MGET4, 'EXEC']),
          keys: { space: SPACE, distribution: 'uniform' },
          load: { clients: 3, pipeline: 2, requests: units },
          connection: { cluster: true },
        }),
      );
      assert.equal(result.status, 'complete', result.error);
      assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorExamples));
      const mget = missRow(result.commands, 'MGET');
      assert.equal(mget.lookups, 4 * units);
      const missRate = missRateOf(mget)!;
      assert.ok(Math.abs(missRate - truth) <= 0.02, `MGET miss rate ${missRate} vs ${truth}`);
      const masters = await mastersKeyspace(cluster());
      assert.equal(mget.misses, masters.misses, "misses = the masters' keyspace_misses");
      assert.equal(lookupsOf(mget) - mget.misses, masters.hits, "hits = the masters' keyspace_hits");
    });

    it(`${client}: a transaction EXEC answers nil (WATCHed key touched) ran no MGET: no hits, no misses`, async () => {
      const units = 300;
      const result = await runLoad(
        loadRequest(seedOf(cluster()), {
          client,
          test: groupTest('watched', ['WATCH {t}w', 'SET {t}w 1', 'MULTI', MGET4, 'EXEC']),
          keys: { space: SPACE, distribution: 'uniform' },
          load: { clients: 2, pipeline: 2, requests: units },
          connection: { cluster: true },
        }),
      );
      assert.equal(result.total.errorsByKind['EXEC-NIL'], units, JSON.stringify(result.total.errorsByKind));
      const mget = missRow(result.commands, 'MGET');
      assert.equal(mget.misses, 0);
      assert.equal(mget.lookups, 0, 'no key asked');
      assert.deepEqual(await mastersKeyspace(cluster()), { hits: 0, misses: 0 }, 'the masters looked no key up');
    });
  }
});

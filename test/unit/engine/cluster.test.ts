import assert from 'node:assert/strict';
import { runLoad } from '../../../src/engine';
import { useCluster, type TestCluster } from '../../helpers/cluster';
import type Redis from 'ioredis';
import type { LoadPlan } from '../../../src/scenario/plan';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';
import { assertNodesAddUp, duringReshard, seedOf, sumOf, withNodeFrozen } from './clusterChecks';
import { useTestAbort } from '../../helpers/testAbort';
import { loadRequest, mixTest, singleTest } from './plans';
import { whenServerCalled } from '../../helpers/serverStall';
import { onLoadThread, type LoadThread } from './loadThread';

async function resetStats(cluster: TestCluster): Promise<void> {
  await Promise.all(cluster.nodes.map((n) => cluster.client(n.port).config('RESETSTAT')));
}

describe('runLoad against a Redis Cluster (3 masters, 3 replicas)', function () {
  this.timeout(90_000);
  const cluster = useCluster();
  const abort = useTestAbort();

  beforeEach(async () => {
    const { masters } = await cluster().roles();
    await Promise.all(masters.map((port) => cluster().client(port).flushall()));
    await resetStats(cluster());
  });

  for (const thread of ['worker', 'caller'] as LoadThread[]) {
    it(`routes redis-benchmark's INCR counter:__rand_int__ by its number (a load on the ${thread}'s thread): per-node counts match the servers, no MOVED, every INCR counted once`, async () => {
      await incrementsAddUp(thread);
    });
  }

  async function incrementsAddUp(thread: LoadThread): Promise<void> {
    const requests = 30_000;
    const result = await onLoadThread(thread, (onTick) =>
      runLoad(
        loadRequest(seedOf(cluster()), {
          test: singleTest('INCR counter:__rand_int__'),
          load: { clients: 6, pipeline: 16, requests, threads: 1 },
          keys: { space: 10_000 },
          connection: { cluster: true },
        }),
        { onTick },
      ),
    );
    assert.equal(result.status, 'complete', result.error);
    assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorsByKind));
    assert.equal(result.cluster!.moved, 0, "each request went to its slot's master first");
    const { masters } = await cluster().roles();
    let counted = 0;
    for (const port of masters) {
      const node = result.cluster!.nodes.find((n) => n.node === `127.0.0.1:${port}`)!;
      assert.equal(node.total.requests, await commandCalls(cluster().client(port), 'incr'), `master ${port}: the breakdown matches INFO commandstats`);
      assert.ok(node.total.requests > 5000, `master ${port} got ${node.total.requests} of ${requests}`);
      const client = cluster().client(port);
      const keys = await client.keys('counter:*');
      const replies = (await client.pipeline(keys.map((key) => ['get', key])).exec()) ?? [];
      counted += replies.reduce((sum, [, value]) => sum + Number(value), 0);
    }
    assert.equal(counted, requests, 'the counters add up to the requests');
    assertNodesAddUp(result);
  }

  it('routes every key to the master of its slot: every master gets load, and per-node counts match the servers', async () => {
    const result = await runLoad(
      loadRequest(seedOf(cluster()), {
        test: singleTest('SET key:__key__ __value__'),
        load: { clients: 6, pipeline: 16, requests: 30_000 },
        keys: { space: 10_000 },
        connection: { cluster: true },
      }),
    );
    assert.equal(result.status, 'complete', result.error);
    assert.equal(result.total.requests, 30_000);
    assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorsByKind));
    const { masters } = await cluster().roles();
    const nodes = result.cluster!.nodes;
    assert.equal(result.cluster!.detected, false);
    assert.equal(nodes.filter((n) => n.role === 'master').length, 3);
    for (const port of masters) {
      const node = nodes.find((n) => n.node === `127.0.0.1:${port}`);
      assert.ok(node, `master ${port} is in the breakdown`);
      const calls = await commandCalls(cluster().client(port), 'set');
      // Keys spread over all slots: each master owns a third of them.
      assert.ok(node.total.requests > 5000, `master ${port} got ${node.total.requests} of 30000`);
      assert.equal(node.total.requests, calls, `master ${port}: the breakdown matches INFO commandstats`);
      assert.ok(node.slots && /^\d+-\d+/.test(node.slots), `slots ${node.slots}`);
      assert.ok(node.total.opsPerSec > 0 && node.total.latency.p99Us > 0);
    }
    assertNodesAddUp(result);
    // No key of the space stuck on one slot: thousands of distinct keys on every master.
    const sizes = await Promise.all(masters.map((port) => cluster().client(port).dbsize()));
    for (const size of sizes) assert.ok(size > 2000, `keys per master ${sizes.join(', ')}`);
  });

  for (const loop of ['closed', 'open'] as const) {
    it(`writes each key once, on its slot's master, from batches built ordered by node (${loop} loop, sequential keys)`, async () => {
      const requests = 6000;
      const result = await runLoad(
        loadRequest(seedOf(cluster()), {
          test: singleTest('SET key:__key__ __value__'),
          load: { clients: 3, pipeline: 8, requests, ...(loop === 'open' ? { rate: 6000 } : {}) },
          keys: { space: 10_000, distribution: 'sequential' },
          connection: { cluster: true },
        }),
      );
      assert.equal(result.status, 'complete', result.error);
      assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorExamples));
      assert.equal(result.cluster!.moved, 0, 'no request reached a node that does not own its key');
      const { masters } = await cluster().roles();
      const calls = await Promise.all(masters.map((port) => commandCalls(cluster().client(port), 'set')));
      const sizes = await Promise.all(masters.map((port) => cluster().client(port).dbsize()));
      assert.equal(
        calls.reduce((a, b) => a + b, 0),
        requests,
      );
      // Keys 0 … 5999, each written once: a batch whose bytes were rewritten before they left would repeat some and miss others.
      assert.equal(
        sizes.reduce((a, b) => a + b, 0),
        requests,
        `keys per master ${sizes.join(', ')}`,
      );
      assert.ok(
        sizes.every((size) => size > 1000),
        `keys per master ${sizes.join(', ')}`,
      );
      assertNodesAddUp(result);
    });
  }

  describe('the per-node loop sends the single-server draws', () => {
    const single = useRedisServer();

    /** How many times each key was incremented, over every key of `client`'s server. */
    async function counts(client: Redis, into: Map<string, number>): Promise<void> {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, batch] = await client.scan(cursor, 'COUNT', 1000);
        cursor = next;
        keys.push(...batch);
      } while (cursor !== '0');
      // One GET each (a cluster node refuses MGET across slots), in one pipeline.
      const replies = (await keys.reduce((p, key) => p.get(key), client.pipeline()).exec()) ?? [];
      keys.forEach((key, i) => into.set(key, Number(replies[i][1])));
    }

    it('measures exactly the requests asked after a warm-up (what was drawn then and not sent is dropped), and a duration run ends on time', async () => {
      // One command over 10,000 keys on the cluster, with the load given.
      const run = (line: string, load: Partial<LoadPlan>) =>
        runLoad(
          loadRequest(seedOf(cluster()), {
            test: singleTest(line),
            load: { clients: 5, pipeline: 16, ...load },
            keys: { space: 10_000 },
            connection: { cluster: true },
          }),
        );
      const counted = await run('SET key:__key__ __value__', { requests: 50_000, warmupMs: 300 });
      assert.equal(counted.status, 'complete', counted.error);
      assert.equal(counted.total.requests, 50_000);
      assert.equal(counted.total.errors, 0);
      assertNodesAddUp(counted);
      const started = Date.now();
      const timed = await run('GET key:__key__', { durationMs: 1000, warmupMs: 200 });
      assert.equal(timed.status, 'complete', timed.error);
      assert.equal(timed.total.errors, 0);
      assert.ok(timed.total.requests > 1000, `${timed.total.requests} requests`);
      assert.ok(Date.now() - started < 5000, `ended after ${Date.now() - started} ms`);
      assertNodesAddUp(timed);
    });

    it('during a reshard too: MOVED and ASK followed from each link, every key incremented as often as on one server', async () => {
      // Loads of 50,000 INCRs, one after another until the reshard has ended (however long the machine makes it),
      // each drawing the same requests (one seed): the cluster's counts are the single server's, times the loads.
      const requests = 50_000;
      const options = { test: singleTest('INCR key:__key__'), keys: { space: 20_000 }, seed: 11 };
      const c = cluster();
      const clustered = await duringReshard(c, 0, 'incr', abort(), (signal) =>
        runLoad(loadRequest(seedOf(c), { ...options, load: { clients: 4, pipeline: 8, requests }, connection: { cluster: true } }), { signal }),
      );
      for (const result of clustered) {
        assert.equal(result.status, 'complete', result.error ?? result.errorStatusReason);
        assert.equal(result.total.requests, requests);
        assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorExamples));
        assertNodesAddUp(result);
      }
      assert.ok(
        sumOf(clustered, (r) => r.cluster!.moved + r.cluster!.ask) > 0,
        `the runs met the reshard: ${clustered.map((r) => `${r.cluster!.moved} MOVED ${r.cluster!.ask} ASK`).join(', ')}`,
      );
      await withRedis(single(), (client) => client.flushall());
      const plain = await runLoad(loadRequest(single(), { ...options, load: { clients: 4, pipeline: 24, requests } }));
      assert.equal(plain.status, 'complete', plain.error);
      // A redirected request whose bytes were rewritten before its resend would have incremented another key.
      const sent = new Map<string, number>();
      const { masters } = await c.roles();
      for (const port of masters) await counts(c.client(port), sent);
      const once = new Map<string, number>();
      await withRedis(single(), (client) => counts(client, once));
      const expected = new Map([...once].map(([key, count]) => [key, count * clustered.length]));
      assert.deepEqual(new Map([...sent].sort()), new Map([...expected].sort()));
    });

    for (const distribution of ['uniform', 'zipf', 'sequential'] as const) {
      it(`${distribution} keys: every key is sent as often as the single-server run of the same claims sends it (INCR counts, exact)`, async () => {
        const requests = 24_000;
        const keys = { space: 3000, distribution };
        const options = { test: singleTest('INCR key:__key__'), keys, seed: 7 };
        // The cluster path claims a pipeline per master at a time (3 × 8); the single server claims its pipeline (24),
        // so both draw the same claims: numbers 0-23, 24-47, … with keys seeded by each claim's first number.
        const clustered = await runLoad(
          loadRequest(seedOf(cluster()), { ...options, load: { clients: 6, pipeline: 8, requests }, connection: { cluster: true } }),
        );
        assert.equal(clustered.status, 'complete', clustered.error);
        assert.equal(clustered.total.errors, 0, JSON.stringify(clustered.total.errorExamples));
        assert.equal(clustered.cluster!.moved, 0);
        await withRedis(single(), (client) => client.flushall());
        const plain = await runLoad(loadRequest(single(), { ...options, load: { clients: 6, pipeline: 24, requests } }));
        assert.equal(plain.status, 'complete', plain.error);
        const sent = new Map<string, number>();
        const { masters } = await cluster().roles();
        for (const port of masters) await counts(cluster().client(port), sent);
        const expected = new Map<string, number>();
        await withRedis(single(), (client) => counts(client, expected));
        assert.equal(
          [...sent.values()].reduce((a, b) => a + b, 0),
          requests,
        );
        assert.ok(expected.size > (distribution === 'zipf' ? 300 : 2900), `${expected.size} distinct keys`);
        assert.deepEqual(new Map([...sent].sort()), new Map([...expected].sort()));
      });
    }
  });

  it('runs MSET with a shared hash tag in one slot, and a mix with a keyless command in open loop', async () => {
    const result = await runLoad(
      loadRequest(seedOf(cluster()), {
        test: mixTest([
          [1, 'MSET {user}:a:__key__ __value__ {user}:b:__key__ __value__'],
          [1, 'GET key:__key__'],
          [1, 'PING'],
        ]),
        load: { clients: 3, pipeline: 4, requests: 3000, rate: 3000 },
        connection: { cluster: true },
      }),
    );
    assert.equal(result.status, 'complete', result.error);
    assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorExamples));
    const mset = result.commands.find((c) => c.command === 'MSET')!;
    assert.ok(mset.requests > 800, `MSET requests: ${mset.requests} of 3000 (a third by weight)`);
    const { masters } = await cluster().roles();
    const msetCalls = await Promise.all(masters.map((port) => commandCalls(cluster().client(port), 'mset')));
    // The tag pins every MSET to the one master that owns slot({user}).
    assert.deepEqual(
      msetCalls.filter((c) => c > 0),
      [mset.requests],
    );
    // PING has no key: spread over the masters.
    const pings = await Promise.all(masters.map((port) => commandCalls(cluster().client(port), 'ping')));
    assert.ok(
      pings.every((calls) => calls > 100),
      `PING per master: ${pings.join(', ')}`,
    );
    assertNodesAddUp(result);
  });

  it('sends reads to replicas with replica reads on (READONLY), writes still to masters', async () => {
    const result = await runLoad(
      loadRequest(seedOf(cluster()), {
        test: mixTest([
          [1, 'GET key:__key__'],
          [1, 'SET key:__key__ __value__'],
        ]),
        load: { clients: 3, pipeline: 8, requests: 6000 },
        connection: { cluster: true, replicaReads: true },
      }),
    );
    assert.equal(result.status, 'complete', result.error);
    assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorExamples));
    const gets = result.commands.find((c) => c.command === 'GET')!.requests;
    const { masters, replicas } = await cluster().roles();
    const replicaGets = await Promise.all(replicas.map((port) => commandCalls(cluster().client(port), 'get')));
    const masterGets = await Promise.all(masters.map((port) => commandCalls(cluster().client(port), 'get')));
    for (const calls of replicaGets) assert.ok(calls > 0, `every replica served reads: ${replicaGets.join(', ')}`);
    assert.equal(
      replicaGets.reduce((a, b) => a + b, 0),
      gets,
      'every GET went to a replica',
    );
    assert.equal(
      masterGets.reduce((a, b) => a + b, 0),
      0,
    );
    const replicaRows = result.cluster!.nodes.filter((n) => n.role === 'replica');
    assert.equal(replicaRows.length, 3);
    assert.equal(
      replicaRows.reduce((sum, n) => sum + n.total.requests, 0),
      gets,
    );
    assertNodesAddUp(result);
  });

  it('runs the ioredis path with ioredis Cluster: per-node counts match each node, reads on replicas', async () => {
    const result = await runLoad(
      loadRequest(seedOf(cluster()), {
        client: 'ioredis',
        test: mixTest([
          [1, 'GET key:__key__'],
          [1, 'SET key:__key__ __value__'],
        ]),
        load: { clients: 3, pipeline: 4, requests: 6000 },
        keys: { space: 5000 },
        connection: { cluster: true, replicaReads: true },
      }),
    );
    assert.equal(result.status, 'complete', result.error);
    assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorExamples));
    const { masters, replicas } = await cluster().roles();
    for (const port of masters) {
      const node = result.cluster!.nodes.find((n) => n.node === `127.0.0.1:${port}`)!;
      assert.ok(node.total.requests > 300, `master ${port}: ${node.total.requests}`);
      assert.equal(node.total.requests, await commandCalls(cluster().client(port), 'set'), `master ${port} served the writes`);
    }
    for (const port of replicas) {
      const node = result.cluster!.nodes.find((n) => n.node === `127.0.0.1:${port}`);
      assert.ok(node, `replica ${port} is in the breakdown`);
      assert.equal(node.total.requests, await commandCalls(cluster().client(port), 'get'), `replica ${port} served the reads`);
    }
    assertNodesAddUp(result);
  });

  // Each run moves slots from master `step` to the next one round (step 2 would give master 0 back the very slots
  // step 0 took: its ranges whole again). ioredis loads run in a worker wherever they start (workerHeap.ts).
  const reshards: [client: 'fast' | 'ioredis', thread: LoadThread, step: number][] = [
    ['fast', 'worker', 0],
    ['ioredis', 'worker', 1],
    ['fast', 'caller', 3],
  ];
  for (const [client, thread, step] of reshards) {
    it(`survives a \`redis-cli --cluster reshard\` during a run (${client} client, a load on the ${thread}'s thread): MOVED followed and counted, no errors`, async function () {
      const c = cluster();
      // Runs of 3 s one after another until the reshard has ended: the load lasts as long as the migration.
      const results = await duringReshard(c, step, 'set', abort(), (signal) =>
        onLoadThread(thread, (onTick) =>
          runLoad(
            loadRequest(seedOf(c), {
              client,
              test: mixTest([
                [1, 'SET key:__key__ __value__'],
                [1, 'GET key:__key__'],
              ]),
              load: { clients: 4, pipeline: 4, durationMs: 3000, threads: 1 },
              keys: { space: 20_000 },
              connection: { cluster: true },
            }),
            { signal, onTick },
          ),
        ),
      );
      for (const result of results) {
        assert.equal(result.status, 'complete', result.error ?? result.errorStatusReason);
        assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorExamples));
        const info = result.cluster!;
        assert.equal(
          result.timeline.reduce((sum, s) => sum + (s.moved ?? 0), 0),
          info.moved,
          'MOVED per bucket add up',
        );
        // The fast path reloads the layout itself; ioredis reloads its own.
        if (client === 'fast' && info.moved > 0) assert.ok(info.topologyRefreshes >= 1, `slot map reloaded ${info.topologyRefreshes} times`);
        assert.equal(
          info.nodes.reduce((sum, n) => sum + n.moved, 0),
          info.moved,
        );
        assertNodesAddUp(result);
      }
      const moved = results.map((r) => r.cluster!.moved);
      assert.ok(sumOf(results, (r) => r.cluster!.moved) > 0, `MOVED counted: ${moved.join(', ')}`);
      // The master that received the slots shows them at the end.
      const { masters } = await c.roles();
      const gained = results.at(-1)!.cluster!.nodes.find((n) => n.node === `127.0.0.1:${masters[(step + 1) % masters.length]}`)!;
      assert.ok((gained.slots ?? '').split(',').length >= 2, `slots ${gained.slots}`);
    });
  }
});

describe('runLoad against a Redis Cluster with a frozen master', function () {
  this.timeout(60_000);
  const cluster = useCluster(3, 0);

  for (const thread of ['worker', 'caller'] as LoadThread[]) {
    it(`ends at the stall limit with the frozen node’s requests as TIMEOUT errors on that node, and node totals adding up (a load on the ${thread}'s thread)`, async () => {
      await endsAtStall(thread);
    });
  }

  async function endsAtStall(thread: LoadThread): Promise<void> {
    const c = cluster();
    const frozen = c.nodes[1];
    // The planned 30 s are out of reach: only the stall limit (1.5 s) can end the load.
    const result = await onLoadThread(thread, (onTick) =>
      withNodeFrozen(
        frozen,
        'set',
        300,
        runLoad(
          loadRequest(seedOf(c), {
            test: singleTest('SET key:__key__ __value__'),
            load: { clients: 4, pipeline: 4, durationMs: 30_000, stallTimeoutMs: 1500, threads: 1 },
            keys: { space: 10_000 },
            connection: { cluster: true },
          }),
          { onTick },
        ),
      ),
    );
    assert.equal(result.windowKind, 'first-send-to-stall');
    assert.equal(result.status, 'complete-with-errors');
    const node = result.cluster!.nodes.find((n) => n.node === `127.0.0.1:${frozen.port}`)!;
    assert.ok((node.total.errorsByKind.TIMEOUT ?? 0) > 0, JSON.stringify(node.total.errorsByKind));
    assert.equal(node.total.errors, result.total.errors, 'only the frozen node has errors');
    assertNodesAddUp(result);
  }
});

for (const client of ['fast', 'ioredis'] as const) {
  describe(`runLoad against a Redis Cluster whose masters are all lost (${client} client)`, function () {
    this.timeout(60_000);
    const cluster = useCluster(3, 0);

    it('ends by the server-lost rule (3 s) with status failed, a plain message, and the figures measured until then', async () => {
      const c = cluster();
      const running = runLoad(
        loadRequest(seedOf(c), {
          client,
          test: singleTest('SET key:__key__ __value__'),
          // The stall limit is far beyond the server-lost one: only the server-lost rule can end this load in time.
          load: { clients: 4, pipeline: 4, durationMs: 30_000, stallTimeoutMs: 25_000 },
          keys: { space: 10_000 },
          connection: { cluster: true },
        }),
      );
      // Killed once the masters have run 300 of the load's SETs (not at a wall-clock moment: on a busy machine the
      // load may not have sent any by then).
      let killedAt = 0;
      const nodes = c.nodes.map((node) => ({ host: '127.0.0.1', port: node.port }));
      const killed = whenServerCalled(nodes, 'set', 300, running, async () => {
        killedAt = Date.now();
        for (const node of c.nodes) node.process.kill('SIGKILL');
      });
      const result = await running;
      const endedAfterMs = Date.now() - killedAt;
      assert.ok(await killed, 'the masters were killed while the load ran');
      assert.equal(result.status, 'failed');
      assert.match(result.error ?? '', /could not reconnect for \d+ s/);
      // The rule waits its 3 s; the stall limit (25 s) and the duration (30 s) were not what ended the load.
      assert.ok(endedAfterMs >= 3000, `ended ${endedAfterMs} ms after every master was killed`);
      assert.notEqual(result.windowKind, 'first-send-to-stall');
      assert.ok(result.durationMs < 25_000, `measured ${result.durationMs} ms`);
      assert.ok(result.total.requests >= 300, 'what was measured before the loss is kept');
      assertNodesAddUp(result);
    });
  });
}

// Command groups and MULTI … EXEC transactions on a Redis Cluster: each unit goes whole to the master of its
// slot, units spread over all masters, per-node rows add up, and a MOVED inside a unit fails that unit only.
import assert from 'node:assert/strict';
import { runLoad } from '../../../src/engine';
import type { LoadResult } from '../../../src/engine/types';
import type { ClientPath } from '../../../src/scenario/plan';
import { useCluster, type TestCluster } from '../../helpers/cluster';
import { commandCalls } from '../../helpers/redis';
import { assertNodesAddUp, duringReshard, seedOf, sumOf, withNodeFrozen } from './clusterChecks';
import { useTestAbort } from '../../helpers/testAbort';
import { groupTest, loadRequest } from './plans';

/** Units per master as the breakdown says, checked against what each master ran (INFO commandstats `name`). */
async function unitsPerMaster(cluster: TestCluster, result: LoadResult, name: string): Promise<number[]> {
  const { masters } = await cluster.roles();
  const units: number[] = [];
  for (const port of masters) {
    const node = result.cluster!.nodes.find((n) => n.node === `127.0.0.1:${port}`);
    assert.ok(node, `master ${port} is in the breakdown`);
    assert.equal(node.total.requests, await commandCalls(cluster.client(port), name), `master ${port}: units = ${name} calls`);
    assert.ok(node.total.latency.p99Us > 0 && node.total.opsPerSec > 0, `master ${port} has figures`);
    units.push(node.total.requests);
  }
  return units;
}

describe('command groups on a Redis Cluster (3 masters)', function () {
  this.timeout(90_000);
  const cluster = useCluster(3, 0);
  const abort = useTestAbort();

  beforeEach(async () => {
    const { masters } = await cluster().roles();
    await Promise.all(
      masters.map(async (port) => {
        await cluster().client(port).flushall();
        await cluster().client(port).config('RESETSTAT');
      }),
    );
  });

  // Each client runs one of these in open loop (a rate) and the other in closed loop.
  for (const client of ['fast', 'ioredis'] as ClientPath[]) {
    describe(`${client} client`, () => {
      it("sends a SET/GET/DEL unit on one key whole to its slot's master: every master gets units, counts match the servers", async () => {
        const units = 3000;
        const result = await runLoad(
          loadRequest(seedOf(cluster()), {
            client,
            test: groupTest('set-get-del', ['SET k:__key__ __value__', 'GET k:__key__', 'DEL k:__key__']),
            load: { clients: 4, pipeline: 4, requests: units, rate: client === 'ioredis' ? 3000 : undefined },
            keys: { space: 10_000 },
            connection: { cluster: true },
          }),
        );
        assert.equal(result.status, 'complete', result.error);
        assert.equal(result.total.requests, units, 'a request is a unit');
        assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorExamples));
        assert.equal(result.total.latency.count, units, 'one latency per unit');
        assert.deepEqual(
          result.commands.map((c) => [c.command, c.requests, c.latency.count, c.errors]),
          ['SET', 'GET', 'DEL'].map((name) => [name, units, units, 0]),
        );
        const perMaster = await unitsPerMaster(cluster(), result, 'set');
        for (const count of perMaster) assert.ok(count > units / 6, `units per master: ${perMaster.join(', ')}`);
        assertNodesAddUp(result);
        const { masters } = await cluster().roles();
        for (const port of masters) {
          const c = cluster().client(port);
          assert.equal(await commandCalls(c, 'get'), await commandCalls(c, 'set'), `master ${port}: each unit ran whole there`);
          assert.equal(await c.dbsize(), 0, `master ${port}: every DEL removed the key its unit SET`);
        }
        for (const row of result.commands) assert.ok(result.total.latency.maxUs >= row.latency.maxUs, `a unit waits for its last reply (${row.command})`);
      });

      it('runs MULTI/SET/INCR/EXEC with a shared {__key__} tag as one transaction per unit: EXEC calls per master = its units', async () => {
        const units = 2000;
        const result = await runLoad(
          loadRequest(seedOf(cluster()), {
            client,
            test: groupTest('tx', ['MULTI', 'SET {__key__}:v __value__', 'INCR {__key__}:n', 'EXEC']),
            load: { clients: 3, pipeline: 3, requests: units, rate: client === 'fast' ? 4000 : undefined },
            keys: { space: 10_000 },
            connection: { cluster: true },
          }),
        );
        assert.equal(result.status, 'complete', result.error);
        assert.equal(result.total.requests, units);
        assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorExamples));
        assert.deepEqual(
          result.commands.map((c) => [c.command, c.requests, c.errors]),
          ['MULTI', 'SET', 'INCR', 'EXEC'].map((name) => [name, units, 0]),
        );
        const perMaster = await unitsPerMaster(cluster(), result, 'exec');
        for (const count of perMaster) assert.ok(count > units / 6, `units per master: ${perMaster.join(', ')}`);
        assert.equal(
          perMaster.reduce((a, b) => a + b, 0),
          units,
        );
        const { masters } = await cluster().roles();
        for (const port of masters) {
          const c = cluster().client(port);
          for (const name of ['multi', 'set', 'incr'])
            assert.equal(await commandCalls(c, name), await commandCalls(c, 'exec'), `master ${port}: ${name} ran in its transactions`);
        }
        assertNodesAddUp(result);
      });
    });
  }

  for (const client of ['fast', 'ioredis'] as ClientPath[]) {
    it(`spreads units without a key over the masters, each counted where it ran (${client} client)`, async () => {
      const units = 600;
      const result = await runLoad(
        loadRequest(seedOf(cluster()), {
          client,
          test: groupTest('ping-echo', ['PING', 'ECHO x']),
          load: { clients: 3, pipeline: 2, requests: units },
          connection: { cluster: true },
        }),
      );
      assert.equal(result.status, 'complete', result.error);
      assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorExamples));
      const perMaster = await unitsPerMaster(cluster(), result, 'echo');
      for (const count of perMaster) assert.ok(count > 0, `units per master: ${perMaster.join(', ')}`);
      assertNodesAddUp(result);
    });
  }

  it('refuses, before sending anything, a group whose keys can straddle slots', async () => {
    await assert.rejects(
      runLoad(loadRequest(seedOf(cluster()), { test: groupTest('pair', ['SET a:__key__ x', 'GET b:__key__']), connection: { cluster: true } })),
      /^LoadError: group pair: on a Redis Cluster all keys of a unit must be in one hash slot: `a:__key__`, `b:__key__` have no \{hash tag\}\. Use the same key in every command .* `a:\{__key__\}` and `b:\{__key__\}`/,
    );
    const { masters } = await cluster().roles();
    for (const port of masters) assert.equal(await commandCalls(cluster().client(port), 'set'), 0, `master ${port} got nothing`);
  });

  for (const client of ['fast', 'ioredis'] as ClientPath[]) {
    it(`counts a transaction that meets MOVED during a reshard as one error unit, reloads the slot map and goes on (${client} client)`, async () => {
      const c = cluster();
      const step = client === 'fast' ? 0 : 1;
      // Runs of 3 s one after another until the reshard has ended: the load lasts as long as the migration.
      const results = await duringReshard(c, step, 'exec', abort(), (signal) =>
        runLoad(
          loadRequest(seedOf(c), {
            client,
            test: groupTest('tx', ['MULTI', 'SET {__key__}:v __value__', 'INCR {__key__}:n', 'EXEC']),
            load: { clients: 3, pipeline: 4, durationMs: 3000 },
            keys: { space: 20_000 },
            connection: { cluster: true },
          }),
          { signal },
        ),
      );
      const redirectedOf = (result: LoadResult) => (result.total.errorsByKind.MOVED ?? 0) + (result.total.errorsByKind.ASK ?? 0);
      for (const result of results) {
        assert.equal(result.windowKind, 'planned-duration', 'the run lasted its duration, no more');
        assert.equal(result.status, 'complete', result.error ?? result.errorStatusReason);
        const info = result.cluster!;
        const redirected = redirectedOf(result);
        // Each such unit once (no resend loop), its redirection counted once.
        assert.equal(redirected, info.moved + info.ask, 'one redirection per failed unit');
        assert.ok(redirected < result.total.requests / 4, `${redirected} of ${result.total.requests} units failed: the map was reloaded`);
        const exec = result.commands.find((r) => r.command === 'EXEC')!;
        assert.equal(exec.errorsByKind.EXECABORT ?? 0, redirected, 'EXEC answered EXECABORT in each redirected transaction');
        assertNodesAddUp(result);
      }
      const kinds = JSON.stringify(results.map((r) => r.total.errorsByKind));
      assert.ok(sumOf(results, (r) => r.cluster!.moved) > 0, `MOVED counted: ${results.map((r) => r.cluster!.moved).join(', ')} (${kinds})`);
      assert.ok(sumOf(results, redirectedOf) > 0, `units failed by a redirection: ${kinds}`);
    });
  }

  for (const client of ['fast', 'ioredis'] as ClientPath[]) {
    it(`ends at the stall limit with the frozen master's units as TIMEOUT errors, each unit once, on that node (${client} client)`, async () => {
      const c = cluster();
      const frozen = c.nodes[1];
      // The planned 30 s are out of reach: only the stall limit (1.5 s) can end the load.
      const result = await withNodeFrozen(
        frozen,
        'set',
        300,
        runLoad(
          loadRequest(seedOf(c), {
            client,
            test: groupTest('set-get-del', ['SET k:__key__ __value__', 'GET k:__key__', 'DEL k:__key__']),
            load: { clients: 3, pipeline: 4, durationMs: 30_000, stallTimeoutMs: 1500 },
            keys: { space: 10_000 },
            connection: { cluster: true },
          }),
        ),
      );
      assert.equal(result.windowKind, 'first-send-to-stall');
      assert.equal(result.status, 'complete-with-errors');
      const units = result.total.errorsByKind.TIMEOUT ?? 0;
      assert.ok(units > 0 && units === result.total.errors, JSON.stringify(result.total.errorsByKind));
      const node = result.cluster!.nodes.find((n) => n.node === `127.0.0.1:${frozen.port}`)!;
      assert.equal(node.total.errorsByKind.TIMEOUT, units, "the timed-out units are the frozen node's");
      // A unit left unanswered always misses its last command's reply; earlier ones at most once per unit.
      const rows = Object.fromEntries(result.commands.map((row) => [row.command, row.errorsByKind.TIMEOUT ?? 0]));
      assert.equal(rows.DEL, units, JSON.stringify(rows));
      assert.ok(rows.SET >= 1 && rows.SET <= units && rows.GET <= units, JSON.stringify(rows));
      assertNodesAddUp(result);
    });
  }
});

describe('command groups on a Redis Cluster with replicas, replica reads on', function () {
  this.timeout(90_000);
  const cluster = useCluster(3, 1);

  for (const client of ['fast', 'ioredis'] as ClientPath[]) {
    it(`keeps each unit whole on its slot's master, its reads too (${client} client)`, async () => {
      const c = cluster();
      const { masters, replicas } = await c.roles();
      await Promise.all([...masters, ...replicas].map((port) => c.client(port).config('RESETSTAT')));
      const units = 2000;
      const result = await runLoad(
        loadRequest(seedOf(c), {
          client,
          // A read first: ioredis would send such a pipeline to a replica whole.
          test: groupTest('get-set-del', ['GET k:__key__', 'SET k:__key__ __value__', 'DEL k:__key__']),
          load: { clients: 3, pipeline: 4, requests: units },
          keys: { space: 10_000 },
          connection: { cluster: true, replicaReads: true },
        }),
      );
      assert.equal(result.status, 'complete', result.error);
      assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorExamples));
      const replicaGets = await Promise.all(replicas.map((port) => commandCalls(c.client(port), 'get')));
      assert.deepEqual(
        replicaGets,
        replicas.map(() => 0),
        'no read of a unit went to a replica',
      );
      const perMaster = await unitsPerMaster(c, result, 'get');
      assert.equal(
        perMaster.reduce((a, b) => a + b, 0),
        units,
      );
      for (const port of masters) assert.equal(await commandCalls(c.client(port), 'set'), await commandCalls(c.client(port), 'get'), `master ${port}`);
      assertNodesAddUp(result);
    });
  }
});

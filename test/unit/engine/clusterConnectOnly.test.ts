// `connect-only on` against a real Redis Cluster (3 masters): each request is one connection to one master, the
// masters taken in turn. The masters' own counts are the truth: beside the fixed connections a reference run
// makes (the slot map's discovery, less a link per master per client), each master receives exactly the
// connections its row in the result counts, R over all of them; the masters run the handshake's PING per
// connection and no command of the load's own.
import assert from 'node:assert/strict';
import { runLoad, type LoadResult } from '../../../src/engine';
import type { LoadPlan, TestPlan } from '../../../src/scenario/plan';
import { useCluster } from '../../helpers/cluster';
import { allCommandCalls, callsAdded } from '../../helpers/redis';
import { assertNodesAddUp, seedOf } from './clusterChecks';
import { loadRequest, singleTest } from './plans';

const MASTERS = 3;
/** The test the checker makes of a connect-only phase (src/scenario/connectOnly.ts): its request's command is the handshake's PING. */
const CONNECT_TEST: TestPlan = { name: 'connect', commands: [{ weight: 1, command: { name: 'PING', label: 'connect', args: [] } }] };

describe('connect-only on a Redis Cluster (3 masters)', function () {
  this.timeout(90_000);
  const cluster = useCluster(MASTERS, 0);

  /** Per master port: connections received so far (INFO stats). */
  async function receivedByMaster(): Promise<Map<number, number>> {
    const { masters } = await cluster().roles();
    assert.equal(masters.length, MASTERS);
    const counts = await Promise.all(
      masters.map(async (port) => Number(/total_connections_received:(\d+)/.exec(await cluster().client(port).info('stats'))![1])),
    );
    return new Map(masters.map((port, i) => [port, counts[i]]));
  }
  /** Calls per command summed over the masters (INFO commandstats). */
  async function commandstats(): Promise<Map<string, number>> {
    const { masters } = await cluster().roles();
    const calls = new Map<string, number>();
    for (const port of masters) await allCommandCalls(cluster().client(port), calls);
    return calls;
  }
  const delta = callsAdded;

  /** The load's result, the connections each master received while it ran, and the commands the masters ran. */
  async function run(
    load: Partial<LoadPlan>,
    test: TestPlan,
  ): Promise<{ result: LoadResult; received: Map<number, number>; commands: Record<string, number> }> {
    const before = await receivedByMaster();
    const commandsBefore = await commandstats();
    const result = await runLoad(loadRequest(seedOf(cluster()), { test, load, keys: { space: 1000 }, connection: { cluster: true } }));
    const after = await receivedByMaster();
    const commands = delta(commandsBefore, await commandstats());
    return { result, received: new Map([...after].map(([port, n]) => [port, n - before.get(port)!])), commands };
  }

  const portOf = (node: string) => Number(node.slice(node.lastIndexOf(':') + 1));

  for (const { name, load } of [
    { name: 'closed loop, 4 clients', load: { clients: 4 } },
    { name: 'open loop at 600/s, 2 clients', load: { clients: 2, rate: 600 } },
  ]) {
    it(`${name}: R requests are R connections over the masters, each master's share in its row, PING only, every set-up timed`, async () => {
      const clients = load.clients;
      const requests = 300;
      // The reference: GETs on `clients` connections of a link per master: what a run opens besides its load, per master.
      const reference = await run({ clients, requests: 30 }, singleTest('GET k:__key__'));
      assert.equal(reference.result.status, 'complete', reference.result.error);
      const fixed = new Map([...reference.received].map(([port, n]) => [port, n - clients]));
      const { result, received, commands } = await run({ ...load, requests, connectOnly: true }, CONNECT_TEST);
      assert.equal(result.status, 'complete', result.error);
      assert.equal(result.total.requests, requests);
      assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorExamples));
      assert.equal(result.commands[0].command, 'connect');
      assertNodesAddUp(result);
      // Each master received exactly the connections its row counts; R over all the masters.
      const storm = new Map([...received].map(([port, n]) => [port, n - fixed.get(port)!]));
      const rows = new Map(result.cluster!.nodes.filter((n) => n.role === 'master').map((n) => [portOf(n.node), n.total.requests]));
      assert.deepEqual(storm, rows, 'per master: connections received = its row');
      assert.equal(
        [...storm.values()].reduce((a, b) => a + b, 0),
        requests,
        'one connection per request',
      );
      // Taken in turn: every master gets about a third.
      for (const [port, n] of storm) assert.ok(n >= requests / MASTERS - 2 * clients && n <= requests / MASTERS + 2 * clients, `${port}: ${n}`);
      // The reference's commands without its GETs and its links' PINGs, and a PING per storm connection.
      const expected: Record<string, number> = { ...reference.commands, ping: (reference.commands.ping ?? 0) - clients * MASTERS + requests };
      delete expected.get;
      assert.deepEqual(commands, expected);
      assert.equal(result.connections.opened, 0);
      assert.equal(result.connections.cycles, requests);
      assert.equal(result.connections.reconnects, 0);
      assert.equal(result.connections.setup?.latency.count, requests);
      assert.ok(result.total.latency.p50Us > 0);
    });
  }
});

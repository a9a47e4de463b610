// `reconnect every N` on a real Redis Cluster (3 masters), fast client path: a client's connection is its links,
// one per master, so each cycle closes them all and opens one to every master again. The masters' own count of
// connections received (INFO stats, read on connections opened before) is the truth: beside the fixed connections a
// reference run without cycles makes, it grows by (connections opened + cycles) × masters; each master ran the
// requests routed to it (commandstats), and every cycle's set-up was timed. The ioredis client path too (below).
import assert from 'node:assert/strict';
import { runLoad, type LoadResult } from '../../../src/engine';
import type { ClientPath, LoadPlan } from '../../../src/scenario/plan';
import { useCluster } from '../../helpers/cluster';
import { commandCalls } from '../../helpers/redis';
import { assertNodesAddUp, seedOf } from './clusterChecks';
import { loadRequest, singleTest } from './plans';

const MASTERS = 3;

describe('reconnect every N on a Redis Cluster (3 masters)', function () {
  this.timeout(90_000);
  const cluster = useCluster(MASTERS, 0);

  beforeEach(async () => {
    const { masters } = await cluster().roles();
    await Promise.all(masters.map((port) => cluster().client(port).config('RESETSTAT')));
  });

  const sumOverMasters = async (read: (port: number) => Promise<number>) => {
    const { masters } = await cluster().roles();
    assert.equal(masters.length, MASTERS);
    return (await Promise.all(masters.map(read))).reduce((a, b) => a + b, 0);
  };
  const connectionsReceived = () =>
    sumOverMasters(async (port) => Number(/total_connections_received:(\d+)/.exec(await cluster().client(port).info('stats'))![1]));
  const getCalls = () => sumOverMasters((port) => commandCalls(cluster().client(port), 'get'));

  /** The load's result, and how many connections the masters received while it ran. */
  async function run(load: Partial<LoadPlan>, client: ClientPath = 'fast'): Promise<{ result: LoadResult; received: number }> {
    const before = await connectionsReceived();
    const result = await runLoad(
      loadRequest(seedOf(cluster()), { client, test: singleTest('GET k:__key__'), load, keys: { space: 1000 }, connection: { cluster: true } }),
    );
    return { result, received: (await connectionsReceived()) - before };
  }

  /** Connections the run makes besides its load's links (the slot map's discovery): a run without cycles, less a link per master per client. */
  async function fixedConnections(clients: number): Promise<number> {
    const reference = await run({ clients, requests: 30 });
    assert.equal(reference.result.status, 'complete', reference.result.error);
    return reference.received - clients * MASTERS;
  }

  // ioredis: a client connection is a new Cluster client, which reads the slot map on a connection of its own
  // (ioredis's refresher: one CLUSTER SLOTS, then closed) before its links, one per master. So the masters receive
  // (opened + cycles) × (masters + 1) connections, the `+ 1` each a CLUSTER SLOTS call; the refresher also runs every
  // 5 s of a client's life (ioredis's slotsRefreshInterval), one connection and one CLUSTER SLOTS each: so the count
  // held exact is connections = links + CLUSTER SLOTS calls, each read from the masters' own counters. The fast
  // client reads no slot map during the load (the run read it once before, as the reference run did).
  const slotsCalls = () => sumOverMasters((port) => commandCalls(cluster().client(port), 'cluster\\|slots'));

  const cases: { client: ClientPath; name: string; load: Partial<LoadPlan>; requests: number; connections: number }[] = [
    { client: 'fast', name: 'reconnect every 1, 2 clients, closed loop', load: { clients: 2, reconnectEvery: 1 }, requests: 60, connections: 60 },
    { client: 'fast', name: 'reconnect every 10, 1 client, pipeline 4', load: { clients: 1, reconnectEvery: 10, pipeline: 4 }, requests: 200, connections: 20 },
    {
      client: 'fast',
      name: 'reconnect every 5, 1 client, open loop at 400/s',
      load: { clients: 1, reconnectEvery: 5, rate: 400 },
      requests: 100,
      connections: 20,
    },
    { client: 'ioredis', name: 'reconnect every 1, 2 clients, closed loop', load: { clients: 2, reconnectEvery: 1 }, requests: 60, connections: 60 },
    {
      client: 'ioredis',
      name: 'reconnect every 5, 1 client, open loop at 400/s',
      load: { clients: 1, reconnectEvery: 5, rate: 400 },
      requests: 100,
      connections: 20,
    },
  ];
  for (const { client, name, load, requests, connections } of cases) {
    const links = client === 'fast' ? `${MASTERS} links` : `${MASTERS} links and a slot-map read`;
    it(`${client}, ${name}: each client connection is ${links}, the ${requests} requests run exactly, every set-up timed`, async () => {
      const slotsBeforeReference = await slotsCalls();
      const fixed = await fixedConnections(load.clients!);
      const fixedSlots = (await slotsCalls()) - slotsBeforeReference;
      const callsBefore = await getCalls();
      const slotsBefore = await slotsCalls();
      const { result, received } = await run({ ...load, requests }, client);
      assert.equal(result.status, 'complete', result.error);
      assert.equal(result.total.requests, requests);
      assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorExamples));
      assert.equal((await getCalls()) - callsBefore, requests, 'the masters ran every request once (commandstats)');
      assertNodesAddUp(result);
      const made = result.connections.opened + (result.connections.cycles ?? 0);
      assert.equal(made, connections, 'a client connection per N requests');
      const slotReads = (await slotsCalls()) - slotsBefore - fixedSlots;
      if (client === 'fast') assert.equal(slotReads, 0);
      else assert.ok(slotReads >= made, `a slot-map read per client connection at least: ${slotReads} for ${made}`);
      assert.equal(received - fixed, made * MASTERS + slotReads, 'each client connection: a link to every master (and a connection per CLUSTER SLOTS)');
      assert.equal(result.connections.reconnects, 0, 'planned closes are not losses');
      assert.equal(result.connections.setup?.latency.count, made, 'every client connection made was timed');
      assert.ok(result.connections.setup.latency.p50Us > 0);
    });
  }
});

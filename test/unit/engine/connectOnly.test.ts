// `connect-only on` (a connection storm) against a real server: the server's own count of connections received
// (INFO stats) and of commands run (INFO commandstats) are the truth the engine's figures are held to.
import assert from 'node:assert/strict';
import { runLoad, type LoadResult } from '../../../src/engine';
import type { LoadPlan, TestPlan } from '../../../src/scenario/plan';
import { allCommandCalls, callsAdded, connectionsReceived as readConnectionsReceived, useObserver, useRedisServer } from '../../helpers/redis';
import { loadRequest, singleTest } from './plans';

/** The test the checker makes of a connect-only phase (src/scenario/connectOnly.ts): its request's command is the handshake's PING. */
const CONNECT_TEST: TestPlan = { name: 'connect', commands: [{ weight: 1, command: { name: 'PING', label: 'connect', args: [] } }] };

describe('connect-only: a connection per request, no command of its own', function () {
  this.timeout(90_000);
  const server = useRedisServer();
  const observe = useObserver(server);
  const connectionsReceived = () => readConnectionsReceived(observe());
  const commandstats = () => allCommandCalls(observe());
  const delta = callsAdded;

  /** The load's result, the connections the server received while it ran, and the commands it ran (the observer's own reads included). */
  async function run(load: Partial<LoadPlan>, test: TestPlan): Promise<{ result: LoadResult; received: number; commands: Record<string, number> }> {
    const received = await connectionsReceived();
    const commands = await commandstats();
    const result = await runLoad(loadRequest(server(), { test, load }));
    const receivedAfter = await connectionsReceived();
    return { result, received: receivedAfter - received, commands: delta(commands, await commandstats()) };
  }

  it('closed loop: N requests are N connections the server received, with their handshake PING and nothing else, each timed', async () => {
    const clients = 4;
    const requests = 200;
    // The reference: a plain load of GETs on `clients` connections, to learn the fixed connections and commands of a run.
    const reference = await run({ clients, requests }, singleTest('GET k'));
    assert.equal(reference.result.status, 'complete', reference.result.error);
    const fixedConnections = reference.received - clients;
    const { result, received, commands } = await run({ clients, requests, connectOnly: true }, CONNECT_TEST);
    assert.equal(result.status, 'complete', result.error);
    assert.equal(received - fixedConnections, requests, 'one connection per request');
    // The reference's commands without its GETs, and a PING per storm connection instead of one per load connection.
    const expected: Record<string, number> = { ...reference.commands, ping: (reference.commands.ping ?? 0) - clients + requests };
    delete expected.get;
    assert.deepEqual(commands, expected);
    assert.equal(result.total.requests, requests);
    assert.equal(result.total.errors, 0);
    assert.equal(result.commands[0].command, 'connect');
    assert.ok(result.total.latency.p50Us > 0);
    // Nothing opened before the load; every connection a planned one; the set-up histogram holds each.
    assert.equal(result.connections.opened, 0);
    assert.equal(result.connections.cycles, requests);
    assert.equal(result.connections.reconnects, 0);
    assert.equal(result.connections.setup?.latency.count, requests);
    // What the load sent is its handshakes: the server-truth check places every PING.
    assert.equal(result.sent?.handshakes?.ping, requests);
    assert.equal(result.sent?.byLabel.connect ?? 0, 0);
  });

  it('open loop: `rate` paces the connections; the count stays exact', async () => {
    const requests = 100;
    const { result, received } = await run({ clients: 2, requests, rate: 500, connectOnly: true }, CONNECT_TEST);
    assert.equal(result.status, 'complete', result.error);
    assert.equal(result.total.requests, requests);
    assert.equal(result.total.errors, 0);
    assert.equal(result.connections.cycles, requests);
    assert.equal(result.connections.setup?.latency.count, requests);
    // The run's own control connections are the same few as in the closed loop's reference; at least the storm's.
    assert.ok(received >= requests, String(received));
  });

  it('a server refusing connections (maxclients reached) counts them as errors of the row, then ends with a plain message', async () => {
    const maxclients = (await observe().config('GET', 'maxclients')) as string[];
    try {
      // Full: the observer is the last client the server takes (the engine's load opens no control connection).
      const connected = Number(/connected_clients:(\d+)/.exec(await observe().info('clients'))![1]);
      await observe().config('SET', 'maxclients', String(connected));
      const result = await runLoad(loadRequest(server(), { test: CONNECT_TEST, load: { clients: 1, requests: 1000, connectOnly: true } }));
      assert.equal(result.status, 'failed');
      assert.match(result.error ?? '', /connect-only: 50 connections in a row failed, the last with: .*max number of clients/);
      assert.equal(result.total.errors, 50);
      assert.ok(!/\n\s+at /.test(result.error ?? ''), 'no stack trace');
    } finally {
      await observe().config('SET', 'maxclients', maxclients[1]);
    }
  });
});

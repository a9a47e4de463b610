// `reconnect every N`, `idle-connections N` and the connections' set-up times, against a real server: the server's own
// count of connections received (INFO stats) and its client list are the truth the engine's figures are held to.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { LoadError, runLoad, type LoadResult } from '../../../src/engine';
import { descriptorProblem } from '../../../src/engine/capacity';
import type { ClientPath, LoadPlan } from '../../../src/scenario/plan';
import { commandCalls, connectionsReceived as readConnectionsReceived, useObserver, useRedisServer, withRedis } from '../../helpers/redis';
import { loadRequest, singleTest } from './plans';

describe('connection churn: reconnect every N, idle connections, set-up times', function () {
  this.timeout(90_000);
  const server = useRedisServer();
  const observe = useObserver(server);
  const connectionsReceived = () => readConnectionsReceived(observe());

  /** The load's result and how many connections the server received while it ran. */
  async function run(load: Partial<LoadPlan>, client: ClientPath = 'fast', line = 'PING'): Promise<{ result: LoadResult; received: number }> {
    const before = await connectionsReceived();
    const result = await runLoad(loadRequest(server(), { test: singleTest(line), load, client }));
    return { result, received: (await connectionsReceived()) - before };
  }

  for (const client of ['fast', 'ioredis'] as const) {
    it(`${client}: reconnect every 1 opens a connection per request (the server counts R, beside the reference run's fixed ones)`, async () => {
      const clients = 4;
      const requests = 300;
      const reference = await run({ clients, requests }, client);
      assert.equal(reference.result.status, 'complete');
      const fixed = reference.received - clients;
      const { result, received } = await run({ clients, requests, reconnectEvery: 1 }, client);
      assert.equal(result.status, 'complete', result.error);
      assert.equal(result.total.requests, requests);
      assert.equal(result.total.errors, 0);
      assert.equal(received - fixed, requests, 'one connection per request');
      assert.equal(result.connections.opened + (result.connections.cycles ?? 0), requests);
      assert.equal(result.connections.reconnects, 0, 'planned closes are not losses');
      // Every connection's set-up was timed: the histogram counts the connections made.
      assert.equal(result.connections.setup?.latency.count, requests);
      assert.ok(result.connections.setup.latency.p50Us > 0);
    });
  }

  it('reconnect every 10: the server receives R/10 connections; a batch never spans two (pipeline 4: batches of 4, 4, 2)', async () => {
    const requests = 400;
    const pingsBefore = await commandCalls(observe(), 'ping');
    const { result, received } = await run({ clients: 1, requests, pipeline: 4, reconnectEvery: 10 });
    assert.equal(result.status, 'complete', result.error);
    assert.equal(result.total.requests, requests);
    assert.equal(received, requests / 10);
    assert.equal(result.connections.cycles, requests / 10 - 1);
    assert.equal(result.connections.setup?.latency.count, requests / 10);
    // The requests' PINGs and each connection's handshake PING, as the run file says it sent them.
    assert.equal(result.sent?.handshakes?.ping, requests / 10);
    assert.equal((await commandCalls(observe(), 'ping')) - pingsBefore, requests + requests / 10);
  });

  it('reconnect every 5 in the open loop (a rate): R/5 connections, every request answered', async () => {
    const requests = 200;
    const { result, received } = await run({ clients: 1, requests, rate: 2000, reconnectEvery: 5 });
    assert.equal(result.status, 'complete', result.error);
    assert.equal(result.total.requests, requests);
    assert.equal(result.total.errors, 0);
    assert.equal(received, requests / 5);
    assert.equal(result.connections.setup?.latency.count, requests / 5);
  });

  it('reconnect every 3 for a duration: the load goes on over new connections, each one counted and timed', async () => {
    const { result, received } = await run({ clients: 2, durationMs: 500, reconnectEvery: 3 }, 'fast', 'GET key:__key__');
    assert.equal(result.status, 'complete', result.error);
    assert.ok(result.total.requests > 30);
    assert.equal(result.total.errors, 0);
    const made = result.connections.opened + (result.connections.cycles ?? 0);
    assert.equal(received, made);
    assert.equal(result.connections.setup?.latency.count, made);
    // At most 3 requests per connection: at least a third as many connections as requests sent.
    assert.ok(made * 3 >= result.sent!.requests, `${made} connections for ${result.sent!.requests} requests`);
  });

  for (const client of ['fast', 'ioredis'] as const) {
    it(`${client}: idle-connections 20 are held open beside the load (CLIENT LIST while it runs), then closed`, async () => {
      const idle = 20;
      const clients = 3;
      const before = await connectionsReceived();
      const running = runLoad(
        loadRequest(server(), { test: singleTest('GET key:__key__'), load: { clients, durationMs: 1500, idleConnections: idle }, client }),
      );
      // The idle connections' last command is their handshake's PING; the load's are GETs.
      let idleSeen = 0;
      let connectedSeen = 0;
      let settled = false;
      void running.finally(() => (settled = true));
      while (!settled) {
        const list = String(await observe().call('CLIENT', 'LIST'));
        const lines = list.split('\n').filter((line) => line.includes('cmd='));
        // Counted only once every load connection has sent a GET: a load connection just opened
        // (its handshake PING its last command) would otherwise be taken for an idle one.
        if (lines.filter((line) => / cmd=get /.test(line)).length === clients)
          idleSeen = Math.max(idleSeen, lines.filter((line) => / cmd=ping /.test(line)).length);
        connectedSeen = Math.max(connectedSeen, lines.length);
        await sleep(50);
      }
      const result = await running;
      assert.equal(result.status, 'complete', result.error);
      assert.equal(idleSeen, idle);
      assert.equal(connectedSeen, idle + clients + 1, 'the load, the idle ones and this test');
      assert.equal(result.connections.idle, idle);
      assert.equal(result.connections.setup?.latency.count, clients + idle);
      assert.equal((await connectionsReceived()) - before, clients + idle);
      // Closed with the load (the server notices within a few polls).
      let left = Infinity;
      for (let i = 0; i < 100 && left > 1; i++) {
        left = Number(/connected_clients:(\d+)/.exec(await observe().info('clients'))![1]);
        if (left > 1) await sleep(20);
      }
      assert.equal(left, 1);
    });
  }

  it('ramp clients 2..6 step 2 every 1s: the server lists 2, then 4, then 6 of its clients; a result per step', async () => {
    const ramp = { from: 2, to: 6, step: 2, everyMs: 1000 };
    const running = runLoad(loadRequest(server(), { test: singleTest('GET key:__key__'), load: { clients: 6, durationMs: 3000, ramp } }));
    // The load's clients, as CLIENT LIST shows them over time (this test's own connection left out).
    const seen: number[] = [];
    let settled = false;
    void running.finally(() => (settled = true));
    while (!settled) {
      const list = String(await observe().call('CLIENT', 'LIST'));
      const load = list.split('\n').filter((line) => line.includes('cmd=') && !/ cmd=client\|list /.test(line)).length;
      if (seen[seen.length - 1] !== load) seen.push(load);
      await sleep(50);
    }
    const result = await running;
    assert.equal(result.status, 'complete', result.error);
    // Each step's clients were connected at once, in order (0 once the load has ended). The first drop is the load
    // closing its connections before its promise settles, not a step (seen on a busy machine: [0,2,4,6,4]).
    const connected = seen.filter((n) => n > 0);
    const closing = connected.findIndex((n, i) => i > 0 && n < connected[i - 1]);
    const steps = closing < 0 ? connected : connected.slice(0, closing);
    assert.deepEqual(steps, [2, 4, 6], JSON.stringify(seen));
    assert.deepEqual(
      result.ramp?.map((step) => [step.clients, step.fromMs]),
      [
        [2, 0],
        [4, 1000],
        [6, 2000],
      ],
    );
    for (const step of result.ramp!) {
      assert.ok(step.replies > 0 && step.opsPerSec > 0 && step.latency.count === step.replies, JSON.stringify(step));
      assert.equal(step.toMs - step.fromMs, 1000);
    }
    assert.equal(result.connections.opened, 6);
    assert.equal(result.connections.setup?.latency.count, 6);
    // The clients that joined later were not silent before they joined: no stall of the server's.
    assert.deepEqual(result.stalls ?? [], []);
  });
});

describe('idle connections in the connection budget', function () {
  this.timeout(60_000);
  const server = useRedisServer({ config: [{ name: 'maxclients', args: ['1000'] }] });

  it('clients plus idle connections beyond maxclients: refused before any load connection, naming both settings', async () => {
    const received = () => withRedis(server(), async (redis) => Number(/total_connections_received:(\d+)/.exec(await redis.info('stats'))![1]));
    const before = await received();
    await assert.rejects(runLoad(loadRequest(server(), { test: singleTest('PING'), load: { clients: 10, idleConnections: 995 } })), (error: Error) => {
      assert.ok(error instanceof LoadError);
      assert.match(
        error.message,
        /^127\.0\.0\.1:\d+ accepts 1,000 clients \(maxclients\) and has \d connected; this load needs 1,005 \(10 clients and 995 idle connections\) — lower `clients` plus `idle-connections` to at most 99\d, or raise maxclients on the server$/,
      );
      return true;
    });
    // The check's control connection and the reader of this figure: no connection of the load.
    assert.ok((await received()) - before <= 3);
  });

  it('the open-file rule names idle connections too', () => {
    assert.match(
      descriptorProblem(1200, 1024, 1000)!,
      /^200 clients and 1,000 idle connections need as many open files.* or lower `clients` plus `idle-connections` to at most/,
    );
  });
});

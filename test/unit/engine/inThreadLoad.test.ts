// A load runs on the caller's thread (issue 46: a worker's start cost ~35 ms of CPU and ~7 MiB every run): a small
// one anywhere, any one-thread load of the lean heap where the caller's thread is free (the CLI's). The same engine
// code, so the same counts, and the same ends — complete, cancelled while connecting or while sending, failed by a
// fault thrown on the thread — with every load connection closed after it (none left open to keep the process alive).
import assert from 'node:assert/strict';
import { runLoad } from '../../../src/engine';
import { InThreadLoad } from '../../../src/engine/inThreadLoad';
import { testLabels, workerConfigs } from '../../../src/engine/loadPlan';
import { workerScriptPath } from '../../../src/engine/workerThreads';
import { letLoadsHoldThisThread, runsInThread, SMALL_LOAD_REQUESTS } from '../../../src/engine/threads';
import { failLoadsOnThisThread, loadsOnThisThread } from '../../../src/engine/inThreadLoad';
import type { LoadTick } from '../../../src/engine/types';
import { useRedisServer, withRedis } from '../../helpers/redis';
import { loadRequest, singleTest } from './plans';

/** Connections the server holds besides the one asking. */
async function otherClients(server: { host: string; port: number }): Promise<number> {
  return withRedis(server, async (redis) => Number(/connected_clients:(\d+)/.exec(await redis.info('clients'))![1]) - 1);
}

/** Waits (at most `tries` polls) until the server holds no connection but the asking one. */
async function noOtherClients(server: { host: string; port: number }, tries = 250): Promise<number> {
  let left = await otherClients(server);
  for (let i = 0; i < tries && left > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    left = await otherClients(server);
  }
  return left;
}

describe('a load on the caller’s thread', function () {
  this.timeout(60_000);
  const server = useRedisServer();

  it('only a one-thread count of at most 1,000 requests without duration, ramp, barrier or idle connections', () => {
    const none = { startTogether: false };
    assert.equal(runsInThread({ requests: SMALL_LOAD_REQUESTS }, 1, none), true);
    assert.equal(runsInThread({ requests: SMALL_LOAD_REQUESTS + 1 }, 1, none), false);
    assert.equal(runsInThread({ requests: 100 }, 2, none), false);
    assert.equal(runsInThread({ durationMs: 100 }, 1, none), false);
    assert.equal(runsInThread({ requests: 100, ramp: { from: 1, to: 2, step: 1, everyMs: 10 } }, 1, none), false);
    assert.equal(runsInThread({ requests: 100, idleConnections: 2 }, 1, none), false);
    assert.equal(runsInThread({ requests: 100 }, 1, { startTogether: true }), false);
  });

  it('a caller whose thread is free (the CLI) takes any one-thread load of the lean heap, but still no ramp, barrier or idle connections', () => {
    const free = { startTogether: false, callerFree: true, leanHeap: true };
    // A path that allocates per reply wants V8's default young generation: a worker, past a small load.
    assert.equal(runsInThread({ requests: 100_000_000 }, 1, { ...free, leanHeap: false }), false);
    assert.equal(runsInThread({ requests: SMALL_LOAD_REQUESTS }, 1, { ...free, leanHeap: false }), true);
    assert.equal(runsInThread({ requests: 100_000_000 }, 1, free), true);
    assert.equal(runsInThread({ durationMs: 3_600_000 }, 1, free), true);
    assert.equal(runsInThread({ requests: 100_000_000 }, 2, free), false);
    assert.equal(runsInThread({ durationMs: 1000, ramp: { from: 1, to: 2, step: 1, everyMs: 10 } }, 1, free), false);
    assert.equal(runsInThread({ durationMs: 1000, idleConnections: 2 }, 1, free), false);
    assert.equal(runsInThread({ durationMs: 1000 }, 1, { ...free, startTogether: true }), false);
  });

  it('sends exactly N requests, counts N replies, and closes every load connection', async () => {
    for (const [clients, pipeline, requests] of [
      [50, 100, 100],
      [7, 1, 1000],
      [3, 16, 999],
    ]) {
      await withRedis(server(), (redis) => redis.set('counter', '0'));
      const ticks: LoadTick[] = [];
      const result = await runLoad(loadRequest(server(), { test: singleTest('INCR counter'), load: { clients, threads: 1, pipeline, requests } }), {
        onTick: (tick) => ticks.push(tick),
      });
      assert.equal(result.status, 'complete', result.error);
      assert.equal(result.total.requests, requests);
      assert.equal(result.total.latency.count, requests);
      assert.equal(result.connections.opened, clients);
      assert.equal(Number(await withRedis(server(), (redis) => redis.get('counter'))), requests, 'the server executed exactly N');
      assert.equal(ticks[ticks.length - 1].fraction, 1);
      assert.equal(await noOtherClients(server()), 0, 'load connections left open');
    }
  });

  it('ended while connecting (a terminate): the connections that were opening are closed once open', async () => {
    const request = loadRequest(server(), { test: singleTest('INCR counter'), load: { clients: 40, threads: 1, pipeline: 1, requests: 1000 } });
    const [config] = workerConfigs(request, {}, { seed: 1, threads: 1, ...testLabels(request.test), topology: undefined });
    const received = () => withRedis(server(), async (redis) => Number(/total_connections_received:(\d+)/.exec(await redis.info('stats'))![1]));
    const before = await received();
    const load = new InThreadLoad(workerScriptPath(), config);
    const messages: string[] = [];
    load.on('message', (message: { type: string }) => messages.push(message.type));
    // Once the load has begun opening its connections, before they are all up.
    await new Promise((resolve) => setImmediate(resolve));
    await load.terminate();
    assert.equal(await noOtherClients(server()), 0, 'connections left open after a terminate while connecting');
    // The 40 load connections (and the pollers' own) were accepted: the terminate came while they opened.
    assert.ok((await received()) - before >= 40, 'the load never opened its connections');
    assert.deepEqual(messages, [], 'a message after the terminate');
  });

  it('cancelled while sending: the load ends cancelled before its count, and every connection closes', async () => {
    const controller = new AbortController();
    // 1,000 requests of 20 ms each on 2 connections: ~10 s of load, cancelled long before its end.
    const running = runLoad(loadRequest(server(), { test: singleTest('DEBUG SLEEP 0.02'), load: { clients: 2, threads: 1, pipeline: 1, requests: 1000 } }), {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 300);
    const result = await running;
    assert.equal(result.status, 'cancelled');
    assert.ok(result.total.requests < 1000, `${result.total.requests} requests`);
    assert.equal(await noOtherClients(server()), 0, 'connections left open after a cancel while sending');
  });

  describe('with the caller’s thread free (the CLI’s)', () => {
    before(() => letLoadsHoldThisThread(true));
    after(() => letLoadsHoldThisThread(false));

    it('a load of a duration runs on it and ends on time', async () => {
      const onThisThread: number[] = [];
      const result = await runLoad(loadRequest(server(), { test: singleTest('PING'), load: { clients: 4, threads: 1, pipeline: 1, durationMs: 600 } }), {
        onTick: () => onThisThread.push(loadsOnThisThread()),
      });
      assert.equal(result.status, 'complete', result.error);
      assert.ok(result.total.requests > 0);
      assert.ok(onThisThread.includes(1), `loads on this thread at each tick: ${onThisThread}`);
      assert.equal(await noOtherClients(server()), 0, 'load connections left open');
    });

    it('a long count runs on it: exactly N requests counted and executed, every connection closed', async () => {
      await withRedis(server(), (redis) => redis.set('counter', '0'));
      const onThisThread: number[] = [];
      const result = await runLoad(
        loadRequest(server(), { test: singleTest('INCR counter'), load: { clients: 10, threads: 1, pipeline: 8, requests: 200_000 } }),
        { onTick: () => onThisThread.push(loadsOnThisThread()) },
      );
      assert.equal(result.status, 'complete', result.error);
      assert.equal(result.total.requests, 200_000);
      assert.equal(Number(await withRedis(server(), (redis) => redis.get('counter'))), 200_000, 'the server executed exactly N');
      // Ticks come while it runs (the last one after its end).
      assert.ok(onThisThread.includes(1), `loads on this thread at each tick: ${onThisThread}`);
      assert.equal(loadsOnThisThread(), 0);
      assert.equal(await noOtherClients(server()), 0, 'load connections left open');
    });

    it('a long load of a path that allocates per reply (ioredis) still runs in a worker, with V8’s default young generation', async () => {
      let told: boolean | undefined;
      const result = await runLoad(
        loadRequest(server(), { test: singleTest('PING'), load: { clients: 2, threads: 1, pipeline: 4, requests: 20_000 }, client: 'ioredis' }),
        { onTick: () => void (told ??= failLoadsOnThisThread(new Error('not the load’s'))) },
      );
      assert.equal(result.status, 'complete', result.error);
      assert.equal(told, false);
    });

    it('a fault thrown on the thread while a long load runs there ends the load failed, keeping what it measured', async () => {
      let told: boolean | undefined;
      // 20M requests on 2 connections: minutes of load, ended by the fault at its first progress tick.
      const result = await runLoad(
        loadRequest(server(), { test: singleTest('INCR faulted'), load: { clients: 2, threads: 1, pipeline: 1, requests: 20_000_000 } }),
        {
          onTick: () => void (told ??= failLoadsOnThisThread(new Error('injected fault beside the load'))),
        },
      );
      assert.equal(told, true, 'the load did not run on this thread');
      assert.equal(result.status, 'failed');
      assert.match(result.error ?? '', /injected fault beside the load/);
      assert.ok(result.total.requests > 0 && result.total.requests < 20_000_000, `${result.total.requests} requests`);
      assert.equal(await noOtherClients(server()), 0, 'load connections left open after the fault');
      assert.equal(failLoadsOnThisThread(new Error('after')), false, 'a load still counted as running here');
    });
  });

  it('a long load of a caller whose thread serves others (the editor’s) runs in a worker: a fault on this thread is not the load’s', async () => {
    let told: boolean | undefined;
    const result = await runLoad(loadRequest(server(), { test: singleTest('PING'), load: { clients: 2, threads: 1, pipeline: 4, requests: 20_000 } }), {
      onTick: () => void (told ??= failLoadsOnThisThread(new Error('not the load’s'))),
    });
    assert.equal(result.status, 'complete', result.error);
    assert.equal(told, false);
  });
});

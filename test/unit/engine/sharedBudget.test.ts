// One request budget shared by every connection of every thread (src/engine/requestBudget.ts), against a real
// redis-server behind a proxy that slows one connection (test/helpers/slowProxy.ts): the slowed connection
// takes fewer requests, the totals stay exact, and sequential keys still cover the key space exactly once.
// Also LoadResult.sent against the server's own INFO commandstats.
import assert from 'node:assert/strict';
import { runLoad, splitRequests } from '../../../src/engine';
import { createSharedBudget, requestBudget, scenarioRequest } from '../../../src/engine/requestBudget';
import type { LoadResult } from '../../../src/engine/types';
import type { ClientPath, LoadPlan } from '../../../src/scenario/plan';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';
import { startSlowProxy, type SlowProxy } from '../../helpers/slowProxy';
import { groupTest, loadRequest, mixTest, singleTest } from './plans';

const DELAY_MS = 20;

describe('one request budget shared by all connections and threads', function () {
  this.timeout(120_000);
  const server = useRedisServer();
  let proxy: SlowProxy | undefined;

  beforeEach(async () => {
    await withRedis(server(), async (redis) => {
      await redis.flushall();
      await redis.config('RESETSTAT');
    });
  });

  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  /** A proxy to the server that holds back every read of its first accepted connection by `delayMs`. */
  async function slowed(delayMs = DELAY_MS): Promise<SlowProxy> {
    proxy = await startSlowProxy(server(), { delayMs });
    return proxy;
  }

  async function counter(name: string): Promise<number> {
    return Number(await withRedis(server(), (redis) => redis.get(name)));
  }

  function assertExact(result: LoadResult, requests: number, where: string): void {
    assert.equal(result.status, 'complete', `${where}: ${result.error ?? ''}`);
    assert.equal(result.total.requests, requests, `${where}: measured requests`);
    assert.equal(result.total.latency.count, requests, `${where}: one latency each`);
    assert.equal(result.total.errors, 0, where);
  }

  for (const client of ['fast', 'ioredis'] as ClientPath[]) {
    it(`${client}: a slowed connection takes fewer requests, so the load does not wait for its fixed share`, async () => {
      const clients = 10;
      const requests = 20_000;
      const load: Partial<LoadPlan> = { clients, requests, pipeline: 1, threads: 1 };
      // The same load through the proxy with no connection slowed: how long the connections take together.
      const even = await startSlowProxy(server(), { delayMs: 0, slowConnections: 0 });
      const baseline = await runLoad(loadRequest(even, { client, test: singleTest('INCR even'), load })).finally(() => even.close());
      assertExact(baseline, requests, 'baseline');

      const target = await slowed();
      const result = await runLoad(loadRequest(target, { client, test: singleTest('INCR counter'), load }));
      assertExact(result, requests, 'slowed');
      assert.equal(await counter('counter'), requests, 'the server ran exactly the requests');
      // An even split gives each connection requests/clients: the slowed one alone would need that many
      // delayed round trips. Sharing one budget, it sends what it can while the others finish the rest.
      const fixedShareMs = (requests / clients) * DELAY_MS;
      assert.ok(result.durationMs < 0.5 * fixedShareMs, `${client}: ${Math.round(result.durationMs)} ms, a fixed share would take ≥ ${fixedShareMs} ms`);
      assert.ok(
        result.durationMs < 4 * baseline.durationMs + 1000,
        `${client}: ${Math.round(result.durationMs)} ms with one connection slowed, ${Math.round(baseline.durationMs)} ms without`,
      );
      assert.equal(result.sent?.requests, requests, 'no warm-up: every request written was measured');
    });
  }

  it('keeps totals exact with 1 and 3 threads, pipeline 1 and 16, whatever share each connection gets', async () => {
    const target = await slowed(5);
    for (const client of ['fast', 'ioredis'] as ClientPath[]) {
      for (const threads of [1, 3]) {
        for (const pipeline of [1, 16]) {
          const where = `${client}, ${threads} threads, pipeline ${pipeline}`;
          await withRedis(server(), (redis) => redis.del('c'));
          const requests = pipeline === 1 ? 5_003 : 20_011;
          const result = await runLoad(loadRequest(target, { client, test: singleTest('INCR c'), load: { clients: 10, threads, pipeline, requests } }));
          assertExact(result, requests, where);
          assert.equal(result.health.threads, threads, where);
          assert.equal(await counter('c'), requests, `${where}: the server ran exactly the requests`);
          assert.equal(result.sent?.requests, requests, where);
        }
      }
    }
  });

  it('keeps MULTI … EXEC units whole and their count exact', async () => {
    const target = await slowed(5);
    const units = 3_001;
    for (const client of ['fast', 'ioredis'] as ClientPath[]) {
      await withRedis(server(), (redis) => redis.config('RESETSTAT').then(() => redis.del('units')));
      const result = await runLoad(
        loadRequest(target, {
          client,
          test: groupTest('tx', ['MULTI', 'INCR units', 'EXEC']),
          load: { clients: 10, threads: 2, pipeline: 4, requests: units },
        }),
      );
      assertExact(result, units, client);
      assert.equal(await counter('units'), units, `${client}: every unit ran once`);
      await withRedis(server(), async (redis) => {
        for (const name of ['multi', 'incr', 'exec']) assert.equal(await commandCalls(redis, name), units, `${client}: ${name} calls`);
      });
      assert.deepEqual({ ...result.sent?.byLabel }, { MULTI: units, INCR: units, EXEC: units }, `${client}: sent per command`);
    }
  });

  it('sequential prefill writes every key of the space exactly once through uneven connections', async () => {
    const target = await slowed(5);
    const space = 20_000;
    for (const [client, threads, pipeline] of [
      ['fast', 3, 7],
      ['ioredis', 2, 1],
    ] as [ClientPath, number, number][]) {
      await withRedis(server(), (redis) => redis.flushall());
      const result = await runLoad(
        loadRequest(target, {
          client,
          test: singleTest('SET key:__key__ __value__'),
          keys: { space, distribution: 'sequential', size: 8 },
          load: { clients: 10, threads, pipeline, requests: space },
        }),
      );
      assertExact(result, space, client);
      await withRedis(server(), async (redis) => {
        assert.equal(await redis.dbsize(), space, `${client}: one key per request`);
        assert.equal(await redis.exists('key:00000000', 'key:00019999'), 2, client);
        assert.equal(await redis.exists('key:00020000'), 0, client);
      });
    }
  });

  it('shards: each machine has its own budget, and their sequential keys together cover the space exactly once', async () => {
    const space = 12_000;
    const clients = 10;
    const shares = splitRequests(space, clients);
    // Two machines: clients 0–3 and 4–9 of 10, each with its clients' shares (as src/runner/shard.ts splits them).
    const parts = [
      { firstClient: 0, clients: 4 },
      { firstClient: 4, clients: 6 },
    ].map(({ firstClient, clients: count }) => ({
      clients: count,
      shard: { firstClient, totalClients: clients },
      requests: shares.slice(firstClient, firstClient + count).reduce((sum, n) => sum + n, 0),
    }));
    const target = await slowed(5);
    const results = await Promise.all(
      parts.map((part) =>
        runLoad(
          loadRequest(target, {
            test: singleTest('SET key:__key__ __value__'),
            keys: { space, distribution: 'sequential', size: 8 },
            load: { ...part, threads: 2, pipeline: 3 },
          }),
        ),
      ),
    );
    results.forEach((result, i) => assertExact(result, parts[i].requests, `part ${i + 1}`));
    await withRedis(server(), async (redis) => {
      assert.equal(await redis.dbsize(), space, 'the parts wrote every key once between them');
      assert.equal(await commandCalls(redis, 'set'), space);
    });
  });

  it('sent: every request written, warm-up included, equals the server commandstats calls per command', async () => {
    for (const [client, pipeline] of [
      ['fast', 1],
      ['ioredis', 8],
    ] as [ClientPath, number][]) {
      await withRedis(server(), (redis) => redis.config('RESETSTAT'));
      const result = await runLoad(
        loadRequest(server(), {
          client,
          test: mixTest([
            [1, 'SET k:__key__ __value__'],
            [1, 'GET k:__key__'],
          ]),
          load: { clients: 6, threads: 3, pipeline, warmupMs: 200, requests: 5_000 },
        }),
      );
      assertExact(result, 5_000, client);
      const sent = result.sent!;
      const calls = await withRedis(server(), async (redis) => ({ SET: await commandCalls(redis, 'set'), GET: await commandCalls(redis, 'get') }));
      assert.deepEqual({ ...sent.byLabel }, calls, `${client}: sent per label = the server's calls`);
      assert.equal(sent.requests, calls.SET + calls.GET, client);
      assert.ok(sent.requests > 5_000, `${client}: the warm-up's requests are counted too (${sent.requests})`);
    }
  });
});

describe('the shared request budget', () => {
  it('hands out each request number once, never past the budget, to every view of it', () => {
    const shared = createSharedBudget(1000, 0, 4);
    const views = [requestBudget(shared), requestBudget(shared), requestBudget(shared)];
    const seen: number[] = [];
    for (let round = 0; !views[0].spent(); round++) {
      const view = views[round % views.length];
      const count = view.claim(7);
      for (let i = 0; i < count; i++) seen.push(view.first + i);
    }
    assert.deepEqual(
      seen,
      Array.from({ length: 1000 }, (_, i) => i),
    );
    assert.equal(views[1].claim(7), 0, 'spent: nothing more');
    assert.ok(views.every((v) => v.spent()));
  });

  it('counts past 2³² − 1 requests on a 64-bit word', () => {
    const total = 2 ** 32 + 5;
    const shared = createSharedBudget(total, 0, 1);
    assert.equal(shared.buffer.byteLength, 8);
    new BigInt64Array(shared.buffer)[0] = BigInt(2 ** 32 - 2);
    const budget = requestBudget(shared);
    assert.equal(budget.claim(4), 4);
    assert.equal(budget.first, 2 ** 32 - 2);
    assert.equal(budget.claim(10), 3, 'only what is left');
    assert.equal(budget.first, 2 ** 32 + 2);
    assert.ok(budget.spent());
    assert.equal(budget.claim(1), 0);
  });

  it("places a shard's request numbers so that the shards together cover the scenario's once", () => {
    const requests = 1003;
    const clients = 7;
    const shares = splitRequests(requests, clients);
    const covered: number[] = [];
    for (const [firstClient, count] of [
      [0, 3],
      [3, 1],
      [4, 3],
    ]) {
      const part = shares.slice(firstClient, firstClient + count).reduce((sum, n) => sum + n, 0);
      for (let k = 0; k < part; k++) covered.push(scenarioRequest(k, firstClient, count, clients));
    }
    assert.deepEqual(
      covered.sort((a, b) => a - b),
      Array.from({ length: requests }, (_, i) => i),
    );
  });
});

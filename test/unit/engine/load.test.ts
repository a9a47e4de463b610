import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoad, LoadError } from '../../../src/engine';
import type { LoadResult, LoadTick } from '../../../src/engine/types';
import { LATE_SEND_THRESHOLD_MS } from '../../../src/engine/workerLoad';
import { freePort, startLocalServer } from '../../../src/redis/localServer';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';
import { stallServerAfter, whenServerCalled } from '../../helpers/serverStall';
import { decodeHistogram } from '../../../src/views/latencyCharts';
import { loadRequest, mixTest, singleTest } from './plans';

/** Replies of the load's (first) command with a latency of at least `us`: the histogram's slots wholly at or above it. */
function repliesAtLeast(result: LoadResult, us: number): number {
  const histogram = decodeHistogram(result.commands[0].histogram);
  return histogram.counts.reduce((sum, count, i) => sum + (histogram.lows[i] >= us ? count : 0), 0);
}

function assertConsistent(result: LoadResult): void {
  const sum = result.commands.reduce((s, c) => s + c.requests, 0);
  assert.equal(result.total.requests, sum, 'per-command requests add up to the total');
  assert.equal(
    result.total.errors,
    result.commands.reduce((s, c) => s + c.errors, 0),
  );
  assert.equal(
    result.total.errors,
    Object.values(result.total.errorsByKind).reduce((a, b) => a + b, 0),
    'errors by kind add up',
  );
  if (result.total.latency.count > 0) {
    const l = result.total.latency;
    assert.ok(l.minUs <= l.p50Us && l.p50Us <= l.p99Us && l.p99Us <= l.maxUs, JSON.stringify(l));
  }
}

describe('runLoad against a real redis-server', function () {
  this.timeout(30_000);
  const server = useRedisServer();

  beforeEach(async () => {
    await withRedis(server(), (redis) => redis.flushall());
  });

  it('sends exactly N requests and counts N replies, with latency for each, across threads', async () => {
    for (const [threads, clients, pipeline, requests] of [
      [1, 7, 1, 10_001],
      [2, 13, 5, 20_003],
      [3, 10, 16, 50_000],
    ]) {
      const ticks: LoadTick[] = [];
      const result = await runLoad(loadRequest(server(), { test: singleTest('INCR counter'), load: { clients, threads, pipeline, requests } }), {
        onTick: (tick) => ticks.push(tick),
      });
      assert.equal(result.status, 'complete');
      assert.equal(result.total.requests, requests);
      assert.equal(result.total.latency.count, requests);
      assert.equal(result.total.errors, 0);
      assert.equal(result.health.threads, threads);
      assert.equal(result.connections.opened, clients);
      assert.equal(Number(await withRedis(server(), (redis) => redis.getset('counter', '0'))), requests, 'the server executed exactly N');
      assert.ok(result.total.opsPerSec > 0 && result.durationMs > 0);
      assert.equal(ticks[ticks.length - 1].requests, requests);
      assert.equal(ticks[ticks.length - 1].fraction, 1);
      assertConsistent(result);
    }
  });

  it('writes every key exactly once with sequential keys and requests == space (two threads)', async () => {
    const result = await runLoad(
      loadRequest(server(), {
        test: singleTest('SET key:__key__ __value__'),
        keys: { space: 30_000, distribution: 'sequential', size: 8 },
        load: { clients: 9, threads: 2, pipeline: 7, requests: 30_000 },
      }),
    );
    assert.equal(result.total.requests, 30_000);
    await withRedis(server(), async (redis) => {
      assert.equal(await redis.dbsize(), 30_000);
      // 3-byte values (random bytes by default: see payload.test.ts).
      assert.equal((await redis.getBuffer('key:00000000'))?.length, 3);
      assert.equal((await redis.getBuffer('key:00029999'))?.length, 3);
      assert.equal(await redis.exists('key:00030000'), 0);
    });
  });

  it('runs a weighted mix with results per command label', async () => {
    const result = await runLoad(
      loadRequest(server(), {
        test: mixTest([
          [80, 'GET k:__key__'],
          [20, 'SET k:__key__ __value__'],
        ]),
        keys: { space: 100 },
        load: { clients: 4, pipeline: 3, requests: 20_000 },
      }),
    );
    assert.deepEqual(
      result.commands.map((c) => c.command),
      ['GET', 'SET'],
    );
    const [get, set] = result.commands;
    assert.equal(get.requests + set.requests, 20_000);
    assert.ok(Math.abs(get.requests / 20_000 - 0.8) < 0.02, `GET share ${get.requests / 20_000}`);
    assert.equal(get.latency.count, get.requests);
    assert.ok(get.histogram.length > 0 && set.histogram.length > 0);
    assertConsistent(result);
  });

  it('reproduces the same keys for the same seed, and reports a drawn seed when none is set', async () => {
    const keysAfter = async (seed: number | undefined) => {
      await withRedis(server(), (redis) => redis.flushall());
      const result = await runLoad(
        loadRequest(server(), {
          test: singleTest('SET k:__key__ v'),
          keys: { space: 1_000_000, seed },
          load: { clients: 3, requests: 300 },
        }),
      );
      const keys = await withRedis(server(), (redis) => redis.keys('k:*'));
      return { keys: keys.sort(), seed: result.seed };
    };
    const first = await keysAfter(5);
    const second = await keysAfter(5);
    assert.equal(first.seed, 5);
    assert.deepEqual(second.keys, first.keys);
    const drawn = await keysAfter(undefined);
    assert.ok(Number.isInteger(drawn.seed) && drawn.seed > 0);
    assert.notDeepEqual(drawn.keys, first.keys);
  });

  it('runs for a duration after a warm-up, with a timeline that starts after the warm-up', async () => {
    const ticks: LoadTick[] = [];
    const started = Date.now();
    const result = await runLoad(
      loadRequest(server(), {
        test: singleTest('SET key:__key__ __value__'),
        load: { clients: 4, durationMs: 1500, warmupMs: 1100, requests: undefined },
      }),
      { onTick: (tick) => ticks.push(tick) },
    );
    const elapsed = Date.now() - started;
    assert.equal(result.status, 'complete');
    assert.ok(result.durationMs >= 1500 && result.durationMs < 2500, `measured ${result.durationMs} ms`);
    assert.ok(elapsed >= 2600, `warm-up + duration took ${elapsed} ms`);
    // A test under 10 s gets 100 ms buckets, recorded by the engine, over the window only.
    assert.deepEqual(
      result.timeline.map((s) => s.t),
      Array.from({ length: 15 }, (_, i) => i / 10),
    );
    assert.ok(result.timeline.every((s) => s.partialMs === 100));
    const timelineOps = result.timeline.reduce((s, second) => s + (second.ops * (second.partialMs ?? 1000)) / 1000, 0);
    const windowReplies = (result.total.opsPerSec * result.durationMs) / 1000;
    assert.ok(Math.abs(timelineOps - windowReplies) <= windowReplies * 0.01 + 20, 'timeline counts the replies of the window');
    assert.ok(result.total.requests - windowReplies <= 4, 'at most one request per client answered in the drain');
    assert.ok(
      ticks.some((t) => t.warmingUp),
      'ticks during the warm-up',
    );
    assert.ok(ticks.some((t) => !t.warmingUp && t.lastSecond?.t === 0));
    const warmupCommands = await withRedis(server(), (redis) => commandCalls(redis, 'set'));
    assert.ok(warmupCommands > result.total.requests, 'warm-up requests were sent but are not in the results');
    assertConsistent(result);
  });

  it('counts error replies by kind with an example text (WRONGTYPE, then OOM)', async () => {
    await withRedis(server(), (redis) => redis.rpush('alist', 'a'));
    const wrongType = await runLoad(loadRequest(server(), { test: singleTest('GET alist'), load: { clients: 2, requests: 500 } }));
    assert.equal(wrongType.total.requests, 500);
    assert.equal(wrongType.total.errors, 500);
    assert.deepEqual({ ...wrongType.total.errorsByKind }, { WRONGTYPE: 500 });
    assert.match(wrongType.total.errorExamples.WRONGTYPE, /^WRONGTYPE Operation against a key holding the wrong kind of value/);
    assert.equal(wrongType.commands[0].errorsByKind.WRONGTYPE, 500);
    assert.equal(
      wrongType.timeline.reduce((s, t) => s + t.errors, 0),
      500,
    );

    await withRedis(server(), async (redis) => {
      await redis.config('SET', 'maxmemory-policy', 'noeviction');
      await redis.config('SET', 'maxmemory', '1mb');
    });
    try {
      const oom = await runLoad(
        loadRequest(server(), {
          test: singleTest('SET key:__key__ __value__'),
          value: { kind: 'fixed', size: 1000 },
          keys: { space: 100_000, distribution: 'sequential' },
          load: { clients: 4, pipeline: 10, requests: 20_000 },
        }),
      );
      assert.equal(oom.total.requests, 20_000);
      assert.ok(oom.total.errorsByKind.OOM > 15_000, JSON.stringify(oom.total.errorsByKind));
      assert.equal(oom.total.errors, oom.total.errorsByKind.OOM);
      assert.match(oom.total.errorExamples.OOM, /^OOM command not allowed when used memory > 'maxmemory'/);
      assertConsistent(oom);
    } finally {
      await withRedis(server(), (redis) => redis.config('SET', 'maxmemory', '0'));
    }
  });

  // The stalls below are DEBUG SLEEPs issued once the server has run some of the load's requests (its commandstats), in
  // loads of a request count: the stall lands inside the load however slow the machine, and the load cannot end
  // before it. The slow requests are counted from the histogram against what the stall makes slow by construction.

  it('open loop: latency counts from the intended send time, so a server stall shows up', async () => {
    const running = runLoad(loadRequest(server(), { test: singleTest('GET k:__key__'), load: { clients: 4, rate: 2000, requests: 3000 } }));
    const stalled = stallServerAfter(server(), 'get', 300, 0.5, running);
    const result = await running;
    assert.ok(await stalled, 'the stall came while the load ran');
    assert.equal(result.status, 'complete');
    assert.ok(result.openLoop);
    assert.equal(result.openLoop.targetRate, 2000);
    assert.equal(result.total.requests, 3000);
    // Requests due in the stall's first 90 ms (180 at 2,000/s) were answered after it, 0.5 s later: each counts
    // at least 0.4 s from its intended time, however late the busy client sent it. A schedule that shifted with
    // the stall (a closed loop's) would count them from their send.
    assert.ok(repliesAtLeast(result, 400_000) >= 180, `${repliesAtLeast(result, 400_000)} replies of 0.4 s or more`);
    assert.ok(result.total.latency.maxUs >= 400_000, `max ${result.total.latency.maxUs} µs`);
    assert.ok(result.total.latency.p99Us >= 300_000, `p99 ${result.total.latency.p99Us} µs`);
    // The ~1,000 requests due during the stall are a third of the load: the median request did not wait it out.
    assert.ok(result.total.latency.p50Us < 400_000, `p50 ${result.total.latency.p50Us} µs`);
  });

  it('open loop: counts late sends when requests cannot go out on time (in-flight cap reached during a stall)', async () => {
    // One connection at 16k/s: the 4096 requests allowed in flight fill in ~0.26 s of the 0.6 s stall, and the
    // ~5,500 due after that go out late (the stall comes at most ~1 s into the 1.5 s schedule of 24,000).
    const running = runLoad(loadRequest(server(), { test: singleTest('GET k:__key__'), load: { clients: 1, rate: 16_000, requests: 24_000 } }));
    const stalled = stallServerAfter(server(), 'get', 1000, 0.6, running);
    const result = await running;
    assert.ok(await stalled, 'the stall came while the load ran');
    assert.ok(result.openLoop);
    assert.ok(result.openLoop.lateSends > 2000, `late sends ${result.openLoop.lateSends}`);
    assert.ok(result.total.latency.maxUs >= 500_000, `max ${result.total.latency.maxUs} µs`);
  });

  it('closed loop hides the same stall (the contrast the open loop exists for)', async () => {
    const running = runLoad(loadRequest(server(), { test: singleTest('GET k:__key__'), load: { clients: 4, requests: 20_000 } }));
    const stalled = stallServerAfter(server(), 'get', 300, 0.5, running);
    const result = await running;
    assert.ok(await stalled, 'the stall came while the load ran');
    assert.ok(result.total.latency.maxUs >= 400_000, 'the stalled requests themselves are slow');
    // Only the request each of the 4 clients had in flight waited: the others were not sent until it came back.
    assert.ok(repliesAtLeast(result, 400_000) <= 4, `${repliesAtLeast(result, 400_000)} replies of 0.4 s or more: only 4 requests waited`);
  });

  for (const client of ['fast', 'ioredis'] as const) {
    it(`${client}: open loop with an exact request count sends exactly N at the target rate`, async () => {
      const started = Date.now();
      const result = await runLoad(
        loadRequest(server(), { client, test: singleTest('INCR c'), load: { clients: 3, threads: 2, pipeline: 2, rate: 3000, requests: 2999 } }),
      );
      const elapsed = Date.now() - started;
      assert.equal(result.total.requests, 2999);
      assert.equal(result.total.latency.count, 2999);
      assert.equal(await withRedis(server(), (redis) => redis.get('c')), '2999');
      assert.ok(elapsed >= 900, `2999 requests at 3000/s took ${elapsed} ms`);
      // Nor slower: the last request was due 1 s in (one 2 ms batch of a connection's 1,000/s, staggered, at most
      // later), and the open loop counts latency from a request's due time (from its send when that was at most
      // LATE_SEND_THRESHOLD_MS late), so the last reply came at most the slowest latency after that. A schedule
      // that slipped behind the rate would end later than its latencies account for, however busy the machine.
      const bound = 1000 + 2 * 2 + LATE_SEND_THRESHOLD_MS + result.total.latency.maxUs / 1000 + 1;
      assert.ok(result.durationMs <= bound, `measured ${result.durationMs} ms, due by ${bound.toFixed(1)} ms`);
    });
  }

  it('stops within a second when cancelled, with status cancelled and partial results', async () => {
    const controller = new AbortController();
    const ticks: LoadTick[] = [];
    const running = runLoad(
      loadRequest(server(), { test: singleTest('SET key:__key__ __value__'), load: { clients: 8, threads: 2, durationMs: 20_000, requests: undefined } }),
      { signal: controller.signal, onTick: (tick) => ticks.push(tick) },
    );
    // Cancelled once the server has run 1,000 of its requests and a tick came (not at a wall-clock moment: on a busy
    // machine the threads may not have begun by then).
    let abortedAt = 0;
    const cancelled = whenServerCalled(server(), 'set', 1000, running, async () => {
      while (ticks.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      abortedAt = Date.now();
      controller.abort();
    });
    const result = await running;
    assert.ok(await cancelled, 'cancelled while the load ran');
    const stoppedIn = Date.now() - abortedAt;
    assert.ok(stoppedIn < 1000, `stopped in ${stoppedIn} ms`);
    assert.equal(result.status, 'cancelled');
    assert.ok(result.total.requests > 0);
    assert.equal(result.total.errors, 0);
    assert.ok(result.timeline.length >= 1);
    assert.ok(ticks.length >= 1);
  });

  it('returns a cancelled result at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runLoad(loadRequest(server(), { test: singleTest('PING') }), { signal: controller.signal });
    assert.equal(result.status, 'cancelled');
    assert.equal(result.total.requests, 0);
  });

  it('ioredis path: exact counts, pipelines and error kinds', async () => {
    const single = await runLoad(loadRequest(server(), { client: 'ioredis', test: singleTest('INCR c1'), load: { clients: 5, requests: 3001 } }));
    assert.equal(single.client, 'ioredis');
    assert.equal(single.total.requests, 3001);
    assert.equal(single.total.latency.count, 3001);
    const pipelined = await runLoad(
      loadRequest(server(), { client: 'ioredis', test: singleTest('INCR c2'), load: { clients: 3, pipeline: 8, threads: 2, requests: 5003 } }),
    );
    assert.equal(pipelined.total.requests, 5003);
    await withRedis(server(), async (redis) => {
      assert.equal(await redis.get('c1'), '3001');
      assert.equal(await redis.get('c2'), '5003');
      await redis.rpush('alist', 'x');
    });
    const sequential = await runLoad(
      loadRequest(server(), {
        client: 'ioredis',
        test: singleTest('SET s:__key__ __value__'),
        keys: { space: 2000, distribution: 'sequential', size: 4 },
        load: { clients: 6, pipeline: 4, requests: 2000 },
      }),
    );
    assert.equal(sequential.total.requests, 2000);
    assert.equal((await withRedis(server(), (redis) => redis.keys('s:*'))).length, 2000);
    const errors = await runLoad(loadRequest(server(), { client: 'ioredis', test: singleTest('LPUSH k:__key__ v'), load: { clients: 2, requests: 10 } }));
    assert.equal(errors.total.errors, 0);
    const wrongType = await runLoad(
      loadRequest(server(), { client: 'ioredis', test: singleTest('GET alist'), load: { clients: 2, pipeline: 2, requests: 100 } }),
    );
    assert.deepEqual({ ...wrongType.total.errorsByKind }, { WRONGTYPE: 100 });
    assertConsistent(wrongType);
  });
});

describe('runLoad when the server goes away', function () {
  this.timeout(30_000);

  // The server goes once it has run 300 of the load's requests (its commandstats), not at a wall-clock moment: on a
  // busy machine the load may not have sent any by then. The planned duration (10 min) is out of reach: only the
  // loss can end the load.
  for (const client of ['fast', 'ioredis'] as const) {
    it(`${client}: fails with a clear message and keeps what it measured`, async () => {
      const server = await startLocalServer();
      try {
        const running = runLoad(
          loadRequest(server, { client, test: singleTest('SET key:__key__ __value__'), load: { clients: 4, durationMs: 600_000, requests: undefined } }),
          { serverLostTimeoutMs: 1000 },
        );
        assert.ok(await whenServerCalled(server, 'set', 300, running, () => server.stop()), 'the server went while the load ran');
        const result = await running;
        assert.equal(result.status, 'failed');
        assert.match(result.error ?? '', /lost the connection to 127\.0\.0\.1:\d+ .*connection refused — is redis-server running there\?/);
        // The server had answered 300 before it went, and the replies came before the connections' end.
        assert.ok(result.total.requests >= 300, `${result.total.requests} requests kept`);
        assert.ok(result.total.latency.count >= 300);
        assert.ok(result.timeline.length >= 1, 'timeline kept');
        // Every connection was down for the 1 s limit before the load gave up, long before its planned end.
        assert.ok(result.durationMs > 1000 && result.durationMs < 600_000, `measured ${result.durationMs} ms`);
        assertConsistent(result);
      } finally {
        await server.stop();
      }
    });
  }

  it('reconnects a connection killed by the server and counts its in-flight requests as CONNECTION errors', async () => {
    const server = await startLocalServer();
    try {
      // Killed once the server has run 1,000 of the 30,000: the load goes on over new connections until the last.
      const running = runLoad(loadRequest(server, { test: singleTest('SET key:__key__ __value__'), load: { clients: 3, pipeline: 50, requests: 30_000 } }));
      const killed = await whenServerCalled(server, 'set', 1000, running, (redis) => redis.client('KILL', 'TYPE', 'normal', 'SKIPME', 'yes'));
      const result = await running;
      assert.ok(killed, 'the connections were killed while the load ran');
      assert.equal(result.status, 'complete');
      assert.equal(result.total.requests, 30_000);
      assert.equal(result.connections.reconnects, 3);
      // At most each connection's batch in flight was lost.
      assert.ok((result.total.errorsByKind.CONNECTION ?? 0) <= 150, JSON.stringify(result.total.errorsByKind));
      assertConsistent(result);
    } finally {
      await server.stop();
    }
  });
});

describe('runLoad connection failures', function () {
  this.timeout(30_000);
  const secured = useRedisServer({ config: [{ name: 'requirepass', args: ['s3cret'] }] });

  async function failure(request: Parameters<typeof runLoad>[0]): Promise<string> {
    try {
      await runLoad(request);
    } catch (error) {
      assert.ok(error instanceof LoadError, `a LoadError, got ${String(error)}`);
      return error.message;
    }
    assert.fail('the load should not start');
  }

  for (const client of ['fast', 'ioredis'] as const) {
    it(`${client}: explains NOAUTH, a wrong password and a refused connection`, async () => {
      const test = singleTest('PING');
      assert.match(
        await failure(loadRequest(secured(), { client, test })),
        /^127\.0\.0\.1:\d+: the server requires a password — add `password env:NAME` or `password secret` to the target \(server said: NOAUTH/,
      );
      assert.match(
        await failure(loadRequest(secured(), { client, test, connection: { password: 'wrong' } })),
        /^authentication failed at 127\.0\.0\.1:\d+: wrong password for the default user, or that user does not exist or is disabled — check the user and the password$/,
      );
      const ok = await runLoad(loadRequest(secured(), { client, test, connection: { password: 's3cret', db: 2 }, load: { requests: 50 } }));
      assert.equal(ok.total.requests, 50);
      assert.equal(ok.total.errors, 0);
      const closed = await startLocalServer();
      await closed.stop();
      assert.equal(
        await failure(loadRequest(closed, { client, test })),
        `cannot connect to 127.0.0.1:${closed.port}: connection refused — is redis-server running there? Check the target or start one`,
      );
    });
  }

  it('explains a failed TLS handshake with a plain-text server', async () => {
    const message = await failure(
      loadRequest(secured(), { test: singleTest('PING'), connection: { tls: { rejectUnauthorized: false }, connectTimeoutMs: 600 } }),
    );
    assert.match(
      message,
      /^TLS handshake with 127\.0\.0\.1:\d+ failed: .*(wrong version number|does not speak TLS stays silent).*use redis:\/\/ \(no TLS\) or the server's tls-port$/,
    );
  });

  it('uses RESP3 (HELLO 3 with AUTH) and counts RESP3 replies', async () => {
    const result = await runLoad(
      loadRequest(secured(), {
        test: singleTest('HGETALL h'),
        connection: { password: 's3cret', resp: 3 },
        load: { clients: 2, pipeline: 4, requests: 400 },
      }),
    );
    assert.equal(result.total.requests, 400);
    assert.equal(result.total.errors, 0);
  });

  it('rejects impossible plans with a clear message', async () => {
    assert.match(
      await failure(loadRequest(secured(), { client: 'ioredis', test: singleTest('PING'), connection: { resp: 3 } })),
      /ioredis client speaks RESP2 only/,
    );
    assert.match(await failure(loadRequest(secured(), { test: singleTest('PING'), load: { clients: 0 } })), /clients must be/);
  });
});

describe('runLoad over TLS', function () {
  this.timeout(30_000);
  const certificates = mkdtempSync(join(tmpdir(), 'rbench-tls-'));
  const file = (name: string) => join(certificates, name);
  let tlsPort = 0;
  const tlsPortArgs: string[] = [];
  before(async () => {
    // A CA and a server certificate for "localhost", made with the openssl command line.
    const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=RBench test CA', '-keyout', file('ca.key'), '-out', file('ca.crt'));
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', file('server.key'), '-out', file('server.csr'));
    writeFileSync(file('ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
    openssl(
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.crt'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      file('ext.cnf'),
      '-out',
      file('server.crt'),
    );
    tlsPort = await freePort();
    tlsPortArgs.push(String(tlsPort));
  });
  const server = useRedisServer({
    config: [
      { name: 'tls-port', args: tlsPortArgs },
      { name: 'tls-cert-file', args: [file('server.crt')] },
      { name: 'tls-key-file', args: [file('server.key')] },
      { name: 'tls-ca-cert-file', args: [file('ca.crt')] },
      { name: 'tls-auth-clients', args: ['no'] },
    ],
  });
  after(() => rmSync(certificates, { recursive: true, force: true }));

  for (const client of ['fast', 'ioredis'] as const) {
    it(`${client}: runs with the CA given, and explains an unknown CA`, async () => {
      const target = { host: '127.0.0.1', port: tlsPort };
      assert.ok(server().port !== tlsPort);
      const result = await runLoad(
        loadRequest(target, {
          client,
          test: singleTest('SET key:__key__ __value__'),
          connection: { tls: { ca: readFileSync(file('ca.crt')) } },
          load: { clients: 3, pipeline: 4, requests: 3000 },
        }),
      );
      assert.equal(result.total.requests, 3000);
      assert.equal(result.total.errors, 0);
      await assert.rejects(
        runLoad(loadRequest(target, { client, test: singleTest('PING'), connection: { tls: {} } })),
        /^LoadError: TLS handshake with 127\.0\.0\.1:\d+ failed: the server's certificate is self-signed and not trusted — give its CA certificate with `tls ca FILE`, or `tls insecure` for a test server$/,
      );
    });
  }
});

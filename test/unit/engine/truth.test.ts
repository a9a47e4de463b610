// A stalled or failing server must never look fast or healthy: the engine's windows, drain, timeouts,
// timeline and error status against a real redis-server frozen with SIGSTOP/SIGCONT.
import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { runLoad } from '../../../src/engine';
import { ERROR_STATUS_THRESHOLD } from '../../../src/engine/verdicts';
import { DRAIN_TIMEOUT_MS } from '../../../src/engine/workerLoad';
import type { LoadRequest, LoadResult } from '../../../src/engine/types';
import { startLocalServer, type LocalServer } from '../../../src/redis/localServer';
import { useRedisServer } from '../../helpers/redis';
import { loadRequest, mixTest, singleTest } from './plans';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Freezes the server process `atMs` from now for `forMs`; always resumes it (also when the test fails). */
export function freezeServer(server: LocalServer, atMs: number, forMs: number): { done: Promise<void>; resume: () => void } {
  let frozen = false;
  const resume = () => {
    if (frozen) process.kill(server.pid, 'SIGCONT');
    frozen = false;
  };
  const done = (async () => {
    await sleep(atMs);
    process.kill(server.pid, 'SIGSTOP');
    frozen = true;
    await sleep(forMs);
    resume();
  })();
  return { done, resume };
}

/**
 * Runs a load while the server is frozen from `atMs` after measuring began (known from the first 100 ms
 * bucket, so a slow start on a busy machine does not shift the freeze) for `forMs`.
 */
async function runWhileFrozen(server: LocalServer, atMs: number, forMs: number, request: LoadRequest): Promise<LoadResult> {
  let freeze: ReturnType<typeof freezeServer> | undefined;
  try {
    return await runLoad(request, {
      onTick: (tick) => {
        if (!freeze && tick.lastSecond) freeze = freezeServer(server, Math.max(0, atMs - 100), forMs);
      },
    });
  } finally {
    freeze?.resume();
    await freeze?.done;
  }
}

function zeroBuckets(result: LoadResult, from: number, to: number): number {
  return result.timeline.filter((b) => b.t >= from && b.t + (b.partialMs ?? 1000) / 1000 <= to && b.ops === 0).length;
}

describe('measurement truth: a frozen server (SIGSTOP/SIGCONT)', function () {
  this.timeout(40_000);
  const server = useRedisServer();

  it('duration run: throughput over the planned window, stalled requests time out with their wait, the timeline shows the stall', async () => {
    // 2 s window; frozen from 0.5 s until well after the window and its drain end.
    const freezeMs = 2000 + DRAIN_TIMEOUT_MS + 1000;
    const result = await runWhileFrozen(
      server(),
      500,
      freezeMs,
      loadRequest(server(), { test: singleTest('SET k:__key__ __value__'), load: { clients: 10, durationMs: 2000, requests: undefined } }),
    );
    assert.equal(result.durationMs, 2000, 'the window is the planned duration, not first send to last reply');
    assert.equal(result.windowMs, 2000);
    assert.equal(result.windowKind, 'planned-duration');
    const timeouts = result.total.errorsByKind.TIMEOUT ?? 0;
    assert.equal(timeouts, 10, 'one request per client was in flight when the server froze');
    const answered = result.total.requests - timeouts;
    assert.ok(Math.abs(result.total.opsPerSec - answered / 2) <= 1, `ops/s ${result.total.opsPerSec} = ${answered} replies / 2 s`);
    // Each stalled request waited from ~0.5 s to the end of the drain: at least 3 s.
    assert.ok(result.total.latency.maxUs >= 3_000_000, `max ${result.total.latency.maxUs} µs`);
    assert.equal(result.total.latency.count, result.total.requests, 'timed-out requests are in the histogram');
    // 100 ms buckets (a short test), and the frozen part of the window has no replies at all.
    assert.ok(result.timeline.length >= 18 && result.timeline.length <= 20, `${result.timeline.length} buckets`);
    assert.ok(
      result.timeline.every((b) => b.t < 2),
      'nothing after the window',
    );
    assert.ok(zeroBuckets(result, 0.6, 2) >= 13, JSON.stringify(result.timeline.map((b) => [b.t, b.ops])));
    assert.ok(result.timeline.some((b) => b.t < 0.5 && b.ops > 0));
  });

  it('duration run: replies that arrive in the drain count with their real latency, not in throughput', async () => {
    // Frozen from 0.5 s to 2.8 s: the window ends at 2 s, the replies come 0.8 s into the drain.
    const result = await runWhileFrozen(
      server(),
      500,
      2300,
      loadRequest(server(), { test: singleTest('GET k:__key__'), load: { clients: 4, durationMs: 2000, requests: undefined } }),
    );
    assert.equal(result.total.errors, 0);
    assert.equal(result.durationMs, 2000);
    assert.ok(result.drainMs !== undefined && result.drainMs >= 600, `drain ${result.drainMs} ms`);
    assert.ok(result.total.latency.maxUs >= 2_100_000, `max ${result.total.latency.maxUs} µs`);
    // The 4 late replies are in the requests but not in ops/s (replies inside the window / window).
    assert.ok(result.total.opsPerSec * 2 <= result.total.requests - 4 + 1, `${result.total.opsPerSec} ops/s, ${result.total.requests} requests`);
  });

  it('count run: measured from the first send to the last reply, the stall in max latency and the timeline', async () => {
    // Open loop at 20k/s for 30k requests (1.5 s of sends), frozen from 0.4 s for 1.5 s.
    const result = await runWhileFrozen(
      server(),
      400,
      1500,
      loadRequest(server(), { test: singleTest('INCR c'), load: { clients: 4, rate: 20_000, requests: 30_000 } }),
    );
    assert.equal(result.status, 'complete');
    assert.equal(result.total.requests, 30_000);
    assert.ok(result.durationMs >= 1850, `window ${result.durationMs} ms includes the 1.5 s freeze`);
    assert.ok(Math.abs(result.total.opsPerSec - 30_000_000 / result.durationMs) < 1);
    assert.ok(result.total.latency.maxUs >= 1_400_000, `max ${result.total.latency.maxUs} µs`);
    assert.ok(result.total.latency.p99Us >= 500_000, `p99 ${result.total.latency.p99Us} µs: a third of the requests were due in the freeze`);
    assert.ok(zeroBuckets(result, 0.5, 1.8) >= 11, JSON.stringify(result.timeline.map((b) => [b.t, b.ops])));
    assert.equal(result.windowKind, 'first-send-to-last-reply');
  });
});

describe('measurement truth: runs that mostly failed', function () {
  this.timeout(30_000);

  it('OOM on every write ends as complete-with-errors, and says why', async () => {
    const server = await startLocalServer({
      config: [
        { name: 'maxmemory', args: ['1mb'] },
        { name: 'maxmemory-policy', args: ['noeviction'] },
      ],
    });
    try {
      const result = await runLoad(
        loadRequest(server, {
          test: singleTest('SET k:__key__ __value__'),
          keys: { space: 100_000 },
          value: { kind: 'fixed', size: 1000 },
          load: { clients: 4, requests: 20_000 },
        }),
      );
      assert.equal(result.status, 'complete-with-errors');
      assert.ok((result.total.errorsByKind.OOM ?? 0) > 15_000, JSON.stringify(result.total.errorsByKind));
      assert.match(result.errorStatusReason ?? '', /of requests failed \(SET: OOM command not allowed [^()]*\([\d,]+×\)\), above the 1% threshold/);
    } finally {
      await server.stop();
    }
  });

  describe('with a string key `s` that list commands fail on', () => {
    const server = useRedisServer();
    beforeEach(async () => {
      const redis = new Redis({ host: server().host, port: server().port });
      await redis.flushall();
      await redis.set('s', 'text');
      redis.disconnect();
    });

    it('nothing succeeded: every request an error', async () => {
      const result = await runLoad(loadRequest(server(), { test: singleTest('LPUSH s x'), load: { clients: 2, requests: 500 } }));
      assert.equal(result.status, 'complete-with-errors');
      assert.match(
        result.errorStatusReason ?? '',
        /^nothing succeeded: all 500 requests failed \(LPUSH: WRONGTYPE Operation against a key holding the wrong kind of value \(500×\)\)/,
      );
    });

    it('errors at or below the threshold keep the status complete', async () => {
      // 1 in 200 requests fails (0.5%).
      const result = await runLoad(
        loadRequest(server(), {
          test: mixTest([
            [199, 'INCR c'],
            [1, 'LPUSH s x'],
          ]),
          load: { clients: 2, requests: 20_000 },
        }),
      );
      const share = result.total.errors / result.total.requests;
      assert.ok(share > 0 && share <= ERROR_STATUS_THRESHOLD, `error share ${share}`);
      assert.equal(result.status, 'complete');
    });
  });
});

describe('measurement truth: open loop pacing', function () {
  this.timeout(30_000);
  const server = useRedisServer();

  it('2k/s: sends paced by timers, client CPU well under a core, no CPU-bound verdict', async () => {
    const cpu = process.cpuUsage();
    const result = await runLoad(
      loadRequest(server(), { test: singleTest('GET k:__key__'), load: { clients: 10, rate: 2000, durationMs: 3000, requests: undefined } }),
    );
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    assert.ok(Math.abs(result.total.requests - 6000) <= 60, `${result.total.requests} requests`);
    // A spinning loop burns a core (about 3 s of CPU in 3 s); pacing by timers needs a few percent
    // (the bound leaves room for starting the worker thread and a busy shared machine).
    assert.ok(cpuMs < 900, `client CPU ${cpuMs.toFixed(0)} ms for 3 s at 2k/s`);
    assert.notEqual(result.health.bottleneck, 'client');
    assert.ok((result.health.eventLoopUtilization ?? 1) < 0.5, `event-loop utilization ${result.health.eventLoopUtilization}`);
  });

  it('above what the server can take: late sends counted, latency rising through the run', async () => {
    const result = await runLoad(
      loadRequest(server(), { test: singleTest('SET k:__key__ __value__'), load: { clients: 1, rate: 1_000_000, durationMs: 1500, requests: undefined } }),
    );
    assert.ok(result.openLoop && result.openLoop.lateSends > result.total.requests / 2, `late ${result.openLoop?.lateSends} of ${result.total.requests}`);
    // Each request waits for the backlog ahead of it: the later in the run, the longer.
    // Buckets that heard replies: a bucket with none (the client or the server waiting for a core) has no median.
    const answered = result.timeline.filter((b) => b.ops > 0);
    const first = answered.slice(0, 4).map((b) => b.p50Us);
    const last = answered.slice(-3).map((b) => b.p50Us);
    assert.ok(Math.min(...last) > Math.max(...first) && Math.min(...last) > 500_000, `p50 first ${first} µs, last ${last} µs`);
    assert.ok(result.health.lateShare !== undefined && result.health.lateShare > 0.5);
  });
});

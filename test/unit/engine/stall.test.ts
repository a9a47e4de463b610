// The stall limit: a load against a server that stops answering for good ends after `stall-timeout`
// instead of waiting forever; outstanding requests become TIMEOUT errors with their wait as latency.
// A real redis-server frozen with SIGSTOP (always resumed in `finally`, so the test server can stop).
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { runLoad } from '../../../src/engine';
import type { LoadRequest, LoadResult } from '../../../src/engine/types';
import type { ClientPath } from '../../../src/scenario/plan';
import type { LocalServer } from '../../../src/redis/localServer';
import { useRedisServer } from '../../helpers/redis';
import { loadRequest, singleTest } from './plans';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a load, freezing the server once measuring is under way (the first 100 ms bucket came in) and
 * resuming it after `freezeMs` (Infinity: only after the load ended). Returns the result and the time
 * from the freeze to the load's end.
 */
async function runFrozen(
  server: LocalServer,
  request: LoadRequest,
  freezeMs: number,
  options: { signal?: AbortSignal; onFrozen?: () => void } = {},
): Promise<{ result: LoadResult; endedAfterFreezeMs: number }> {
  let frozenAt: number | undefined;
  let thaw: NodeJS.Timeout | undefined;
  const resume = () => {
    if (frozenAt !== undefined) process.kill(server.pid, 'SIGCONT');
  };
  try {
    const result = await runLoad(request, {
      signal: options.signal,
      onTick: (tick) => {
        if (frozenAt !== undefined || !tick.lastSecond) return;
        process.kill(server.pid, 'SIGSTOP');
        frozenAt = performance.now();
        options.onFrozen?.();
        if (Number.isFinite(freezeMs)) {
          thaw = setTimeout(() => {
            process.kill(server.pid, 'SIGCONT');
          }, freezeMs);
        }
      },
    });
    assert.ok(frozenAt !== undefined, 'the server was frozen during the load');
    return { result, endedAfterFreezeMs: performance.now() - frozenAt };
  } finally {
    if (thaw) clearTimeout(thaw);
    resume();
  }
}

const countLoad = (server: LocalServer, client: ClientPath, stallTimeoutMs: number, requests: number) =>
  loadRequest(server, { client, test: singleTest('SET k:__key__ __value__'), load: { clients: 4, requests, stallTimeoutMs } });

describe('the stall limit: a server that stops answering ends the load (SIGSTOP)', function () {
  this.timeout(30_000);
  const server = useRedisServer();

  for (const client of ['fast', 'ioredis'] as const) {
    it(`${client}: a count run against a server frozen for good ends after stall-timeout, outstanding requests as TIMEOUT errors`, async () => {
      const { result, endedAfterFreezeMs } = await runFrozen(server(), countLoad(server(), client, 2000, 5_000_000), Infinity);
      assert.ok(endedAfterFreezeMs >= 1900 && endedAfterFreezeMs < 6000, `ended ${Math.round(endedAfterFreezeMs)} ms after the freeze`);
      assert.equal(result.status, 'complete-with-errors');
      assert.equal(result.windowKind, 'first-send-to-stall');
      // Closed loop, pipeline 1: one request per client was outstanding.
      assert.equal(result.total.errorsByKind.TIMEOUT, 4, JSON.stringify(result.total.errorsByKind));
      assert.equal(result.total.errors, 4);
      assert.ok(result.total.latency.maxUs >= 2_000_000, `max ${result.total.latency.maxUs} µs shows the stall`);
      assert.equal(result.total.latency.count, result.total.requests, 'timed-out requests are in the histogram');
      assert.ok(result.total.requests < 5_000_000, 'unsent requests are not invented as errors');
      const sent = result.total.requests.toLocaleString('en-US');
      assert.match(
        result.errorStatusReason ?? '',
        new RegExp(
          `^the server sent no reply for 2(\\.\\d)? s with 4 requests outstanding \\(now TIMEOUT errors\\); ${sent} of 5,000,000 planned requests sent$`,
        ),
      );
      // The window runs from the first send to the stall call: throughput = replies in it / its length.
      assert.ok(result.durationMs >= 2000, `window ${result.durationMs} ms`);
      assert.ok(Math.abs(result.total.opsPerSec - ((result.total.requests - 4) * 1000) / result.durationMs) < 1);
      // The silent part shows in the timeline as buckets without replies, not as a burst.
      assert.ok(result.timeline.filter((b) => b.ops === 0).length >= 15, JSON.stringify(result.timeline.map((b) => [b.t, b.ops])));
      assert.ok(
        result.timeline.every((b) => b.errors === 0),
        'the timeouts fall after the window',
      );
    });
  }

  it('a freeze shorter than stall-timeout: the count run completes normally, the freeze in max latency', async () => {
    const { result } = await runFrozen(server(), countLoad(server(), 'fast', 2000, 60_000), 1000);
    assert.equal(result.status, 'complete', result.errorStatusReason);
    assert.equal(result.total.requests, 60_000);
    assert.equal(result.total.errors, 0);
    assert.equal(result.windowKind, 'first-send-to-last-reply');
    assert.ok(result.total.latency.maxUs >= 900_000, `max ${result.total.latency.maxUs} µs`);
  });

  it('an open loop between sparse sends is not a stall: nothing outstanding, no timeout', async () => {
    // 4 requests/s with a 300 ms limit: the server is silent far longer than the limit between replies.
    const request = loadRequest(server(), { test: singleTest('PING'), load: { clients: 1, requests: 6, rate: 4, stallTimeoutMs: 300 } });
    const result = await runLoad(request);
    assert.equal(result.status, 'complete', result.errorStatusReason);
    assert.equal(result.total.requests, 6);
    assert.equal(result.total.errors, 0);
  });

  it('cancellation still works during a stall (under 1 s)', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    // Abort 1.5 s into a freeze, well inside the 10 s limit.
    const onFrozen = () =>
      void sleep(1500).then(() => {
        abortedAt = performance.now();
        controller.abort();
      });
    const { result } = await runFrozen(server(), countLoad(server(), 'fast', 10_000, 5_000_000), Infinity, { signal: controller.signal, onFrozen });
    assert.ok(abortedAt > 0, 'aborted during the freeze');
    const stopMs = performance.now() - abortedAt;
    assert.ok(stopMs < 1000, `stopped ${Math.round(stopMs)} ms after the abort`);
    assert.equal(result.status, 'cancelled');
  });
});

// Engine threads kept warm between loads (src/engine/warmThreads.ts, issue 46): sequential loads reuse one thread
// and count exactly as loads of their own did; loads at the same time, or of another heap, get threads of their
// own; a load ended before it settled takes its thread with it.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoad } from '../../../src/engine';
import { workerConfigs } from '../../../src/engine/loadPlan';
import { endIdleThreads, hostOnWarmThread, warmThreadCounts } from '../../../src/engine/warmThreads';
import { workerScriptPath } from '../../../src/engine/workerThreads';
import type { WorkerToMain } from '../../../src/engine/workerMessages';
import { runCli } from '../../helpers/cli';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';
import { loadRequest, singleTest } from './plans';

describe('engine threads kept warm between loads', function () {
  this.timeout(60_000);
  const server = useRedisServer();
  // Past the small-load bound: each load runs on an engine thread, not on the caller's (threads.ts).
  const REQUESTS = 3000;
  const setLoad = (client: 'fast' | 'ioredis' = 'fast') =>
    loadRequest(server(), { client, test: singleTest('SET warm:__key__ __value__'), load: { clients: 4, pipeline: 8, requests: REQUESTS } });

  it('runs sequential loads on one thread, each counted exactly (INFO commandstats)', async () => {
    const before = warmThreadCounts().started;
    const setsBefore = await withRedis(server(), (redis) => commandCalls(redis, 'set'));
    for (let i = 0; i < 4; i++) {
      const result = await runLoad(setLoad());
      assert.equal(result.status, 'complete', result.error);
      assert.equal(result.total.requests, REQUESTS);
      assert.equal(result.total.errors, 0);
    }
    const sets = (await withRedis(server(), (redis) => commandCalls(redis, 'set'))) - setsBefore;
    assert.equal(sets, 4 * REQUESTS);
    // At most one new thread: an earlier test of this process may have left one of this heap warm.
    assert.ok(warmThreadCounts().started - before <= 1, `${warmThreadCounts().started - before} threads started for 4 sequential loads`);
  });

  it('gives loads at the same time threads of their own, and keeps a thread to its heap', async () => {
    // An earlier test's threads stay warm for 30 s (a load with `threads 2` leaves two): start from none.
    endIdleThreads();
    await runLoad(setLoad()); // one fast-path thread warm
    const before = warmThreadCounts().started;
    const [a, b] = await Promise.all([runLoad(setLoad()), runLoad(setLoad())]);
    assert.equal(a.total.requests + b.total.requests, 2 * REQUESTS);
    assert.equal(warmThreadCounts().started - before, 1, 'the second load at the same time started a thread');
    // The ioredis path keeps V8's default heap (workerHeap.ts): not a lean fast-path thread.
    const ioredis = await runLoad(setLoad('ioredis'));
    assert.equal(ioredis.status, 'complete', ioredis.error);
    assert.ok(warmThreadCounts().started - before >= 1);
    const afterIoredis = warmThreadCounts().started;
    await runLoad(setLoad());
    await runLoad(setLoad('ioredis'));
    assert.equal(warmThreadCounts().started, afterIoredis, 'a later load of either heap found its thread warm');
  });

  it('reuses several threads at once: each collects before its next load, none crashes', async () => {
    // Seen in CI: 3 warm threads of one load collected at once; one set V8's --expose-gc back while another made
    // the context that takes `gc`, which then had none ("gc is not defined"), and the load failed.
    for (let i = 0; i < 12; i++) {
      const request = loadRequest(server(), {
        test: singleTest('SET warm:__key__ __value__'),
        load: { clients: 6, threads: 3, pipeline: 8, requests: REQUESTS },
      });
      const result = await runLoad(request);
      assert.equal(result.status, 'complete', `load ${i + 1}: ${result.error}`);
      assert.equal(result.total.requests, REQUESTS);
    }
  });

  it('ends the thread of a load ended before it settled; the next load still runs', async () => {
    await runLoad(setLoad());
    const request = setLoad();
    const [config] = workerConfigs(request, {}, { seed: 1, threads: 1, labels: ['SET'], labelIndexes: [0], topology: undefined });
    const before = warmThreadCounts();
    const load = hostOnWarmThread(workerScriptPath(), config);
    assert.equal(warmThreadCounts().started, before.started, 'the warm thread was taken');
    // Ended while it connects: no result, no connect-failed yet.
    const ready = once(load, 'message') as Promise<[WorkerToMain]>;
    await load.terminate();
    assert.equal(warmThreadCounts().alive, before.alive - 1, 'the thread was kept');
    await Promise.race([ready, new Promise((resolve) => setTimeout(resolve, 200))]);
    // The next load runs on another warm thread of its heap, or a new one.
    const next = await runLoad(setLoad());
    assert.equal(next.total.requests, REQUESTS);
    assert.equal(warmThreadCounts().alive, before.alive - (warmThreadCounts().started - before.started === 1 ? 0 : 1));
  });

  for (const [where, threads] of [
    ['warm engine threads collect', 2],
    ['the CLI’s own thread collects', 1],
  ] as const)
    it(`keeps the memory of a run flat over many tests: ${where} what each load left`, async () => {
      // Before the collection between loads: 111 MiB of peak RSS for 30 tests against 88 for 10 (+0.8 MiB a load) on
      // warm threads; on the CLI's thread (a one-thread load runs there), 95 MiB for 30 tests against 68 for 3.
      const scratch = mkdtempSync(join(tmpdir(), 'rbench-warm-'));
      try {
        const preload = join(scratch, 'peak.cjs');
        writeFileSync(preload, "process.on('exit', () => process.stderr.write('PEAK-RSS-KIB ' + process.resourceUsage().maxRSS + '\\n'));\n");
        const peakKib = async (tests: number) => {
          const file = join(scratch, `tests-${tests}.rbench`);
          const one = (i: number) => `### t${i}\nthreads ${threads}\nclients 8\npipeline 16\nrequests 1500\nSET warm:__key__ __value__\n`;
          writeFileSync(file, Array.from({ length: tests }, (_, i) => one(i)).join('\n'));
          const run = await runCli(['run', '--yes', file, '--url', server().url, '--quiet', '--out', join(scratch, 'runs')], {
            cwd: scratch,
            env: { NODE_OPTIONS: `--require ${preload}` },
          });
          assert.equal(run.code, 0, run.stderr);
          return Number(/^PEAK-RSS-KIB (\d+)$/m.exec(run.stderr)?.[1]);
        };
        const few = await peakKib(3);
        const many = await peakKib(30);
        // 8 MiB a thread: each has its own heap and allocator arena, collected per load (uncollected: ~0.8 MiB a load each).
        assert.ok(many - few < threads * 8 * 1024, `peak RSS ${Math.round(few / 1024)} MiB for 3 tests, ${Math.round(many / 1024)} MiB for 30`);
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    });
});

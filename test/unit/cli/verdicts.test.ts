// The bottleneck verdict from real servers made to hit each limit (issue 21's tests): a CPU-heavy Lua loop
// gives server-cpu, BGSAVE during a test persistence with the fork time, a small maxmemory with
// allkeys-lru memory, redis-benchmark alongside foreign-load with the foreign count, a single idle client
// round-trip. They need the server's counters per load (LoadResult.server, filled by src/runner with
// src/redis's deltas) and, for the freeze, the engine's stall stretches (LoadResult.stalls): the verdict
// itself is src/results/bottleneck, judged by the runner after each load. Until those are merged every test
// here fails on its verdict assertion (the runs themselves complete; the freeze's max column already holds).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LoadResult } from '../../../src/engine/types';
import { runCli, startCli, useScratch } from '../../helpers/cli';
import { cpuCap, cpuFirst } from '../../helpers/cpuCap';
import { commandCalls, useRedisServer, waitForCalls, withRedis } from '../../helpers/redis';
import { kinds, whyOf } from '../../helpers/verdict';

function onlyLoad(scratch: ReturnType<typeof useScratch>): LoadResult {
  const runs = scratch.runFiles();
  const run = runs[runs.length - 1];
  return run.points[0].repeats[0][0];
}

describe('bottleneck verdicts from real servers', function () {
  this.timeout(120_000);
  const scratch = useScratch();

  describe('one server', () => {
    const server = useRedisServer();

    // Whatever else runs on the machine, a CPU-heavy script keeps the server's main thread with work nearly all the
    // window: the scheduler's accounting says so, not its CPU percent (issue 41, seen 12).
    it('a CPU-heavy EVAL loop: server-cpu, the main thread with work at least N/(N+1) of the window by its schedstat', async () => {
      const file = scratch.write('lua.rbench', '### lua\nclients 4\nduration 3s\nEVAL "local i = 0 while i < 100000 do i = i + 1 end return i" 0\n');
      // Both sides served first: the script is the one limit, however busy the machine is.
      const first = cpuFirst();
      first.add(server().pid);
      const result = await runCli(['run', '--yes', '--allow-destructive', file, '--url', server().url], { cwd: scratch.dir, launcher: first.launcher }).finally(
        () => first.remove(),
      );
      assert.equal(result.code, 0, result.stderr);
      const load = onlyLoad(scratch);
      assert.ok(load.server?.schedule, 'the loopback server’s schedstat was read');
      // Read again by the engine where the load's window opened and closed: inside the counters' reads, so never more.
      const thread = load.serverThread;
      assert.ok(thread && thread.runMs > 0, `the server's main thread over the load's window: ${JSON.stringify(thread)}`);
      assert.ok(thread.runMs <= load.server.schedule.runMs + 1, `${thread.runMs} ms within the counters' ${load.server.schedule.runMs} ms`);
      assert.ok(kinds(load.bottleneck).includes('server-cpu'), JSON.stringify(load.bottleneck));
      assert.match(
        whyOf(load.bottleneck!, 'server-cpu'),
        /^the server's main thread ran \d+ %, waited \d+ % for a core, slept \d+ % of the window.*(busy at least N\/\(N\+1\) = 80 % with 4 connections|it waited for a core at least as long as it ran)/,
      );
      assert.match(result.stdout, /^EVAL bottleneck: /m);
    });

    // The cap makes the starvation (issue 41, seen 1 and 12): the client gets 20 ms of every 100 ms whatever else runs.
    it('a client in a cgroup with 20 % of a core: client-starved with its wait for a core, never "add clients"', async () => {
      const cap = cpuCap(0.2);
      // The server served first: only the client is short of CPU, however busy the machine is.
      const first = cpuFirst();
      first.add(server().pid);
      try {
        const file = scratch.write('capped.rbench', '### capped\nclients 10\nthreads 1\nduration 3s\nGET c:__rand_int__\n');
        const result = await runCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir, launcher: cap.launcher });
        assert.equal(result.code, 0, result.stderr);
        const load = onlyLoad(scratch);
        assert.ok(
          kinds(load.bottleneck).some((kind) => kind === 'client-starved' || kind === 'machine-cpu'),
          JSON.stringify(load.bottleneck),
        );
        assert.match(whyOf(load.bottleneck!, load.bottleneck!.kind), /the client's thread ran \d+ %, waited \d+ % for a core/);
        assert.doesNotMatch(JSON.stringify(load.bottleneck), /add clients/);
      } finally {
        cap.remove();
        first.remove();
      }
    });

    it('BGSAVE of a small dataset during the test: the fork is a note with its time and share, not the cause', async () => {
      // 50k keys: the fork's pause a few ms, its child's CPU (~50 ms) too little to be a share of any wait worth 1 % of the window.
      await withRedis(server(), (redis) => redis.call('DEBUG', 'POPULATE', '50000', 'fill', '100'));
      const file = scratch.write('save.rbench', '### save\nclients 4\nduration 6s\nGET fill:__rand_int__\n');
      // The fork as soon as this load is under way (1,000 GETs past the server's count before it: the counter is
      // the server's since it started, and earlier tests sent GETs), not at a time: on a busy machine a fixed wait
      // put the BGSAVE before the load or after its window.
      const before = await withRedis(server(), (redis) => commandCalls(redis, 'get'));
      // Client and server (and the fork's child, which stays in its parent's cgroup) served first: on a machine busy
      // with other work they would wait for cores, and the child's share of that wait could then hold 1 % of the window.
      const first = cpuFirst();
      first.add(server().pid);
      let result;
      try {
        const cli = startCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir, launcher: first.launcher });
        await withRedis(server(), async (redis) => {
          await waitForCalls(redis, 'get', before + 1000, 1500);
          await redis.bgsave();
        });
        result = await cli.done;
      } finally {
        first.remove();
      }
      assert.equal(result.code, 0, result.stderr);
      const load = onlyLoad(scratch);
      // 50k small keys fork in a few ms, far under 1 % of the 6 s window: a note, not the cause (issue 41, seen 4).
      assert.ok(!kinds(load.bottleneck).includes('persistence'), JSON.stringify(load.bottleneck));
      assert.match(
        load.bottleneck!.why,
        /note: the server forked 1× during the test( \([^)]*\))?, the fork took [\d.]+ (µs|ms) \((0\.\d+|< 0\.01) % of the window\): too short to set the pace/,
      );
    });

    it('redis-benchmark alongside: foreign-load with the count, and compare says so', async () => {
      const clean = scratch.write('shared.rbench', '### shared\nclients 2\nduration 3s\nGET s:__rand_int__\n');
      const first = await runCli(['run', '--yes', clean, '--url', server().url], { cwd: scratch.dir });
      assert.equal(first.code, 0, first.stderr);
      const cleanLoad = onlyLoad(scratch);
      assert.ok(!kinds(cleanLoad.bottleneck).includes('foreign-load'), JSON.stringify(cleanLoad.bottleneck));

      const cli = startCli(['run', '--yes', clean, '--url', server().url], { cwd: scratch.dir });
      await withRedis(server(), (redis) => waitForCalls(redis, 'get', 1000, 500));
      const other = spawn('redis-benchmark', ['-h', server().host, '-p', String(server().port), '-c', '2', '-n', '20000', '-t', 'set', '-q']);
      const otherDone = new Promise((resolve) => other.on('close', resolve));
      const result = await cli.done;
      await otherDone;
      assert.equal(result.code, 0, result.stderr);
      const load = onlyLoad(scratch);
      assert.ok(kinds(load.bottleneck).includes('foreign-load'), JSON.stringify(load.bottleneck));
      assert.match(whyOf(load.bottleneck!, 'foreign-load'), /the server ran [\d,]+ commands this test did not send \(set [\d,]+/);
      assert.ok((load.server?.foreign?.calls ?? 0) >= 1000, `foreign calls ${load.server?.foreign?.calls}`);

      const runs = join(scratch.dir, '.rbench', 'runs');
      const files = readdirSync(runs)
        .filter((name) => name.endsWith('.rbench-run.json'))
        .sort()
        .map((name) => join(runs, name));
      assert.equal(files.length, 2);
      const compared = await runCli(['compare', ...files], { cwd: scratch.dir });
      assert.match(compared.stdout, /the server ran [\d,]+ commands this run did not send/);
    });

    // Both sides in a cgroup served before anything else, each pinned to a core of its own, get a core when they
    // wake, whatever else runs: neither waits, the condition round-trip needs is made here, not hoped for (issue 41).
    it('one client on loopback, neither side busy nor waiting: round-trip, with both latencies', async () => {
      const file = scratch.write('idle.rbench', '### idle\nclients 1\nduration 2s\nGET i:__rand_int__\n');
      const first = cpuFirst();
      first.add(server().pid);
      const pin = (cpus: string) => spawnSync('taskset', ['-a', '-p', '-c', cpus, String(server().pid)], { stdio: 'ignore' });
      pin('1');
      const launcher = ['taskset', '-c', '0', ...first.launcher];
      const result = await runCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir, launcher }).finally(() => {
        pin(`0-${cpus().length - 1}`);
        first.remove();
      });
      assert.equal(result.code, 0, result.stderr);
      const load = onlyLoad(scratch);
      assert.equal(load.bottleneck?.kind, 'round-trip', JSON.stringify(load.bottleneck));
      assert.match(load.bottleneck!.why, /p50 [\d.]+ µs at the client, [\d.]+ µs in the server/);
      assert.match(result.stdout, /srv µs\/call/);
    });
  });

  describe('a server frozen for 2 s (issue 20, seen 1)', () => {
    const server = useRedisServer();

    it('the table has the 2 s max, the stall is a warning with when and how long, and the run is not a clean complete', async () => {
      const file = scratch.write('freeze.rbench', '### freeze\nclients 10\nduration 6s\nGET key:__rand_int__\n');
      const cli = startCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir });
      await withRedis(server(), (redis) => waitForCalls(redis, 'get', 5000, 500));
      await sleep(1500);
      process.kill(server().pid, 'SIGSTOP');
      try {
        await sleep(2000);
      } finally {
        process.kill(server().pid, 'SIGCONT');
      }
      const result = await cli.done;
      assert.equal(result.code, 0, result.stderr);
      const load = onlyLoad(scratch);
      assert.ok(load.total.latency.maxUs >= 1_800_000, `max ${load.total.latency.maxUs} µs`);
      assert.match(
        result.stdout,
        new RegExp(`\\s${(load.total.latency.maxUs / 1000).toFixed(3)}\\s+(?:[\\d.]+\\s+)?0(?:\\s+[\\d,]+\\s+[\\d,]+\\s+[\\d.]+ %)?(?:  +\\S[^\\n]*)?\n`),
        'the max column shows it',
      );
      const warning = /! GET: the server did not answer from (\d+\.\d) s to (\d+\.\d) s \((\d\.\d) s\) on \d+ of 10 connections\./.exec(result.stdout);
      assert.ok(warning, result.stdout);
      const length = Number(warning[3]);
      assert.ok(length >= 1.7 && length <= 3, `stall of ${length} s`);
      assert.match(result.stdout, /^Run complete, with a \d\.\d s stall, results saved: /m);
      assert.ok(kinds(load.bottleneck).includes('stall'), JSON.stringify(load.bottleneck));
    });
  });

  describe('a server with little memory', () => {
    const server = useRedisServer({
      config: [
        { name: 'maxmemory', args: ['8mb'] },
        { name: 'maxmemory-policy', args: ['allkeys-lru'] },
      ],
    });

    it('maxmemory with allkeys-lru: memory, with the evictions', async () => {
      const file = scratch.write('fill.rbench', '### fill\nclients 4\nrequests 40000\nkeys 40000 sequential\nvalue 1000\nSET m:__key__ __value__\n');
      const result = await runCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stderr);
      const load = onlyLoad(scratch);
      assert.ok(kinds(load.bottleneck).includes('memory'), JSON.stringify(load.bottleneck));
      assert.match(whyOf(load.bottleneck!, 'memory'), /the server evicted [\d,]+ keys/);
    });
  });
});

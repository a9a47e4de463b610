// A run loads only what it uses (issue 46: a run's fixed cost). Every module a `rbench run` process requires is
// recorded per thread by a preload (NODE_OPTIONS=--require, which Node applies to worker threads too): the engine
// thread of a plain-TCP fast-path run loads its bundle and the few built-ins the load needs — no ioredis, no other
// client path, no vendor bundle, no node:tls (~3 ms of each thread's CPU, for TLS targets only), no test hooks'
// node:v8, no node:crypto (its main thread checks the engine's code cache: src/engine/workerCode.ts) — and the main
// thread no node:http (the --metrics endpoint's). node:vm it loads: it compiles the engine from its code cache.
import assert from 'node:assert/strict';
import { basename, join } from 'node:path';
import { useRedisServer } from '../../helpers/redis';
import { repoRoot, runCli, useScratch } from '../../helpers/cli';
import { REQUIRE_RECORDER as RECORDER } from '../../helpers/requireRecorder';

/** Built-ins a plain-TCP fast-path load never needs on its engine thread. */
const ENGINE_THREAD_NEVER = ['tls', 'crypto', 'zlib', 'http', 'https', 'child_process', 'v8', 'dns'];

interface Required {
  builtins: Set<string>;
  distFiles: Set<string>;
}

function requiredByThread(stderr: string): Map<number, Required> {
  const threads = new Map<number, Required>();
  for (const [, thread, name] of stderr.matchAll(/^RBENCH-REQUIRE (\d+) (.+)$/gm)) {
    const seen = threads.get(Number(thread)) ?? { builtins: new Set<string>(), distFiles: new Set<string>() };
    threads.set(Number(thread), seen);
    if (name.startsWith(join(repoRoot, 'dist'))) seen.distFiles.add(basename(name));
    else if (!name.includes('/')) seen.builtins.add(name.replace(/^node:/, ''));
  }
  return threads;
}

describe('modules a run loads (issue 46)', function () {
  this.timeout(60_000);
  const server = useRedisServer();
  const scratch = useScratch();

  it('a plain-TCP fast-path run: the engine thread loads its bundle and no ioredis, TLS, client path or test hook; the main thread no HTTP', async () => {
    const recorder = scratch.write('recorder.cjs', RECORDER);
    // Two threads: engine threads of its own (the CLI runs a one-thread load on its own thread).
    const file = scratch.write('lean.rbench', '### lean\nthreads 2\nclients 4\npipeline 8\nrequests 4000\nSET lean:__key__ __value__\n');
    const run = await runCli(['run', '--yes', file, '--url', server().url, '--quiet', '--out', 'runs'], {
      cwd: scratch.dir,
      env: { NODE_OPTIONS: `--require ${recorder}` },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(scratch.runFiles('runs')[0].points[0].repeats[0][0].total.requests, 4000);

    const threads = requiredByThread(run.stderr);
    const main = threads.get(0);
    assert.ok(main, 'the preload recorded nothing on the main thread');
    const engine = [...threads].filter(([id]) => id !== 0).map(([, required]) => required);
    assert.equal(engine.length, 2, `two engine threads, got ${engine.length}`);
    for (const thread of engine) {
      assert.deepEqual([...thread.distFiles].sort(), ['worker.js'], 'an engine thread loaded other files of dist/ (ioredis, a cluster path, a vendor bundle)');
      assert.ok(thread.builtins.has('net'), `the recorder saw the engine thread's own requires: ${[...thread.builtins].join(' ')}`);
      assert.deepEqual(
        ENGINE_THREAD_NEVER.filter((name) => thread.builtins.has(name)),
        [],
        `built-ins an engine thread required: ${[...thread.builtins].sort().join(' ')}`,
      );
    }
    assert.ok(!main.builtins.has('http'), 'the main thread loaded node:http without --metrics');
    assert.ok(!main.distFiles.has('zod.js') && !main.distFiles.has('hdr-histogram.js'), `main thread's dist files: ${[...main.distFiles].join(' ')}`);
  });

  for (const [name, requests] of [
    ['a small run (1,000 requests)', 1000],
    ['a long one-thread fast-path run (50,000 requests)', 50_000],
  ] as const) {
    it(`${name} starts no engine thread: the CLI's thread runs the worker bundle itself, every request counted`, async () => {
      const recorder = scratch.write('recorder.cjs', RECORDER);
      const file = scratch.write('small.rbench', `### small\nclients 50\npipeline 100\nrequests ${requests}\nSET small:__key__ __value__\n`);
      const run = await runCli(['run', '--yes', file, '--url', server().url, '--quiet', '--out', 'runs'], {
        cwd: scratch.dir,
        env: { NODE_OPTIONS: `--require ${recorder}` },
      });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(scratch.runFiles('runs')[0].points[0].repeats[0][0].total.requests, requests);
      const threads = requiredByThread(run.stderr);
      assert.deepEqual([...threads.keys()], [0], 'only the main thread required modules');
      assert.ok(threads.get(0)!.distFiles.has('worker.js'), `main thread's dist files: ${[...threads.get(0)!.distFiles].join(' ')}`);
    });
  }
});

// Issue 46, a run's fixed cost: Node's built-in modules a run does not use are not loaded at its start.
// child_process (with dgram and the socket list) serves only a throwaway server (src/redis/localServer.ts);
// worker_threads only a load on threads of its own (a small load runs on the caller's thread). Which
// built-ins loaded is read from the main thread's `process.moduleLoadList`, written at exit by a preload.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, useScratch } from '../../helpers/cli';
import { useRedisServer } from '../../helpers/redis';

// Each thread (the main one, any engine worker and a throwaway server's watchdog inherit the preload) writes its
// list at exit, named after its kind: the list is taken before worker_threads is required to tell which thread this is.
const RECORDER = `process.on('exit', () => {
  const list = process.moduleLoadList.join('\\n');
  // The CLI's main thread; not a worker, nor a throwaway server's watchdog (a \`node -e\` of its own).
  const cli = require('node:worker_threads').isMainThread && /cli\\.js$/.test(process.argv[1] || '');
  const kind = cli ? 'main' : 'other';
  const name = kind + '-' + Math.random().toString(36).slice(2) + '.txt';
  require('node:fs').writeFileSync(require('node:path').join(process.env.RBENCH_TEST_MODULES, name), list);
});
`;

const SMALL_RUN = '### small\nclients 50\npipeline 100\nrequests 100\nkeys 1000 uniform\nSET key:__rand_int__ __value__\n';

describe('rbench run: built-in modules loaded only when used', function () {
  this.timeout(90_000);
  const server = useRedisServer();
  const scratch = useScratch();

  /** Runs `rbench` with the recorder; the built-ins its main thread loaded. */
  async function mainThreadBuiltins(args: string[]): Promise<Set<string>> {
    const recorder = scratch.write('recorder.cjs', RECORDER);
    const lists = mkdtempSync(join(scratch.dir, 'modules-'));
    const run = await runCli(args, { cwd: scratch.dir, env: { NODE_OPTIONS: `--require ${recorder}`, RBENCH_TEST_MODULES: lists } });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const main = readdirSync(lists).filter((name) => name.startsWith('main-'));
    assert.equal(main.length, 1, 'the main thread wrote its list');
    const list = readFileSync(join(lists, main[0]), 'utf8').split('\n');
    return new Set(list.filter((entry) => entry.startsWith('NativeModule ')).map((entry) => entry.slice('NativeModule '.length)));
  }

  it('a 100-request run against a server loads no child_process, dgram or worker_threads', async () => {
    const file = scratch.write('small.rbench', SMALL_RUN);
    const loaded = await mainThreadBuiltins(['run', file, '--url', server().url, '--yes', '--quiet', '--out', 'runs']);
    assert.ok(loaded.has('net'), 'the recorder sees the run’s built-ins');
    for (const unused of ['child_process', 'dgram', 'internal/socket_list', 'worker_threads', 'internal/worker'])
      assert.ok(!loaded.has(unused), `a small run against a server loaded ${unused}`);
    const [result] = scratch.runFiles('runs');
    assert.equal(result.points[0].repeats[0][0].total.requests, 100);
  });

  it('rbench check loads no zlib (no histogram to encode), child_process or worker_threads; a run loads zlib', async () => {
    const file = scratch.write('small.rbench', SMALL_RUN);
    const check = await mainThreadBuiltins(['check', file]);
    for (const unused of ['zlib', 'child_process', 'worker_threads']) assert.ok(!check.has(unused), `rbench check loaded ${unused}`);
    const run = await mainThreadBuiltins(['run', file, '--url', server().url, '--yes', '--quiet', '--out', 'runs']);
    assert.ok(run.has('zlib'), 'a run, which encodes its histograms, did not load zlib');
  });

  it('a load on threads of its own loads worker_threads, and a throwaway server child_process', async () => {
    const threaded = scratch.write('threaded.rbench', SMALL_RUN.replace('clients 50', 'clients 4\nthreads 2'));
    const onThreads = await mainThreadBuiltins(['run', threaded, '--url', server().url, '--yes', '--quiet', '--out', 'runs']);
    assert.ok(onThreads.has('worker_threads'), 'a load on 2 threads did not load worker_threads');
    assert.ok(!onThreads.has('child_process'));

    const file = scratch.write('small.rbench', SMALL_RUN);
    const local = await mainThreadBuiltins(['run', file, '--yes', '--quiet', '--out', 'local']);
    assert.ok(local.has('child_process'), 'a run on a throwaway server did not load child_process');
    assert.equal(scratch.runFiles('local')[0].points[0].repeats[0][0].total.requests, 100);
  });
});

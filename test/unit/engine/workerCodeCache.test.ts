// An engine thread compiles the engine's bundle (dist/worker-main.js) from the code cache the build made (issue 46:
// each thread's start compiled again every function a load calls), the bytes and cache its main thread read and
// checked (src/engine/workerCode.ts): never a cache of other bytes, and a cache V8 refuses costs only the cache.
// A preload records each compile of the bundle, per thread: `RBENCH-SCRIPT <threadId> taken|rejected|none`.
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useRedisServer } from '../../helpers/redis';
import { repoRoot, runCli, useScratch } from '../../helpers/cli';
import { WORKER_BUNDLE, WORKER_CACHE, workerCode } from '../../../src/engine/workerCode';

const SCRIPT_RECORDER = `
const vm = require('node:vm');
const { writeSync } = require('node:fs');
const { threadId } = require('node:worker_threads');
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    super(code, options);
    if (options && String(options.filename).endsWith('${WORKER_BUNDLE}'))
      writeSync(2, 'RBENCH-SCRIPT ' + threadId + ' ' + (options.cachedData ? (this.cachedDataRejected ? 'rejected' : 'taken') : 'none') + '\\n');
  }
};
`;

/** Two threads: engine threads of its own (the CLI runs a one-thread load on its own thread). */
const THREAD_LOAD = '### cached\nthreads 2\nclients 4\npipeline 8\nrequests 4000\nSET cached:__key__ __value__\n';

describe("the engine thread's code cache (issue 46)", function () {
  this.timeout(60_000);
  const server = useRedisServer();
  const scratch = useScratch();

  /** Runs THREAD_LOAD with the CLI in `dist`; the engine threads' compiles of the bundle, and the requests counted. */
  const runWith = async (dist: string) => {
    const recorder = scratch.write('script-recorder.cjs', SCRIPT_RECORDER);
    const file = scratch.write('cached.rbench', THREAD_LOAD);
    const run = await runCli(['run', '--yes', file, '--url', server().url, '--quiet', '--out', 'runs'], {
      cwd: scratch.dir,
      env: { NODE_OPTIONS: `--require ${recorder}` },
      cli: join(dist, 'cli.js'),
    });
    assert.equal(run.code, 0, run.stderr);
    const compiles = [...run.stderr.matchAll(/^RBENCH-SCRIPT (\d+) (\w+)$/gm)].filter((match) => match[1] !== '0').map((match) => match[2]);
    const requests = scratch.runFiles('runs').at(-1)!.points[0].repeats[0][0].total.requests;
    return { compiles, requests };
  };

  it('an engine thread compiles the engine from the cache the build made', async () => {
    const { compiles, requests } = await runWith(join(repoRoot, 'dist'));
    assert.deepEqual(compiles, ['taken', 'taken'], 'two engine threads, each of which took dist/worker-main.cache');
    assert.equal(requests, 4000);
  });

  it('a cache of other bytes is never handed over, and a cache V8 refuses leaves the run as it was', async () => {
    const dist = join(scratch.dir, 'dist');
    cpSync(join(repoRoot, 'dist'), dist, { recursive: true, filter: (path) => !path.endsWith('.map') });
    // The same length, other bytes: V8 alone would take the cache (it checks the source's length and its flags).
    const bundle = readFileSync(join(dist, WORKER_BUNDLE), 'latin1');
    // (The build takes out the bundle's comments and whitespace: its directive, quoted otherwise, is surely there.)
    const altered = bundle.replace('"use strict";', "'use strict';");
    assert.notEqual(altered, bundle);
    writeFileSync(join(dist, WORKER_BUNDLE), altered, 'latin1');
    assert.equal(workerCode(join(dist, 'worker.js'))?.cachedData, undefined, 'a cache of other bytes');
    assert.deepEqual((await runWith(dist)).compiles, ['none', 'none']);
    // The right digest before bytes that are no cache: V8 refuses them, the thread compiles the bundle itself.
    writeFileSync(join(dist, WORKER_BUNDLE), bundle, 'latin1');
    const cache = readFileSync(join(dist, WORKER_CACHE));
    cache.fill(7, 20);
    writeFileSync(join(dist, WORKER_CACHE), cache);
    const refused = await runWith(dist);
    assert.deepEqual(refused.compiles, ['rejected', 'rejected']);
    assert.equal(refused.requests, 4000);
  });

  it("tsc's build has no engine bundle beside its worker.js: nothing is read, the thread runs worker.js itself", () => {
    assert.equal(workerCode(join(repoRoot, 'out', 'src', 'engine', 'worker.js')), undefined);
  });
});

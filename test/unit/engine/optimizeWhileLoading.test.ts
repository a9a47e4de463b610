// Issue 46: in the CLI, V8 optimizes only while a load runs (optimizeWhileLoading.ts): the code the CLI's thread runs
// after a load runs once, and TurboFan compiled it on a helper thread after the fact. Whether a function was
// optimized is V8's to tell (%GetOptimizationStatus): the test runs in a child Node with --allow-natives-syntax, with
// real loads against a real redis-server, and heats a fresh function at each point it asserts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { useRedisServer } from '../../helpers/redis';

const out = join(__dirname, '../../..');
const mod = (path: string) => JSON.stringify(join(out, path));

const child = `
const { letLoadsHoldThisThread } = require(${mod('src/engine/threads.js')});
const { loadEnded, loadStarting, optimizingNow } = require(${mod('src/engine/optimizeWhileLoading.js')});
const { runLoad, runSubscribers } = require(${mod('src/engine/index.js')});
const { RunSession } = require(${mod('src/runner/session.js')});
const { connectionTo, loadRequest, phase, singleTest } = require(${mod('test/unit/engine/plans.js')});
const server = { host: '127.0.0.1', port: Number(process.env.TEST_PORT) };
const closed = { host: '127.0.0.1', port: Number(process.env.CLOSED_PORT) };
const data = Array.from({ length: 1000 }, (_, i) => i);
// A new function V8 would optimize (a hot loop): true when TurboFan compiled it once the heat was done. Each has
// its own source: V8 shares the code (and feedback) of functions made from the same one.
let made = 0;
const heated = () => {
  const f = new Function('a', 'let s = ' + made++ + '; for (let i = 0; i < a.length; i++) s += a[i] * 3; return s;');
  for (let k = 0; k < 3000; k++) f(data);
  %FinalizeOptimization();
  return (%GetOptimizationStatus(f) & 16) !== 0;
};
const load = (to, load) => runLoad(loadRequest(to, { test: singleTest('GET key:__rand_int__'), load: { clients: 2, threads: 1, ...load } }), {
  // The last tick comes as the load ends.
  onTick: (tick) => tick.fraction !== 1 && seen.duringLoad.push(optimizingNow()),
});
const seen = { duringLoad: [] };
(async () => {
  letLoadsHoldThisThread(true);
  seen.beforeAnyLoad = heated();
  const result = await load(server, { durationMs: 2500 });
  seen.status = result.status;
  seen.afterLoad = [optimizingNow(), heated()];
  await load(closed, { requests: 10 }).catch((error) => (seen.refused = error.name));
  seen.afterRefusedLoad = [optimizingNow(), heated()];
  const session = new RunSession({ env: {}, runsFolder: require('node:os').tmpdir(), trusted: true }, { confirm: async () => false, secret: async () => undefined, log: () => undefined });
  const file = { display: 'next.rbench', text: '### next\\nrequests 10\\nGET key\\n' };
  const resolved = await session.check(file);
  seen.checkingTheNextFile = [optimizingNow(), heated()];
  await load(server, { requests: 100 });
  await session.prepare(file, resolved, resolved.scenarios[0]);
  seen.preparingTheNextScenario = [optimizingNow(), heated()];
  await load(server, { requests: 100 });
  loadStarting();
  loadStarting();
  loadEnded();
  seen.oneOfTwoEnded = [optimizingNow(), heated()];
  loadEnded();
  seen.bothEnded = [optimizingNow(), heated()];
  // Subscribers run on the caller's thread, no threads of their own: a load all the same.
  let publishersEnd;
  const publishersDone = new Promise((resolve) => (publishersEnd = resolve));
  const subscribers = phase({ test: singleTest('SUBSCRIBE news'), load: { clients: 2 } });
  const subscribing = runSubscribers({ phase: subscribers, test: subscribers.tests[0], connection: connectionTo(server) }, { publishersDone });
  seen.whileSubscribersRun = [optimizingNow(), heated()];
  publishersEnd(0);
  seen.subscribers = (await subscribing).status;
  seen.afterSubscribers = [optimizingNow(), heated()];
  letLoadsHoldThisThread(false);
  loadStarting();
  loadEnded();
  seen.threadServesOthers = [optimizingNow(), heated()];
  process.stdout.write(JSON.stringify(seen));
})();
`;

describe('in the CLI, V8 optimizes only while a load runs or is prepared', function () {
  this.timeout(60_000);
  const server = useRedisServer();

  it('on while a load runs or is prepared and before the first, off once none runs, however it ended; never off where the thread serves others', async () => {
    const closedPort = await freePort();
    const ran = spawnSync(process.execPath, ['--allow-natives-syntax', '-e', child], {
      encoding: 'utf8',
      env: { ...process.env, TEST_PORT: String(server().port), CLOSED_PORT: String(closedPort) },
      timeout: 50_000,
    });
    assert.equal(ran.status, 0, ran.stderr);
    const seen = JSON.parse(ran.stdout) as Record<string, unknown>;
    assert.equal(seen.status, 'complete');
    assert.equal(seen.beforeAnyLoad, true, 'the CLI starts optimizing: its first load needs it');
    assert.ok((seen.duringLoad as boolean[]).length > 0 && (seen.duringLoad as boolean[]).every(Boolean), JSON.stringify(seen));
    assert.deepEqual(seen.afterLoad, [false, false]);
    assert.equal(seen.refused, 'LoadError');
    assert.deepEqual(seen.afterRefusedLoad, [false, false], 'a load that could not connect ends as any other');
    assert.deepEqual(seen.checkingTheNextFile, [true, true], 'a file checked after a load: work of any size');
    assert.deepEqual(seen.preparingTheNextScenario, [true, true], 'a scenario set up after a load (its data files next)');
    assert.deepEqual(seen.oneOfTwoEnded, [true, true], 'another load still runs: the flag is the process’s');
    assert.deepEqual(seen.bothEnded, [false, false]);
    assert.deepEqual(seen.whileSubscribersRun, [true, true], 'subscribers on the caller’s thread are a load');
    assert.equal(seen.subscribers, 'complete');
    assert.deepEqual(seen.afterSubscribers, [false, false]);
    assert.deepEqual(seen.threadServesOthers, [true, true], 'VS Code’s extension host: never off');
  });
});

/** A loopback port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const listener = createServer().listen(0, '127.0.0.1', () => {
      const { port } = listener.address() as { port: number };
      listener.close(() => resolve(port));
    });
  });
}

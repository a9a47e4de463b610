// Writes dist/cli-main.cache, the code cache dist/cli.js starts the runner from (src/cli/launch.ts), and
// dist/worker-main.cache, the engine's (src/engine/workerLaunch.ts). The runner
// is compiled and does what `rbench` does most: it checks the shipped examples (the language's functions), then
// runs two small loads on a throwaway redis-server, one on the runner's thread and one on an engine thread (the
// run's set-up, server evidence, load, result and run file). At exit V8's cache of everything compiled is written
// after the bundle's SHA-1. A function left out of the cache compiles at every start: a cache of the check alone
// left a 100-request run ~15 ms of CPU more (issue 46, bench/startup.mjs).
// Without a redis-server on PATH the run fails at once and the cache holds the check's functions.
// Run by esbuild.mjs after each build, in a `node` of its own with no flags: V8 refuses a cache made under other flags.
//
//   node scripts/codeCache.mjs [--dist DIR]   (default: dist/ of the working directory)
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';

const { values } = parseArgs({ options: { dist: { type: 'string', default: 'dist' } } });
const dist = resolve(values.dist);
const examplesDir = resolve('examples');
const { compileMain, CODE_CACHE } = createRequire(import.meta.url)(join(dist, 'cli.js'));
const main = compileMain(dist);
const examples = readdirSync(examplesDir)
  .filter((name) => name.endsWith('.rbench'))
  .map((name) => join(examplesDir, name));

const scratch = mkdtempSync(join(tmpdir(), 'rbench-code-cache-'));
const scenario = join(scratch, 'warm.rbench');
writeFileSync(
  scenario,
  [
    '### on the runner thread',
    'clients 4',
    'pipeline 4',
    'requests 200',
    'SET cache:__rand_int__ __value__',
    '',
    '### on an engine thread',
    'clients 4',
    'pipeline 16',
    'requests 4000',
    'GET cache:__rand_int__',
    '',
  ].join('\n'),
);
const commands = [
  ['check', ...examples],
  ['run', scenario, '--out', join(scratch, 'runs'), '--quiet'],
];

// The bundle's top level is its command line: each command runs it again (new closures, the same compiled
// functions), the next one once the last has left nothing to do. Each command's exit code goes to stdout
// (`check: 0`, `run: 0`; esbuild.mjs ignores it, test/unit/cli/startup.test.ts reads it).
let next = 0;
function runNext() {
  process.argv = [process.argv[0], join(dist, 'cli.js'), ...commands[next++]];
  process.exitCode = undefined;
  main.run();
}
function reportLast() {
  process.stdout.write(`${commands[next - 1][0]}: ${process.exitCode ?? 0}\n`);
}
process.on('beforeExit', () => {
  if (next >= commands.length) return;
  reportLast();
  runNext();
});
process.on('exit', () => {
  if (next === commands.length) reportLast();
  // The runner stops V8 optimizing once its loads end (src/engine/optimizeWhileLoading.ts): back to the default
  // before the caches are made, or V8 refuses them at every start (another flag hash).
  setFlagsFromString('--turbofan');
  // The engine's bundle as the small load compiled it on this thread (or, without a run, its top level alone), under
  // V8's default flags: once a worker has started, V8 checks caches against the defaults' flag hash, not that of the
  // flag the launcher sets (src/cli/launch.ts; test/unit/engine/workerCodeCache.test.ts checks a thread takes it).
  const { compiledEngine, WORKER_CACHE } = createRequire(import.meta.url)(join(dist, 'worker.js'));
  const engine = compiledEngine();
  if (engine.compiled) writeFileSync(join(dist, WORKER_CACHE), Buffer.concat([engine.digest, engine.compiled.script.createCachedData()]));
  writeFileSync(join(dist, CODE_CACHE), Buffer.concat([main.digest, main.script.createCachedData()]));
  rmSync(scratch, { recursive: true, force: true });
  process.exitCode = 0;
});
process.chdir(scratch);
runNext();

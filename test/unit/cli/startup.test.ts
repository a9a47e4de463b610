// The command-line runner's start-up stays lean (issue 10, "frugal engine"): at deep pipelines its fixed
// cost decides the client CPU per request against redis-benchmark. A `rbench run` loads only the CLI
// bundle and the engine worker; the libraries it does not use (zod for reading run files, hdr-histogram-js
// for merging, ioredis's client path) are files of their own, loaded by the commands that need them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { useCluster } from '../../helpers/cluster';
import { useRedisServer } from '../../helpers/redis';
import { repoRoot, runCli, useScratch } from '../../helpers/cli';

/** The files of dist/ the CLI process loaded, from Node's module debug log (NODE_DEBUG=module). */
function loadedDistFiles(stderr: string): string[] {
  const files = [...stderr.matchAll(/^MODULE \d+: load "([^"]+)"/gm)].map((match) => match[1]);
  return [...new Set(files.filter((file) => file.startsWith(join(repoRoot, 'dist'))).map((file) => basename(file)))].sort();
}

const SET_SCENARIO = (client: string) => `### lean\nclient ${client}\nclients 2\npipeline 4\nrequests 200\nSET lean:__key__ __value__\n`;

describe('rbench start-up', function () {
  this.timeout(60_000);
  const server = useRedisServer();
  const scratch = useScratch();

  it('keeps zod, hdr-histogram-js, csv-parse, yaml and ioredis out of the runner bundle (V8 parses all of it at every start)', () => {
    const cli = readFileSync(join(repoRoot, 'dist', 'cli-main.js'), 'utf8');
    // Each library's own code, as its vendor file holds it (esbuild.mjs), never in the CLI's bundle (whose whitespace
    // the build takes out: markers are names and words, not declarations as written).
    for (const [library, marker, file] of [
      ['zod', 'ZodError', 'zod.js'],
      ['hdr-histogram-js', 'JsHistogram', 'hdr-histogram.js'],
      ['csv-parse', 'CsvError', 'csv-parse.js'],
      ['yaml', 'Excessive alias count', 'yaml.js'],
      // ioredis serves `rbench check --url` and the cluster clean-up; a run's control connections are raw (issue 46).
      ['ioredis', 'Reached the max retries per request limit', 'ioredis-vendor.js'],
    ]) {
      assert.ok(readFileSync(join(repoRoot, 'dist', file), 'utf8').includes(marker), `the marker of ${library} is in dist/${file}`);
      assert.ok(!cli.includes(marker), `${library} is bundled into dist/cli-main.js`);
    }
    // 1.9 MB with them; 1.25 MB without (the language, results and capture of issue 23–26 included); 1.47 MB with
    // client groups, hits and misses, drawn numbers, connection behaviour and chosen percentiles (issues 43–45; the
    // spec import and the memtier/HDR writers are files of their own, required when used).
    const bytes = statSync(join(repoRoot, 'dist', 'cli-main.js')).size;
    assert.ok(bytes < 1_500_000, `dist/cli-main.js is ${bytes} bytes`);
  });

  it('starts the runner from the code cache the build made, and never from a cache of other bytes', () => {
    // In a `node` of its own without flags, as `rbench` starts: V8 refuses a cache made under other flags.
    const probe = (dir: string) =>
      execFileSync(
        process.execPath,
        ['-e', `const m = require(${JSON.stringify(join(repoRoot, 'dist', 'cli.js'))}).compileMain(${JSON.stringify(dir)}); console.log(m.cached)`],
        {
          encoding: 'utf8',
        },
      ).trim();
    assert.equal(probe(join(repoRoot, 'dist')), 'true', 'dist/cli-main.cache is missing, or V8 refused it');
    // The same cache beside a bundle of the same length but other bytes: ignored (V8 alone would take it).
    const dir = scratch.dir;
    const bundle = readFileSync(join(repoRoot, 'dist', 'cli-main.js'), 'latin1');
    // A vm.Script has no import(): esbuild keeps one for a module it leaves outside (a lazy `import('node:http')`).
    assert.doesNotMatch(bundle, /\bimport\(/, 'dist/cli-main.js calls import(), which fails where the launcher runs it: use require');
    writeFileSync(join(dir, 'cli-main.js'), bundle.replace('rbench', 'rbencH'), 'latin1');
    copyFileSync(join(repoRoot, 'dist', 'cli-main.cache'), join(dir, 'cli-main.cache'));
    assert.equal(probe(dir), 'false');
    // And a run started that way says what it is.
    const version = execFileSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), '--version'], { encoding: 'utf8' });
    assert.match(version, /^\d+\.\d+\.\d+/);
  });

  it('makes its code cache from a check and a run, and without a redis-server from the check alone', () => {
    // A function the cache lacks compiles at every start: a cache of the check alone left a 100-request run ~15 ms
    // of CPU more (issue 46, bench/startup.mjs). The run needs a throwaway redis-server; a machine without one
    // (the README's set-up on a fresh machine) still builds, with a smaller cache that V8 takes.
    const made = (name: string, env: NodeJS.ProcessEnv) => {
      const dist = join(scratch.dir, name);
      cpSync(join(repoRoot, 'dist'), dist, { recursive: true, filter: (path) => !path.endsWith('.map') && !path.endsWith('.cache') });
      const stdout = execFileSync(process.execPath, [join(repoRoot, 'scripts', 'codeCache.mjs'), '--dist', dist], {
        cwd: repoRoot,
        env,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const exits = Object.fromEntries([...stdout.matchAll(/^(check|run): (\d+)$/gm)].map((match) => [match[1], Number(match[2])]));
      const cached = execFileSync(
        process.execPath,
        ['-e', `console.log(require(${JSON.stringify(join(dist, 'cli.js'))}).compileMain(${JSON.stringify(dist)}).cached)`],
        { encoding: 'utf8' },
      ).trim();
      return { exits, cached, bytes: statSync(join(dist, 'cli-main.cache')).size, engineBytes: statSync(join(dist, 'worker-main.cache')).size };
    };
    const withServer = made('with-server', process.env);
    assert.deepEqual(withServer.exits, { check: 0, run: 0 });
    assert.equal(withServer.cached, 'true');
    // No redis-server on PATH (an empty folder) and none named: the run fails at once, the cache is still made.
    const emptyBin = join(scratch.dir, 'bin');
    mkdirSync(emptyBin);
    const { RBENCH_REDIS_SERVER: _named, ...inherited } = process.env;
    const without = made('without-server', { ...inherited, PATH: emptyBin });
    assert.equal(without.exits.check, 0);
    assert.notEqual(without.exits.run, 0);
    assert.equal(without.cached, 'true');
    // The run's functions are in the first cache only (0.68 MB against 1.0 MB when this was written).
    assert.ok(withServer.bytes > without.bytes * 1.2, `${withServer.bytes} bytes with a run, ${without.bytes} without`);
    // And the engine's (dist/worker-main.cache, src/engine/workerLaunch.ts): a load's functions, or its top level alone.
    assert.ok(withServer.engineBytes > without.engineBytes * 1.5, `engine: ${withServer.engineBytes} bytes with a run, ${without.engineBytes} without`);
  });

  it('keeps ioredis out of the engine bundle (every engine thread parses it at start; the cluster paths are files of their own)', () => {
    // 0.49 MB while the cluster paths were inside it; about 0.12 MB without. dist/worker.js is its loader (src/engine/workerLaunch.ts).
    const bytes = statSync(join(repoRoot, 'dist', 'worker-main.js')).size;
    assert.ok(bytes < 250_000, `dist/worker-main.js is ${bytes} bytes`);
    const loader = statSync(join(repoRoot, 'dist', 'worker.js')).size;
    assert.ok(loader < 30_000, `dist/worker.js is ${loader} bytes`);
  });

  it('a fast-path run loads the CLI and the worker only, then compare loads zod and merge hdr-histogram-js', async () => {
    const file = scratch.write('lean.rbench', SET_SCENARIO('fast'));
    const env = { NODE_DEBUG: 'module' };
    const run = await runCli(['run', '--yes', file, '--url', server().url, '--quiet', '--out', 'runs'], { cwd: scratch.dir, env });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(loadedDistFiles(run.stderr), ['cli.js', 'worker.js']);

    const second = await runCli(['run', '--yes', file, '--url', server().url, '--quiet', '--out', 'runs'], { cwd: scratch.dir });
    assert.equal(second.code, 0, second.stderr);
    const paths = readdirSync(join(scratch.dir, 'runs')).map((name) => join(scratch.dir, 'runs', name));
    assert.equal(paths.length, 2);

    const compare = await runCli(['compare', ...paths], { cwd: scratch.dir, env });
    assert.equal(compare.code, 0, compare.stderr);
    assert.deepEqual(loadedDistFiles(compare.stderr), ['cli.js', 'zod.js']);

    const merge = await runCli(['merge', ...paths, '--out', join(scratch.dir, 'merged.json')], { cwd: scratch.dir, env });
    assert.deepEqual(loadedDistFiles(merge.stderr), ['cli.js', 'hdr-histogram.js', 'zod.js']);
  });

  it('a fast-path run leaves the built-ins it does not use unloaded (node:fs/promises and the readline it loads: ~2 ms)', async () => {
    const file = scratch.write('lean.rbench', SET_SCENARIO('fast'));
    const listed = join(scratch.dir, 'built-ins.txt');
    const preload = scratch.write(
      'list-built-ins.cjs',
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(listed)}, process.moduleLoadList.join('\\n')));\n`,
    );
    const run = await runCli(['run', '--yes', file, '--url', server().url, '--quiet', '--out', 'runs'], {
      cwd: scratch.dir,
      env: { NODE_OPTIONS: `--require ${preload}` },
    });
    assert.equal(run.code, 0, run.stderr);
    const builtIns = readFileSync(listed, 'utf8').split('\n');
    assert.ok(builtIns.includes('NativeModule net'), 'the list holds what the run loaded');
    for (const unused of ['NativeModule fs/promises', 'NativeModule internal/fs/promises', 'NativeModule internal/readline/interface'])
      assert.ok(!builtIns.includes(unused), `${unused} was loaded`);
  });

  it('the ioredis path loads its own bundle and runs', async () => {
    const file = scratch.write('lean.rbench', SET_SCENARIO('ioredis'));
    const run = await runCli(['run', '--yes', file, '--url', server().url, '--quiet', '--out', 'runs'], { cwd: scratch.dir, env: { NODE_DEBUG: 'module' } });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(loadedDistFiles(run.stderr), ['cli.js', 'ioredisConnection.js', 'worker.js']);
    const [result] = scratch.runFiles('runs');
    assert.equal(result.points[0].repeats[0][0].total.requests, 200);
  });
});

describe('rbench start-up on a cluster', function () {
  this.timeout(120_000);
  const cluster = useCluster(3, 0);
  const scratch = useScratch();

  it('a fast-path run on a cluster and its clean-up load no ioredis (discovery, sampling and clean-up are raw connections)', async () => {
    // Before issue 46's last step the layout was read through an ioredis client: ~20 ms of every cluster run's CPU.
    const file = scratch.write('lean.rbench', '### lean\ncluster on\nclients 2\npipeline 4\nrequests 3000\ncleanup lean:*\nSET lean:__key__ __value__\n');
    const run = await runCli(['run', '--yes', file, '--url', cluster().url, '--quiet', '--out', 'runs'], { cwd: scratch.dir, env: { NODE_DEBUG: 'module' } });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(loadedDistFiles(run.stderr), ['cli.js', 'fastClusterConnection.js', 'worker.js']);
    const [result] = scratch.runFiles('runs');
    assert.equal(result.points[0].repeats[0][0].total.requests, 3000);
    // The clean-up reached every master: none holds a key of the run.
    for (const node of cluster().nodes) assert.deepEqual(await cluster().client(node.port).keys('lean:*'), [], `port ${node.port}`);
  });
});

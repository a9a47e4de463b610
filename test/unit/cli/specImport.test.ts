// Issue 44, benchmark-spec suites in: `rbench import` of the spec-style YAML fixtures (test/fixtures/benchmark-spec),
// as a user runs it. The summary line counts right; each imported scenario checks clean and, run on a real
// server, sends the command mix and the counts its argv describes (INFO commandstats); the preload fills the
// keyspace `expect keys` checks; the throwaway server gets the configuration parameters it allows; `--tag`
// selects scenarios across the imported files.
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Redis from 'ioredis';
import { repoRoot, runCli, useScratch } from '../../helpers/cli';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';

const FIXTURES = join(repoRoot, 'test', 'fixtures', 'benchmark-spec');
const lastLine = (text: string) => text.trim().split('\n').pop();
const SUMMARY = '5 imported, 1 with notes, 3 not importable: hostile-alias-bomb, hostile-bidi-argument, pubsub-sub-bench-publish';

describe('rbench import of benchmark-spec YAML (issue 44)', function () {
  this.timeout(180_000);
  const server = useRedisServer();
  const scratch = useScratch();

  /** Imports the fixtures into the scratch folder's benchmark-spec/; the scenario file names. */
  async function imported(): Promise<string[]> {
    const result = await runCli(['import', FIXTURES], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(lastLine(result.stdout), SUMMARY);
    return readdirSync(join(scratch.dir, 'benchmark-spec')).sort();
  }

  /** Runs one imported scenario on the suite's server and returns its calls per command (lower case). */
  async function callsOf(file: string, commands: string[], extra: string[] = []): Promise<Record<string, number>> {
    const { url } = server();
    await withRedis(server(), async (redis) => {
      await redis.flushall();
      await redis.config('RESETSTAT');
    });
    const run = await runCli(['run', '--yes', '--url', url, '-q', join('benchmark-spec', file), ...extra], { cwd: scratch.dir });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    return withRedis(server(), async (redis: Redis) => {
      const calls: Record<string, number> = {};
      for (const command of commands) calls[command] = await commandCalls(redis, command);
      return calls;
    });
  }

  it('a folder: one scenario per importable test, the summary line, and each scenario checks clean', async () => {
    const files = await imported();
    assert.deepEqual(files, [
      'hostile--31mred-0m--name.rbench',
      'memtier_benchmark-1Kkeys-string-setget-preload.rbench',
      'memtier_benchmark-list-lpush-lrange-command.rbench',
      'redis-benchmark-hset-command.rbench',
      'redis-benchmark-set-lpush-init.rbench',
    ]);
    for (const file of files) {
      const checked = await runCli(['check', join('benchmark-spec', file)], { cwd: scratch.dir });
      assert.equal(checked.code, 0, `${file}: ${checked.stdout}${checked.stderr}`);
      assert.match(checked.stdout + checked.stderr, /0 errors/);
      assert.doesNotMatch(checked.stdout + checked.stderr, /warning/);
    }
  });

  it('one more file past the size cap is counted as not importable; the reasons go to stderr', async () => {
    const folder = join(scratch.dir, 'spec');
    cpSync(FIXTURES, folder, { recursive: true });
    writeFileSync(join(folder, 'zz-huge.yml'), `name: zz-huge\ndescription: "${'x'.repeat(1024 * 1024)}"\n`);
    const result = await runCli(['import', 'spec', '--out', 'out'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      lastLine(result.stdout),
      '5 imported, 1 with notes, 4 not importable: hostile-alias-bomb, hostile-bidi-argument, pubsub-sub-bench-publish, zz-huge',
    );
    assert.match(result.stderr, /pubsub-sub-bench-publish not importable: clientconfig: the tool pubsub-sub-bench/);
    assert.equal(readdirSync(join(scratch.dir, 'out')).length, 5);
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(result.stdout + result.stderr, /[\u001b\u0007\u202e]/, 'no control character of the files reaches the terminal');
  });

  it('memtier with a preload: every key loaded once (allkeys), then clients × threads × n requests in the SET:GET ratio', async () => {
    await imported();
    const calls = await callsOf('memtier_benchmark-1Kkeys-string-setget-preload.rbench', ['set', 'get']);
    // The preload's 1,000 SETs, then 2 clients × 2 threads × 100 requests at 1:4.
    const benchmarkSets = calls.set - 1000;
    assert.equal(benchmarkSets + calls.get, 400, JSON.stringify(calls));
    // Drawn per request: 80 expected, the bounds ten standard deviations (8) away.
    assert.ok(benchmarkSets > 0 && benchmarkSets < 160 && calls.get > 240, JSON.stringify(calls));
    const keyspace = await withRedis(server(), (redis) => redis.info('keyspace'));
    const [, keys, expires] = /keys=(\d+),expires=(\d+)/.exec(keyspace)!.map(Number);
    assert.equal(keys, 1000, 'the preload wrote keys 1…1000 and the benchmark no other');
    assert.ok(expires > 0 && expires <= benchmarkSets, `the benchmark's SETs carry the expiry range (${expires} expiring)`);
  });

  it('memtier --command lines: their ratio and counts', async () => {
    await imported();
    const calls = await callsOf('memtier_benchmark-list-lpush-lrange-command.rbench', ['lpush', 'lrange']);
    // 2 clients × 1 thread × 100 requests, LPUSH:LRANGE 1:3 (50 expected, sd 6.1).
    assert.equal(calls.lpush + calls.lrange, 200, JSON.stringify(calls));
    assert.ok(calls.lpush > 0 && calls.lpush < 110, JSON.stringify(calls));
  });

  it('redis-benchmark: -n requests for each of its tests, after the init command; and a command line it ends with', async () => {
    await imported();
    assert.deepEqual(await callsOf('redis-benchmark-set-lpush-init.rbench', ['hset', 'set', 'lpush']), { hset: 1, set: 300, lpush: 300 });
    assert.deepEqual(await callsOf('redis-benchmark-hset-command.rbench', ['hset']), { hset: 200 });
    assert.deepEqual(await callsOf('hostile--31mred-0m--name.rbench', ['get']), { get: 10 });
  });

  it('on the throwaway server: the allowed configuration parameters are set and `expect keys` passes after the preload', async () => {
    await imported();
    const run = await runCli(['run', join('benchmark-spec', 'memtier_benchmark-1Kkeys-string-setget-preload.rbench')], { cwd: scratch.dir });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /pass {2}expect keys = 1000 {2}\(actual 1,000\)/);
    const [file] = scratch.runFiles();
    assert.equal(file.target.server?.config['maxmemory-policy'], 'allkeys-lru');
    assert.equal(file.target.server?.config.save, '');
    assert.deepEqual(file.keysAfterPrefill, [{ point: '', repeat: 0, phase: 'preload', keys: 1000 }]);
  });

  it('`expect keys` fails the run when the prefill leaves another count', async () => {
    await imported();
    const path = join(scratch.dir, 'benchmark-spec', 'memtier_benchmark-1Kkeys-string-setget-preload.rbench');
    writeFileSync(path, readFileSync(path, 'utf8').replace('expect keys = 1000', 'expect keys = 999'));
    await withRedis(server(), (redis) => redis.flushall());
    const run = await runCli(['run', '--yes', '--url', server().url, path], { cwd: scratch.dir });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout + run.stderr, /FAIL {2}expect keys = 999 {2}\(actual 1,000\)/);
  });

  it('--tag runs the scenarios tagged so across the files and skips the rest; a tag nothing carries is an error', async () => {
    const files = (await imported()).map((file) => join('benchmark-spec', file));
    const { url } = server();
    await withRedis(server(), async (redis) => {
      await redis.flushall();
      await redis.config('RESETSTAT');
    });
    const run = await runCli(['run', '--yes', '--url', url, '-q', '--tag', 'LPUSH', ...files], { cwd: scratch.dir });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const calls = await withRedis(server(), async (redis) => ({
      lpush: await commandCalls(redis, 'lpush'),
      lrange: await commandCalls(redis, 'lrange'),
      set: await commandCalls(redis, 'set'),
      get: await commandCalls(redis, 'get'),
      hset: await commandCalls(redis, 'hset'),
    }));
    // The LPUSH/LRANGE mix (200) and redis-benchmark's SET and LPUSH tests (300 each, after one HSET): nothing else.
    assert.equal(calls.lpush + calls.lrange, 500, JSON.stringify(calls));
    assert.deepEqual({ set: calls.set, get: calls.get, hset: calls.hset }, { set: 300, get: 0, hset: 1 });
    const none = await runCli(['run', '--yes', '--url', url, '--tag', 'nothing-has-this', ...files], { cwd: scratch.dir });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no scenario of the 5 files is tagged "nothing-has-this"/);
  });
});

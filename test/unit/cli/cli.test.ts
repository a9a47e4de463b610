import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { useRedisServer } from '../../helpers/redis';
import { freePort } from '../../../src/redis/localServer';
import { repoRoot, runCli, startCli, useScratch } from '../../helpers/cli';

describe('rbench check', () => {
  const scratch = useScratch();

  it('passes every shipped example', async () => {
    const examples = readdirSync(join(repoRoot, 'examples'))
      .filter((name) => name.endsWith('.rbench'))
      .map((name) => join(repoRoot, 'examples', name));
    assert.ok(examples.length >= 4, 'the four examples ship');
    const result = await runCli(['check', ...examples], { cwd: repoRoot });
    // redisearch.rbench's FT.* commands are the module's: offline, each is a warning (checked against the server when the run starts).
    const lines = result.stderr.split('\n').filter(Boolean);
    assert.deepEqual(
      lines.filter(
        (line) => !/redisearch\.rbench:\d+:1: warning: `FT\.[A-Z]+` is not in the built-in table; checked against the server when the run starts$/.test(line),
      ),
      [],
    );
    assert.equal(lines.length, 4, result.stderr);
    assert.equal(result.code, 0);
  });

  it('reports a misspelled setting as file:line:col with a fix, exit code 2', async () => {
    const file = scratch.write('typo.rbench', '### typo\nclients 5\npipline 10\nPING\n');
    const result = await runCli(['check', file], { cwd: scratch.dir });
    assert.equal(result.code, 2);
    assert.match(result.stderr, new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:1: error: .*pipline.*pipeline`, 'm'));
  });

  it('exits 2 for a missing file', async () => {
    const result = await runCli(['check', join(scratch.dir, 'nope.rbench')], { cwd: scratch.dir });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /nope\.rbench:1:1: error: cannot read/);
  });
});

describe('rbench run', function () {
  this.timeout(60_000);
  const server = useRedisServer();
  const scratch = useScratch();

  it('runs exact request counts, prints the table and writes a run file', async () => {
    const file = scratch.write(
      'counts.rbench',
      '### exact counts\nclients 4\npipeline 8\nrequests 20000\nkeys 20000 sequential\nkey-size 8\nvalue 16\nSET cli:__key__ __value__\nGET cli:__key__\n',
    );
    const result = await runCli(['run', '--yes', file, '--url', server().url, '--csv', join(scratch.dir, 'out.csv')], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /command\s+requests\s+clients\s+pipeline\s+key size\s+value size\s+time\s+ops\/s\s+p50 ms\s+p99 ms\s+p99\.9 ms\s+max ms\s+srv µs\/call\s+errors(?:\s+hits\/s\s+misses\/s\s+miss rate)?\s+limit/,
    );
    // key size: the real key length, `cli:` and 8 characters of key number.
    assert.match(result.stdout, /^SET\s+20,000\s+4\s+8\s+12\s+16\s/m);
    assert.match(result.stdout, /^GET\s+20,000\s+4\s+8\s+12\s+16\s/m);

    const [run] = scratch.runFiles();
    assert.equal(run.status, 'complete');
    assert.equal(run.scenario.name, 'exact counts');
    assert.equal(run.target.local, false);
    assert.doesNotMatch(JSON.stringify(run), /password/i);
    const loads = run.points[0].repeats[0];
    assert.deepEqual(
      loads.map((l) => [l.test, l.total.requests, l.total.errors]),
      [
        ['SET', 20000, 0],
        ['GET', 20000, 0],
      ],
    );
    assert.ok(run.target.server?.version.startsWith('7.'));

    const redis = new Redis(server().url);
    try {
      assert.equal((await redis.keys('cli:*')).length, 20000, 'sequential keys: every key written once');
      assert.equal((await redis.getBuffer('cli:00000042'))?.length, 16);
    } finally {
      redis.disconnect();
    }

    const csv = readFileSync(join(scratch.dir, 'out.csv'), 'utf8').trim().split('\n');
    assert.equal(
      csv[0],
      '"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms","server_usec_per_call","bottleneck","bottleneck_why","limit","elapsed_s","hits_per_sec","misses_per_sec","miss_rate"',
      'a scenario with a read (GET) gets the hit and miss columns',
    );
    assert.match(csv[1], /^"SET","\d+\.\d\d","\d+\.\d{3}"/);
  });

  it("starts a throwaway redis-server with the file's server lines when no target is given", async () => {
    const file = scratch.write('local.rbench', 'server save 60 10000\n### local\nclients 2\nrequests 1000\nPING\n');
    const result = await runCli(['run', file], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /throwaway redis-server/);
    const [run] = scratch.runFiles();
    assert.equal(run.target.local, true);
    assert.equal(run.target.server?.config.save, '60 10000');
    assert.equal(run.points[0].repeats[0][0].total.requests, 1000);
  });

  it("prints the seeds' headline figures: real key length, values/s of variadic commands, server memory and keys, per-client throughput", async () => {
    const file = scratch.write('lists.rbench', '### lists\nclients 2\nrequests 400\nvalue 8\nRPUSH rbench:lists:one __value__*100\n');
    const result = await runCli(['run', file, '--per-client'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^RPUSH\s+400\s+2\s+1\s+16\s+8\s/m, 'key size is the length of rbench:lists:one');
    assert.match(result.stdout, /^RPUSH: [\d.]+k? commands\/s × 100 values = [\d.]+[kM]? values\/s$/m);
    assert.match(result.stdout, /^server: peak used_memory [\d.]+ MiB \(sampled every second\), 1 keys at the end$/m);
    assert.match(result.stdout, /^RPUSH: [\d,]+ ops\/s per client \(2 clients, [\d,]+ ops\/s in all\)$/m);
  });

  it('exits 1 when an expectation fails and 0 when it holds', async () => {
    const failing = scratch.write('fail.rbench', '### strict\nclients 2\nrequests 2000\nPING\nexpect ops > 1G/s\nexpect errors = 0\n');
    const failed = await runCli(['run', '--yes', failing, '--url', server().url], { cwd: scratch.dir });
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /FAIL\s+expect ops > 1G\/s/);
    assert.match(failed.stdout, /pass\s+expect errors = 0/);

    const passing = scratch.write('pass.rbench', '### easy\nclients 2\nrequests 2000\nPING\nexpect ops > 1/s\nexpect p99 < 10s\n');
    const passed = await runCli(['run', '--yes', passing, '--url', server().url], { cwd: scratch.dir });
    assert.equal(passed.code, 0, passed.stderr);
  });

  it('exits 2 on a scenario error without connecting', async () => {
    const file = scratch.write('bad.rbench', '### bad\nclients many\nPING\n');
    const result = await runCli(['run', '--yes', file, '--url', 'redis://127.0.0.1:1'], { cwd: scratch.dir });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /bad\.rbench:2:9: error:/);
    assert.deepEqual(scratch.runFiles(), []);
  });

  it('runs the scenarios an error does not block (one rule with the editor), and still exits 2', async () => {
    const file = scratch.write('mixed.rbench', '### broken\nclients many\nPING\n### fine\nrequests 300\nPING\n');
    const result = await runCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /mixed\.rbench:2:9: error:/);
    assert.deepEqual(
      scratch.runFiles().map((run) => run.scenario.name),
      ['fine'],
    );
  });

  it('exits 3 with a clear message when the server is unreachable', async () => {
    const port = await freePort();
    const file = scratch.write('refused.rbench', '### refused\nrequests 10\nPING\n');
    const result = await runCli(['run', '--yes', file, '--url', `redis://127.0.0.1:${port}`], { cwd: scratch.dir });
    assert.equal(result.code, 3);
    assert.match(result.stderr, new RegExp(`127\\.0\\.0\\.1:${port}.*refused`));
  });

  it('applies --var overrides', async () => {
    const file = scratch.write('vars.rbench', '@n = 100\n### vars\nclients 1\nrequests {{n}}\nPING\n');
    const result = await runCli(['run', '--yes', file, '--url', server().url, '--var', 'n=345'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(scratch.runFiles()[0].points[0].repeats[0][0].total.requests, 345);
  });

  it('saves partial results and exits 130 when interrupted', async () => {
    const file = scratch.write('long.rbench', '### long\nclients 4\nduration 60s\nPING\n');
    const run = startCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const interruptedAt = Date.now();
    run.kill('SIGINT');
    const result = await run.done;
    assert.equal(result.code, 130, result.stderr);
    assert.ok(Date.now() - interruptedAt < 3000, 'stops promptly');
    const [saved] = scratch.runFiles();
    assert.equal(saved.status, 'cancelled');
    assert.ok(saved.points[0].repeats[0][0].total.requests > 0, 'keeps what it measured');
  });
});

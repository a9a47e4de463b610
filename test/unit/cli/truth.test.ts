// The CLI's verdict on runs against a stalled or failing real redis-server: a frozen server fails
// `expect max`, a run that mostly failed ends `complete-with-errors` with exit 1 unless the scenario
// states the errors it accepts.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import Redis from 'ioredis';
import { startLocalServer, type LocalServer } from '../../../src/redis/localServer';
import { runCli, startCli, useScratch } from '../../helpers/cli';
import { useRedisServer, waitForCalls } from '../../helpers/redis';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('rbench run: stalls and errors decide the exit code', function () {
  this.timeout(60_000);
  const scratch = useScratch();

  describe('a frozen server', () => {
    const server = useRedisServer();

    it('fails `expect max < 1s` when the server froze for longer than the window and its drain', async () => {
      const file = scratch.write('freeze.rbench', '### freeze\nclients 4\nduration 2s\nexpect max < 1s\nGET k:__key__\n');
      const cli = startCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir });
      let frozen = false;
      try {
        // Freeze once the load is under way (the server has answered some thousands of GETs).
        const redis = new Redis({ host: server().host, port: server().port });
        try {
          await waitForCalls(redis, 'get', 5000, 200);
        } finally {
          redis.disconnect();
        }
        process.kill(server().pid, 'SIGSTOP');
        frozen = true;
        await sleep(4500);
      } finally {
        if (frozen) process.kill(server().pid, 'SIGCONT');
      }
      const result = await cli.done;
      assert.equal(result.code, 1, result.stdout + result.stderr);
      assert.match(result.stderr, /FAIL {2}expect max < 1s .*actual [\d.]+ s/);
      const [run] = scratch.runFiles();
      const load = run.points[0].repeats[0][0];
      assert.equal(load.durationMs, 2000);
      assert.ok((load.total.errorsByKind.TIMEOUT ?? 0) === 4);
    });
  });

  // 2 MB: the first writes fit, then most are refused.
  const oom = '### oom\nserver maxmemory 2mb\nserver maxmemory-policy noeviction\nclients 4\nrequests 5000\nkeys 100000\nvalue 1000\nSET k:__key__ __value__\n';

  it('OOM: complete-with-errors, the reason in the output, exit 1', async () => {
    const file = scratch.write('oom.rbench', oom);
    const result = await runCli(['run', file], { cwd: scratch.dir });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(
      result.stderr,
      /complete-with-errors {2}SET: [\d.]+% of requests failed \(SET: OOM command not allowed [^()]*\([\d,]+×\)\), above the 1% threshold/,
    );
    assert.match(result.stderr, /expect error-rate < X%/);
    const load = scratch.runFiles()[0].points[0].repeats[0][0];
    assert.equal(load.status, 'complete-with-errors');
    assert.ok(load.total.errors > 2500 && load.total.errors < 5000, `${load.total.errors} errors`);
  });

  it('OOM with `expect error-rate < 100%`: exit 0', async () => {
    const file = scratch.write('oom-accepted.rbench', oom.replace('### oom\n', '### oom\nexpect error-rate < 100%\n'));
    const result = await runCli(['run', file], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(scratch.runFiles()[0].status, 'complete-with-errors');
  });

  it('nothing succeeded: exit 1 even when the scenario accepts every error rate', async () => {
    const file = scratch.write(
      'all-fail.rbench',
      '### all fail\nexpect error-rate <= 100%\nclients 2\nrequests 300\nserver maxmemory 1\nserver maxmemory-policy noeviction\nSET k __value__\n',
    );
    const result = await runCli(['run', file], { cwd: scratch.dir });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stderr, /nothing succeeded: all 300 requests failed \(SET: OOM command not allowed [^()]*\(300×\)\)/);
  });

  describe('MISCONF (a failed snapshot stops writes)', () => {
    let server: LocalServer;
    before(async function () {
      this.timeout(20_000);
      server = await startLocalServer();
      // The snapshot cannot be written once its directory is gone: the server then refuses writes.
      rmSync(server.dir, { recursive: true, force: true });
      const redis = new Redis({ host: server.host, port: server.port });
      try {
        // Writes are refused after a failed snapshot only when snapshots are configured.
        await redis.config('SET', 'save', '3600 1');
        await redis.config('SET', 'stop-writes-on-bgsave-error', 'yes');
        await redis.bgsave();
        for (let i = 0; i < 100 && !/rdb_last_bgsave_status:err/.test(await redis.info('persistence')); i++) await sleep(50);
        await assert.rejects(redis.set('probe', '1'), /MISCONF/);
      } finally {
        redis.disconnect();
      }
    });
    after(() => server.stop());

    const misconf = '### misconf\nclients 4\nrequests 4000\n70% SET k:__key__ __value__\n30% GET k:__key__\n';

    it('ends complete-with-errors with exit 1', async () => {
      const file = scratch.write('misconf.rbench', misconf);
      const result = await runCli(['run', '--yes', file, '--url', server.url], { cwd: scratch.dir });
      assert.equal(result.code, 1, result.stdout + result.stderr);
      assert.match(result.stderr, /of requests failed \(SET: MISCONF Redis is configured to save RDB snapshots[^()]*… \([\d,]+×\)\)/);
      assert.equal(scratch.runFiles()[0].status, 'complete-with-errors');
    });

    it('exits 0 with `expect error-rate < 100%`', async () => {
      const file = scratch.write('misconf-accepted.rbench', misconf.replace('### misconf\n', '### misconf\nexpect error-rate < 100%\n'));
      const result = await runCli(['run', '--yes', file, '--url', server.url], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stdout + result.stderr);
    });
  });
});

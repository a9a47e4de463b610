// Issue 44, a dataset before the load: `rbench run --rdb FILE` loads the user's RDB file into the throwaway
// redis-server (copied through the file gate into its folder), and `expect keys = N` checks it before the
// first phase when no prefill writes it. A file that is no RDB, or is missing, ends with a plain message.
import assert from 'node:assert/strict';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, useScratch } from '../../helpers/cli';
import { useRedisServer, withRedis } from '../../helpers/redis';

describe('rbench run --rdb (issue 44)', function () {
  this.timeout(120_000);
  const source = useRedisServer();
  const scratch = useScratch();

  /** An RDB file of `count` keys `k:001`… written by a real server's SAVE, in the scratch folder. */
  async function rdbOf(count: number): Promise<string> {
    await withRedis(source(), async (redis) => {
      await redis.flushall();
      const pipeline = redis.pipeline();
      for (let i = 1; i <= count; i++) pipeline.set(`k:${String(i).padStart(3, '0')}`, `v${i}`);
      await pipeline.exec();
      await redis.save();
    });
    const path = join(scratch.dir, 'data.rdb');
    copyFileSync(join(source().dir, 'dump.rdb'), path);
    return path;
  }

  it("the throwaway server starts with the file's keys; `expect keys` counts them before the first phase", async () => {
    await rdbOf(300);
    scratch.write('read.rbench', '### read the dataset\nexpect keys = 300\nexpect GET errors = 0\nrequests 200\nkeys 300\nkey-size 3\nGET k:__key__\n');
    const run = await runCli(['run', '--rdb', 'data.rdb', 'read.rbench'], { cwd: scratch.dir });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /· dataset data\.rdb/);
    assert.match(run.stdout, /pass {2}expect keys = 300 {2}\(actual 300\)/);
    const [file] = scratch.runFiles();
    assert.equal(file.target.rdb, join(scratch.dir, 'data.rdb'));
    assert.deepEqual(file.keysAfterPrefill, [{ point: '', repeat: 0, phase: '', keys: 300 }]);
  });

  it('without --rdb the same scenario finds no keys: the expectation fails the run', async () => {
    scratch.write('read.rbench', '### read the dataset\nexpect keys = 300\nrequests 10\nGET k:1\n');
    const run = await runCli(['run', 'read.rbench'], { cwd: scratch.dir });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout + run.stderr, /FAIL {2}expect keys = 300 {2}\(actual 0\)/);
  });

  it('a file that is no RDB, or none at all: a plain message naming --rdb, exit 3, no stack trace', async () => {
    scratch.write('read.rbench', '### r\nrequests 10\nGET k\n');
    writeFileSync(join(scratch.dir, 'bad.rdb'), 'not an rdb file\n');
    const bad = await runCli(['run', '--rdb', 'bad.rdb', 'read.rbench'], { cwd: scratch.dir });
    assert.equal(bad.code, 3, bad.stdout + bad.stderr);
    assert.match(bad.stderr, /could not load the RDB file \(--rdb bad\.rdb\)/);
    const missing = await runCli(['run', '--rdb', 'missing.rdb', 'read.rbench'], { cwd: scratch.dir });
    assert.equal(missing.code, 3, missing.stdout + missing.stderr);
    assert.match(missing.stderr, /the RDB file \(--rdb\): .*missing\.rdb: not found/);
    for (const output of [bad.stderr, missing.stderr]) assert.doesNotMatch(output, /\n\s+at /, 'no stack trace');
  });
});

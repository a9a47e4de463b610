// Issue 44: server builds side by side. `--server-binary PATH` (repeatable) starts the throwaway server from each
// binary, runs the scenario on each and compares them as `--url A --url B` does; each run records the server's
// version and build id. Through the built CLI, with the installed redis-server and a copy of it.
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { runCli, useScratch } from '../../helpers/cli';

const installed = execFileSync('sh', ['-c', 'command -v redis-server']).toString().trim();
const SCENARIO = '### set\nrequests 300\nkeys 50\nSET sb:__key__ v\n';

describe('rbench run --server-binary (issue 44)', function () {
  this.timeout(120_000);
  const scratch = useScratch();

  it('runs on a fresh server of each binary, two runs compared, each with its version and build id', async () => {
    const copy = join(scratch.dir, 'redis-server-copy');
    copyFileSync(installed, copy);
    chmodSync(copy, 0o755);
    const file = scratch.write('set.rbench', `target redis://127.0.0.1:1\n${SCENARIO}`);
    const result = await runCli(['run', file, '--server-binary', installed, '--server-binary', copy], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    const runs = scratch.runFiles();
    assert.equal(runs.length, 2, 'a run per binary');
    for (const run of runs) {
      assert.equal(run.target.local, true, "the file's target is not used: a binary is a throwaway server");
      assert.match(run.target.server?.version ?? '', /^\d+\.\d+\.\d+$/);
      assert.match(run.target.server?.buildId ?? '', /^[0-9a-f]+$/);
      const requests = run.points[0].repeats[0].reduce((sum, load) => sum + load.total.requests, 0);
      assert.equal(requests, 300);
    }
    assert.match(result.stdout, /Comparison: "set": .*redis-server-copy.* vs .*redis-server/);
    assert.match(result.stdout + result.stderr, /Comparison saved: /);
  });

  it('a binary that does not exist, one that is not executable, the same one twice, or with --url: a plain message, exit 2', async () => {
    const file = scratch.write('set2.rbench', SCENARIO);
    const missing = await runCli(['run', file, '--server-binary', join(scratch.dir, 'nope')], { cwd: scratch.dir });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /the server binary \S+nope does not exist: give the path of a redis-server or valkey-server executable/);
    const plain = join(scratch.dir, 'plain');
    writeFileSync(plain, '#!/bin/sh\n');
    chmodSync(plain, 0o644);
    const notExecutable = await runCli(['run', file, '--server-binary', plain], { cwd: scratch.dir });
    assert.equal(notExecutable.code, 2);
    assert.match(notExecutable.stderr, /the server binary \S+plain is not executable \(chmod \+x it, or give another\)/);
    const twice = await runCli(['run', file, '--server-binary', installed, '--server-binary', installed], { cwd: scratch.dir });
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /is named twice: comparing a build with itself measures nothing/);
    const withUrl = await runCli(['run', file, '--server-binary', installed, '--url', 'redis://127.0.0.1:1'], { cwd: scratch.dir });
    assert.equal(withUrl.code, 2);
    assert.match(withUrl.stderr, /--server-binary starts throwaway servers: it cannot be combined with --url/);
    assert.doesNotMatch(missing.stderr + notExecutable.stderr + twice.stderr + withUrl.stderr, /\n\s+at /, 'no stack trace');
    assert.deepEqual(scratch.runFiles(), []);
  });

  it('a bare name is looked up in PATH', async () => {
    const file = scratch.write('set3.rbench', SCENARIO);
    const result = await runCli(['run', file, '--server-binary', 'redis-server'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(scratch.runFiles().length, 1);
  });
});

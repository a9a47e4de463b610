// Issue 44: machine-scoped named server binaries. A file says `server binary NAME` (a name, never a path); the
// user's machine maps names to executables (`--server-binary NAME=PATH`, the setting rbench.serverBinaries). The
// binary here is a wrapper that leaves a mark and runs the installed redis-server: the mark proves which one started.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { runCli, useScratch } from '../../helpers/cli';

const installed = execFileSync('sh', ['-c', 'command -v redis-server']).toString().trim();
const SCENARIO = '### named\nserver binary mine\nrequests 200\nkeys 20\nSET nb:__key__ v\n';

describe('server binary NAME (issue 44)', function () {
  this.timeout(120_000);
  const scratch = useScratch();

  function wrapper(): { path: string; mark: string } {
    const mark = join(scratch.dir, 'started-by-wrapper');
    const path = join(scratch.dir, 'my-redis-server');
    writeFileSync(path, `#!/bin/sh\ntouch '${mark}'\nexec '${installed}' "$@"\n`);
    chmodSync(path, 0o755);
    return { path, mark };
  }

  it('the throwaway server starts from the binary the name maps to; its version is recorded', async () => {
    const { path, mark } = wrapper();
    const file = scratch.write('named.rbench', SCENARIO);
    const result = await runCli(['run', file, '--server-binary', `mine=${path}`], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.ok(existsSync(mark), 'the named binary started the server');
    const run = scratch.runFiles().at(-1)!;
    assert.match(run.target.server?.version ?? '', /^\d+\.\d+\.\d+$/);
    assert.equal(run.points[0].repeats[0][0].total.requests, 200);
  });

  it('an unknown name is a check error naming the setting; a path is refused; nothing starts', async () => {
    const file = scratch.write('unknown.rbench', SCENARIO);
    const check = await runCli(['check', file], { cwd: scratch.dir });
    assert.equal(check.code, 2, check.stdout + check.stderr);
    assert.match(
      check.stdout + check.stderr,
      /unknown\.rbench:2:\d+: error: no server binary is named `mine`: define it in the machine setting rbench\.serverBinaries/,
    );
    const known = await runCli(['check', file, '--server-binary', `mine=${installed}`], { cwd: scratch.dir });
    assert.equal(known.code, 0, known.stdout + known.stderr);
    const { mark } = wrapper();
    const run = await runCli(['run', file, '--server-binary', `other=${installed}`], { cwd: scratch.dir });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /no server binary is named `mine` \(defined: other\)/);
    assert.ok(!existsSync(mark));
    const pathFile = scratch.write('path.rbench', `### p\nserver binary ${installed}\nPING\n`);
    const byPath = await runCli(['check', pathFile], { cwd: scratch.dir });
    assert.equal(byPath.code, 2);
    assert.match(byPath.stdout + byPath.stderr, /is not a binary's name: a file names a server binary .*never a path to execute/);
    for (const outcome of [check, run, byPath]) assert.doesNotMatch(outcome.stderr, /\n\s+at /);
  });
});

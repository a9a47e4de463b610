// Issue 23: the server's own command table and modules, through `rbench` as a user runs it. RediSearch is
// loaded with `--module` (Debian's redis-redisearch); a tiny module built here carries an `admin` command.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunFile } from '../../../src/results/runFile';
import { repoRoot, runCli, useScratch } from '../../helpers/cli';
import { REDISEARCH, requireRediSearch, useTinyModule } from '../../helpers/modules';
import { useRedisServer } from '../../helpers/redis';

const EXAMPLE = join(repoRoot, 'examples', 'redisearch.rbench');
const loads = (run: RunFile) => run.points.flatMap((point) => point.repeats.flat());

describe('module commands and the server’s command table (rbench)', function () {
  this.timeout(180_000);
  requireRediSearch();
  const scratch = useScratch();

  describe('check', () => {
    const server = useRedisServer({ modules: [REDISEARCH] });

    it('offline, the FT.* scenario has warnings only; --url checks it clean against the server', async () => {
      const offline = await runCli(['check', EXAMPLE], { cwd: scratch.dir });
      assert.equal(offline.code, 0, offline.stdout + offline.stderr);
      assert.match(
        offline.stderr,
        /redisearch\.rbench:16:1: warning: `FT\.CREATE` is not in the built-in table; checked against the server when the run starts/,
      );
      assert.match(offline.stdout, /1 file, 1 scenario, 0 errors/);
      const online = await runCli(['check', EXAMPLE, '--url', server().url], { cwd: scratch.dir });
      assert.equal(online.code, 0, online.stdout + online.stderr);
      assert.equal(online.stderr, '');
      assert.match(online.stdout, /1 file, 1 scenario, 0 errors, commands checked against the server redis:\/\/127\.0\.0\.1:\d+/);
    });

    it('--url names what the server does not know, and an arity the server refuses', async () => {
      const file = scratch.write('bad.rbench', '### s\nFT.SEARCH idx hello\nJSON.GET doc $\nGET\n');
      const result = await runCli(['check', file, '--url', server().url], { cwd: scratch.dir });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /bad\.rbench:3:1: error: the server redis:\/\/127\.0\.0\.1:\d+ does not know `JSON\.GET` — load the module that provides it/);
      assert.match(result.stderr, /bad\.rbench:4:1: error: GET takes a key; this line gives none/);
      assert.match(result.stdout, /2 errors/);
    });

    it('a bare GET is an error offline too (issue 22)', async () => {
      const file = scratch.write('get.rbench', '### s\nGET\n');
      const result = await runCli(['check', file], { cwd: scratch.dir });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /get\.rbench:2:1: error: GET takes a key; this line gives none/);
      assert.match(result.stdout, /1 error\b/);
    });
  });

  describe('run on a throwaway server', () => {
    const tiny = useTinyModule();

    it('--module: the example runs, FT.SEARCH calls equal the server’s commandstats, the module is shown and recorded', async () => {
      const result = await runCli(['run', EXAMPLE, '--module', REDISEARCH, '--out', 'runs'], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.match(result.stdout, /throwaway redis-server \(redis:\/\/127\.0\.0\.1:\d+\) · maxmemory [^·]+ · modules redisearch\.so/);
      const [run] = scratch.runFiles('runs');
      assert.deepEqual(run.target.modules, [REDISEARCH]);
      const search = loads(run).find((load) => load.test === 'FT.SEARCH')!;
      assert.ok(search, JSON.stringify(loads(run).map((load) => load.test)));
      assert.equal(search.total.requests, 20_000);
      assert.equal(search.total.errors, 0);
      assert.equal(search.server?.commands['ft.search'].calls, 20_000, JSON.stringify(search.server?.commands));
    });

    it('without --module the run ends before any load, naming the unknown command and its line', async () => {
      const result = await runCli(['run', EXAMPLE, '--out', 'runs'], { cwd: scratch.dir });
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(
        result.stderr,
        /redisearch\.rbench:16: the throwaway redis-server does not know the command FT\.CREATE: load the module that provides it \(`rbench run --module PATH`/,
      );
      assert.doesNotMatch(result.stdout + result.stderr, /\[1\/3\]/, 'no load ran');
      assert.deepEqual(scratch.runFiles('runs'), []);
    });

    it('`server loadmodule` in the file is still refused; a path that is no module fails before the server starts', async () => {
      const file = scratch.write('load.rbench', `server loadmodule ${REDISEARCH}\n### s\nPING\n`);
      const check = await runCli(['check', file], { cwd: scratch.dir });
      assert.equal(check.code, 2);
      assert.match(check.stderr, /load\.rbench:1:\d+: error: .*loadmodule/);
      const missing = await runCli(['run', scratch.write('ping.rbench', '### s\nrequests 10\nPING\n'), '--module', 'nope/missing.so'], { cwd: scratch.dir });
      assert.equal(missing.code, 2, missing.stdout + missing.stderr);
      assert.match(missing.stderr, /the throwaway redis-server cannot start: the module nope\/missing\.so does not exist/);
      assert.doesNotMatch(missing.stdout, /throwaway redis-server \(/);
    });

    it("a module's admin-flagged command needs --allow-admin; its write command runs on the throwaway server", async () => {
      const file = scratch.write('admin.rbench', '### admin\nrequests 100\nRBTEST.ADMIN\n### write\nrequests 100\nRBTEST.WRITE k:__key__\n');
      const refused = await runCli(['run', file, '--module', tiny(), '--scenario', 'admin', '--out', 'runs'], { cwd: scratch.dir });
      assert.equal(refused.code, 2, refused.stdout + refused.stderr);
      assert.match(refused.stderr, /"admin" sends RBTEST\.ADMIN, an admin command .*`rbench run --allow-admin`/);
      const allowed = await runCli(['run', file, '--module', tiny(), '--allow-admin', '--out', 'runs'], { cwd: scratch.dir });
      assert.equal(allowed.code, 0, allowed.stdout + allowed.stderr);
      const tests = scratch.runFiles('runs').flatMap((run) => loads(run).map((load) => `${load.test} ${load.total.requests} ${load.total.errors}`));
      assert.deepEqual(tests.sort(), ['RBTEST.ADMIN 100 0', 'RBTEST.WRITE 100 0']);
    });
  });

  it('the example file is the one the docs name', () => {
    assert.match(readFileSync(EXAMPLE, 'utf8'), /--module \/usr\/lib\/redis\/modules\/redisearch\.so/);
  });
});

// Issue 42: the target is the user's. A file's `db N` is a change of target (asked for, named as the file's
// choice); a database written in the user's --url wins over it; a file's `cluster on` that reaches more nodes
// than the user named asks first and lists them. Through the built CLI, against real redis-servers.
import assert from 'node:assert/strict';
import { keysInDb, useRedisServer, withRedis } from '../../helpers/redis';
import { useCluster } from '../../helpers/cluster';
import { runCli, useScratch } from '../../helpers/cli';

describe("rbench run: the target is the user's (issue 42)", function () {
  this.timeout(90_000);
  const scratch = useScratch();

  describe('a file that says db N', () => {
    const server = useRedisServer();
    beforeEach(() => withRedis(server(), (redis) => redis.flushall()));

    it("writes into the database your --url names (/0), not the file's, and says the file's db was not used", async () => {
      const file = scratch.write('db3.rbench', 'db 3\n### w\nrequests 20\nkeys 5\nSET db42:__key__ v\n');
      const result = await runCli(['run', file, '--url', `${server().url}/0`, '--yes'], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(await keysInDb(server(), 3, 'db42:*'), 0, "nothing in the file's db 3");
      assert.ok((await keysInDb(server(), 0, 'db42:*')) > 0, 'the keys are in db 0, which --url names');
      assert.match(result.stdout + result.stderr, /the file's db 3 is not used: your target names database 0/);
      const [run] = scratch.runFiles();
      assert.equal(run.target.display, server().url, 'the run file names db 0 (the URL without /N)');
    });

    it("asks before a read-only file moves your --url (no database named) to db 3, naming it as the file's choice", async () => {
      const file = scratch.write('read3.rbench', 'db 3\n### r\nrequests 20\nGET db42:k\n');
      const refused = await runCli(['run', file, '--url', server().url], { cwd: scratch.dir });
      assert.equal(refused.code, 2, `a read-only file with db 3 asks: ${refused.stdout}${refused.stderr}`);
      assert.match(
        refused.stderr,
        /Target: redis:\/\/127\.0\.0\.1:\d+\/3 \(from the file: you chose it \(--url\); the file's db line moves it to database 3 \(the selected target names no database\)\)/,
      );
      assert.doesNotMatch(refused.stderr, /yours: you chose it/);
      assert.deepEqual(scratch.runFiles(), []);
      const allowed = await runCli(['run', file, '--url', server().url, '--yes'], { cwd: scratch.dir });
      assert.equal(allowed.code, 0, allowed.stderr);
      assert.match(scratch.runFiles()[0].target.display, /\/3$/);
    });

    it("writes into db 3 only with --yes, the question naming db 3 as the file's", async () => {
      const file = scratch.write('w3.rbench', 'db 3\n### w\nrequests 20\nkeys 5\nSET db42:__key__ v\n');
      const refused = await runCli(['run', file, '--url', server().url], { cwd: scratch.dir });
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /Target: redis:\/\/127\.0\.0\.1:\d+\/3 \(from the file:/);
      assert.equal(await keysInDb(server(), 3, 'db42:*'), 0);
      const allowed = await runCli(['run', file, '--url', server().url, '--yes'], { cwd: scratch.dir });
      assert.equal(allowed.code, 0, allowed.stderr);
      assert.ok((await keysInDb(server(), 3, 'db42:*')) > 0);
      assert.equal(await keysInDb(server(), 0, 'db42:*'), 0);
    });

    it("keeps each --url's own database with --url A/0 --url B: A on db 0 as yours, B asks for the file's db 3", async () => {
      const other = await import('../../../src/redis/localServer').then((m) => m.startLocalServer());
      try {
        const file = scratch.write('two.rbench', 'db 3\n### r\nrequests 20\nGET db42:k\n');
        const result = await runCli(['run', file, '--url', `${server().url}/0`, '--url', other.url], { cwd: scratch.dir });
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, new RegExp(`"r" was not run on ${other.url.replace(/[.]/g, '\\.')}/3`));
        assert.doesNotMatch(result.stderr, new RegExp(`not run on ${server().url.replace(/[.]/g, '\\.')}`));
        const runs = scratch.runFiles();
        assert.equal(runs.length, 1);
        assert.equal(runs[0].target.display, server().url);
      } finally {
        await other.stop();
      }
    });
  });

  describe('a file that says cluster on', () => {
    const cluster = useCluster(3, 0);

    it('asks before a read-only file reaches the nodes your --url announces, listing them; runs with --yes', async () => {
      const file = scratch.write('c.rbench', 'cluster on\n### r\nrequests 30\nGET k\n');
      const refused = await runCli(['run', file, '--url', cluster().url], { cwd: scratch.dir });
      assert.equal(refused.code, 2, `a file's cluster on reaches nodes you did not name: ${refused.stdout}${refused.stderr}`);
      const ports = cluster().nodes.map((node) => node.port);
      const listed = /Reaches the nodes it announces \(the file's cluster on\): (.*)/.exec(refused.stderr)?.[1] ?? '';
      for (const port of ports) assert.match(listed, new RegExp(`127\\.0\\.0\\.1:${port}\\b`), `node ${port} is listed: ${refused.stderr}`);
      assert.deepEqual(scratch.runFiles(), []);
      const allowed = await runCli(['run', file, '--url', cluster().url, '--yes'], { cwd: scratch.dir });
      assert.equal(allowed.code, 0, allowed.stderr);
      assert.equal(scratch.runFiles().length, 1);
    });

    it('does not ask when you declared the cluster yourself (--cluster)', async () => {
      const file = scratch.write('c2.rbench', '### r\nrequests 30\nGET k\n');
      const result = await runCli(['run', file, '--url', cluster().url, '--cluster'], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stderr);
    });
  });
});

// Runs over a unix socket against a real redis-server: a `target unix://…` (fast and ioredis paths), the
// throwaway server's `server unixsocket on`, and the messages when the socket is wrong.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { commandCalls, useRedisServer } from '../../helpers/redis';
import { runCli, useScratch } from '../../helpers/cli';

async function setCalls(socket: string): Promise<number> {
  const redis = new Redis({ path: socket, lazyConnect: true });
  try {
    await redis.connect();
    return await commandCalls(redis, 'set');
  } finally {
    redis.disconnect();
  }
}

describe('unix socket targets', function () {
  this.timeout(60_000);
  const server = useRedisServer({ unixSocket: true });
  const scratch = useScratch();

  it('gives the throwaway server a socket in its temp dir and points its URL there', () => {
    const socket = server().socket;
    assert.ok(socket, 'the server has a socket');
    assert.equal(socket, join(server().dir, 'redis.sock'));
    assert.ok(existsSync(socket));
    assert.equal(server().url, `unix://${socket}`);
  });

  for (const client of ['fast', 'ioredis'] as const) {
    it(`runs a scenario through \`target unix://…\` on the ${client} path`, async () => {
      const socket = server().socket!;
      const before = await setCalls(socket);
      const file = scratch.write(
        'unix.rbench',
        `### over the socket\ntarget unix://${socket}\nclient ${client}\nclients 3\npipeline 4\nrequests 3000\nSET unix:__key__ __value__\n`,
      );
      const result = await runCli(['run', '--yes', file], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, new RegExp(`over the socket\\s+→\\s+unix://${socket}`));
      const [run] = scratch.runFiles();
      assert.equal(run.status, 'complete');
      assert.equal(run.target.display, `unix://${socket}`);
      assert.equal(run.target.local, false);
      assert.ok(run.target.server?.version, 'server facts were read over the socket');
      assert.ok(run.server.samples.length + (run.server.before ? 1 : 0) > 0, 'INFO was sampled over the socket');
      const load = run.points[0].repeats[0][0];
      assert.equal(load.total.requests, 3000);
      assert.equal(load.total.errors, 0);
      assert.equal((await setCalls(socket)) - before, 3000, 'the server counted every SET');
    });
  }

  it('says which socket is missing, with exit code 3', async () => {
    const missing = join(scratch.dir, 'nowhere.sock');
    const file = scratch.write('missing.rbench', `### missing\ntarget unix://${missing}\nrequests 10\nPING\n`);
    const result = await runCli(['run', '--yes', file], { cwd: scratch.dir });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, new RegExp(`cannot connect to unix:${missing}: no such socket — is redis-server running with \`unixsocket ${missing}\`\\?`));
  });

  it('refuses unix URLs with a host, a relative path, options or TLS in check', async () => {
    const file = scratch.write('bad.rbench', '### host\ntarget unix://run/redis.sock\nPING\n### options\ntarget unix:///run/redis.sock?timeout=3\nPING\n');
    const result = await runCli(['check', file], { cwd: scratch.dir });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /bad\.rbench:2:8: error: `unix:\/\/run\/redis\.sock` names a host \(run\): a unix socket URL has three slashes/);
    assert.match(result.stderr, /bad\.rbench:5:8: error: .*only takes \?db=N/);
  });
});

describe('server unixsocket on', function () {
  this.timeout(60_000);
  const scratch = useScratch();

  it('benchmarks the throwaway server through its socket', async () => {
    const file = scratch.write('local.rbench', '### local socket\nserver unixsocket on\nclients 2\nrequests 2000\nSET s:__key__ __value__\n');
    const result = await runCli(['run', file], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /local socket\s+→\s+throwaway redis-server \(unix:\/\/\/.*\/redis\.sock\)/);
    const [run] = scratch.runFiles();
    assert.equal(run.status, 'complete');
    assert.equal(run.target.local, true);
    assert.match(run.target.display, /^unix:\/\/\/.*\/rbench-redis-[^/]+\/redis\.sock$/);
    assert.equal(run.points[0].repeats[0][0].total.requests, 2000);
    assert.equal(run.points[0].repeats[0][0].total.errors, 0);
  });

  it("takes only on or off: the socket path is the launcher's", async () => {
    const file = scratch.write('path.rbench', '### path\nserver unixsocket /run/mine.sock\nserver unixsocketperm 777\nPING\n');
    const result = await runCli(['check', file], { cwd: scratch.dir });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /path\.rbench:2:19: error: `server unixsocket` takes `on` or `off`/);
    assert.match(result.stderr, /path\.rbench:3:8: error: `unixsocketperm` is managed by rbench/);
  });
});

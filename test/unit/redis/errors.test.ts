import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import Redis from 'ioredis';
import { closeControlConnection, openControlConnection, RedisConnectionError, testConnection } from '../../../src/redis/control';
import { describeServerError } from '../../../src/redis/errors';
import { freePort } from '../../../src/redis/localServer';
import { resolveConnection } from '../../../src/redis/target';
import { useRedisServer } from '../../helpers/redis';
import { optionsFor, targetPlan } from './support';

/** The message openControlConnection fails with. */
async function connectFailure(options: Parameters<typeof openControlConnection>[0]): Promise<string> {
  try {
    const redis = await openControlConnection(options);
    await closeControlConnection(redis);
  } catch (error) {
    assert.ok(error instanceof RedisConnectionError, `expected a RedisConnectionError, got ${String(error)}`);
    return error.message;
  }
  assert.fail('the connection unexpectedly succeeded');
}

/** The error reply a command gets, as text. */
async function replyError(command: Promise<unknown>): Promise<string> {
  try {
    await command;
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail('the command unexpectedly succeeded');
}

describe('connection errors, from real failures', () => {
  it('names the place and suggests starting a server when the port is closed', async () => {
    const port = await freePort();
    const expected = `cannot connect to 127.0.0.1:${port}: connection refused — is redis-server running there? Check the target or start one`;
    assert.equal(await connectFailure(optionsFor({ host: '127.0.0.1', port })), expected);
    assert.deepEqual(await testConnection(optionsFor({ host: '127.0.0.1', port })), { ok: false, error: expected });
  });

  it('reports a host name that does not resolve', async () => {
    const message = await connectFailure(optionsFor({ host: 'no-such-host.invalid', port: 6379 }));
    assert.match(message, /^cannot connect to no-such-host\.invalid:6379: the host name "no-such-host\.invalid" does not resolve \(DNS\)/);
  });

  describe('a server that never answers', () => {
    let silent: Server;
    let port: number;
    const sockets: Socket[] = [];
    before(async () => {
      // Accepts TCP but says nothing: a TLS client then waits for a handshake that never comes.
      silent = createServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      port = (silent.address() as { port: number }).port;
    });
    after(() => {
      for (const socket of sockets) socket.destroy();
      silent.close();
    });

    it('times out with the connect timeout', async () => {
      const message = await connectFailure(optionsFor({ host: '127.0.0.1', port }, { tls: {}, connectTimeoutMs: 300 }));
      assert.equal(
        message,
        `cannot connect to 127.0.0.1:${port}: no answer within the connect timeout — check the host and port, that a firewall lets the port through, or raise the connect timeout` +
          "; with TLS on, a port that does not speak TLS stays silent too: use redis:// (no TLS) or the server's tls-port",
      );
    });
  });

  describe('a server with requirepass', () => {
    // Set at run time: startLocalServer's readiness PING would get NOAUTH from a server started with requirepass.
    const server = useRedisServer();
    before(async () => {
      const admin = await openControlConnection(optionsFor(server()));
      await admin.config('SET', 'requirepass', 's3cret');
      await closeControlConnection(admin);
    });

    it('says the server requires a password when none is sent', async () => {
      const message = await connectFailure(optionsFor(server()));
      assert.equal(
        message,
        `127.0.0.1:${server().port}: the server requires a password — add \`password env:NAME\` or \`password secret\` to the target (server said: NOAUTH Authentication required.)`,
      );
    });

    it('says the password is wrong and where it came from', async () => {
      const resolved = resolveConnection(targetPlan({ url: server().url, passwordEnv: 'BENCH_PW' }), { env: { BENCH_PW: 'wrong' } });
      assert.ok(resolved.options, resolved.error);
      const message = await connectFailure(resolved.options);
      assert.equal(
        message,
        `authentication failed at 127.0.0.1:${server().port}: wrong password for the default user, or that user does not exist or is disabled ` +
          '(the password came from environment variable BENCH_PW) — check the user and the password',
      );
    });

    it('connects with the right password', async () => {
      const resolved = resolveConnection(targetPlan({ url: server().url, passwordEnv: 'BENCH_PW' }), { env: { BENCH_PW: 's3cret' } });
      assert.ok(resolved.options, resolved.error);
      const result = await testConnection(resolved.options);
      assert.equal(result.ok, true, result.ok ? '' : result.error);
    });
  });

  describe('an ACL user with limited permissions', () => {
    const server = useRedisServer();
    before(async () => {
      const admin = await openControlConnection(optionsFor(server()));
      await admin.call('ACL', 'SETUSER', 'reader', 'on', '>readpw', '~*', '+get', '+ping', '+info');
      await closeControlConnection(admin);
    });

    it('connects, and explains NOPERM on a command it may not run', async () => {
      const redis = await openControlConnection(optionsFor(server(), { username: 'reader', password: 'readpw' }));
      try {
        const reply = await replyError(redis.set('k', 'v'));
        assert.match(reply, /^NOPERM/);
        assert.match(describeServerError(reply), /^the ACL user lacks permission for the command SET — grant it \(ACL SETUSER\) or use another user \(server said: NOPERM/);
      } finally {
        await closeControlConnection(redis);
      }
    });

    it('fails the connection when the user may not SELECT the database', async () => {
      const message = await connectFailure(optionsFor(server(), { username: 'reader', password: 'readpw', db: 1 }));
      assert.equal(message, `127.0.0.1:${server().port}: user "reader" lacks permission for the command SELECT — grant it (ACL SETUSER reader …) or use another user`);
    });

    it('names the user when its password is wrong', async () => {
      const message = await connectFailure(optionsFor(server(), { username: 'reader', password: 'nope', passwordSource: 'the target URL' }));
      assert.match(message, /wrong password for user "reader".*\(the password came from the target URL\)/);
    });
  });
});

describe('server error replies, from real servers', () => {
  const server = useRedisServer({ config: [{ name: 'busy-reply-threshold', args: ['100'] }] });
  let redis: Redis;
  before(async () => (redis = await openControlConnection(optionsFor(server()))));
  after(async () => closeControlConnection(redis));

  it('WRONGTYPE', async () => {
    await redis.set('wt', 'string');
    assert.match(describeServerError(await replyError(redis.lpush('wt', 'x'))), /^a key the scenario uses already holds a different data type/);
  });

  it('unknown command', async () => {
    assert.match(
      describeServerError(await replyError(redis.call('NOSUCHCMD', 'a'))),
      /^the server does not know the command NOSUCHCMD — check its spelling .* \(server said: ERR unknown command 'NOSUCHCMD'/,
    );
  });

  it('NOSCRIPT', async () => {
    assert.match(describeServerError(await replyError(redis.evalsha('0'.repeat(40), 0))), /^EVALSHA named a script the server does not have/);
  });

  it('OOM with noeviction', async () => {
    await redis.config('SET', 'maxmemory', '1');
    try {
      assert.match(describeServerError(await replyError(redis.set('oom', 'x'))), /^the server reached maxmemory .* raise maxmemory, use an eviction policy/);
    } finally {
      await redis.config('SET', 'maxmemory', '0');
    }
  });

  it('READONLY on a replica', async () => {
    // A replica of a port where nobody listens: it stays read-only while it retries.
    await redis.call('REPLICAOF', '127.0.0.1', String(await freePort()));
    try {
      assert.match(describeServerError(await replyError(redis.set('ro', 'x'))), /^the target is a read-only replica/);
    } finally {
      await redis.call('REPLICAOF', 'NO', 'ONE');
    }
  });

  it('BUSY while a script runs', async () => {
    const scripted = await openControlConnection(optionsFor(server()));
    const endless = scripted.eval('while true do end', 0).catch((error: Error) => error);
    try {
      // Past busy-reply-threshold (100 ms) other clients get BUSY.
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.match(describeServerError(await replyError(redis.get('x'))), /^the server is busy running a script .* SCRIPT KILL/);
    } finally {
      await redis.script('KILL');
      await endless;
      await closeControlConnection(scripted);
    }
  });

  it('passes unknown replies through unchanged', () => {
    assert.equal(describeServerError('ERR something new'), 'ERR something new');
  });

  it('explains replies that need a cluster or a loading server (texts as Redis sends them)', () => {
    assert.match(describeServerError('MOVED 3999 127.0.0.1:6381'), /set `cluster on`/);
    assert.match(describeServerError('ASK 3999 127.0.0.1:6381'), /set `cluster on`/);
    assert.match(describeServerError('LOADING Redis is loading the dataset in memory'), /still loading its dataset/);
    assert.match(describeServerError('BUSYKEY Target key name already exists.'), /^BUSYKEY/);
  });
});

describe('server error replies from a cluster node', () => {
  const server = useRedisServer({ config: [{ name: 'cluster-enabled', args: ['yes'] }] });

  it('CLUSTERDOWN when no node serves the slot, and SELECT refused', async () => {
    const redis = await openControlConnection(optionsFor(server()));
    try {
      assert.match(describeServerError(await replyError(redis.get('k'))), /^the cluster is down \(not all hash slots are served\)/);
    } finally {
      await closeControlConnection(redis);
    }
    assert.match(await connectFailure(optionsFor(server(), { db: 2 })), /Redis Cluster has only database 0 — remove the db from the target/);
  });
});

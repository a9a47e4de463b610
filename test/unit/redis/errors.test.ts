import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import Redis from 'ioredis';
import { closeControlConnection, openControlConnection, RedisConnectionError, testConnection } from '../../../src/redis/control';
import { describeConnectionError, describeHandshakeReply, describeServerError, errorPlace, type ErrorPlace } from '../../../src/redis/errors';
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
        `cannot connect to 127.0.0.1:${port}: no answer within 300 ms (the connect timeout) — check the host and port, that a firewall lets the port through, or raise the connect timeout` +
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
        assert.match(
          describeServerError(reply),
          /^the ACL user lacks permission for the command SET — grant it \(ACL SETUSER\) or use another user \(server said: NOPERM/,
        );
      } finally {
        await closeControlConnection(redis);
      }
    });

    it('fails the connection when the user may not SELECT the database', async () => {
      const message = await connectFailure(optionsFor(server(), { username: 'reader', password: 'readpw', db: 1 }));
      assert.equal(
        message,
        `127.0.0.1:${server().port}: user "reader" lacks permission for the command SELECT — grant it (ACL SETUSER reader …) or use another user`,
      );
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

describe('connection error messages, case by case', () => {
  const plain: ErrorPlace = { host: '127.0.0.1', port: 6390, connectTimeoutMs: 250 };
  const secure: ErrorPlace = { ...plain, tls: true };
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

  it('names an IPv6 place in brackets and the timeout in ms', () => {
    assert.equal(
      describeConnectionError(withCode('connect ETIMEDOUT', 'ETIMEDOUT'), { host: '::1', port: 6379, connectTimeoutMs: 500 }),
      'cannot connect to [::1]:6379: no answer within 500 ms (the connect timeout) — check the host and port, that a firewall lets the port through, or raise the connect timeout',
    );
    assert.match(
      describeConnectionError(withCode('timeout', 'RBENCH_TIMEOUT'), plain),
      /^cannot connect to 127\.0\.0\.1:6390: no answer within 250 ms \(the connect timeout\)/,
    );
  });

  it('explains a TLS hello that a port never answers', () => {
    assert.equal(
      describeConnectionError(withCode('timeout', 'RBENCH_TLS_TIMEOUT'), secure),
      "TLS handshake with 127.0.0.1:6390 failed: TCP connected, but no TLS answer within 250 ms (the connect timeout) — a port that does not speak TLS stays silent (a plain-text Redis port never answers a TLS hello): use redis:// (no TLS) or the server's tls-port",
    );
  });

  it('explains a close during the handshake, with and without TLS', () => {
    assert.equal(
      describeConnectionError(withCode('connection closed', 'RBENCH_CLOSED'), plain),
      '127.0.0.1:6390 closed the connection before answering — if that port only accepts TLS, use rediss:// (or `tls on`); otherwise check the server log',
    );
    assert.equal(
      describeConnectionError(new Error('Connection is closed.'), secure),
      '127.0.0.1:6390 closed the connection before answering — the port may not speak TLS, or the server wants a client certificate (`tls cert`/`tls key`)',
    );
  });

  it('says the connection was lost when it had been working', () => {
    assert.equal(
      describeConnectionError(withCode('read ECONNRESET', 'ECONNRESET'), { ...plain, wasConnected: true }),
      'lost the connection to 127.0.0.1:6390 — did the server stop, restart or drop this client? (read ECONNRESET)',
    );
  });

  it('explains DNS and routing failures', () => {
    assert.equal(
      describeConnectionError(withCode('getaddrinfo EAI_AGAIN db', 'EAI_AGAIN'), { host: 'db', port: 6379 }),
      'cannot connect to db:6379: the host name "db" does not resolve (DNS) — check its spelling, or use an IP address',
    );
    assert.equal(
      describeConnectionError(withCode('connect EHOSTUNREACH', 'EHOSTUNREACH'), plain),
      'cannot connect to 127.0.0.1:6390: no network route to the host — check the address and your network or VPN',
    );
  });

  it('finds the code of a refused dual-stack connect inside an AggregateError', () => {
    const error = Object.assign(new AggregateError([withCode('connect ECONNREFUSED ::1:6390', 'ECONNREFUSED')], ''), {});
    assert.match(describeConnectionError(error, plain), /^cannot connect to 127\.0\.0\.1:6390: connection refused — is redis-server running there\?/);
  });

  it('passes other TLS and socket failures through with their code', () => {
    assert.equal(
      describeConnectionError(withCode('SSL alert number 80', 'ERR_SSL_TLSV1_ALERT_INTERNAL_ERROR'), secure),
      'TLS handshake with 127.0.0.1:6390 failed: SSL alert number 80 (ERR_SSL_TLSV1_ALERT_INTERNAL_ERROR) — is TLS enabled on that port?',
    );
    assert.equal(describeConnectionError(withCode('something odd', 'EWHATEVER'), plain), 'cannot connect to 127.0.0.1:6390: something odd (EWHATEVER)');
  });

  it('says a server without RESP3 needs `resp 2` when HELLO 3 fails', () => {
    assert.equal(
      describeHandshakeReply("ERR unknown command 'HELLO', with args beginning with: '3'", plain, 'hello'),
      "the server at 127.0.0.1:6390 does not support RESP3 (HELLO 3 failed: ERR unknown command 'HELLO', with args beginning with: '3') — use `resp 2`",
    );
  });

  it('names the database a SELECT could not select', () => {
    const place = errorPlace({ host: '127.0.0.1', port: 6390, db: 99, connectTimeoutMs: 1000, resp: 2 });
    assert.equal(
      describeHandshakeReply('ERR DB index is out of range', place, 'select'),
      'cannot select database 99 on 127.0.0.1:6390: the database number is higher than the server has (`databases` setting) — pick a smaller db (server said: ERR DB index is out of range)',
    );
  });

  it('explains a password sent to a server without one, and NOPERM during the handshake', () => {
    assert.equal(
      describeHandshakeReply(
        'ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?',
        plain,
        'auth',
      ),
      '127.0.0.1:6390 has no password set, but the target sends one — remove the password from the target',
    );
    assert.equal(
      describeHandshakeReply("NOPERM User bench has no permissions to run the 'ping' command", { ...plain, username: 'bench' }, 'ping'),
      '127.0.0.1:6390: user "bench" lacks permission for the command PING — grant it (ACL SETUSER bench …) or use another user',
    );
  });

  it('names the handshake step of an unexplained reply', () => {
    assert.equal(describeHandshakeReply('ERR strange', plain, 'ping'), 'connection handshake with 127.0.0.1:6390 failed at PING: ERR strange');
    assert.equal(describeConnectionError(new Error('ERR strange'), plain), '127.0.0.1:6390: ERR strange');
  });
});

// The reply gate (src/redis/replyGuard.ts): a server that answers a control command with a reply ioredis
// would keep growing in memory (a bulk string or an array whose header promises more than any real reply,
// its bytes streamed on and on) gets its connection closed, and the command fails at once with a message
// that names the server and the limit, no reconnect. A real reply far larger than usual still passes.
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { commandReader, serveOnLoopback } from '../../helpers/fakeRedis';
import Redis from 'ioredis';
import { closeControlConnection, openControlConnection } from '../../../src/redis/control';
import { discoverPrimary } from '../../../src/redis/sentinel';
import { openSocket } from '../../../src/engine/fast/connect';
import { askRaw } from '../../../src/engine/fast/rawReply';
import { runCli, useScratch } from '../../helpers/cli';
import { CONTROL_REPLY_LIMITS, installReplyGate } from '../../../src/redis/replyGuard';

const MAX_CONTROL_REPLY_BYTES = CONTROL_REPLY_LIMITS.bytes;

/** What the hostile server streams after the header, at most (old code held all of it until the command timed out). */
const STREAMED = 160 * 1024 * 1024;

interface Hostile {
  port: number;
  /** Bytes written in answer to INFO, and connections accepted. */
  written: () => number;
  /** The first word of each command line received (upper-cased). */
  commands: () => string[];
  connections: () => number;
  close(): Promise<void>;
}

/** Answers PING and CLIENT, and `trigger` (INFO) with `header` followed by `unit` repeated (with backpressure) up to STREAMED bytes. */
async function hostileServer(header: string, unit: string, trigger = 'INFO'): Promise<Hostile> {
  const sockets = new Set<Socket>();
  let written = 0;
  let connections = 0;
  const commands: string[] = [];
  const chunk = Buffer.from(unit ? unit.repeat(Math.ceil(65536 / unit.length)) : '');
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    // Commands as they come (several in one chunk, or one cut between chunks), each answered in turn.
    const read = commandReader((args) => {
      const name = (args[0] ?? '').toUpperCase();
      commands.push(name);
      if (name !== trigger) return void socket.write(name === 'PING' ? '+PONG\r\n' : '+OK\r\n');
      socket.write(header);
      const pump = () => {
        while (written < STREAMED && !socket.destroyed) {
          written += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', pump);
        }
      };
      if (unit) pump();
    });
    socket.on('data', (data: Buffer) => read(data) || socket.destroy());
  });
  const { port, close } = await serveOnLoopback(server, sockets);
  return { port, written: () => written, commands: () => commands, connections: () => connections, close };
}

describe('the reply gate on ioredis connections', function () {
  this.timeout(30_000);
  let hostile: Hostile | undefined;
  let redis: Redis | undefined;
  afterEach(async () => {
    if (redis) await closeControlConnection(redis);
    await hostile?.close();
    redis = hostile = undefined;
  });

  const tooLarge = (port: number) =>
    `127\\.0\\.0\\.1:${port} sent a reply of more than 64 MiB, which RBench does not hold in memory; the connection was closed`;
  const tooMany = (port: number) =>
    `127\\.0\\.0\\.1:${port} sent a reply of more than 1,000,000 elements, which RBench does not hold in memory; the connection was closed`;
  const notResp = (port: number) => `127\\.0\\.0\\.1:${port}: protocol error: bulk string length 999999999… is over Redis's limit of 512 MB`;
  for (const [name, header, unit, expected] of [
    ['a bulk string whose length promises 500 MB', '$500000000\r\n', 'x', tooLarge],
    ['a bulk string of 500 MB, nested in arrays', '*2\r\n$1\r\nk\r\n*1\r\n$500000000\r\n', 'y', tooLarge],
    ['an array of 900 thousand elements, each one a long bulk string', '*900000\r\n', '$100\r\n' + 'z'.repeat(100) + '\r\n', tooLarge],
    ['an array of a billion elements, sent one by one', '*1000000000\r\n', ':1\r\n', tooMany],
    ['arrays of 600 thousand elements, nested', '*2\r\n*600000\r\n' + ':1\r\n'.repeat(600000) + '*600000\r\n', ':1\r\n', tooMany],
    ['a bulk string longer than Redis allows', '$999999999\r\n', 'x', notResp],
  ] as const) {
    it(`closes a control connection sent ${name}, with a message`, async () => {
      hostile = await hostileServer(header, unit);
      redis = await openControlConnection({ host: '127.0.0.1', port: hostile.port, resp: 2, connectTimeoutMs: 5_000 });
      const started = performance.now();
      const error = await redis.info().then(
        () => undefined,
        (e: Error) => e,
      );
      assert.ok(error, 'INFO answered');
      assert.match(error.message, new RegExp(expected(hostile.port)));
      // Refused as soon as the reply passed the limit: not at the command timeout (10 s), nor after everything was sent.
      assert.ok(performance.now() - started < 8_000, `took ${Math.round(performance.now() - started)} ms`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.ok(hostile.written() < MAX_CONTROL_REPLY_BYTES + 32 * 2 ** 20, `the server wrote ${hostile.written()} bytes before the close`);
      assert.equal(redis.status, 'end', 'the client reconnects to a server it refused');
      assert.equal(hostile.connections(), 1);
    });
  }

  // The other readers of whole replies keep the same limits (src/protocol/replyReader.ts): a sentinel's answer,
  // and ROLE or CLUSTER SHARDS on the fast path's raw connections.
  it("refuses a sentinel's answer past the limits, at once, naming the sentinel", async () => {
    hostile = await hostileServer('*1000000000\r\n', '$3\r\nabc\r\n', 'SENTINEL');
    const started = performance.now();
    await assert.rejects(
      discoverPrimary({
        host: '127.0.0.1',
        port: hostile.port,
        resp: 2,
        connectTimeoutMs: 5_000,
        sentinel: { name: 'mymaster', nodes: [{ host: '127.0.0.1', port: hostile.port }] },
      }),
      new RegExp(`sentinel 127\\.0\\.0\\.1:${hostile.port} sent a reply of more than 1,000,000 elements, which RBench does not hold in memory`),
    );
    assert.ok(performance.now() - started < 3_000);
  });

  it('refuses a ROLE reply on a raw connection past the byte limit while it streams', async () => {
    hostile = await hostileServer('*2\r\n$5\r\nslave\r\n$500000000\r\n', 'r', 'ROLE');
    const connection = await openSocket({ host: '127.0.0.1', port: hostile.port, resp: 2, connectTimeoutMs: 5_000 });
    try {
      await assert.rejects(askRaw(connection, ['ROLE'], 8_000), /sent a reply of more than 64 MiB, which RBench does not hold in memory/);
      assert.ok(hostile.written() < MAX_CONTROL_REPLY_BYTES + 32 * 2 ** 20, `the server wrote ${hostile.written()} bytes`);
    } finally {
      connection.socket.destroy();
    }
  });

  it("gates the clients ioredis makes itself too: its Sentinel mode's query of a hostile sentinel ends at once", async () => {
    hostile = await hostileServer('*1000000000\r\n', '$3\r\nabc\r\n', 'SENTINEL');
    // As every place that makes ioredis clients does before they connect.
    installReplyGate();
    const client = new Redis({
      sentinels: [{ host: '127.0.0.1', port: hostile.port }],
      name: 'mymaster',
      lazyConnect: true,
      enableOfflineQueue: false,
      sentinelRetryStrategy: () => null,
      sentinelCommandTimeout: 20_000,
      connectTimeout: 20_000,
    });
    client.on('error', () => undefined);
    const started = performance.now();
    try {
      await assert.rejects(client.connect());
      assert.ok(performance.now() - started < 3_000, `took ${Math.round(performance.now() - started)} ms`);
      assert.ok(hostile.written() < 32 * 2 ** 20, `the sentinel wrote ${hostile.written()} bytes`);
    } finally {
      client.disconnect();
    }
  });

  describe('through `rbench run` (the bundle, dist/cli.js)', () => {
    const scratch = useScratch();
    it('a server whose INFO never ends: the run stops before any load with the plain message, a failed exit, no trace', async () => {
      hostile = await hostileServer('*1000000000\r\n', ':1\r\n');
      const file = scratch.write('s.rbench', '### s\nclients 1\nrequests 10\nSET k v\n');
      const started = performance.now();
      const run = await runCli(['run', file, '--url', `redis://127.0.0.1:${hostile.port}`, '--yes', '--out', 'runs', '--quiet'], { cwd: scratch.dir });
      assert.ok(performance.now() - started < 15_000);
      assert.match(
        run.stderr,
        new RegExp(`127\\.0\\.0\\.1:${hostile.port} sent a reply of more than 1,000,000 elements, which RBench does not hold in memory`),
      );
      assert.doesNotMatch(run.stderr, /\n\s+at /);
      assert.notEqual(run.code, 0);
      assert.ok(!hostile.commands().some((c) => c.startsWith('SET')), 'load was sent');
    });
  });

  it('lets a whole reply of 40 MB through (a large INFO is no attack)', async () => {
    const body = `# Server\r\nredis_version:7.2.0\r\nos:${'L'.repeat(40 * 1024 * 1024)}\r\n`;
    hostile = await hostileServer(`$${body.length}\r\n${body}\r\n`, '');
    redis = await openControlConnection({ host: '127.0.0.1', port: hostile.port, resp: 2, connectTimeoutMs: 5_000 });
    const info = await redis.info();
    assert.equal(info.length, body.length);
    assert.equal(await redis.ping(), 'PONG');
  });
});

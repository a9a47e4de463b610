import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { LoadError, runLoad } from '../../../src/engine';
import { ReplyScanner } from '../../../src/protocol/respScanner';
import type { LoadResult } from '../../../src/engine/types';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';
import { loadRequest, singleTest } from './plans';
import { serveOnLoopback } from '../../helpers/fakeRedis';

// A hostile server: a proxy in front of a real redis-server that forwards faithfully until a
// connection has had `after` replies, then misbehaves at a reply boundary (or half-way into the
// next reply). Every connection, reconnections included, meets the fault.

type Fault = 'garbage' | 'huge-bulk' | 'huge-array' | 'stall-mid-reply' | 'close-mid-bulk';

interface Proxy {
  port: number;
  close(): Promise<void>;
}

function hostileProxy(upstreamPort: number, fault: Fault, after: number): Promise<Proxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(upstreamPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    const scanner = new ReplyScanner();
    let replies = 0;
    let faulted = false;
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('data', (chunk) => !faulted && upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      if (faulted) return;
      // Find the byte where reply number `after` ends.
      let cut = -1;
      for (let i = 0; i < chunk.length && cut < 0; i++) {
        replies += scanner.scan(chunk.subarray(i, i + 1));
        if (replies >= after) cut = i + 1;
      }
      if (cut < 0) {
        client.write(chunk);
        return;
      }
      faulted = true;
      const rest = chunk.subarray(cut);
      client.write(chunk.subarray(0, cut));
      if (fault === 'garbage') client.write('HTTP/1.1 400 Bad Request\r\n\r\n');
      if (fault === 'huge-bulk') client.write('$1073741824\r\nxxxx');
      if (fault === 'huge-array') client.write(`*1000000000\r\n${':1\r\n'.repeat(1000)}`);
      if (fault === 'stall-mid-reply' || fault === 'close-mid-bulk') client.write(rest.subarray(0, Math.max(1, rest.length >> 1)));
      if (fault === 'close-mid-bulk') client.destroy();
    });
  });
  return serveOnLoopback(server, sockets);
}

function connectionErrors(result: LoadResult): { count: number; text: string } {
  return { count: result.total.errorsByKind.CONNECTION ?? 0, text: result.total.errorExamples.CONNECTION ?? '' };
}

describe('runLoad against a hostile server', function () {
  this.timeout(60_000);
  const redis = useRedisServer();

  // Loads of a request count, not a duration: every connection meets the fault however slow the machine. A
  // connection has at most AFTER replies before its fault and loses at most its batch (PIPELINE) with it, so
  // REQUESTS take at least LIFETIMES connections: the 4 first ones and that many less 4 reconnections.
  const CLIENTS = 4;
  const PIPELINE = 4;
  const AFTER = 1000;
  const REQUESTS = 10_000;
  const LIFETIMES = Math.ceil(REQUESTS / (AFTER + PIPELINE));

  async function run(
    fault: Fault,
    test = singleTest('SET key:__key__ __value__'),
    client: 'fast' | 'ioredis' = 'fast',
    requests = REQUESTS,
  ): Promise<{ result: LoadResult; serverCalls: number }> {
    const proxy = await hostileProxy(redis().port, fault, AFTER);
    const command = test.commands[0].command.name.toLowerCase();
    try {
      const callsBefore = await withRedis(redis(), (r) => commandCalls(r, command));
      const result = await runLoad(
        loadRequest(
          { host: '127.0.0.1', port: proxy.port },
          { test, value: { kind: 'fixed', size: 2000 }, load: { clients: CLIENTS, pipeline: PIPELINE, requests, stallTimeoutMs: 3000 }, client },
        ),
        { serverLostTimeoutMs: 1000 },
      );
      return { result, serverCalls: (await withRedis(redis(), (r) => commandCalls(r, command))) - callsBefore };
    } finally {
      await proxy.close();
    }
  }

  /** The run ended by its count, each fault cost at most its batch, and every reply counted was one the server gave. */
  function assertKept(result: LoadResult, serverCalls: number): void {
    assert.equal(result.status, 'complete', result.error);
    assert.equal(result.windowKind, 'first-send-to-last-reply', 'ended by its count: no connection waited out the stall watch for a reply');
    assert.equal(result.total.requests, REQUESTS);
    assert.ok(result.connections.reconnects >= LIFETIMES - CLIENTS, `${result.connections.reconnects} reconnects`);
    const lost = connectionErrors(result).count;
    assert.equal(result.total.errors, lost, JSON.stringify(result.total.errorsByKind));
    assert.ok(lost <= PIPELINE * (CLIENTS + result.connections.reconnects), `${lost} requests lost`);
    assert.ok(serverCalls >= REQUESTS - lost, `the server ran ${serverCalls} of the ${REQUESTS - lost} replies counted`);
  }

  for (const fault of ['garbage', 'huge-bulk'] as const) {
    it(`${fault}: each connection fails with a protocol error, reconnects, and the run keeps what it measured`, async () => {
      const { result, serverCalls } = await run(fault);
      const errors = connectionErrors(result);
      assert.ok(errors.count > 0, JSON.stringify(result.total.errorsByKind));
      assert.match(
        errors.text,
        fault === 'garbage'
          ? /protocol error: unexpected byte 72 \("H"\) where a reply should start/
          : /protocol error: bulk string length 1073741824…? is over Redis's limit of 512 MB/,
      );
      assertKept(result, serverCalls);
    });
  }

  // The ioredis path's reply gate (src/redis/replyGuard.ts): ioredis would build a billion-element array, or wait
  // for a 1 GB bulk string, in memory; the gate closes the connection first, as the fast path does. (The byte
  // limit is tested on the control connection, test/unit/redis/replyGuard.test.ts: 1 GiB per load connection is too much for a test.)
  for (const [fault, message] of [
    ['huge-array', /connection lost: 127\.0\.0\.1:\d+ sent a reply of more than 16,000,000 elements, which RBench does not hold in memory/],
    ['huge-bulk', /connection lost: 127\.0\.0\.1:\d+: protocol error: bulk string length 1073741824…? is over Redis's limit of 512 MB/],
  ] as const) {
    it(`${fault}, ioredis client: each connection is closed by the reply gate, reconnects, and the run keeps what it measured`, async () => {
      const { result, serverCalls } = await run(fault, singleTest('SET key:__key__ __value__'), 'ioredis');
      const errors = connectionErrors(result);
      assert.ok(errors.count > 0, JSON.stringify(result.total.errorsByKind));
      assert.match(errors.text, message);
      assertKept(result, serverCalls);
    });
  }

  it('close mid-bulk: the connection is lost and counted, the reply cut short is not counted', async () => {
    const { result, serverCalls } = await run('close-mid-bulk', singleTest('GET big'));
    const errors = connectionErrors(result);
    assert.ok(errors.count > 0);
    assert.match(errors.text, /connection lost/);
    assertKept(result, serverCalls);
  });

  it('stall mid-reply: the run still ends, with the measured requests kept', async () => {
    // More requests than the connections can have answered: each stalls after exactly AFTER replies, and the stall
    // watch (3 s without a reply) ends the load.
    const { result } = await run('stall-mid-reply', singleTest('SET key:__key__ __value__'), 'fast', CLIENTS * AFTER + 1000);
    // The proxy's AFTER replies of a connection begin with its handshake's (one each, on the fast path).
    const handshakeReplies = Object.values(result.sent?.handshakes ?? {}).reduce((a, b) => a + b, 0);
    assert.equal(handshakeReplies, CLIENTS, JSON.stringify(result.sent?.handshakes));
    assert.equal(result.total.requests - result.total.errors, CLIENTS * AFTER - handshakeReplies, 'every reply before the stalls kept');
    assert.equal(result.windowKind, 'first-send-to-stall', 'the load ended by the stall watch');
    // The requests stuck behind the stalled replies are counted (as timeouts), not lost: at least one per connection.
    assert.ok((result.total.errorsByKind.TIMEOUT ?? 0) >= CLIENTS, JSON.stringify([result.status, result.error, result.total.errorsByKind]));
    assert.equal(result.total.errors, result.total.errorsByKind.TIMEOUT);
  });

  it('a server that is not Redis (an HTTP server) is refused at the handshake, naming the bad byte', async () => {
    // resume(): read (and drop) the client's handshake, so the client's close is seen and close() can finish.
    const http = createServer((socket) => socket.resume().end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const address = http.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      await assert.rejects(
        runLoad(loadRequest({ host: '127.0.0.1', port }, { test: singleTest('PING'), load: { clients: 2, requests: 10 } })),
        (error: Error) => {
          assert.ok(error instanceof LoadError);
          assert.equal(
            error.message,
            `unexpected reply from 127.0.0.1:${port} during the handshake: protocol error: unexpected byte 72 ("H") where a reply should start — the reply is not valid RESP: is it a Redis server, on the right port?`,
          );
          return true;
        },
      );
    } finally {
      await new Promise((resolve) => http.close(resolve));
    }
  });
});

// A fast path's batch goes straight to its socket's descriptor when nothing is queued (src/engine/fast/socketWrite.ts):
// Node's socket.write made ~210 bytes of objects a call, and each scavenge they caused left a 'gc' perf entry's
// garbage in the old generation (issue 46: a long run's memory grew ~100 KB a second). The bytes must still reach
// the server whole and in order whatever the kernel takes, a queued part must not change with its source buffer,
// and a peer gone must end as the socket's error, never a throw.
import assert from 'node:assert/strict';
import { createServer, Socket, type AddressInfo, type Server } from 'node:net';
import { once } from 'node:events';
import { writeRange } from '../../../src/engine/fast/socketWrite';
import { runLoad } from '../../../src/engine';
import { letLoadsHoldThisThread } from '../../../src/engine/threads';
import { useRedisServer, withRedis } from '../../helpers/redis';
import { loadRequest, singleTest } from './plans';

interface Pair {
  server: Server;
  client: Socket;
  peer: Socket;
  received: Buffer[];
}

async function connectedPair(allowHalfOpen = false): Promise<Pair> {
  const received: Buffer[] = [];
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const accepted = once(server, 'connection');
  const client = new Socket({ allowHalfOpen });
  client.connect((server.address() as AddressInfo).port, '127.0.0.1');
  await once(client, 'connect');
  const [peer] = (await accepted) as [Socket];
  peer.on('data', (chunk: Buffer) => received.push(chunk));
  return { server, client, peer, received };
}

async function close(pair: Pair): Promise<void> {
  pair.client.destroy();
  pair.peer.destroy();
  pair.server.close();
  await once(pair.server, 'close');
}

/** Waits until the peer has received `bytes` bytes (or 20 s). */
async function receivedAll(pair: Pair, bytes: number): Promise<Buffer> {
  const deadline = Date.now() + 20_000;
  while (pair.received.reduce((sum, chunk) => sum + chunk.length, 0) < bytes && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  return Buffer.concat(pair.received);
}

/** Counts socket.write calls on `socket`. */
function countWrites(socket: Socket): { calls: number } {
  const counter = { calls: 0 };
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  (socket as unknown as { write: (...args: unknown[]) => boolean }).write = (...args: unknown[]) => {
    counter.calls++;
    return write(...args);
  };
  return counter;
}

describe('a batch onto its socket (issue 46: no socket.write when nothing is queued)', () => {
  it('nothing queued: the bytes go to the descriptor, whole, without socket.write', async () => {
    const pair = await connectedPair();
    try {
      const writes = countWrites(pair.client);
      const bytes = Buffer.from('*1\r\n$4\r\nPING\r\n*2\r\n$3\r\nGET\r\n$3\r\nkey\r\n');
      writeRange(pair.client, bytes, 0, 14);
      writeRange(pair.client, bytes, 14, bytes.length);
      assert.equal((await receivedAll(pair, bytes.length)).toString(), bytes.toString());
      assert.equal(writes.calls, 0, 'socket.write was called');
      assert.equal(pair.client.writableLength, 0);
    } finally {
      await close(pair);
    }
  });

  it('with bytes queued, or more than the kernel takes: all of it, in order, and a kept part as it was when sent', async () => {
    const pair = await connectedPair();
    try {
      pair.peer.pause(); // the kernel's buffers fill: writes are taken in part, then not at all
      const chunk = Buffer.alloc(64 * 1024);
      const fillChunk = (k: number, target: Buffer) => {
        target.fill(k % 251);
        target.writeUInt32BE(k, 0);
      };
      const sizes: number[] = [];
      const send = (size: number) => {
        fillChunk(sizes.length, chunk);
        writeRange(pair.client, chunk, 0, size, true);
        sizes.push(size);
      };
      // Until the socket has queued for a while (however large this host's socket buffers), at most 128 MB.
      let queuedAt = -1;
      while (sizes.length < 2048 && (queuedAt < 0 || sizes.length < queuedAt + 50)) {
        send(chunk.length);
        if (queuedAt < 0 && pair.client.writableLength > 0) queuedAt = sizes.length;
      }
      assert.ok(queuedAt >= 0, 'the kernel never refused: nothing was queued');
      // The peer reads again: the kernel takes bytes while the socket's queue still holds some. A write must not
      // pass what is queued, so each goes behind the queue until the queue is empty.
      pair.peer.resume();
      for (let more = 0; more < 500 && pair.client.writableLength > 0; more++) {
        await new Promise((resolve) => setImmediate(resolve));
        send(1024);
      }
      // The source is rewritten after each call, as the open loop's batch buffer is: the queued copies stay.
      chunk.fill(0xee);
      const total = sizes.reduce((sum, size) => sum + size, 0);
      const all = await receivedAll(pair, total);
      assert.equal(all.length, total);
      const expected = Buffer.alloc(chunk.length);
      let at = 0;
      sizes.forEach((size, k) => {
        fillChunk(k, expected);
        assert.ok(all.subarray(at, at + size).equals(expected.subarray(0, size)), `write ${k} arrived changed or out of order`);
        at += size;
      });
    } finally {
      await close(pair);
    }
  });

  it('a peer gone: the socket fails with its error and closes, nothing is thrown', async () => {
    // Half-open, so the client stays writable after the peer's FIN: its writes then meet the peer's reset (EPIPE).
    const pair = await connectedPair(true);
    try {
      const errors: string[] = [];
      const closed = new Promise((resolve) => pair.client.on('close', resolve));
      pair.client.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
      const ended = new Promise((resolve) => pair.client.on('end', resolve));
      pair.client.resume();
      pair.peer.destroy();
      await ended;
      assert.ok(pair.client.writable, 'half-open: still writable');
      const writes = countWrites(pair.client);
      const bytes = Buffer.alloc(1024, 1);
      for (let k = 0; k < 50 && !pair.client.destroyed; k++) {
        assert.doesNotThrow(() => writeRange(pair.client, bytes, 0, bytes.length));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await closed;
      assert.ok(pair.client.destroyed);
      assert.ok(
        errors.some((code) => code === 'EPIPE' || code === 'ECONNRESET'),
        `errors: ${errors.join(', ')}`,
      );
      assert.equal(writes.calls, 0, 'the failure came through socket.write, not the descriptor');
    } finally {
      await close(pair);
    }
  });

  it('TLS or no descriptor: through socket.write, as before', () => {
    const sent: Buffer[] = [];
    const fake = (handle: object | null, encrypted: boolean) =>
      ({
        _handle: handle,
        encrypted,
        writableLength: 0,
        writableCorked: 0,
        connecting: false,
        writable: true,
        write: (bytes: Buffer) => sent.push(Buffer.from(bytes)),
      }) as unknown as Socket;
    const bytes = Buffer.from('abcdef');
    // fd 1 is this process's stdout: were the guards missing, the test would print the bytes instead.
    writeRange(fake({ fd: 1, writeQueueSize: 0 }, true), bytes, 1, 4);
    writeRange(fake({ fd: -1, writeQueueSize: 0 }, false), bytes, 0, 6);
    writeRange(fake(null, false), bytes, 2, 3);
    assert.deepEqual(
      sent.map((b) => b.toString()),
      ['bcd', 'abcdef', 'c'],
    );
  });

  describe('a load of the fast path', function () {
    this.timeout(60_000);
    const server = useRedisServer();
    before(() => letLoadsHoldThisThread(true));
    after(() => letLoadsHoldThisThread(false));

    it('sends its batches without socket.write, and the server executes exactly what was counted', async () => {
      await withRedis(server(), (redis) => redis.set('counter', '0'));
      const prototype = Socket.prototype as unknown as { write: (...args: unknown[]) => boolean };
      const write = prototype.write;
      let calls = 0;
      prototype.write = function (this: Socket, ...args: unknown[]) {
        calls++;
        return write.apply(this, args);
      };
      let result;
      try {
        result = await runLoad(loadRequest(server(), { test: singleTest('INCR counter'), load: { clients: 8, threads: 1, pipeline: 16, requests: 40_000 } }));
      } finally {
        prototype.write = write;
      }
      assert.equal(result.status, 'complete', result.error);
      assert.equal(result.total.requests, 40_000);
      assert.equal(Number(await withRedis(server(), (redis) => redis.get('counter'))), 40_000, 'the server executed exactly N');
      // 2,500 batches; the connections' set-up (HELLO, CLIENT SETNAME…) and a rare full kernel buffer may still write.
      assert.ok(calls < 100, `${calls} socket.write calls for 2,500 batches`);
    });
  });
});

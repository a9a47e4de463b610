// The gate on what a server may send an ioredis client. ioredis keeps a reply in memory until it is whole,
// and trusts its header: a server that answers INFO with `$999999999` and then streams bytes, or with
// `*1000000000` and elements without end, grows this process until it dies. Every chunk an ioredis socket
// receives is framed here first (ReplyScanner: RESP2 and RESP3, a few integers of state, nothing kept), before
// ioredis's own parser sees it; a reply past the connection's limit, or bytes that are not RESP, close the
// connection for good: the commands waiting fail with the reason, and no reconnect follows.
import type Redis from 'ioredis';
import { ReplyScanner, RespProtocolError } from '../protocol/respScanner';
import { groupDigits } from '../scenario/numberText';

// Not formatBytes (scenario/memory.ts): it would bring the command table into the ioredis load bundles.
const MiB = 1024 * 1024;

/** What one reply may hold, in bytes and in elements its aggregates declare (ioredis allocates an array by its header). */
export interface ReplyLimits {
  bytes: number;
  elements: number;
}

/** A control connection's: INFO, CLIENT LIST of 100k clients, COMMAND DOCS (~30k elements) and SLOWLOG are far below. */
export const CONTROL_REPLY_LIMITS: ReplyLimits = { bytes: 64 * MiB, elements: 1_000_000 };
/** A load connection's (the ioredis client path): a whole 512 MB bulk string (Redis's `proto-max-bulk-len`), an LRANGE of millions. */
export const LOAD_REPLY_LIMITS: ReplyLimits = { bytes: 1024 * MiB, elements: 16_000_000 };

export class ReplyRefusedError extends Error {
  override name = 'ReplyRefusedError';
}

type DataListener = (chunk: Buffer) => void;

export interface GuardOptions {
  /** How the server is named in the message (`127.0.0.1:6379`). */
  where: string;
  /**
   * After a refusal: false (a control connection) closes for good; true (a load connection) lets ioredis
   * reconnect, as the fast path reconnects after a protocol error: the commands waiting count as lost with the reason.
   */
  reconnect: boolean;
  /** Hears each refusal's message. */
  refused?: (message: string) => void;
}

/**
 * Frames every reply `redis` receives, on each socket it connects (reconnects included), and hands ioredis only
 * the chunks it accepts. A refusal closes the connection; the commands waiting fail with the reason.
 */
export function guardReplies(redis: Redis, limits: ReplyLimits, options: GuardOptions): void {
  const { where, refused } = options;
  redis.on('connect', () => {
    // ioredis's parser listens from its own connect handler on, which ran before this one: it now hears through the gate.
    const stream = redis.stream;
    const parsers = stream.rawListeners('data') as DataListener[];
    stream.removeAllListeners('data');
    const scanner = new ReplyScanner();
    // Bytes of the reply being read: at most the bytes since the last whole reply (a chunk that ended replies counts whole).
    let pending = 0;
    let closed = false;
    const refuse = (message: string) => {
      closed = true;
      refused?.(message);
      // ioredis's own flush (what it does on a close), with the reason; disconnect() then asks for no reconnect,
      // while a destroyed socket is reconnected by ioredis's retry strategy.
      (redis as unknown as { flushQueue(error: Error): void }).flushQueue(new ReplyRefusedError(message));
      stream.off('data', frame);
      if (options.reconnect) stream.destroy();
      else redis.disconnect();
    };
    const frame: DataListener = (chunk) => {
      if (closed) return;
      let completed: number;
      try {
        completed = scanner.scan(chunk);
      } catch (error) {
        if (error instanceof RespProtocolError) return refuse(`${where}: ${error.message}; the connection was closed`);
        throw error;
      }
      pending = completed > 0 ? (scanner.idle ? 0 : chunk.length) : pending + chunk.length;
      if (!scanner.idle && pending > limits.bytes) return refuse(`${where} sent a reply of more than ${limits.bytes / MiB} MiB, which RBench does not hold in memory; the connection was closed`);
      if (!scanner.idle && scanner.declaredElements > limits.elements)
        return refuse(`${where} sent a reply of more than ${groupDigits(limits.elements)} elements, which RBench does not hold in memory; the connection was closed`);
      for (const parse of parsers) parse.call(stream, chunk);
    };
    stream.on('data', frame);
  });
}

// The reply gate on ioredis clients. ioredis keeps a reply in memory until it is whole, and trusts its header:
// a server that answers INFO with `$500000000` and then streams bytes, or with `*1000000000` and elements
// without end, grows this process until it dies. Every chunk an ioredis socket receives is framed first
// (ReplyFramer, src/protocol/replyReader.ts: the limits every reader of whole replies keeps), and only the
// chunks it accepts reach ioredis's parser; a reply past the limits, or bytes that are not RESP, close the
// connection: the commands waiting fail with the reason.
import type Redis from 'ioredis';
import { ReplyFramer, ReplyLimitError, type ReplyLimits } from '../protocol/replyReader';
import { RespProtocolError } from '../protocol/respScanner';

export { CONTROL_REPLY_LIMITS, LOAD_REPLY_LIMITS } from '../protocol/replyReader';

export class ReplyRefusedError extends Error {
  override name = 'ReplyRefusedError';
}

export interface GuardOptions {
  /** How the server is named in the message (`127.0.0.1:6379`). */
  where: string;
  /**
   * After a refusal: false (a control connection) closes for good; true (a load connection) lets ioredis
   * reconnect, as the fast path reconnects after a protocol error: the commands waiting count as lost with the reason.
   */
  reconnect: boolean;
}

type DataListener = (chunk: Buffer) => void;

/**
 * Frames every reply `redis` receives, on each socket it connects (reconnects included), and hands ioredis only
 * the chunks it accepts. A refusal closes the connection; the commands waiting fail with the reason.
 */
export function guardReplies(redis: Redis, limits: ReplyLimits, options: GuardOptions): void {
  redis.on('connect', () => {
    // ioredis's parser listens from its own connect handler on, which ran before this one: it now hears through the gate.
    const stream = redis.stream;
    const parsers = stream.rawListeners('data') as DataListener[];
    stream.removeAllListeners('data');
    const framer = new ReplyFramer(limits);
    let closed = false;
    const refuse = (message: string) => {
      closed = true;
      // ioredis's own flush (what it does on a close), with the reason; disconnect() then asks for no reconnect,
      // while a destroyed socket is reconnected by ioredis's retry strategy.
      (redis as unknown as { flushQueue(error: Error): void }).flushQueue(new ReplyRefusedError(message));
      stream.off('data', frame);
      if (options.reconnect) stream.destroy();
      else redis.disconnect();
    };
    const frame: DataListener = (chunk) => {
      if (closed) return;
      try {
        framer.feed(chunk);
      } catch (error) {
        if (error instanceof ReplyLimitError) return refuse(`${options.where} ${error.message}; the connection was closed`);
        if (error instanceof RespProtocolError) return refuse(`${options.where}: ${error.message}; the connection was closed`);
        throw error;
      }
      for (const parse of parsers) parse.call(stream, chunk);
    };
    stream.on('data', frame);
  });
}

// The reply gate on ioredis clients. ioredis keeps a reply in memory until it is whole, and trusts its header:
// a server that answers INFO with `$500000000` and then streams bytes, or with `*1000000000` and elements
// without end, grows this process until it dies. ioredis hands every socket's bytes to its parser in one
// place, the DataHandler each connect makes; installReplyGate() puts the gate there, so every ioredis client
// passes it: ours (the control connection, the ioredis load path, each cluster node) and the ones ioredis makes
// itself (a cluster's slot refresh, the sentinel queries of its Sentinel mode, subscribers). Each chunk is
// framed first (ReplyFramer, src/protocol/replyReader.ts: the limits every reader of whole replies keeps), and
// only a chunk it accepts reaches the parser; a reply past the limits, or bytes that are not RESP, close the
// connection, and the commands waiting fail with the reason.
import type Redis from 'ioredis';
import { CONTROL_REPLY_LIMITS, ReplyFramer, ReplyLimitError, type ReplyLimits } from '../protocol/replyReader';
import { RespProtocolError } from '../protocol/respScanner';
import { installLateErrorSink } from './ioredisSockets';

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

interface Gate extends GuardOptions {
  limits: ReplyLimits;
}

/** The gate of each client RBench made; any other (one ioredis made itself) gets a control connection's. */
const gates = new WeakMap<object, Gate>();

/** Sets `redis`'s limits (before it connects), and makes sure the gate is in place. */
export function guardReplies(redis: Redis, limits: ReplyLimits, options: GuardOptions): void {
  installReplyGate();
  gates.set(redis, { limits, ...options });
}

type DataListener = (chunk: Buffer) => void;

interface GatedClient {
  stream: Redis['stream'];
  options?: { host?: string; port?: number; path?: string };
  flushQueue(error: Error): void;
  disconnect(): void;
}

function gateOf(redis: GatedClient): Gate {
  const known = gates.get(redis);
  if (known) return known;
  const { host = 'localhost', port = 6379, path } = redis.options ?? {};
  return { limits: CONTROL_REPLY_LIMITS, where: path !== undefined ? `unix:${path}` : `${host}:${port}`, reconnect: false };
}

/** Puts the framing between `redis`'s socket and the parser listener ioredis's DataHandler just added. */
function gateStream(redis: GatedClient, parse: DataListener): void {
  const stream = redis.stream;
  const gate = gateOf(redis);
  const framer = new ReplyFramer(gate.limits);
  let closed = false;
  const refuse = (message: string) => {
    closed = true;
    // ioredis's own flush (what it does on a close), with the reason; disconnect() then asks for no reconnect,
    // while a destroyed socket is reconnected by ioredis's retry strategy.
    redis.flushQueue(new ReplyRefusedError(message));
    stream.off('data', frame);
    if (gate.reconnect) stream.destroy();
    else redis.disconnect();
  };
  const frame: DataListener = (chunk) => {
    if (closed) return;
    try {
      framer.feed(chunk);
    } catch (error) {
      if (error instanceof ReplyLimitError) return refuse(`${gate.where} ${error.message}; the connection was closed`);
      if (error instanceof RespProtocolError) return refuse(`${gate.where}: ${error.message}; the connection was closed`);
      throw error;
    }
    parse.call(stream, chunk);
  };
  stream.removeListener('data', parse);
  // First, where ioredis put its parser (before its socket-timeout checks).
  stream.prependListener('data', frame);
}

let installed = false;

/** Replaces ioredis's DataHandler (its one reader of socket bytes) with one that reads through the gate. Idempotent. */
export function installReplyGate(): void {
  if (installed) return;
  // Every door that makes ioredis clients comes here first: their sockets' late errors get a listener too.
  installLateErrorSink();
  // The module object ioredis's connect handler reads `default` from at every connect (a require, not an
  // import: a bundler's import would copy the exports, and the connect handler would not see the change).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const module = require('ioredis/built/DataHandler') as { default: new (redis: GatedClient, options: unknown) => object };
  const IoredisDataHandler = module.default;
  class GatedDataHandler extends IoredisDataHandler {
    constructor(redis: GatedClient, options: unknown) {
      super(redis, options);
      // The listener the DataHandler prepended is now the socket's first 'data' listener.
      const parse = redis.stream.rawListeners('data')[0] as DataListener | undefined;
      if (parse === undefined) throw new Error('ioredis changed: its DataHandler added no data listener, so the reply gate cannot read before it');
      gateStream(redis, parse);
    }
  }
  module.default = GatedDataHandler;
  installed = true;
}

// Put in place by each place that makes ioredis clients, before its first connects (guardReplies, or
// installReplyGate before a Cluster): not when this module loads, so that a run, whose control connections
// are raw (src/engine/fast/rawControl.ts), never loads ioredis.

// What a run asks of a control connection (server facts, INFO samples, the counters around a load, CLIENT LIST,
// clean-up): commands and their replies, nothing of a client library. The run's own connections are the
// engine's raw sockets (src/engine/fast/rawControl.ts: no ioredis parsed at every start); the editor, capture
// and `rbench check` pass their ioredis client through ioredisLink (control.ts).
import type { CommandTally } from './commandTally';
import type { ConnectionOptions } from './types';

/** Arguments of a control command. */
export type ControlArg = string | number;

/** A command's outcome in a batch: the error reply (or failure) or the reply. */
export type BatchReply = [error: Error | null, reply: unknown];

export interface ControlLink {
  /**
   * Sends one command; resolves with its reply as ioredis gives it (bulk strings as strings, integers as numbers,
   * arrays, null), rejects with a ReplyError (`isReplyError`) on an error reply, or with the connection's failure.
   */
  call(command: string, ...args: ControlArg[]): Promise<unknown>;
  /** Several commands in one write, each one's [error, reply] in order; rejects only when the connection fails. */
  batch(commands: ControlArg[][]): Promise<BatchReply[]>;
  /** Closes politely (QUIT), or at once when the server is already gone. */
  close(): Promise<void>;
  /** Closes at once. */
  disconnect(): void;
}

/** Opens a control connection (a run's: the engine's raw one, src/engine/fast/rawControl.ts); throws RedisConnectionError. */
export type OpenControl = (options: ConnectionOptions, tally?: CommandTally) => Promise<ControlLink>;

/** A server's error reply (`-ERR …`): named as ioredis names its own, so `isReplyError` knows both. */
export class ControlReplyError extends Error {
  override name = 'ReplyError';
}

// A raw connection for a few commands outside the load, one at a time (SCAN for the count of the keys a run
// left): opened as a load connection is, to where the load goes and through the same gate, and each reply
// framed within the control limits before anything reads it (rawReply.ts).
import type { ConnectionOptions } from '../../redis/types';
import type { KeyVisitor } from '../../protocol/scanReply';
import { askRawBytes, askRawScan } from './rawReply';
import { openTargetSocket } from './primarySocket';

export interface RawCommands {
  /** The whole reply's bytes (bytes past its end may follow): rejects on timeout, close, bytes that are not RESP or a reply past the limits. */
  ask(args: string[]): Promise<Buffer>;
  /** SCAN `args`: each key of the reply to `onKey` as it comes, read in place; resolves with the next cursor. */
  scan(args: string[], onKey: KeyVisitor): Promise<string>;
  close(): void;
}

/** Opens the connection to the target (a Sentinel target's primary), named as the run's other connections. */
export async function openRawCommands(options: ConnectionOptions): Promise<RawCommands> {
  const connection = await openTargetSocket(options);
  const ask = (args: string[]) => askRawBytes(connection, args, options.connectTimeoutMs);
  try {
    // Other runs tell the run's connections apart by their name (src/runner/otherRuns.ts); a refusal leaves it unnamed.
    if (options.clientName !== undefined) await ask(['CLIENT', 'SETNAME', options.clientName]);
  } catch (error) {
    connection.socket.destroy();
    throw error;
  }
  return {
    ask,
    scan: (args, onKey) => askRawScan(connection, args, options.connectTimeoutMs, onKey),
    close: () => connection.socket.destroy(),
  };
}

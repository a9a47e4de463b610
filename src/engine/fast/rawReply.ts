// Commands and their whole replies on a raw connection, outside the load: ROLE after a Sentinel connect,
// CLUSTER SHARDS on a cluster node, SCAN for the count of the keys a run left. Every reply is framed within
// the control limits (replyReader.ts) before anything reads it; a SCAN reply by its own reader, which frames it
// as it reads its keys (protocol/scanReply.ts). The connection stays open and its bytes handler is released
// after each reply.
import { readRespValue, type RespValue } from '../../protocol/respValue';
import { CONTROL_REPLY_LIMITS, ReplyCollector } from '../../protocol/replyReader';
import type { RawConnection } from './connect';
import { encodeRespCommand } from '../../protocol/respEncode';
import { ScanReplyReader, type KeyVisitor } from '../../protocol/scanReply';

/** Sends `args` and resolves with the reply (an error reply as RespErrorReply); rejects on timeout, close or bytes that are not RESP. */
export async function askRaw(connection: RawConnection, args: string[], timeoutMs: number): Promise<RespValue> {
  return readRespValue(await askRawBytes(connection, args, timeoutMs))!.value;
}

/**
 * Sends `args` and resolves with the bytes of the whole reply, framed within the control limits (bytes past
 * the reply's end may follow); rejects on timeout, close, bytes that are not RESP or a reply past the limits.
 */
export function askRawBytes(connection: RawConnection, args: string[], timeoutMs: number): Promise<Buffer> {
  const received = new ReplyCollector(CONTROL_REPLY_LIMITS);
  // The chunk is only valid during the call: the collector keeps a copy.
  return askRawWith(connection, args, timeoutMs, (chunk) => received.feedBytes(chunk));
}

/**
 * Sends SCAN `args` and reads its reply as it comes (protocol/scanReply.ts: its own framer, within the control
 * limits), each key to `onKey`: resolves with the next cursor; rejects as askRawBytes does, or on a reply that is
 * not a SCAN reply.
 */
export function askRawScan(connection: RawConnection, args: string[], timeoutMs: number, onKey: KeyVisitor): Promise<string> {
  const reader = new ScanReplyReader(onKey, CONTROL_REPLY_LIMITS);
  return askRawWith(connection, args, timeoutMs, (chunk) => reader.feed(chunk));
}

/** Sends `args` and feeds each chunk to `read` until it returns the answer; rejects on timeout, close or what `read` throws. */
function askRawWith<T>(connection: RawConnection, args: string[], timeoutMs: number, read: (chunk: Buffer) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const onClose = () => done(() => reject(new Error(`the connection closed before the answer to ${args[0]}`)));
    const done = (finish: () => void) => {
      clearTimeout(timer);
      connection.socket.removeListener('close', onClose);
      connection.onBytes(() => {});
      finish();
    };
    const timer = setTimeout(() => done(() => reject(new Error(`no answer to ${args[0]} within ${timeoutMs} ms`))), timeoutMs);
    connection.socket.once('close', onClose);
    connection.onBytes((chunk, length) => {
      try {
        const answer = read(chunk.subarray(0, length));
        if (answer !== undefined) done(() => resolve(answer));
      } catch (error) {
        done(() => reject(error as Error));
      }
    });
    connection.socket.write(encodeRespCommand(args));
  });
}

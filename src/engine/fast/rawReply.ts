// One command and its whole reply on a raw connection, outside the load: ROLE after a Sentinel connect,
// CLUSTER SHARDS on a cluster node. The connection stays open and its bytes handler is released after.
import type { RespValue } from '../../protocol/respValue';
import { CONTROL_REPLY_LIMITS, ReplyCollector } from '../../protocol/replyReader';
import type { RawConnection } from './connect';
import { encodeRespCommand } from '../../protocol/respEncode';

/** Sends `args` and resolves with the reply (an error reply as RespErrorReply); rejects on timeout, close or bytes that are not RESP. */
export function askRaw(connection: RawConnection, args: string[], timeoutMs: number): Promise<RespValue> {
  return new Promise((resolve, reject) => {
    // One whole reply, within the limits every reader keeps.
    const received = new ReplyCollector(CONTROL_REPLY_LIMITS);
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
      // The chunk is only valid during the call: the collector keeps a copy.
      try {
        const [reply] = received.feed(chunk.subarray(0, length));
        if (reply !== undefined) done(() => resolve(reply));
      } catch (error) {
        done(() => reject(error as Error));
      }
    });
    connection.socket.write(encodeRespCommand(args));
  });
}

// One command and its whole reply on a raw connection, outside the load: ROLE after a Sentinel connect,
// CLUSTER SHARDS on a cluster node. The connection stays open and its bytes handler is released after.
import { readRespValue, type RespValue } from '../../protocol/respValue';
import type { RawConnection } from './connect';
import { encodeRespCommand } from '../../protocol/respEncode';

/** Sends `args` and resolves with the reply (an error reply as RespErrorReply); rejects on timeout, close or bytes that are not RESP. */
export function askRaw(connection: RawConnection, args: string[], timeoutMs: number): Promise<RespValue> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
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
      // The chunk is only valid during the call: keep a copy.
      received = Buffer.concat([received, chunk.subarray(0, length)]);
      try {
        const read = readRespValue(received);
        if (read) done(() => resolve(read.value));
      } catch (error) {
        done(() => reject(error as Error));
      }
    });
    connection.socket.write(encodeRespCommand(args));
  });
}

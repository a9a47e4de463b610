// Opens a fast-path connection to where the target is now: for a Sentinel target, the primary the
// sentinels name at this moment, checked with ROLE (during a failover a sentinel can still name the old
// primary for a moment, which by then may be a replica); for any other target, host:port as given.
import { setTimeout as sleep } from 'node:timers/promises';
import { address } from '../redis/errors';
import { readRespValue, RespErrorReply, type RespValue } from '../redis/respValue';
import { describePrimary, discoverPrimary } from '../redis/sentinel';
import type { ConnectionOptions } from '../redis/types';
import { openSocket, type RawConnection } from './connect';
import { LoadError } from './errors';
import { encodeRespCommand } from './resp/encode';

/** A primary found to be a replica is asked about again this many times, this long apart. */
const ROLE_ATTEMPTS = 5;
const ROLE_RETRY_MS = 200;

export async function openTargetSocket(options: ConnectionOptions): Promise<RawConnection> {
  const sentinel = options.sentinel;
  if (!sentinel) return openSocket(options);
  let lastRole = '';
  let lastAddress = '';
  for (let attempt = 0; attempt < ROLE_ATTEMPTS; attempt++) {
    if (attempt > 0) await sleep(ROLE_RETRY_MS);
    const primary = await discoverPrimary({ ...options, sentinel }).catch((error: Error) => Promise.reject(new LoadError(error.message)));
    const connection = await openSocket({ ...options, host: primary.host, port: primary.port });
    const role = await askRole(connection, options.connectTimeoutMs).catch((error: Error) => {
      connection.socket.destroy();
      return Promise.reject(new LoadError(`${describePrimary(sentinel, primary)}: ${error.message}`));
    });
    // A user whose ACL forbids ROLE cannot check: the sentinels' word stands.
    if (role === 'master' || role === undefined) return connection;
    connection.socket.destroy();
    lastRole = role;
    lastAddress = address(primary);
  }
  throw new LoadError(
    `the sentinels name ${lastAddress} as primary "${sentinel.name}", but it still says it is a ${lastRole} after ${ROLE_ATTEMPTS} tries: ` +
      'a failover may be stuck — check `SENTINEL MASTER name` and the sentinels\' logs',
  );
}

/** The first word of ROLE (`master`, `slave`), or undefined when the server refuses ROLE. */
function askRole(connection: RawConnection, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const done = (finish: () => void) => {
      clearTimeout(timer);
      connection.onBytes(() => {});
      finish();
    };
    const timer = setTimeout(() => done(() => reject(new Error(`no answer to ROLE within ${timeoutMs} ms`))), timeoutMs);
    connection.onBytes((chunk, length) => {
      // The chunk is only valid during the call: keep a copy.
      received = Buffer.concat([received, chunk.subarray(0, length)]);
      let reply: RespValue;
      try {
        const read = readRespValue(received);
        if (!read) return;
        reply = read.value;
      } catch (error) {
        done(() => reject(error as Error));
        return;
      }
      if (reply instanceof RespErrorReply) done(() => resolve(undefined));
      else if (Array.isArray(reply) && typeof reply[0] === 'string') done(() => resolve(reply[0] as string));
      else done(() => reject(new Error(`unexpected reply to ROLE: ${JSON.stringify(reply)}`)));
    });
    connection.socket.write(encodeRespCommand(['ROLE']));
  });
}

// Opens a fast-path connection to where the target is now: for a Sentinel target, the primary the
// sentinels name at this moment, checked with ROLE (during a failover a sentinel can still name the old
// primary for a moment, which by then may be a replica); for any other target, host:port as given.
import { setTimeout as sleep } from 'node:timers/promises';
import { NodeRefusedError } from '../../gates/network';
import { address } from '../../redis/errors';
import { RespErrorReply } from '../../protocol/respValue';
import { describePrimary, discoverPrimary } from '../../redis/sentinel';
import type { ConnectionOptions } from '../../redis/types';
import { openSocket, type RawConnection } from './connect';
import { LoadError } from '../errors';
import { askRaw } from './rawReply';

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
    // A primary the network gate refuses stays a NodeRefusedError: the load ends at once (fastConnection.ts).
    const primary = await discoverPrimary({ ...options, sentinel }).catch((error: Error) =>
      Promise.reject(error instanceof NodeRefusedError ? error : new LoadError(error.message)),
    );
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
      "a failover may be stuck — check `SENTINEL MASTER name` and the sentinels' logs",
  );
}

/** The first word of ROLE (`master`, `slave`), or undefined when the server refuses ROLE. */
async function askRole(connection: RawConnection, timeoutMs: number): Promise<string | undefined> {
  const reply = await askRaw(connection, ['ROLE'], timeoutMs);
  if (reply instanceof RespErrorReply) return undefined;
  if (Array.isArray(reply) && typeof reply[0] === 'string') return reply[0];
  throw new Error(`unexpected reply to ROLE: ${JSON.stringify(reply)}`);
}

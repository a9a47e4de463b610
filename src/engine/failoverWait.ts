// How long a load waits with every connection down before it calls the server lost. A crashed Sentinel
// primary is replaced only after the sentinels' `down-after-milliseconds` (30 s by default) plus a leader
// election and a promotion; giving up after the ordinary limit would end a run that was about to continue.
import { address } from '../redis/errors';
import { primaryDownAfterMs } from '../redis/sentinel';
import type { ConnectionOptions } from '../redis/types';

/** After the sentinels call the primary down: time for their election and the replica's promotion. */
export const FAILOVER_ALLOWANCE_MS = 10_000;

/**
 * The all-down limit for this target: `baseMs`, or for a Sentinel target `baseMs` + the sentinels'
 * down-after-milliseconds + the allowance (the base alone when no sentinel tells its setting).
 */
export async function serverLostLimitMs(connection: ConnectionOptions, baseMs: number): Promise<number> {
  if (!connection.sentinel) return baseMs;
  const downAfter = await primaryDownAfterMs({ ...connection, sentinel: connection.sentinel }).catch(() => undefined);
  return downAfter === undefined ? baseMs : baseMs + downAfter + FAILOVER_ALLOWANCE_MS;
}

/** The message of a load that gave up after `downForMs` with every connection down. */
export function serverLostMessage(connection: ConnectionOptions, downForMs: number, lastError: string): string {
  const seconds = Math.round(downForMs / 1000);
  const kept = '(results measured until then are kept)';
  if (!connection.sentinel) return `lost the connection to ${address(connection)} and could not reconnect for ${seconds} s: ${lastError} ${kept}`;
  const name = connection.sentinel.name;
  return (
    `lost the primary "${name}" and the sentinels named no reachable new primary within ${seconds} s: ${lastError} ${kept} — ` +
    `check \`SENTINEL MASTER ${name}\` (a failover needs a healthy replica and a quorum of sentinels) and the sentinels' logs`
  );
}

// Records in the run file which primary a Sentinel target's run measured: the one named at the start, and
// each new one after a failover the run followed (asked again after every load).
import { address } from '../redis/errors';
import { discoverPrimary } from '../redis/sentinel';
import type { ConnectionOptions } from '../redis/types';
import type { RunFile } from '../results/runFile';

/** Appends `host:port` unless it is the last primary recorded already. */
export function recordPrimary(target: RunFile['target'], primary: { host: string; port: number }): void {
  const primaries = (target.primaries ??= []);
  const at = address(primary);
  if (primaries[primaries.length - 1] !== at) primaries.push(at);
}

/** Asks the sentinels for the primary now and records it; no answer leaves the record as it is. */
export async function notePrimary(target: RunFile['target'], connection: ConnectionOptions): Promise<void> {
  if (!connection.sentinel) return;
  const primary = await discoverPrimary({ ...connection, sentinel: connection.sentinel }).catch(() => undefined);
  if (primary) recordPrimary(target, primary);
}

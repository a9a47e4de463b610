// Deletes a scenario's keys after a run: SCAN MATCH + UNLINK in batches, never KEYS (which blocks the server).
import type { ControlLink } from './controlLink';

export interface DeleteKeysOptions {
  /** SCAN COUNT hint: roughly how many keys each round trip looks at. */
  count?: number;
  /** Splits the keys of one SCAN round into groups each deleted by one UNLINK (a cluster node refuses keys of several slots in one command). */
  groupKeys?: (keys: string[]) => string[][];
  /** When set, only the matching keys it accepts are deleted (the run's own, src/runner/ownKeys.ts); the others are counted and left alone. */
  owns?: (key: string) => boolean;
}

export interface Cleanup {
  /** Keys deleted. */
  deleted: number;
  /** Distinct keys matching the pattern that `owns` refused: left on the server. */
  leftAlone: number;
}

/**
 * Deletes the keys matching `pattern` (SCAN MATCH syntax) in the connection's database, those `owns` accepts
 * when given, and returns how many were deleted and left alone. UNLINK frees the memory in the background, so large values do not stall the server.
 * Cluster: this covers one node, since SCAN only sees the node it is sent to (src/runner/clusterNodes.ts runs it on every master).
 */
export async function deleteKeysMatching(redis: ControlLink, pattern: string, options: DeleteKeysOptions = {}): Promise<Cleanup> {
  const count = options.count ?? 1000;
  let cursor = '0';
  let deleted = 0;
  // SCAN may return a key twice: each key left alone counts once.
  const leftAlone = new Set<string>();
  do {
    const [next, found] = (await redis.call('SCAN', cursor, 'MATCH', pattern, 'COUNT', count)) as [string, string[]];
    cursor = next;
    const owns = options.owns;
    const keys = owns ? found.filter((key) => owns(key) || (leftAlone.add(key), false)) : found;
    // UNLINK counts only keys that still existed, so the total stays exact.
    if (keys.length === 0) continue;
    for (const group of options.groupKeys ? options.groupKeys(keys) : [keys]) deleted += Number(await redis.call('UNLINK', ...group));
  } while (cursor !== '0');
  return { deleted, leftAlone: leftAlone.size };
}

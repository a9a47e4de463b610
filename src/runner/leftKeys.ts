// What a run left on a server that is not a throwaway one: the keys matching the scenario's own key patterns
// (those it writes), counted after the run and its `cleanup` with a bounded, read-only SCAN MATCH on the run's
// control connection (the target's seed, approved by the network gate). Nothing is deleted here: only the
// scenario's own `cleanup` line deletes.
import type Redis from 'ioredis';
import type { ScenarioPlan } from '../scenario/plan';
import type { LeftKeys } from '../results/runFile';
import { covers, hasLiteral, matchPattern } from './keyGlobs';
import { scenarioActions } from './safety';
import { DistinctKeys } from './distinctKeys';

/** SCAN calls per pattern at most (COUNT 1000 each: about a million keys looked at), and the time for all patterns. */
const MAX_SCANS = 1000;
const SCAN_COUNT = 1000;
const MAX_MS = 3000;
/** Patterns counted at most (a scenario naming more is unusual; the first ones say enough). */
const MAX_PATTERNS = 5;

/**
 * The scenario's own write patterns worth counting: with a literal part (`__key__` alone matches anybody's
 * keys), and not covered by another one listed (`bench:*` covers `bench:counter`).
 */
export function ownKeyPatterns(plan: ScenarioPlan): string[] {
  const patterns = scenarioActions(plan).writePatterns.filter((pattern) => hasLiteral(matchPattern(pattern)));
  const unique = [...new Set(patterns)];
  return unique
    .filter(
      (pattern, i) =>
        !unique.some(
          (other, j) => j !== i && covers(matchPattern(other), matchPattern(pattern)) && (j < i || !covers(matchPattern(pattern), matchPattern(other))),
        ),
    )
    .slice(0, MAX_PATTERNS);
}

/** Counts the keys matching each pattern, bounded (MAX_SCANS, MAX_MS): `capped` when it stopped early. */
export async function countLeftKeys(redis: Redis, patterns: readonly string[]): Promise<LeftKeys[]> {
  const deadline = performance.now() + MAX_MS;
  const counts: LeftKeys[] = [];
  for (const pattern of patterns) {
    // SCAN may return a key twice (a rehash in between): counted once.
    const keys = new DistinctKeys();
    let cursor = '0';
    let scans = 0;
    let capped = false;
    do {
      if (scans >= MAX_SCANS || performance.now() > deadline) {
        capped = true;
        break;
      }
      // Keys as the bytes of the reply, never decoded: only their count is kept.
      const [next, found] = await redis.scanBuffer(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT);
      scans++;
      cursor = next.toString('latin1');
      for (const key of found) if (keys.size < 1_000_000) keys.add(key);
    } while (cursor !== '0');
    if (keys.size > 0 || capped) counts.push({ pattern, count: keys.size, ...(capped ? { capped } : {}) });
  }
  return counts;
}

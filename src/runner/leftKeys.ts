// What a run left on a server that is not a throwaway one: the run's own keys (exactly the shapes it creates,
// src/runner/ownKeys.ts) under the scenario's key patterns (those it writes), counted after the run and its `cleanup` with a bounded, read-only SCAN MATCH on a raw
// connection opened as the load's are (the target's seed, or the primary its sentinels name, through the network
// gate; each reply framed within the control limits). Each key is read where it lies in the reply's bytes
// (src/protocol/scanReply.ts, src/runner/ownKeyCount.ts): with 100k keys on the server, ioredis's parse of the
// same replies cost every run ~90 ms of CPU. Nothing is deleted here: only the scenario's own `cleanup` line deletes.
import { openRawCommands } from '../engine';
import type { ConnectionOptions } from '../redis/types';
import type { ScenarioPlan } from '../scenario/plan';
import type { LeftKeys } from '../results/runFile';
import { covers, hasLiteral, matchPattern } from './keyGlobs';
import { scenarioActions } from './safety';
import { DistinctKeys } from './distinctKeys';
import { OwnKeyCount } from './ownKeyCount';
import type { KeyShape } from './ownKeys';

/** SCAN calls per pattern at most (COUNT 1000 each: about a million keys looked at), and the time for all patterns. */
const MAX_SCANS = 1000;
const SCAN_COUNT = 1000;
const MAX_MS = 3000;
/** Patterns counted at most (a scenario naming more is unusual; the first ones say enough). */
const MAX_PATTERNS = 5;
/**
 * A run's report stops past this many of its own keys per pattern ("at least 1,001"): the advice (a `cleanup` line)
 * is the same past it, and each key counted is CPU every run pays in a fresh process (~2 µs a key before V8 has
 * optimised the reader: 10,000 keys were ~20 ms of a 100-request run's ~200, issue 46).
 */
export const REPORTED_KEYS = 1_000;

/** What countLeftKeys counts of the keys a pattern matches. */
export interface LeftKeysCount {
  /** Only the keys of these shapes (the run's own, src/runner/ownKeys.ts): someone's `bench:alice` is not the run's to report. */
  owns?: readonly KeyShape[];
  /** Stop, `capped`, once a pattern has more than this many (distinct) keys counted: exactly this many may be all. */
  mostKeys?: number;
}

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

/** The run's own key shapes (src/runner/ownKeys.ts): of the keys a pattern matches, only these are counted. */
export function ownKeyShapes(plan: ScenarioPlan): KeyShape[] {
  return scenarioActions(plan).ownKeys ?? [];
}

/**
 * Counts the keys matching each pattern (of `count.owns`' shapes when given), bounded (MAX_SCANS, MAX_MS,
 * `count.mostKeys`): `capped` when it stopped early. Rejects when the server cannot be asked or answers otherwise
 * than SCAN does.
 */
export async function countLeftKeys(options: ConnectionOptions, patterns: readonly string[], count: LeftKeysCount = {}): Promise<LeftKeys[]> {
  const { owns, mostKeys } = count;
  const deadline = performance.now() + MAX_MS;
  const counts: LeftKeys[] = [];
  const server = await openRawCommands(options);
  try {
    for (const pattern of patterns) {
      // SCAN may return a key twice (a rehash in between): counted once.
      const keys = owns ? new OwnKeyCount(owns) : new DistinctKeys();
      const addKey = (bytes: Uint8Array, start: number, end: number) => {
        // `added`, not `size`: the distinct count sorts what it holds.
        if (keys.added < 1_000_000) keys.add(bytes, start, end);
      };
      let cursor = '0';
      let scans = 0;
      let capped = false;
      do {
        if (scans >= MAX_SCANS || performance.now() > deadline) {
          capped = true;
          break;
        }
        cursor = await server.scan(['SCAN', cursor, 'MATCH', pattern, 'COUNT', String(SCAN_COUNT)], addKey);
        scans++;
        if (mostKeys !== undefined && cursor !== '0' && keys.size > mostKeys) {
          capped = true;
          break;
        }
      } while (cursor !== '0');
      if (keys.size > 0 || capped) counts.push({ pattern, count: keys.size, ...(capped ? { capped } : {}) });
    }
  } finally {
    server.close();
  }
  return counts;
}

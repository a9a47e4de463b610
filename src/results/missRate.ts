// The miss rate of a read's result: one rule for the table, the thresholds and the warning (src/results/hitsMisses.ts).
import type { CommandResult } from '../engine';

/**
 * Misses over the replies that were not errors (0…1) — for a per-key read (MGET), the keys not found over the keys
 * asked (`lookups`); undefined for a row that counts none (no read, an old run file) and for one that asked no key
 * (every transaction it was queued in was discarded): no lookups is no rate, not 0 %.
 */
export function missRateOf(result: Pick<CommandResult, 'misses' | 'requests' | 'errors' | 'lookups'>): number | undefined {
  if (result.misses === undefined) return undefined;
  const asked = lookupsOf(result);
  return asked > 0 ? Math.min(1, result.misses / asked) : undefined;
}

/** What a row's misses are counted against: its keys asked (per-key reads), else its replies that were not errors. */
export function lookupsOf(result: Pick<CommandResult, 'requests' | 'errors' | 'lookups'>): number {
  return result.lookups ?? result.requests - result.errors;
}

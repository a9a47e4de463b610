// The miss rate of a read's result: one rule for the table, the thresholds and the warning (src/results/hitsMisses.ts).
import type { CommandResult } from '../engine';

/** Misses over the replies that were not errors (0…1); undefined for a row that counts none (no read, an old run file). */
export function missRateOf(result: Pick<CommandResult, 'misses' | 'requests' | 'errors'>): number | undefined {
  if (result.misses === undefined) return undefined;
  const answered = result.requests - result.errors;
  return answered > 0 ? result.misses / answered : 0;
}

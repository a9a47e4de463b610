// Hits and misses of a read (scenario/replyMisses.ts decides which replies miss; the engine counts them): the
// miss rate, hits/s and misses/s of a result row, its table columns, and the warning when a read mostly missed.
import type { CommandResult } from '../engine';
import { formatOps } from './format';
import type { ResultRow, TableColumn } from './rows';
import { lookupsOf, missRateOf } from './missRate';

export { missRateOf } from './missRate';

/** Above this share of misses a read test measured an empty key space more than the server: the run says so. */
export const MOSTLY_MISSES = 0.5;

/**
 * Hits and misses per second: the row's throughput split by its share of each (errors are neither); for a per-key
 * read (MGET), keys found and not found per second.
 */
export function hitMissRates(row: Pick<ResultRow, 'opsPerSec' | 'requests' | 'errors' | 'misses' | 'lookups'>): { hits: number; misses: number } | undefined {
  if (row.misses === undefined || row.requests <= 0) return undefined;
  const hits = Math.max(0, lookupsOf(row) - row.misses);
  return { hits: (row.opsPerSec * hits) / row.requests, misses: (row.opsPerSec * row.misses) / row.requests };
}

/** `12.3 %`, `0.04 %`: a miss rate for a table cell or a line. */
export function formatMissRate(rate: number): string {
  const percent = rate * 100;
  return `${percent > 0 && percent < 0.1 ? percent.toFixed(2) : percent.toFixed(1)} %`;
}

/** The table's hits/s, misses/s and miss-rate columns: present only when some row is a read that counted them. */
export function hitMissColumns(rows: readonly ResultRow[]): TableColumn[] {
  if (!rows.some((row) => row.misses !== undefined)) return [];
  const rate = (row: ResultRow, which: 'hits' | 'misses') => {
    const rates = hitMissRates(row);
    return rates ? formatOps(rates[which]) : '';
  };
  return [
    { header: 'hits/s', align: 'right', cell: (r) => rate(r, 'hits') },
    { header: 'misses/s', align: 'right', cell: (r) => rate(r, 'misses') },
    { header: 'miss rate', align: 'right', cell: (r) => (r.missRate !== undefined ? formatMissRate(r.missRate) : '') },
  ];
}

/**
 * One warning per read command that mostly missed in some measured test of the run (its highest miss rate):
 * an unfilled key space makes a read look fast, since the server answers nil without touching a value.
 */
export function missWarnings(loads: readonly { test: string; measured: boolean; commands: CommandResult[] }[]): string[] {
  const worst = new Map<string, number>();
  for (const load of loads) {
    if (!load.measured) continue;
    for (const command of load.commands) {
      const rate = missRateOf(command);
      if (rate !== undefined && rate > MOSTLY_MISSES && rate > (worst.get(command.command) ?? 0)) worst.set(command.command, rate);
    }
  }
  return [...worst].map(
    ([command, rate]) =>
      `${command} missed ${Math.round(rate * 100)} % of its keys: the key space was not filled, so the figures measure empty replies (nil), not reads of values — add a prefill phase that writes the keys first (docs/rbench-format.md, Phases and prefill), or say the misses are meant with \`expect ${command} miss-rate > 50%\`.`,
  );
}

// `rbench run -q` / `--brief`: one line per test, as `redis-benchmark -q` prints: the test, its throughput,
// p50/p99, errors, the verdict's short label and how long it ran. The full table, the verdict sentences and
// the per-load progress lines are left out; the header, the server line and the end line stay.
import { verdictShort } from './bottleneck';
import { formatDuration, formatMs, formatOps, formatOpsShort } from './format';
import { valuesPerRequest } from './keyLength';
import { findPhase, resultRows, type ResultRow } from './rows';
import type { RunFile } from './runFile';
import { groupDigits } from '../scenario/numberText';

/** The cells of a test's line: name, ops/s (with values/s for a multi-value command), p50, p99, errors, limit, time. */
function briefCells(run: RunFile, row: ResultRow): string[] {
  const test = findPhase(run, row.point, row.phase)?.tests.find((candidate) => candidate.name === row.test);
  const values = valuesPerRequest(test);
  return [
    `${row.point ? `${row.point} ` : ''}${row.test}:`,
    `${formatOps(row.opsPerSec)} ops/s${values > 1 ? ` (${formatOpsShort(row.opsPerSec * values)} values/s)` : ''}`,
    `p50 ${formatMs(row.p50Us)} ms`,
    `p99 ${formatMs(row.p99Us)} ms`,
    `${groupDigits(row.errors)} error${row.errors === 1 ? '' : 's'}`,
    row.bottleneck ? `limit: ${verdictShort(row.bottleneck)}` : '',
    row.durationMs !== undefined ? formatDuration(row.durationMs) : '',
  ];
}

/** One line per measured test (its total; a mix's commands are the full table's), the columns aligned. */
export function briefLines(run: RunFile): string[] {
  const cells = resultRows(run, { commands: false }).map((row) => briefCells(run, row));
  const widths = cells.reduce<number[]>((most, row) => row.map((cell, i) => Math.max(most[i] ?? 0, cell.length)), []);
  // Names and labels read left-aligned, figures right-aligned (so their digits line up).
  const left = new Set([0, 5]);
  return cells.map((row) =>
    row
      .map((cell, i) => (left.has(i) ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}

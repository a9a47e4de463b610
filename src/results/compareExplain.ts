// Where a latency change went, for the comparison (the CLI, Markdown and the compare panel alike): the
// client's p99 beside the server's own time per call and each run's bottleneck verdict, so that "p99 rose
// 40 %, server time per call unchanged: the round trip changed" reads off the comparison instead of being
// guessed.
import { deltaOf, type Comparison, type ComparisonRow, type Delta } from './compare';
import { formatLatency, formatMicrosChange } from './format';

const ROUND_TRIP = 'the round trip, queueing or the client changed';

/** What the two changes say together: which side moved the client's p99. */
function reading(p99: Delta, server: Delta): string {
  if (p99.verdict === 'noise') return "the server's own time changed, not what the client saw";
  if (server.verdict === 'noise' || p99.absolute > 0 !== server.absolute > 0) return ROUND_TRIP;
  // Both moved the same way: the server's share of the client's change, in µs.
  if (Math.abs(server.absolute) >= Math.abs(p99.absolute) / 2) return "the server's own time accounts for most of it";
  return `the server's time accounts for ${formatLatency(Math.abs(server.absolute))} of the ${formatLatency(Math.abs(p99.absolute))}; the rest is round trip, queueing or client`;
}

const moved = (delta: Delta) =>
  delta.verdict === 'noise' ? 'unchanged' : `${delta.absolute > 0 ? 'rose' : 'fell'} ${Math.abs(delta.percent ?? 0).toFixed(1)}%`;

/**
 * Where one test's time went in one run against the reference, in parts: the panel shows the figures as a
 * table row and the reading as a short sentence; the CLI and Markdown join them into one line.
 */
export interface TimeRow {
  /** The test (with its point, and the run's label when more than two runs are compared). */
  test: string;
  /** `rose 40.0%`, `fell 3.1%`, `unchanged`. */
  p99?: string;
  server?: string;
  /** The server's time per call, reference → this run: `12.0 → 12.2 µs`. */
  serverFigures?: string;
  /** Which side moved the client's p99, in words. */
  reading?: string;
  /** The verdict changed: from, to, and why the new one holds. */
  bottleneck?: { from: string; to: string; why: string };
}

function rowParts(row: ComparisonRow, labels: string[], noisePercent: number): TimeRow[] {
  const [reference, ...others] = row.cells;
  if (!reference || row.command !== 'total') return [];
  const out: TimeRow[] = [];
  others.forEach((cell, i) => {
    if (!cell) return;
    const entry: TimeRow = { test: `${row.point ? `${row.point} ` : ''}${row.test}${labels.length > 2 ? ` (${labels[i + 1]})` : ''}` };
    const p99 = cell.metrics.p99.delta;
    if (p99 && reference.serverUsPerCall !== undefined && cell.serverUsPerCall !== undefined) {
      // Server time per call is a latency: lower is better, as for p50.
      const server = deltaOf('p50', { value: reference.serverUsPerCall }, { value: cell.serverUsPerCall }, noisePercent);
      if (p99.verdict !== 'noise' || server.verdict !== 'noise') {
        entry.p99 = moved(p99);
        entry.server = moved(server);
        entry.serverFigures = `${formatMicrosChange(reference.serverUsPerCall, cell.serverUsPerCall).join(' → ')} µs`;
        entry.reading = reading(p99, server);
      }
    }
    if (reference.bottleneck && cell.bottleneck && reference.bottleneck.kind !== cell.bottleneck.kind) {
      entry.bottleneck = { from: reference.bottleneck.kind, to: cell.bottleneck.kind, why: cell.bottleneck.why };
    }
    if (entry.p99 || entry.bottleneck) out.push(entry);
  });
  return out;
}

/** Each test total and run against the reference whose p99, server time or verdict moved. */
export function timeRows(comparison: Comparison): TimeRow[] {
  const labels = comparison.runs.map((run) => run.label);
  return comparison.rows.flatMap((row) => rowParts(row, labels, comparison.noisePercent));
}

/** One note per test total and run against the reference: the p99 change and the server's, then what that means; a changed verdict too. */
export function timeNotes(comparison: Comparison): string[] {
  return timeRows(comparison).map((row) => {
    const parts: string[] = [];
    if (row.p99) parts.push(`p99 ${row.p99}, server time per call ${row.server} (${row.serverFigures}): ${row.reading}`);
    if (row.bottleneck) parts.push(`bottleneck ${row.bottleneck.from} → ${row.bottleneck.to} (${row.bottleneck.why})`);
    return `${row.test}: ${parts.join('; ')}`;
  });
}

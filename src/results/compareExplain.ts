// Where a latency change went, for the comparison (the CLI, Markdown and the compare panel alike): the
// client's p99 beside the server's own time per call and each run's bottleneck verdict, so that "p99 rose
// 40 %, server time per call unchanged: the round trip changed" reads off the comparison instead of being
// guessed.
import { deltaOf, type Comparison, type ComparisonRow, type Delta } from './compare';
import { formatLatency, formatMicrosChange } from './format';

const ROUND_TRIP = ': the round trip, queueing or the client changed';

/** What the two changes say together: which side moved the client's p99. */
function reading(p99: Delta, server: Delta): string {
  if (p99.verdict === 'noise') return ": the server's own time changed, not what the client saw";
  if (server.verdict === 'noise' || p99.absolute > 0 !== server.absolute > 0) return ROUND_TRIP;
  // Both moved the same way: the server's share of the client's change, in µs.
  if (Math.abs(server.absolute) >= Math.abs(p99.absolute) / 2) return ": the server's own time accounts for most of it";
  return `: the server's time accounts for ${formatLatency(Math.abs(server.absolute))} of the ${formatLatency(Math.abs(p99.absolute))}; the rest is round trip, queueing or client`;
}

const moved = (delta: Delta) =>
  delta.verdict === 'noise' ? 'unchanged' : `${delta.absolute > 0 ? 'rose' : 'fell'} ${Math.abs(delta.percent ?? 0).toFixed(1)}%`;

/** One note per test total and run against the reference: the p99 change and the server's, then what that means; a changed verdict too. */
function rowNotes(row: ComparisonRow, labels: string[], noisePercent: number): string[] {
  const [reference, ...others] = row.cells;
  if (!reference || row.command !== 'total') return [];
  const notes: string[] = [];
  others.forEach((cell, i) => {
    if (!cell) return;
    const who = `${row.point ? `${row.point} ` : ''}${row.test}${labels.length > 2 ? ` (${labels[i + 1]})` : ''}`;
    const parts: string[] = [];
    const p99 = cell.metrics.p99.delta;
    if (p99 && reference.serverUsPerCall !== undefined && cell.serverUsPerCall !== undefined) {
      // Server time per call is a latency: lower is better, as for p50.
      const server = deltaOf('p50', { value: reference.serverUsPerCall }, { value: cell.serverUsPerCall }, noisePercent);
      if (p99.verdict !== 'noise' || server.verdict !== 'noise') {
        const figures = `${formatMicrosChange(reference.serverUsPerCall, cell.serverUsPerCall).join(' → ')} µs`;
        parts.push(`p99 ${moved(p99)}, server time per call ${moved(server)} (${figures})${reading(p99, server)}`);
      }
    }
    if (reference.bottleneck && cell.bottleneck && reference.bottleneck.kind !== cell.bottleneck.kind) {
      parts.push(`bottleneck ${reference.bottleneck.kind} → ${cell.bottleneck.kind} (${cell.bottleneck.why})`);
    }
    if (parts.length > 0) notes.push(`${who}: ${parts.join('; ')}`);
  });
  return notes;
}

export function timeNotes(comparison: Comparison): string[] {
  const labels = comparison.runs.map((run) => run.label);
  return comparison.rows.flatMap((row) => rowNotes(row, labels, comparison.noisePercent));
}

// Where a latency change went, for the comparison: the client's p99 beside the server's own time per call
// and each run's bottleneck verdict, so that "p99 rose 40 %, server time per call unchanged: the round trip
// changed" reads off the comparison instead of being guessed.
import type { Comparison, ComparisonRow } from './compare';
import { formatUsPerCall } from './format';

function change(before: number, after: number): number | null {
  return before !== 0 ? ((after - before) / before) * 100 : null;
}

const signed = (percent: number) => `${Math.abs(percent).toFixed(1)} %`;

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
    if (p99 && p99.verdict !== 'noise' && p99.percent !== null && reference.serverUsPerCall !== undefined && cell.serverUsPerCall !== undefined) {
      const server = change(reference.serverUsPerCall, cell.serverUsPerCall);
      const figures = `${formatUsPerCall(reference.serverUsPerCall)} → ${formatUsPerCall(cell.serverUsPerCall)} µs`;
      const p99Text = `p99 ${p99.percent > 0 ? 'rose' : 'fell'} ${signed(p99.percent)}`;
      if (server === null || Math.abs(server) < noisePercent) {
        parts.push(`${p99Text}, server time per call unchanged (${figures}): the round trip changed`);
      } else {
        const same = server > 0 === p99.percent > 0;
        parts.push(
          `${p99Text}, server time per call ${server > 0 ? 'rose' : 'fell'} ${signed(server)} (${figures}): ${same ? "the server's own work changed" : 'the round trip changed more than the server'}`,
        );
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

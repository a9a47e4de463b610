// The comparison's server side: per test and run, the server's time per call and the bottleneck verdict
// beside the client's figures (the sentences saying which side moved are src/results/compareExplain's, and
// foreign load is among the comparison's differences). Older run files have none of it: no lines. Pure:
// bundled into the webview and unit-tested.
import { deltaOf, plansMatch, verdictWhenPlansDiffer, type Comparison, type ComparisonRow, type Delta, type MetricCell } from '../results/compare';
import { formatChange } from '../results/compareFormat';
import type { RunFile } from '../results/runFile';
import { loadOf } from './explainModel';
import { serverTimeAt, usText } from './serverTime';
import { verdictShort } from './verdictLabels';

export interface ServerCell {
  text: string;
  change?: string;
  verdict?: Delta['verdict'];
  /** A tooltip: the verdict's line, or the spread over repeats. */
  note?: string;
}

/** A line of the comparison table: `srv µs/call` or `bottleneck`, one cell per run. */
export interface ServerLine {
  row: ComparisonRow;
  label: 'srv µs/call' | 'bottleneck';
  cells: ServerCell[];
}

function serverCell(run: RunFile, row: ComparisonRow): MetricCell | undefined {
  const point = run.points.find((p) => p.label === row.point);
  const spread = point && serverTimeAt(point, row.phase, row.test);
  return spread ? { value: spread.median, ...(spread.runs > 1 ? { spread } : {}) } : undefined;
}

/** The server's µs per call of each run at a row, with the change against the reference (lower is better, as a latency). */
function serverTimes(runs: readonly RunFile[], row: ComparisonRow, noisePercent: number): { cell?: MetricCell; delta?: Delta }[] {
  const cells = runs.map((run, i) => (row.cells[i] ? serverCell(run, row) : undefined));
  const reference = cells[0];
  return cells.map((cell, i) => ({ cell, ...(i > 0 && cell && reference ? { delta: deltaOf('p50', reference, cell, noisePercent) } : {}) }));
}

export function serverLines(runs: readonly RunFile[], comparison: Comparison, row: ComparisonRow): ServerLine[] {
  if (row.command !== 'total') return [];
  const lines: ServerLine[] = [];
  const times = serverTimes(runs, row, comparison.noisePercent);
  // The same rule as the client's figures: different plans, different loads.
  if (!plansMatch(comparison)) for (const t of times) if (t.delta) t.delta = { ...t.delta, verdict: verdictWhenPlansDiffer(t.delta.verdict) };
  if (times.some((t) => t.cell)) {
    lines.push({
      row,
      label: 'srv µs/call',
      cells: times.map(({ cell, delta }) =>
        cell
          ? {
              text: usText(cell.value),
              ...(delta ? { change: formatChange('p50', delta), verdict: delta.verdict } : {}),
              ...(cell.spread ? { note: `${usText(cell.spread.min)}–${usText(cell.spread.max)} µs over repeats` } : {}),
            }
          : { text: '—' },
      ),
    });
  }
  const verdicts = runs.map((run, i) => (row.cells[i] ? loadOf(run, row.point, row.phase, row.test)?.bottleneck : undefined));
  if (verdicts.some(Boolean))
    lines.push({
      row,
      label: 'bottleneck',
      cells: verdicts.map((v) => (v ? { text: verdictShort(v), note: v.why } : { text: '—' })),
    });
  return lines;
}

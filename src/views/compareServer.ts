// The comparison's server side: per test and run, the server's time per call and the bottleneck verdict
// beside the client's figures, a sentence per changed test that says which side moved ("p99 rose 40.0%,
// server time per call unchanged"), and runs the server ran foreign load in. Older run files have none of
// it: no lines. Pure: bundled into the webview and unit-tested.
import { deltaOf, type Comparison, type ComparisonRow, type Delta, type MetricCell } from '../results/compare';
import { formatChange } from '../results/compareFormat';
import { formatLatency } from '../results/format';
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

/**
 * `SET, 11-30 00:05:00 against 11-30 00:03:11: p99 rose 40.0%, server time per call unchanged (12.0 → 12.3 µs): the
 * round trip, queueing or the client changed` — for each test and run whose p99 or server time moved.
 */
export function changeSentences(runs: readonly RunFile[], comparison: Comparison, testLabel: (row: ComparisonRow) => string): string[] {
  const out: string[] = [];
  for (const row of comparison.rows) {
    if (row.command !== 'total') continue;
    const times = serverTimes(runs, row, comparison.noisePercent);
    const reference = times[0].cell;
    row.cells.forEach((cell, i) => {
      const p99 = cell?.metrics.p99.delta;
      const server = times[i].delta;
      const value = times[i].cell;
      if (i === 0 || !p99 || !server || !reference || !value) return;
      if (p99.verdict === 'noise' && server.verdict === 'noise') return;
      const because = reading(p99, server);
      out.push(
        `${testLabel(row)}, ${comparison.runs[i].label} against ${comparison.runs[0].label}: p99 ${moved(p99)}, server time per call ${moved(server)} (${usText(reference.value)} → ${usText(value.value)} µs)${because}`,
      );
    });
  }
  return out;
}

/** `11-30 00:05:00: the server ran 38,000 commands this run did not send`: a run whose numbers are not a clean measurement. */
export function foreignSentences(runs: readonly RunFile[], labels: readonly string[]): string[] {
  return runs.flatMap((run, i) => {
    const calls = run.points.reduce((sum, p) => sum + p.repeats.flat().reduce((s, l) => s + (l.server?.foreign?.calls ?? 0), 0), 0);
    return calls > 0
      ? [`${labels[i]}: the server ran ${calls.toLocaleString('en-US')} command${calls === 1 ? '' : 's'} this run did not send (another client loaded it)`]
      : [];
  });
}

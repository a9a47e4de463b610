// Comparing runs: aligns the result rows of several runs, computes each run's change against the first
// (the reference) and classifies it as better, worse or noise. What differs between the runs besides the
// numbers is in compareDifferences, the regression gate in regression, the text, Markdown and CSV output
// in compareFormat (each imported from its own file). Plain data in, plain data out (no `vscode`): the CLI prints it, the editor's comparison
// view renders it.
import type { Bottleneck, CommandResult, LoadStatus } from '../engine';
import type { ExpectMetric } from '../scenario/plan';
import { formatMs, formatOps } from './format';
import { machineOf, runDifferences, serverOf, type Difference } from './compareDifferences';
import { breakdownRows, nodeResult } from './breakdownRows';
import type { ResultRow } from './rows';
import type { RunFile, Spread } from './runFile';
import { spreadOf } from './summary';
import { metricValue } from './thresholds';

/** The numbers compared for every row; named as `expect` lines name them. */
export type ComparedMetric = Extract<ExpectMetric, 'ops' | 'p50' | 'p90' | 'p99' | 'p99.9' | 'max' | 'errors'>;

export const COMPARED_METRICS: readonly ComparedMetric[] = ['ops', 'p50', 'p90', 'p99', 'p99.9', 'max', 'errors'];

interface MetricInfo {
  /** Column or line label. */
  label: string;
  /** Throughput: up is better. Latencies and errors: down is better. */
  higherIsBetter: boolean;
  /** Where the result table keeps the value. */
  field: 'opsPerSec' | 'p50Us' | 'p90Us' | 'p99Us' | 'p999Us' | 'maxUs' | 'errors';
  format: (value: number) => string;
}

const errorCount = (value: number) => value.toLocaleString('en-US');

export const METRIC_INFO: Record<ComparedMetric, MetricInfo> = {
  ops: { label: 'ops/s', higherIsBetter: true, field: 'opsPerSec', format: formatOps },
  p50: { label: 'p50 ms', higherIsBetter: false, field: 'p50Us', format: formatMs },
  p90: { label: 'p90 ms', higherIsBetter: false, field: 'p90Us', format: formatMs },
  p99: { label: 'p99 ms', higherIsBetter: false, field: 'p99Us', format: formatMs },
  'p99.9': { label: 'p99.9 ms', higherIsBetter: false, field: 'p999Us', format: formatMs },
  max: { label: 'max ms', higherIsBetter: false, field: 'maxUs', format: formatMs },
  errors: { label: 'errors', higherIsBetter: false, field: 'errors', format: errorCount },
};

export const DEFAULT_NOISE_PERCENT = 5;

/** `differs`: a change between runs whose plans differ: a difference between two loads, neither better nor worse. */
export type Verdict = 'better' | 'worse' | 'noise' | 'differs';

export interface Delta {
  /** value − reference, in the metric's unit (ops/s, µs, count). */
  absolute: number;
  /** The change in % of the reference; null when the reference is 0 and the value is not. */
  percent: number | null;
  verdict: Verdict;
}

export interface MetricCell {
  /** The value the result table shows: ops/s (median over repeats for a test's total), latencies in µs, errors. */
  value: number;
  /** Over repeats (only when the point ran more than once). */
  spread?: Spread;
  /** Against the reference run (absent for the reference itself and when the reference lacks the row). */
  delta?: Delta;
}

export interface ComparisonCell {
  requests: number;
  /** How many repeats measured this row. */
  repeats: number;
  status: LoadStatus;
  metrics: Record<ComparedMetric, MetricCell>;
  /** The server's time per call (µs, INFO commandstats), when the server was read. */
  serverUsPerCall?: number;
  /** A test's total: what set its pace. */
  bottleneck?: Bottleneck;
}

/** One aligned row: a test's total, or one command of a mix, at one point and phase. */
export interface ComparisonRow {
  point: string;
  phase: string;
  test: string;
  /** `total`, or the command label inside a mix. */
  command: string;
  /** One per run, in the order of `Comparison.runs`; null where that run has no such row (a gap). */
  cells: (ComparisonCell | null)[];
}

export interface ComparedRun {
  /** `#1`, `#2`, … (or the names the caller gave). */
  label: string;
  id: string;
  scenario: string;
  file?: string;
  startedAt: string;
  status: LoadStatus;
  error?: string;
  client: RunFile['client'];
  target: string;
  /** `redis 7.2.4 standalone`, or undefined when the server was not read. */
  server?: string;
  machine: string;
}

export interface Comparison {
  noisePercent: number;
  /** The first run is the reference. */
  runs: ComparedRun[];
  /** What differs besides the numbers; read before the table. */
  differences: Difference[];
  rows: ComparisonRow[];
}

export interface CompareOptions {
  /** Changes smaller than this (in %) are noise. Default 5. */
  noisePercent?: number;
  /** Labels for the runs (e.g. file names); default `#1`, `#2`, … */
  labels?: string[];
}

// ---------------------------------------------------------------------------------------------------
// Rows and deltas

const rowKey = (row: Pick<ResultRow, 'point' | 'phase' | 'test' | 'command'>) => [row.point, row.phase, row.test, row.command].join('\u0000');

/** The results of one row in every repeat (for the spread), found again in the run's repeats. */
function repeatResults(run: RunFile, row: ResultRow): CommandResult[] {
  const point = run.points.find((p) => p.label === row.point);
  if (!point) return [];
  const results: CommandResult[] = [];
  for (const loads of point.repeats) {
    const load = loads.find((l) => l.phase === row.phase && l.test === row.test);
    const result =
      load &&
      (row.command === 'total' ? load.total : row.detail === 'node' ? nodeResult(load, row.command) : load.commands.find((c) => c.command === row.command));
    if (result) results.push(result);
  }
  return results;
}

function cellOf(run: RunFile, row: ResultRow): ComparisonCell {
  const repeats = repeatResults(run, row);
  const metrics = {} as Record<ComparedMetric, MetricCell>;
  for (const metric of COMPARED_METRICS) {
    const cell: MetricCell = { value: row[METRIC_INFO[metric].field] };
    if (repeats.length > 1) cell.spread = spreadOf(repeats.map((result) => metricValue(result, metric)));
    metrics[metric] = cell;
  }
  return {
    requests: row.requests,
    repeats: Math.max(1, repeats.length),
    status: row.status,
    metrics,
    ...(row.serverUsPerCall !== undefined ? { serverUsPerCall: row.serverUsPerCall } : {}),
    ...(row.bottleneck ? { bottleneck: row.bottleneck } : {}),
  };
}

/**
 * The change from `reference` to `cell` and whether it is better, worse or noise: a change below
 * `noisePercent`, or — when both sides ran repeats — one where their min–max ranges overlap or that is
 * smaller than twice their combined standard deviation, is noise.
 */
export function deltaOf(metric: ComparedMetric, reference: MetricCell, cell: MetricCell, noisePercent: number): Delta {
  const absolute = cell.value - reference.value;
  const percent = reference.value !== 0 ? (absolute / Math.abs(reference.value)) * 100 : absolute === 0 ? 0 : null;
  const improvement = METRIC_INFO[metric].higherIsBetter ? absolute : -absolute;
  let noise = absolute === 0 || (percent !== null && Math.abs(percent) < noisePercent);
  if (!noise && reference.spread && cell.spread) {
    const overlap = reference.spread.min <= cell.spread.max && cell.spread.min <= reference.spread.max;
    const combinedStddev = Math.sqrt(reference.spread.stddev ** 2 + cell.spread.stddev ** 2);
    noise = overlap || Math.abs(absolute) < 2 * combinedStddev;
  }
  return { absolute, percent, verdict: noise ? 'noise' : improvement > 0 ? 'better' : 'worse' };
}

function alignRows(runs: RunFile[], noisePercent: number): ComparisonRow[] {
  const rows = new Map<string, ComparisonRow>();
  runs.forEach((run, index) => {
    // Cluster runs: each node's row under its test (`SET › node 10.0.0.1:6379`), aligned by node address.
    for (const result of breakdownRows(run, { nodes: true })) {
      const key = rowKey(result);
      let row = rows.get(key);
      if (!row) {
        row = { point: result.point, phase: result.phase, test: result.test, command: result.command, cells: runs.map(() => null) };
        rows.set(key, row);
      }
      row.cells[index] = cellOf(run, result);
    }
  });
  for (const row of rows.values()) {
    const reference = row.cells[0];
    if (!reference) continue;
    for (const cell of row.cells.slice(1)) {
      if (!cell) continue;
      for (const metric of COMPARED_METRICS) {
        cell.metrics[metric].delta = deltaOf(metric, reference.metrics[metric], cell.metrics[metric], noisePercent);
      }
    }
  }
  return [...rows.values()];
}

// ---------------------------------------------------------------------------------------------------
// The comparison

export function compareRuns(runs: RunFile[], options: CompareOptions = {}): Comparison {
  if (runs.length === 0) throw new Error('compareRuns needs at least one run');
  const noisePercent = options.noisePercent ?? DEFAULT_NOISE_PERCENT;
  const labels = runs.map((_, i) => options.labels?.[i] ?? `#${i + 1}`);
  const differences = runDifferences(runs, labels);
  const rows = alignRows(runs, noisePercent);
  readAsDifferences(rows, differences);
  return {
    noisePercent,
    runs: runs.map((run, i) => {
      const compared: ComparedRun = {
        label: labels[i],
        id: run.id,
        scenario: run.scenario.name,
        startedAt: run.startedAt,
        status: run.status,
        client: run.client,
        target: run.target.display,
        machine: machineOf(run),
      };
      // Only keys with values: the comparison survives a JSON round trip unchanged.
      if (run.scenario.file !== undefined) compared.file = run.scenario.file;
      if (run.error !== undefined) compared.error = run.error;
      const server = serverOf(run);
      if (server !== undefined) compared.server = server;
      return compared;
    }),
    differences,
    rows,
  };
}

/** The verdict a change gets where the plans differ: `differs` unless it is within noise. One rule for the CLI, the Markdown and the panel. */
export function verdictWhenPlansDiffer(verdict: Verdict): Verdict {
  return verdict === 'noise' ? 'noise' : 'differs';
}

/** Whether a plan difference concerns a row: one of the whole run, or of the row's point or phase (a point only one run has concerns no shared row). */
function concernsRow(difference: Difference, row: ComparisonRow): boolean {
  if (difference.kind !== 'plan' || difference.field === 'point' || difference.field === 'phase') return false;
  return difference.scope === '' || difference.scope.split(', ').every((part) => part === `point ${row.point}` || part === `phase ${row.phase}`);
}

/** Rows whose plans differ measured different loads: their changes are differences, not better or worse. */
function readAsDifferences(rows: ComparisonRow[], differences: readonly Difference[]): void {
  for (const row of rows) {
    if (!differences.some((d) => concernsRow(d, row))) continue;
    for (const cell of row.cells)
      for (const metric of COMPARED_METRICS) {
        const delta = cell?.metrics[metric].delta;
        if (delta) delta.verdict = verdictWhenPlansDiffer(delta.verdict);
      }
  }
}

/** False when the runs' plans (or client paths) differ: their numbers measure different things. */
export function plansMatch(comparison: Comparison): boolean {
  return !comparison.differences.some((d) => d.kind === 'plan');
}

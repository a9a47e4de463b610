// Comparing runs: aligns the result rows of several runs, computes each run's change against the first
// (the reference) and classifies it as better, worse or noise. What differs between the runs besides the
// numbers is in compareDifferences, the regression gate in regression, the text, Markdown and CSV output
// in compareFormat (each imported from its own file). Plain data in, plain data out (no `vscode`): the CLI prints it, the editor's comparison
// view renders it.
import type { Bottleneck, LoadStatus } from '../engine';
import type { NamedMetric } from '../scenario/plan';
import { formatMs, formatOps } from './format';
import { machineOf, runDifferences, serverOf, type Difference } from './compareDifferences';
import { breakdownRows, nodeResult, stepFigures } from './breakdownRows';
import { findPhase, type ResultRow } from './rows';
import type { RunFile, Spread } from './runFile';
import { spreadOf } from './summary';
import { changeInterval, isSignificant, repeatsCentre, type ChangeInterval, type Samples, type StatisticTest } from './statistics';
import { notComparableReason, rowSamples, type RepeatMeasurement } from './statisticsSamples';
import { importedOf } from './import/imported';
import { groupDigits } from '../scenario/numberText';
import { formatMissRate } from './hitsMisses';
import { groupFiguresOf, type GroupFigures } from './groupFigures';

/** The numbers compared for every row; named as `expect` lines name them. */
export type ComparedMetric = Extract<NamedMetric, 'ops' | 'p50' | 'p90' | 'p99' | 'p99.9' | 'max' | 'errors' | 'miss-rate'>;

export const COMPARED_METRICS: readonly ComparedMetric[] = ['ops', 'p50', 'p90', 'p99', 'p99.9', 'max', 'errors', 'miss-rate'];

interface MetricInfo {
  /** Column or line label. */
  label: string;
  /** Throughput: up is better. Latencies and errors: down is better. */
  higherIsBetter: boolean;
  /** Where the result table keeps the value. */
  field: 'opsPerSec' | 'p50Us' | 'p90Us' | 'p99Us' | 'p999Us' | 'maxUs' | 'errors' | 'missRate';
  format: (value: number) => string;
}

const errorCount = groupDigits;

export const METRIC_INFO: Record<ComparedMetric, MetricInfo> = {
  ops: { label: 'ops/s', higherIsBetter: true, field: 'opsPerSec', format: formatOps },
  p50: { label: 'p50 ms', higherIsBetter: false, field: 'p50Us', format: formatMs },
  p90: { label: 'p90 ms', higherIsBetter: false, field: 'p90Us', format: formatMs },
  p99: { label: 'p99 ms', higherIsBetter: false, field: 'p99Us', format: formatMs },
  'p99.9': { label: 'p99.9 ms', higherIsBetter: false, field: 'p999Us', format: formatMs },
  max: { label: 'max ms', higherIsBetter: false, field: 'maxUs', format: formatMs },
  errors: { label: 'errors', higherIsBetter: false, field: 'errors', format: errorCount },
  // A read's misses (src/results/hitsMisses.ts): a row without them (no read, an older run file) has the metric absent.
  'miss-rate': { label: 'miss rate', higherIsBetter: false, field: 'missRate', format: formatMissRate },
};

/** The metrics a row has: the miss rate only where some run counted it (a read's row). */
export function rowMetrics(row: ComparisonRow): ComparedMetric[] {
  return COMPARED_METRICS.filter((metric) => metric !== 'miss-rate' || row.cells.some((cell) => cell && !cell.metrics[metric].absent));
}

export const DEFAULT_NOISE_PERCENT = 5;

/** `differs`: a change between runs whose plans differ: a difference between two loads, neither better nor worse. */
export type Verdict = 'better' | 'worse' | 'noise' | 'differs';

export interface Delta {
  /** value − reference, in the metric's unit (ops/s, µs, count). */
  absolute: number;
  /** The change in % of the reference; null when the reference is 0 and the value is not. */
  percent: number | null;
  verdict: Verdict;
  /** The 95 % interval of the change (in % of the reference) and how it was found; absent: the noise limit alone decided. */
  interval?: ChangeInterval;
  /** The test behind the verdict (statistics.ts): `limit-only` when there was no interval. */
  test: StatisticTest;
}

export interface MetricCell {
  /** ops/s, latencies in µs, errors: the run's figure, or with repeats their centre (statistics.ts repeatsCentre: what the test is of). */
  value: number;
  /** Over repeats (only when the point ran more than once). */
  spread?: Spread;
  /** Against the reference run (absent for the reference itself and when the reference lacks the row, or either side lacks the metric). */
  delta?: Delta;
  /** The run's tool did not report this metric (an imported run: `rbench import`): `value` is a placeholder, shown as a gap. */
  absent?: true;
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
  /** A consumer or subscriber group's total: its jobs/s and wake-up p99, or its delivered/s and lost (groupFigures.ts). */
  figures?: GroupFigures;
  /** Why this run's figures for the row are not comparable (the client set the pace, or foreign load); its changes are flagged, not trusted. */
  notComparable?: string;
}

/** One aligned row: a test's total, or one command of a mix, at one point and phase. */
export interface ComparisonRow {
  point: string;
  phase: string;
  test: string;
  /** `total`, or the command label inside a mix. */
  command: string;
  /** A `load NAME` client group's row (`test` is the group's name): paired only with the same group's rows. */
  group?: string;
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

/** The client group a row belongs to (its test is the group's name), or undefined for a test's row. */
function groupOf(run: RunFile, row: Pick<ResultRow, 'point' | 'phase' | 'test'>): string | undefined {
  return findPhase(run, row.point, row.phase)?.groups?.some((group) => group.name === row.test) ? row.test : undefined;
}

// A group's rows and a test's never pair, even under one name: the group ran beside others, the test alone.
const rowKey = (row: Pick<ResultRow, 'point' | 'phase' | 'test' | 'command'>, group: string | undefined) =>
  [row.point, row.phase, group === undefined ? 'test' : 'group', row.test, row.command].join('\u0000');

/** The row's result in every repeat, with the load it came from (for the spread and the statistics). */
function repeatMeasurements(run: RunFile, row: ResultRow): RepeatMeasurement[] {
  const point = run.points.find((p) => p.label === row.point);
  if (!point) return [];
  const measurements: RepeatMeasurement[] = [];
  for (const loads of point.repeats) {
    const load = loads.find((l) => l.phase === row.phase && l.test === row.test);
    const result =
      load &&
      (row.command === 'total'
        ? load.total
        : row.detail === 'node'
          ? nodeResult(load, row.command)
          : row.detail === 'step'
            ? stepFigures(load, row.command)
            : load.commands.find((c) => c.command === row.command));
    if (load && result) measurements.push({ load, result });
  }
  return measurements;
}

/** A cell and, beside it (never in the comparison's JSON), the samples its statistics resample. */
interface CellWithSamples {
  cell: ComparisonCell;
  samples: Record<ComparedMetric, Samples>;
}

function cellOf(run: RunFile, row: ResultRow): CellWithSamples {
  const measurements = repeatMeasurements(run, row);
  const repeats = measurements.map(({ result }) => result);
  const metrics = {} as Record<ComparedMetric, MetricCell>;
  const samples = {} as Record<ComparedMetric, Samples>;
  const absent = new Set(importedOf(run)?.absentMetrics ?? []);
  for (const metric of COMPARED_METRICS) {
    const value = row[METRIC_INFO[metric].field];
    const cell: MetricCell = { value: value ?? 0, ...(absent.has(metric) || value === undefined ? { absent: true as const } : {}) };
    samples[metric] = rowSamples(measurements, metric);
    if (repeats.length > 1) {
      cell.spread = spreadOf(samples[metric].repeats);
      // The repeats' centre, every figure: the statistic the test and its interval are of (statistics.ts), so the change shown lies in it.
      cell.value = repeatsCentre(samples[metric].repeats);
    }
    metrics[metric] = cell;
  }
  const notComparable = notComparableReason(measurements);
  const figures = row.command === 'total' && row.detail !== 'node' ? groupFiguresOf(measurements.map(({ load }) => load)) : undefined;
  const cell: ComparisonCell = {
    requests: row.requests,
    repeats: Math.max(1, repeats.length),
    status: row.status,
    metrics,
    ...(row.serverUsPerCall !== undefined ? { serverUsPerCall: row.serverUsPerCall } : {}),
    ...(row.bottleneck ? { bottleneck: row.bottleneck } : {}),
    ...(notComparable ? { notComparable } : {}),
    ...(figures ? { figures } : {}),
  };
  return { cell, samples };
}

/**
 * The change from `reference` to `cell` and whether it is better, worse or noise, by THE rule
 * (statistics.ts isSignificant): at least `noisePercent`, and — when `interval` was computed — an interval
 * that excludes zero. `interval` comes from the repeats' figures (a rank test; none with one run a side).
 */
export function deltaOf(metric: ComparedMetric, reference: MetricCell, cell: MetricCell, noisePercent: number, interval?: ChangeInterval): Delta {
  const absolute = cell.value - reference.value;
  const percent = reference.value !== 0 ? (absolute / Math.abs(reference.value)) * 100 : absolute === 0 ? 0 : null;
  const improvement = METRIC_INFO[metric].higherIsBetter ? absolute : -absolute;
  const significant = isSignificant(percent, absolute, noisePercent, interval);
  return {
    absolute,
    percent,
    verdict: significant ? (improvement > 0 ? 'better' : 'worse') : 'noise',
    ...(interval ? { interval } : {}),
    test: interval ? interval.test : 'limit-only',
  };
}

function alignRows(runs: RunFile[], noisePercent: number): ComparisonRow[] {
  const rows = new Map<string, { row: ComparisonRow; samples: (Record<ComparedMetric, Samples> | null)[] }>();
  runs.forEach((run, index) => {
    // Cluster runs: each node's row under its test (`SET › node 10.0.0.1:6379`), aligned by node address; a ramp's
    // steps under theirs, a step with the same step of the other run (its number and clients).
    for (const result of breakdownRows(run, { nodes: true, steps: true })) {
      const group = groupOf(run, result);
      const key = rowKey(result, group);
      let entry = rows.get(key);
      if (!entry) {
        const row: ComparisonRow = {
          point: result.point,
          phase: result.phase,
          test: result.test,
          command: result.command,
          ...(group !== undefined ? { group } : {}),
          cells: runs.map(() => null),
        };
        entry = { row, samples: runs.map(() => null) };
        rows.set(key, entry);
      }
      const { cell, samples } = cellOf(run, result);
      entry.row.cells[index] = cell;
      entry.samples[index] = samples;
    }
  });
  for (const { row, samples } of rows.values()) {
    const reference = row.cells[0];
    if (!reference) continue;
    row.cells.forEach((cell, index) => {
      if (index === 0 || !cell) return;
      for (const metric of COMPARED_METRICS) {
        if (reference.metrics[metric].absent || cell.metrics[metric].absent) continue;
        const interval = changeInterval(samples[0]![metric], samples[index]![metric]);
        cell.metrics[metric].delta = deltaOf(metric, reference.metrics[metric], cell.metrics[metric], noisePercent, interval);
      }
    });
  }
  return [...rows.values()].map(({ row }) => row);
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

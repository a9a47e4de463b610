// The comparison panel's view-model: what differs between the runs (first), then a table with a column
// per run (the first is the reference) and a line per test × metric with coloured deltas, then chart
// series of all runs overlaid on shared axes. Built on results/compare (the same comparison the CLI
// prints) and the results panel's view-model (its timeline, percentile and sweep series per run).
// Pure (no `vscode`, no Node modules): bundled into the webview and unit-tested in Node.
import { compareRuns, type CompareOptions, METRIC_INFO, type ComparedMetric, type Comparison, type ComparisonRow, type Verdict } from '../results/compare';
import { type Difference, type DifferenceKind } from '../results/compareDifferences';
import { compareLabels, startTime } from '../results/compareLabels';
import {
  countParts,
  figureLines,
  formatChange,
  metricsShown,
  notComparable,
  notComparableChanges,
  rowName,
  verdictCounts,
  type CountPart,
} from '../results/compareFormat';
import { formatInterval, TEST_DESCRIPTIONS } from '../results/statistics';
import type { RunFile } from '../results/runFile';
import { ownValue } from '../gates/plainData';
import { buildViewModel, LOG_AXIS_RATIO, MAX_CHART_SERIES, tailRatio, testName, type SweepSeries } from './model';
import { serverLines } from './compareServer';
import { timeNotes, timeRows, type TimeRow } from '../results/compareExplain';

export interface CompareColumn {
  /** What differs (`clients 10`), else the start time. */
  label: string;
  /** The start time (`12-01 09:50:26`), the column's second line; absent when it is the label. */
  time?: string;
  id: string;
  scenario: string;
  /** `redis 7.2.4 standalone · fast client · redis://…` */
  facts: string;
  status: RunFile['status'];
  reference: boolean;
}

export interface CompareDifferenceLine {
  kind: DifferenceKind;
  text: string;
}

export interface CompareCell {
  /** The value in the metric's unit (`412,345`, `1.234`), or `—` for a gap. */
  text: string;
  /** `+3.1%` against the reference (not on the reference column). */
  change?: string;
  verdict?: Verdict;
  /** min–max over repeats, for a tooltip. */
  spread?: string;
  /** A tooltip of its own: the verdict's line. */
  note?: string;
  /** The 95 % interval of the change (`[-48.1%, -42.0%]`), when one was computed (issue 26, statistics). */
  interval?: string;
  /** How the change was judged, for a tooltip: the test behind the interval, or why there is none (`significance not judged …`). */
  intervalTest?: string;
  /** Why this change is not comparable (the client set the pace, or foreign load). */
  notComparable?: string;
}

export interface CompareLine {
  /** The test (and command inside a mix); shown on the first line of its group only. */
  test: string;
  first: boolean;
  /** A command inside a mix, not a test's total. */
  command: boolean;
  /** `server`: the server's µs per call; `bottleneck`: the verdict (run files that carry them); `figure`: a consumer or subscriber group's own figure (jobs/s, lost…). */
  metric: ComparedMetric | 'server' | 'bottleneck' | 'figure';
  metricLabel: string;
  cells: CompareCell[];
}

export interface OverlaySeries {
  label: string;
  /** Which run (colour). */
  run: number;
  /** Which test of the run (dash pattern), or the metric for time and sweep charts. */
  variant: number;
  /** `server`: the server's time per call, µs (the sweep overlay's own axis); `p50`: a ramp's steps. */
  metric: 'ops' | 'p50' | 'p99' | 'latency' | 'server';
  /** Aligned with the chart's x; null breaks the line (a gap between loads), undefined: no point there. */
  values: (number | null | undefined)[];
}

export interface OverlayChart {
  x: number[];
  series: OverlaySeries[];
}

export interface SweepOverlay extends OverlayChart {
  axis: string;
  xLabels: string[];
  log: boolean;
}

export interface CompareViewModel {
  title: string;
  comparison: Comparison;
  columns: CompareColumn[];
  /** One sentence before the list of differences, or undefined when the runs agree on everything. */
  lead?: string;
  differences: CompareDifferenceLine[];
  lines: CompareLine[];
  /** Which side moved, per test and run: `SET, b against a: p99 rose 40.0%, server time per call unchanged (…)`. */
  explained: string[];
  /** The same in parts: the panel puts the figures in a table and the readings in short sentences. */
  explainedRows: TimeRow[];
  counts: Record<Verdict, number>;
  /** The counts in words (`0 better`, `12 worse` or `12 differ (…)`, `0 within noise`), each with its verdict's colour: the CLI's sentence. */
  summary: CountPart[];
  /** Why some changes are not comparable, each reason once: the header says it, not only a cell's hover. */
  notComparable: string[];
  timeline?: OverlayChart;
  /** `log`: the latency axis starts as log (the tail far above the median, as in the results panel). */
  percentiles?: OverlayChart & { log: boolean };
  sweep?: SweepOverlay;
  /** Every run ramped (`ramp clients …`): their steps' curves against the steps' clients, a step on the same clients' x as the same step of the other runs. */
  ramp?: SweepOverlay;
  /** Series left out of a chart (more than MAX_CHART_SERIES). */
  omitted: string[];
}

export function compareTitle(runs: readonly RunFile[], labels = compareLabels(runs)): string {
  const scenarios = [...new Set(runs.map((run) => run.scenario.name))].join(' / ');
  return runs.length === 2 ? `Compare: ${scenarios} — ${labels[1]} vs ${labels[0]}` : `Compare: ${scenarios} — ${runs.length} runs`;
}

/** The comparison the panel shows and exports: the runs with their column labels. */
export function comparisonOf(runs: RunFile[], options: Pick<CompareOptions, 'noisePercent'> = {}): Comparison {
  return compareRuns(runs, { labels: compareLabels(runs), noisePercent: options.noisePercent });
}

const COUNTED_SETTINGS: Record<string, [string, string]> = {
  clients: ['client', 'clients'],
  threads: ['thread', 'threads'],
};

/**
 * The sentence that goes above the differences. A changed client or thread count gets the plainest one
 * (`Comparing 1 client with 50 clients is not a regression.`): it is the most common way to misread a
 * comparison.
 */
export function leadSentence(differences: readonly Difference[]): string | undefined {
  if (differences.length === 0) return undefined;
  for (const difference of differences) {
    const nouns = ownValue(COUNTED_SETTINGS, difference.field);
    const values = difference.values.filter((v): v is string => v !== null);
    if (difference.kind === 'plan' && nouns && new Set(values).size === 2) {
      const [a, b] = [...new Set(values)];
      const say = (n: string) => `${n} ${n === '1' ? nouns[0] : nouns[1]}`;
      return `Comparing ${say(a)} with ${say(b)} is not a regression: the runs measured different loads. Read these differences before the numbers.`;
    }
  }
  if (differences.some((d) => d.kind === 'plan'))
    return 'The runs measured different loads, so a change in the numbers is not a regression. Read these differences before the numbers.';
  if (differences.some((d) => d.kind === 'setup'))
    return 'The runs ran on different setups: the numbers may not be comparable. Read these differences before the numbers.';
  return 'Some runs hold partial results: read these before the numbers.';
}

function rowLabel(row: ComparisonRow, phases: number): string {
  return rowName(row, testName(row.point, row.phase, row.test, phases));
}

function lines(runs: readonly RunFile[], comparison: Comparison): CompareLine[] {
  const phases = new Set(comparison.rows.map((row) => row.phase)).size;
  const out: CompareLine[] = [];
  for (const row of comparison.rows) {
    metricsShown(row).forEach((metric, i) => {
      const info = METRIC_INFO[metric];
      out.push({
        test: rowLabel(row, phases),
        first: i === 0,
        command: row.command !== 'total',
        metric,
        metricLabel: info.label,
        cells: row.cells.map((cell): CompareCell => {
          if (!cell) return { text: '—' };
          const measured = cell.metrics[metric];
          // An imported run's tool did not report this metric: a gap, never its placeholder 0.
          if (measured.absent) return { text: '—' };
          // Only a change is flagged: the reference column has none, and its reason is in the header once.
          const flagged = measured.delta && notComparable(cell, row.cells[0]) ? (cell.notComparable ?? row.cells[0]?.notComparable) : undefined;
          return {
            text: info.format(measured.value),
            ...(measured.delta?.interval ? { interval: formatInterval(measured.delta.interval) } : {}),
            ...(measured.delta && measured.delta.absolute !== 0 ? { intervalTest: TEST_DESCRIPTIONS[measured.delta.test] } : {}),
            ...(flagged ? { notComparable: flagged } : {}),
            ...(measured.delta ? { change: formatChange(metric, measured.delta), verdict: measured.delta.verdict } : {}),
            ...(measured.spread ? { spread: `${info.format(measured.spread.min)}–${info.format(measured.spread.max)} over ${cell.repeats} repeats` } : {}),
          };
        }),
      });
    });
    for (const line of serverLines(runs, comparison, row)) {
      out.push({
        test: rowLabel(row, phases),
        first: false,
        command: false,
        metric: line.label === 'bottleneck' ? 'bottleneck' : 'server',
        metricLabel: line.label,
        cells: line.cells,
      });
    }
    for (const line of figureLines(row)) {
      out.push({
        test: rowLabel(row, phases),
        first: false,
        command: false,
        metric: 'figure',
        metricLabel: line.label,
        cells: line.values.map((text, i) => ({ text, ...(line.changes[i] ? { change: line.changes[i] } : {}) })),
      });
    }
  }
  return out;
}

/**
 * Merges per-run series on their own x into one x axis: undefined where a run has no point at that x (the
 * line goes on through it), null inside a run's own gap (between two loads), so its line stays broken.
 */
export function mergeOnX(parts: { x: readonly number[]; series: Omit<OverlaySeries, 'values'> & { values: readonly (number | null)[] } }[]): OverlayChart {
  const x = [...new Set(parts.flatMap((p) => p.x))].sort((a, b) => a - b);
  const index = new Map(x.map((v, i) => [v, i]));
  const series = parts.map(({ x: own, series: s }) => {
    const values: (number | null | undefined)[] = new Array(x.length).fill(undefined);
    own.forEach((v, i) => (values[index.get(v) as number] = s.values[i]));
    // Spread each gap over the other runs' points next to it.
    let previous: number | null | undefined;
    const pending: number[] = [];
    values.forEach((value, i) => {
      if (value === undefined) {
        if (previous !== undefined) pending.push(i);
        return;
      }
      if (value === null || previous === null) for (const k of pending) values[k] = null;
      pending.length = 0;
      previous = value;
    });
    return { ...s, values };
  });
  return { x, series };
}

/** Each run's sweep (or ramp) curves on one x axis, named by run: when every run has one over the same axis. */
function sweepOverlay(sweeps: (Omit<SweepSeries, 'table'> | undefined)[], labels: string[]): SweepOverlay | undefined {
  const first = sweeps[0];
  if (!first || first.axis === 'test' || first.axis === 'point' || !sweeps.every((s) => s && s.axis === first.axis)) return undefined;
  const merged = mergeOnX(
    sweeps.flatMap((s, run) =>
      s!.series.map((series, i) => ({
        x: s!.x,
        series: { label: `${labels[run]} ${series.label}`, run, variant: i, metric: series.metric, values: series.median },
      })),
    ),
  );
  const labelOf = new Map(sweeps.flatMap((s) => s!.x.map((x, i) => [x, s!.xLabels[i]] as const)));
  return { ...merged, axis: first.axis, xLabels: merged.x.map((x) => labelOf.get(x) ?? String(x)), log: sweeps.every((s) => s!.log) };
}

function overlays(runs: RunFile[], labels: string[], omitted: string[]): Pick<CompareViewModel, 'timeline' | 'percentiles' | 'sweep' | 'ramp'> {
  const models = runs.map((run) => buildViewModel(run));
  const keep = <T extends { series: { label: string }[] }>(chart: T): T => {
    if (chart.series.length > MAX_CHART_SERIES) {
      omitted.push(...chart.series.slice(MAX_CHART_SERIES).map((s) => s.label));
      chart.series = chart.series.slice(0, MAX_CHART_SERIES);
    }
    return chart;
  };

  const timelineParts = models.flatMap((m, run) =>
    m.timeline
      ? [
          { x: m.timeline.x, series: { label: `${labels[run]} ops/s`, run, variant: 0, metric: 'ops' as const, values: m.timeline.ops } },
          { x: m.timeline.x, series: { label: `${labels[run]} p99`, run, variant: 1, metric: 'p99' as const, values: m.timeline.p99Ms } },
        ]
      : [],
  );
  const timeline = timelineParts.length > 0 ? keep(mergeOnX(timelineParts)) : undefined;

  // Percentile curves share one x grid (percentileGrid), so they align as they are.
  const curves = models.flatMap((m, run) => (m.percentiles ? m.percentiles.series.map((s, variant) => ({ run, variant, x: m.percentiles!.x, s })) : []));
  const percentiles =
    curves.length > 0
      ? keep({
          x: curves[0].x,
          series: curves.map(({ run, variant, s }) => ({ label: `${labels[run]} ${s.label}`, run, variant, metric: 'latency' as const, values: s.values })),
          log:
            tailRatio(
              curves[0].x,
              curves.map((c) => c.s),
            ) >= LOG_AXIS_RATIO,
        })
      : undefined;

  // Sweeps overlay when every run swept the same setting.
  const sweep = sweepOverlay(
    models.map((m) => m.sweep),
    labels,
  );
  // Ramps overlay when every run ramped: a step at 20 clients meets the other run's step at 20 clients on x.
  const ramp = sweepOverlay(
    models.map((m) => m.ramp),
    labels,
  );
  return { timeline, percentiles, sweep: sweep && keep(sweep), ...(ramp ? { ramp: keep(ramp) } : {}) };
}

export function buildCompareViewModel(runs: RunFile[], options: Pick<CompareOptions, 'noisePercent'> = {}): CompareViewModel {
  const comparison = comparisonOf(runs, options);
  const labels = comparison.runs.map((run) => run.label);
  const omitted: string[] = [];
  // Foreign load is about the setup: a run another client loaded is not a clean measurement.
  const foreign = comparison.differences.some((d) => d.field === 'foreign load');
  const lead =
    leadSentence(comparison.differences) ??
    (foreign ? 'The server ran load these runs did not send: their numbers are not clean. Read these differences before the numbers.' : undefined);
  return {
    title: compareTitle(runs, labels),
    comparison,
    columns: comparison.runs.map((run, i) => ({
      label: run.label,
      ...(run.label !== startTime(run) ? { time: startTime(run) } : {}),
      id: run.id,
      scenario: run.scenario,
      facts: [run.server ?? 'server not read', `${run.client} client`, run.target].join(' · '),
      status: run.status,
      reference: i === 0,
    })),
    lead,
    // Status first (partial results), then the plan, then the setup: the order they matter in.
    differences: comparison.differences.map((d) => ({ kind: d.kind, text: d.text })).sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind)),
    lines: lines(runs, comparison),
    explained: timeNotes(comparison),
    explainedRows: timeRows(comparison),
    counts: verdictCounts(comparison),
    summary: countParts(comparison),
    notComparable: notComparableChanges(comparison).reasons,
    ...overlays(runs, labels, omitted),
    omitted,
  };
}

const KIND_ORDER: DifferenceKind[] = ['status', 'plan', 'setup'];

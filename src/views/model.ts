// The results panel's view-model: turns a run file, or a run in progress rebuilt from RunProgress events,
// into what the panel shows — header facts, table rows, chart series and plain-word warnings. Pure (no
// `vscode`, no Node modules): bundled into the webview and unit-tested in Node. Its parts live in
// liveRun (a run in progress), panelTable (the table), latencyCharts and timeCharts (the charts),
// explainModel, stalls and verdictLabels (where the time went: the server's side of each test).
import { ownValue } from '../gates/plainData';
import type { RunFile, ThresholdOutcome } from '../results/runFile';
import { formatDuration, formatMetric } from '../results/format';
import { breakdownRows, nodeRowName } from '../results/breakdownRows';
import { clusterDescription } from '../results/clusterSummary';
import { primaryDescription } from '../results/sentinelPrimaries';
import { findPhase, type ResultRow } from '../results/rows';
import { representativeLoad } from '../results/summary';
import { runWarnings } from '../results/warnings';
import { measuredAnything } from '../results/verdict';
import { rateChart, type RateChart } from './rateChart';
import { rampChart, type RampChart } from './rampChart';
import { hasExplanation, loadOf, testExplanations, type TestExplanation, type VerdictView } from './explainModel';
import { LONG_STALL_MS, longestStall, stallHeadline, stallSeconds } from './stalls';
import { verdictShort } from './verdictLabels';
import { currentLoad, liveRunFile, type LiveRunState } from './liveRun';
import { decodeHistogram, histogramBars, percentileCurve, type HistogramBars, type PercentileCurve } from './latencyCharts';
import { runningRow, tableColumns, tableRowFrom, type ColumnDef, type PanelStatus, type TableRow } from './panelTable';
import {
  eventMarks,
  loadLabel,
  serverNote,
  serverSeries,
  sweepSeries,
  testName,
  timelineSeries,
  type EventMark,
  type ServerSeries,
  type SweepSeries,
  type TimedLoad,
  type TimelineSeries,
} from './timeCharts';

export * from './liveRun';
export * from './panelTable';
export * from './latencyCharts';
export * from './timeCharts';
export * from './rateChart';
export * from './rampChart';
export * from './explainModel';
export * from './stalls';
export * from './verdictLabels';

export interface HeaderInfo {
  scenario: string;
  file?: string;
  target: string;
  /** `Redis 7.2.4 · standalone`, when known. */
  server?: string;
  local: boolean;
  client: string;
  status: PanelStatus;
  error?: string;
  startedAt: string;
  duration: string;
  /** `value=100 SET · repeat 2 · 45%`, while running. */
  progress?: string;
  /** 0…1 over the whole run, while running. */
  fraction?: number;
  /** Cluster runs: the nodes that took load, whether the cluster was detected, the redirections. */
  cluster?: string;
  /** A merged run: how many load machines' runs it joins. */
  merged?: string;
  /** The status badge's words: the status, or `complete · stalled 2.0 s` when a load stalled over a second. */
  badge: string;
  /** The longest stall over a second, in words, when there was one: the run did not complete cleanly. */
  stalled?: string;
  /** Each test's bottleneck verdict (run files that carry one). */
  verdicts: (VerdictView & { test: string })[];
  /** More verdicts than the header has room for (a sweep): how many tests each label holds, most first. */
  verdictCounts?: { label: string; tests: number }[];
}

/** Beyond this many verdicts the header counts them by label (every one stays in the table and a fold-out). */
export const MAX_HEADER_VERDICTS = 6;

function verdictCounts(verdicts: readonly VerdictView[]): { label: string; tests: number }[] {
  const counts = new Map<string, number>();
  for (const v of verdicts) counts.set(v.label, (counts.get(v.label) ?? 0) + 1);
  return [...counts].map(([label, tests]) => ({ label, tests })).sort((a, b) => b.tests - a.tests);
}

export interface ThresholdLine {
  text: string;
  passed: boolean;
  /** Where it was checked (`value=100 SET`), and what was measured. */
  detail: string;
}

export interface ViewModel {
  header: HeaderInfo;
  columns: ColumnDef[];
  rows: TableRow[];
  thresholds: ThresholdLine[];
  warnings: string[];
  timeline?: TimelineSeries;
  marks: EventMark[];
  percentiles?: PercentileCurve;
  histogram?: HistogramBars;
  server?: ServerSeries;
  /** The server's one sample in words when the run was too short for its chart. */
  serverNote?: string;
  sweep?: SweepSeries;
  /** Latency and achieved throughput against the offered rate (`sweep rate`, `find rate`). */
  rate?: RateChart;
  /** A ramped test's steps (`ramp clients A..B step S every T`): throughput, p50 and p99 against the step's clients. */
  ramp?: RampChart;
  /** Series beyond this many are left out of a chart (named in `omitted`). */
  omitted: string[];
  /** Where the time went, per test that has server-side figures, a verdict, client pauses or a stall. */
  explanations: TestExplanation[];
  /** A finished attempt that measured nothing (a refused connection): no table, no exports; what failed and what to do. */
  nothingMeasured?: { headline: string; advice: string };
}

/** What to do about a failure that stopped a run before it measured anything, by the words of its error. */
const ADVICE: [RegExp, string][] = [
  [
    /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|timed out|connect/i,
    'Is the server running and reachable at the target? Check it with "RBench: Test Connection", or pick another with "RBench: Select Target"; then run again.',
  ],
  [/NOAUTH|WRONGPASS|password|AUTH/i, 'The server wants a password: set it with "RBench: Set Password" (or RBENCH_PASSWORD), then run again.'],
  [
    /redis-server|ENOENT|spawn/i,
    'The throwaway server could not start: install redis-server (apt-get install redis-server) or choose a target with "RBench: Select Target".',
  ],
];
const GENERIC_ADVICE = 'The RBench output channel has the details: fix the cause and run again.';

export function nothingMeasuredView(run: RunFile): ViewModel['nothingMeasured'] {
  if (run.status === 'complete' || run.status === 'complete-with-errors' || measuredAnything(run)) return undefined;
  const error = run.error ?? '';
  const advice = ADVICE.find(([pattern]) => pattern.test(error))?.[1] ?? GENERIC_ADVICE;
  return { headline: `Nothing was measured: the run ${run.status === 'cancelled' ? 'was cancelled' : 'failed'} before its first test ended.`, advice };
}

export const MAX_CHART_SERIES = 12;

function headerFrom(run: RunFile, status: PanelStatus, explanations: readonly TestExplanation[], live?: LiveRunState): HeaderInfo {
  const server = run.target.server;
  const primary = primaryDescription(run);
  const header: HeaderInfo = {
    scenario: run.scenario.name,
    file: run.scenario.file,
    target: `${run.target.display || (live ? 'connecting…' : 'unknown')}${primary ? ` · primary ${primary}` : ''}`,
    server: server ? `Redis ${server.version} · ${server.mode}` : undefined,
    local: run.target.local,
    client: run.client,
    status,
    error: run.error,
    startedAt: run.startedAt,
    duration: formatDuration(run.durationMs),
    badge: status,
    verdicts: explanations.flatMap((e) => (e.verdict ? [{ ...e.verdict, test: e.name }] : [])),
  };
  if (header.verdicts.length > MAX_HEADER_VERDICTS) header.verdictCounts = verdictCounts(header.verdicts);
  const longest = longestStall(explanations.flatMap((e) => (e.longestStall ? [e.longestStall] : [])));
  if (longest && longest.toMs - longest.fromMs > LONG_STALL_MS) {
    header.stalled = stallHeadline(longest);
    header.badge = `${status} · stalled ${stallSeconds(longest.toMs - longest.fromMs)}`;
  }
  const cluster = clusterDescription(run);
  if (cluster) header.cluster = cluster;
  if (run.merged)
    header.merged = `${run.merged.parts.length} load machines' runs (${run.merged.parts.map((part) => part.part).join(', ')}): rows under each test`;
  if (live) {
    const load = currentLoad(live);
    const done = live.loads.filter((l) => l.result).length;
    const total = live.loads[live.loads.length - 1]?.at.total ?? 0;
    if (load) {
      const fraction = load.tick?.fraction;
      const name = [load.at.point, load.at.phase !== 'main' && load.at.phase ? load.at.phase : '', load.at.test].filter(Boolean).join(' ');
      const phase = load.tick?.warmingUp
        ? 'warming up'
        : fraction !== undefined
          ? `${Math.round(fraction * 100)}%`
          : `${formatDuration(load.tick?.elapsedMs ?? 0)}`;
      header.progress = `${load.at.index + 1}/${load.at.total} ${name}${live.plan.repeat > 1 ? ` · repeat ${load.at.repeat + 1}` : ''} · ${phase}`;
      header.fraction = total > 0 ? (load.at.index + (fraction ?? 0)) / total : undefined;
    } else if (total > 0) {
      header.progress = `${done}/${total} loads done`;
      header.fraction = done / total;
    } else {
      header.progress = 'starting…';
    }
  }
  return header;
}

function thresholdLines(thresholds: readonly ThresholdOutcome[]): ThresholdLine[] {
  return thresholds.map((t) => ({
    text: t.expectation,
    passed: t.passed,
    detail: `${testName(t.point, t.phase, t.test, t.phase === 'main' ? 1 : 2)}: ${t.actual === null ? 'nothing measured' : formatMetric(t.metric, t.actual)}`,
  }));
}

/** The histograms the latency charts show: each test's total at each point, or a single mix's commands too. */
function chartHistograms(rows: readonly ResultRow[], run: RunFile): { label: string; base64: string }[] {
  const picked: { label: string; base64: string }[] = [];
  const phases = new Set(rows.map((r) => r.phase)).size;
  for (const point of run.points) {
    for (const summary of point.summary) {
      const load = representativeLoad(point.repeats, summary);
      if (!load) continue;
      const name = testName(point.label, summary.phase, summary.test, phases);
      picked.push({ label: name, base64: load.total.histogram });
    }
  }
  if (picked.length === 1) {
    const only = run.points[0].repeats.flat().find((l) => l.commands.length > 1);
    if (only) for (const command of only.commands) picked.push({ label: `${picked[0].label} › ${command.command}`, base64: command.histogram });
    // One test on a cluster: each node's curve next to the total's.
    const clustered = run.points[0].repeats.flat().find((l) => l.measured && l.cluster);
    for (const node of clustered?.cluster?.nodes ?? []) picked.push({ label: `${picked[0].label} › ${nodeRowName(node.node)}`, base64: node.total.histogram });
  }
  return picked;
}

/** A live load's client group, from the plan (a load in progress has no result to say it yet). */
function liveGroup(run: RunFile, at: { point: string; phase: string; test: string }): Pick<TimedLoad, 'group'> {
  const group = findPhase(run, at.point, at.phase)?.groups?.find((each) => each.name === at.test);
  return group ? { group: { name: group.name, background: group.background } } : {};
}

/** Builds everything the panel shows from a run file, or from a live run (then `live` is its state). */
export function buildViewModel(run: RunFile, live?: LiveRunState): ViewModel {
  // Under each test: a cluster's nodes and a merged run's machines (src/results/breakdownRows.ts).
  const results = breakdownRows(run, { nodes: true, parts: true, steps: true });
  const rows = results.map((row, i) => withServerSide(run, tableRowFrom(row, i)));
  const explanations = testExplanations(run);
  const current = live ? currentLoad(live) : undefined;
  if (current && current.at.measured) rows.push(runningRow(current, rows.length));

  const omitted: string[] = [];
  const startedMs = Date.parse(run.startedAt);
  const phases = new Set(run.plan.points.flatMap((p) => p.phases.filter((ph) => ph.measured).map((ph) => ph.name))).size;
  const timed: TimedLoad[] = live
    ? live.loads
        .filter((l) => l.at.measured)
        .map((l) => ({
          label: loadLabel(l.at.point, l.at.phase, l.at.test, l.at.repeat, live.plan.repeat, phases),
          ...liveGroup(run, l.at),
          offset: (l.startMs + (findPhase(run, l.at.point, l.at.phase)?.load.warmupMs ?? 0)) / 1000,
          timeline: l.timeline,
          stalls: l.result?.stalls,
        }))
    : run.points.flatMap((point) =>
        point.repeats.flatMap((loads, repeat) =>
          loads.map((load) => ({
            label: loadLabel(point.label, load.phase, load.test, repeat, point.repeats.length, phases),
            ...(load.group ? { group: { name: load.group.name, background: load.group.background } } : {}),
            offset: (Date.parse(load.startedAt) - startedMs + (findPhase(run, point.label, load.phase)?.load.warmupMs ?? 0)) / 1000,
            timeline: load.timeline,
            stalls: load.stalls,
          })),
        ),
      );

  let histograms = chartHistograms(results, run);
  if (histograms.length > MAX_CHART_SERIES) {
    omitted.push(...histograms.slice(MAX_CHART_SERIES).map((h) => h.label));
    histograms = histograms.slice(0, MAX_CHART_SERIES);
  }
  const decoded = histograms.map((h) => ({ label: h.label, histogram: decodeHistogram(h.base64) }));
  const hasLatency = decoded.some((h) => h.histogram.total > 0);

  const sweep = sweepSeries(run);
  if (sweep && sweep.series.length > MAX_CHART_SERIES) sweep.series = sweep.series.slice(0, MAX_CHART_SERIES);
  const ramp = rampChart(run);
  if (ramp && ramp.series.length > MAX_CHART_SERIES) {
    omitted.push(...ramp.series.slice(MAX_CHART_SERIES).map((s) => s.label));
    ramp.series = ramp.series.slice(0, MAX_CHART_SERIES);
  }

  return {
    header: headerFrom(run, live ? 'running' : run.status, explanations, live),
    columns: tableColumns(rows),
    rows,
    thresholds: thresholdLines(run.thresholds),
    warnings: runWarnings(run),
    timeline: timelineSeries(timed),
    marks: eventMarks(run.server.events),
    percentiles: hasLatency ? percentileCurve(decoded) : undefined,
    histogram: hasLatency ? histogramBars(decoded) : undefined,
    server: serverSeries(run.server.samples),
    ...(serverNote(run.server.samples) ? { serverNote: serverNote(run.server.samples) } : {}),
    sweep,
    rate: rateChart(run),
    ...(ramp ? { ramp } : {}),
    omitted,
    explanations: explanations.filter(hasExplanation),
    ...(!live && nothingMeasuredView(run) ? { nothingMeasured: nothingMeasuredView(run) } : {}),
  };
}

/**
 * A test's row with its load's server time per call and verdict; a command of a mix with the server's
 * figure for that command, when the server names it as the mix does (`GET` → `get`). Older run files: neither.
 */
function withServerSide(run: RunFile, row: TableRow): TableRow {
  if (row.detail) return row;
  const load = loadOf(run, row.point, row.phase, row.test);
  if (row.command !== 'total') {
    const command = load?.server && ownValue(load.server.commands, row.command.toLowerCase());
    if (command) row.serverUsPerCall = command.usecPerCall;
    return row;
  }
  if (load?.server?.usecPerCall !== undefined) row.serverUsPerCall = load.server.usecPerCall;
  if (load?.bottleneck) {
    const verdict = verdictShort(load.bottleneck);
    row.verdict = verdict;
    row.verdictWhy = load.bottleneck.why;
  }
  return row;
}

/** The live view-model: the run so far, plus the load running now. */
export function buildLiveViewModel(state: LiveRunState): ViewModel {
  return buildViewModel(liveRunFile(state), state);
}

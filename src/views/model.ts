// The results panel's view-model: turns a run file, or a run in progress rebuilt from RunProgress events,
// into what the panel shows — header facts, table rows, chart series and plain-word warnings. Pure (no
// `vscode`, no Node modules): bundled into the webview and unit-tested in Node. Charts are computed from
// the per-second timelines and the HDR histograms only, never from raw samples.
import * as hdr from 'hdr-histogram-js';
import type { LoadResult, LoadStatus, LoadTick, TimelineSecond } from '../engine/types';
import { toMarkdown, toRedisBenchmarkCsv } from '../results/export';
import { formatDuration, formatLatency, formatMetric, formatOps } from '../results/format';
import { resultRows, type ResultRow } from '../results/rows';
import type { PersistenceEvent, RunFile, ThresholdOutcome } from '../results/runFile';
import { summariseRepeats } from '../results/summary';
import { runWarnings } from '../results/warnings';
import type { ServerFacts, ServerSample } from '../redis/types';
import type { LoadPosition, RunProgress } from '../runner/runScenario';
import type { ScenarioPlan } from '../scenario/plan';

// ---------------------------------------------------------------------------------------------------
// A run in progress

/** Which panel a run belongs to: one panel per scenario of a file. */
export interface PanelKey {
  file?: string;
  scenario: string;
}

export function panelKeyId(key: PanelKey): string {
  return `${key.file ?? ''}\u0000${key.scenario}`;
}

/** One load of a live run: its position, the seconds seen so far and, once it ended, its result. */
export interface LiveLoad {
  at: LoadPosition;
  /** Milliseconds after the run started when the load started (its warm-up included). */
  startMs: number;
  timeline: TimelineSecond[];
  tick?: LoadTick;
  result?: LoadResult;
}

export interface LiveRunState {
  plan: ScenarioPlan;
  file?: string;
  /** ISO time the run started: server sample times count from here. */
  startedAt: string;
  target?: { display: string; local: boolean; server?: ServerFacts };
  loads: LiveLoad[];
  samples: ServerSample[];
  events: PersistenceEvent[];
  /** Milliseconds since the start of the last event applied. */
  elapsedMs: number;
}

/** A progress event stamped with when it happened (ms after the run started), so every copy of the state agrees. */
export interface StampedProgress {
  atMs: number;
  event: RunProgress;
}

export function newLiveRun(plan: ScenarioPlan, startedAt: string, options: { file?: string; target?: LiveRunState['target'] } = {}): LiveRunState {
  return { plan, file: options.file, startedAt, target: options.target, loads: [], samples: [], events: [], elapsedMs: 0 };
}

function sameLoad(a: LoadPosition, b: LoadPosition): boolean {
  return a.index === b.index && a.point === b.point && a.phase === b.phase && a.test === b.test && a.repeat === b.repeat;
}

/** Applies one progress event to a live run (mutates and returns it). Unknown or out-of-order events are ignored. */
export function applyProgress(state: LiveRunState, stamped: StampedProgress): LiveRunState {
  const { atMs, event } = stamped;
  state.elapsedMs = Math.max(state.elapsedMs, atMs);
  switch (event.kind) {
    case 'load-start':
      if (!state.loads.some((load) => sameLoad(load.at, event.at))) state.loads.push({ at: event.at, startMs: atMs, timeline: [] });
      break;
    case 'tick': {
      let load = state.loads.find((l) => sameLoad(l.at, event.at));
      if (!load) state.loads.push((load = { at: event.at, startMs: Math.max(0, atMs - event.tick.elapsedMs), timeline: [] }));
      if (load.result) break;
      load.tick = event.tick;
      const second = event.tick.lastSecond;
      if (second) {
        const last = load.timeline[load.timeline.length - 1];
        if (last && last.t === second.t) load.timeline[load.timeline.length - 1] = second;
        else if (!last || second.t > last.t) load.timeline.push(second);
      }
      break;
    }
    case 'load-end': {
      let load = state.loads.find((l) => sameLoad(l.at, event.at));
      if (!load) state.loads.push((load = { at: event.at, startMs: Math.max(0, atMs - event.result.durationMs), timeline: [] }));
      load.result = event.result;
      load.timeline = event.result.timeline;
      break;
    }
    case 'server-sample':
      if (state.samples.length === 0 || event.sample.t > state.samples[state.samples.length - 1].t) state.samples.push(event.sample);
      break;
  }
  return state;
}

/** The load running now (started, not ended), if any. */
export function currentLoad(state: LiveRunState): LiveLoad | undefined {
  const last = state.loads[state.loads.length - 1];
  return last && !last.result ? last : undefined;
}

/**
 * The run so far as a run file: measured loads that ended, grouped by point and repeat and summarised as
 * the runner does at the end. Status stays `complete` (nothing went wrong yet); thresholds are not known yet.
 */
export function liveRunFile(state: LiveRunState): RunFile {
  const points = state.plan.points.flatMap((pointPlan) => {
    const repeats: LoadResult[][] = [];
    for (const load of state.loads) {
      if (!load.result || !load.at.measured || load.at.point !== pointPlan.label) continue;
      (repeats[load.at.repeat] ??= []).push(load.result);
    }
    const filled = repeats.filter((loads) => loads && loads.length > 0);
    return filled.length > 0 ? [{ label: pointPlan.label, sweep: pointPlan.sweep, repeats: filled, summary: summariseRepeats(filled) }] : [];
  });
  const started = Date.parse(state.startedAt);
  return {
    version: 1,
    tool: { name: 'rbench', version: '' },
    id: '',
    scenario: { name: state.plan.name, index: state.plan.index, file: state.file, source: '' },
    plan: state.plan,
    target: state.target ?? { display: '', local: false },
    client: state.plan.target.client,
    machine: { platform: '', release: '', arch: '', cpuModel: '', cores: 0, totalMemoryBytes: 0, node: '' },
    startedAt: state.startedAt,
    finishedAt: new Date(started + state.elapsedMs).toISOString(),
    durationMs: state.elapsedMs,
    status: 'complete',
    points,
    server: { samples: state.samples, events: state.events },
    thresholds: [],
  };
}

// ---------------------------------------------------------------------------------------------------
// The view-model

export type PanelStatus = LoadStatus | 'running';

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
}

export interface ThresholdLine {
  text: string;
  passed: boolean;
  /** Where it was checked (`value=100 SET`), and what was measured. */
  detail: string;
}

/** A table row: a test's total (or a command of a mix) at a point, or the load running now. */
export interface TableRow {
  /** Position in run order, for a stable "unsorted" order. */
  order: number;
  point: string;
  phase: string;
  test: string;
  /** `total`, or a command of a mix. */
  command: string;
  requests: number;
  opsPerSec: number;
  /** Min and max throughput over repeats. */
  opsRange?: [number, number];
  meanUs: number;
  p50Us: number;
  p90Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
  errors: number;
  errorsByKind: Record<string, number>;
  status: PanelStatus;
  /** The result row behind it (absent for the running load): what the CSV and Markdown exports use. */
  source?: ResultRow;
}

export type SortKey = 'point' | 'phase' | 'test' | 'requests' | 'opsPerSec' | 'meanUs' | 'p50Us' | 'p90Us' | 'p99Us' | 'p999Us' | 'maxUs' | 'errors';
export const SORT_KEYS: readonly SortKey[] = ['point', 'phase', 'test', 'requests', 'opsPerSec', 'meanUs', 'p50Us', 'p90Us', 'p99Us', 'p999Us', 'maxUs', 'errors'];

export interface SortSpec {
  key: SortKey;
  descending: boolean;
}

export interface ColumnDef {
  key: SortKey;
  header: string;
  numeric: boolean;
  cell: (row: TableRow) => string;
}

/** Latency and throughput over run time (seconds since the run started), one stretch per load with gaps between. */
export interface TimelineSeries {
  x: number[];
  ops: (number | null)[];
  p50Ms: (number | null)[];
  p99Ms: (number | null)[];
  /** Each load's stretch, for labels: [start, end] in run seconds. */
  segments: { start: number; end: number; label: string }[];
}

/** Persistence events in run seconds (`bgsave-start` …), drawn as marks on time charts. */
export interface EventMark {
  t: number;
  kind: string;
  label: string;
  failed: boolean;
}

export interface CurveSeries {
  label: string;
  /** Latency in ms at each x of the curve; null where the histogram is empty. */
  values: (number | null)[];
}

/** HDR-style percentile curve: x = 1 / (1 - p), from p0 (x = 1) to p99.999 (x = 100,000). */
export interface PercentileCurve {
  x: number[];
  percentiles: number[];
  series: CurveSeries[];
}

/** Latency histogram: log-spaced bins, share of requests (%) in each bin per series. */
export interface HistogramBars {
  /** Bin lower bounds in ms. */
  x: number[];
  /** Bin upper bound over lower bound. */
  ratio: number;
  series: CurveSeries[];
}

export interface ServerSeries {
  x: number[];
  /** null where sampling missed samples (the server was unreachable): the chart shows a gap, not a line across it. */
  usedMemoryMb: (number | null)[];
  connectedClients: (number | null)[];
}

/** Median and spread of each test over points (a sweep) or over repeats. */
export interface SweepSeries {
  /** Swept setting, or `point` for several axes, or `test` when only repeats vary. */
  axis: string;
  x: number[];
  xLabels: string[];
  log: boolean;
  series: { label: string; metric: 'ops' | 'p99'; median: (number | null)[]; min: (number | null)[]; max: (number | null)[] }[];
  /** One row per x: the numbers behind the chart. */
  table: { label: string; test: string; ops: string; p99: string }[];
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
  sweep?: SweepSeries;
  /** Series beyond this many are left out of a chart (named in `omitted`). */
  omitted: string[];
}

export const MAX_CHART_SERIES = 12;

// ---------------------------------------------------------------------------------------------------
// Histograms

export interface DecodedHistogram {
  /** Highest equivalent value (µs) of each non-empty slot, ascending. */
  values: Float64Array;
  /** Lowest equivalent value (µs) of each non-empty slot. */
  lows: Float64Array;
  counts: Float64Array;
  total: number;
}

const decodedCache = new Map<string, DecodedHistogram>();

/** Decodes a compressed base64 HDR histogram (hdr-histogram-js) into its non-empty slots. Cached: histograms never change. */
export function decodeHistogram(base64: string): DecodedHistogram {
  const cached = decodedCache.get(base64);
  if (cached) return cached;
  const values: number[] = [];
  const lows: number[] = [];
  const counts: number[] = [];
  let total = 0;
  if (base64) {
    const histogram = hdr.decodeFromCompressedBase64(base64, 64, false) as hdr.JsHistogram;
    // A plain scan of the counts: hdr-histogram-js's recordedValuesIterator is ~50× slower.
    const length = histogram.countsArrayLength;
    for (let index = 0; index < length; index++) {
      const count = histogram.getCountAtIndex(index);
      if (count === 0) continue;
      const low = histogram.valueFromIndex(index);
      lows.push(histogram.lowestEquivalentValue(low));
      values.push(histogram.highestEquivalentValue(low));
      counts.push(count);
      total += count;
    }
  }
  const decoded = { values: Float64Array.from(values), lows: Float64Array.from(lows), counts: Float64Array.from(counts), total };
  if (decodedCache.size > 500) decodedCache.clear();
  decodedCache.set(base64, decoded);
  return decoded;
}

/** One unit in the last place of a double (as hdr-histogram-js computes it). */
function ulp(x: number): number {
  return Math.pow(2, Math.floor(Math.log2(x)) - 52);
}

/** The value at each percentile (ascending percentiles 0…100), exactly as hdr-histogram-js's getValueAtPercentile computes it. */
export function valuesAtPercentiles(histogram: DecodedHistogram, percentiles: readonly number[]): number[] {
  const out: number[] = [];
  let slot = 0;
  let cumulative = histogram.counts[0] ?? 0;
  for (const percentile of percentiles) {
    if (histogram.total === 0) {
      out.push(0);
      continue;
    }
    const fpCount = (Math.min(percentile, 100) / 100) * histogram.total;
    const wanted = Math.max(fpCount > 0 ? Math.ceil(fpCount - ulp(fpCount)) : 0, 1);
    while (cumulative < wanted && slot < histogram.values.length - 1) cumulative += histogram.counts[++slot];
    out.push(percentile === 0 ? histogram.lows[slot] : histogram.values[slot]);
  }
  return out;
}

/** The percentile grid of the curve: p0, then 12 steps per decade of 1/(1-p) up to p99.999. */
export function percentileGrid(stepsPerDecade = 12, decades = 5): number[] {
  const grid: number[] = [];
  for (let i = 0; i <= stepsPerDecade * decades; i++) {
    const x = 10 ** (i / stepsPerDecade);
    grid.push(100 * (1 - 1 / x));
  }
  return grid;
}

export function percentileCurve(histograms: { label: string; histogram: DecodedHistogram }[]): PercentileCurve {
  const percentiles = percentileGrid();
  const x = percentiles.map((p) => 1 / (1 - p / 100));
  return {
    x,
    percentiles,
    series: histograms.map(({ label, histogram }) => ({
      label,
      values: histogram.total > 0 ? valuesAtPercentiles(histogram, percentiles).map((us) => us / 1000) : percentiles.map(() => null),
    })),
  };
}

/** Share of requests per log-spaced latency bin (`perDecade` bins per factor of ten), over the range all series share. */
export function histogramBars(histograms: { label: string; histogram: DecodedHistogram }[], perDecade = 10): HistogramBars | undefined {
  const filled = histograms.filter((h) => h.histogram.total > 0);
  if (filled.length === 0) return undefined;
  const low = Math.min(...filled.map((h) => h.histogram.values[0]));
  const high = Math.max(...filled.map((h) => h.histogram.values[h.histogram.values.length - 1]));
  const first = Math.floor(Math.log10(Math.max(1, low)) * perDecade);
  const last = Math.floor(Math.log10(Math.max(1, high)) * perDecade);
  const bins = last - first + 1;
  const x = Array.from({ length: bins }, (_, i) => 10 ** ((first + i) / perDecade) / 1000);
  const series = histograms.map(({ label, histogram }) => {
    if (histogram.total === 0) return { label, values: x.map(() => null) };
    const shares = new Array<number>(bins).fill(0);
    histogram.values.forEach((value, i) => {
      const bin = Math.min(bins - 1, Math.max(0, Math.floor(Math.log10(Math.max(1, value)) * perDecade) - first));
      shares[bin] += histogram.counts[i];
    });
    return { label, values: shares.map((count) => (100 * count) / histogram.total) };
  });
  return { x, ratio: 10 ** (1 / perDecade), series };
}

// ---------------------------------------------------------------------------------------------------
// Building the view-model

/** `value=100 write SET`: the point, the phase when there are several (unless the test is named after it), the test. */
export function testName(point: string, phase: string, test: string, phases: number): string {
  return [point, phases > 1 && phase !== test ? phase : '', test].filter(Boolean).join(' ');
}

function loadLabel(point: string, phase: string, test: string, repeat: number, repeats: number, phases: number): string {
  return [testName(point, phase, test, phases), repeats > 1 ? `#${repeat + 1}` : ''].filter(Boolean).join(' ');
}

function warmupMs(run: RunFile, point: string, phase: string): number {
  return run.plan.points.find((p) => p.label === point)?.phases.find((ph) => ph.name === phase)?.load.warmupMs ?? 0;
}

interface TimedLoad {
  label: string;
  /** Run seconds at which the load's measured second 0 began. */
  offset: number;
  timeline: TimelineSecond[];
}

export function timelineSeries(loads: TimedLoad[]): TimelineSeries | undefined {
  const x: number[] = [];
  const ops: (number | null)[] = [];
  const p50Ms: (number | null)[] = [];
  const p99Ms: (number | null)[] = [];
  const segments: TimelineSeries['segments'] = [];
  const sorted = [...loads].filter((l) => l.timeline.length > 0).sort((a, b) => a.offset - b.offset);
  for (const load of sorted) {
    const start = load.offset + load.timeline[0].t;
    let end = start;
    // A gap before each stretch, so lines do not join separate loads.
    if (x.length > 0) {
      const gapAt = Math.max(x[x.length - 1] + 1e-3, start - 0.5);
      x.push(gapAt);
      ops.push(null);
      p50Ms.push(null);
      p99Ms.push(null);
    }
    for (const second of load.timeline) {
      // A second is plotted at its end; a cut-short last second at its real end.
      const t = load.offset + second.t + (second.partialMs !== undefined ? second.partialMs / 1000 : 1);
      if (x.length > 0 && t <= x[x.length - 1]) continue;
      x.push(t);
      ops.push(second.ops);
      p50Ms.push(second.p50Us / 1000);
      p99Ms.push(second.p99Us / 1000);
      end = t;
    }
    segments.push({ start, end, label: load.label });
  }
  return x.length > 0 ? { x, ops, p50Ms, p99Ms, segments } : undefined;
}

const EVENT_WORDS: Record<string, string> = {
  'bgsave-start': 'snapshot started',
  'bgsave-end': 'snapshot ended',
  'bgsave-failed': 'snapshot failed',
  'aof-rewrite-start': 'AOF rewrite started',
  'aof-rewrite-end': 'AOF rewrite ended',
  'aof-rewrite-failed': 'AOF rewrite failed',
};

export function eventMarks(events: readonly PersistenceEvent[]): EventMark[] {
  return events.map((event) => ({
    t: event.t / 1000,
    kind: event.kind,
    label: EVENT_WORDS[event.kind] ?? event.kind,
    failed: event.kind.endsWith('-failed'),
  }));
}

/** Samples further apart than this (s) have missed ones between them (they are taken once a second). */
const SAMPLE_GAP_S = 1.9;

export function serverSeries(samples: readonly ServerSample[]): ServerSeries | undefined {
  if (samples.length === 0) return undefined;
  const series: ServerSeries = { x: [], usedMemoryMb: [], connectedClients: [] };
  samples.forEach((s, i) => {
    const x = s.t / 1000;
    const previous = series.x[series.x.length - 1];
    if (i > 0 && x - previous > SAMPLE_GAP_S) {
      series.x.push(previous + 1);
      series.usedMemoryMb.push(null);
      series.connectedClients.push(null);
    }
    series.x.push(x);
    series.usedMemoryMb.push(s.usedMemory / (1024 * 1024));
    series.connectedClients.push(s.connectedClients);
  });
  return series;
}

function tableRowFrom(row: ResultRow, order: number): TableRow {
  return {
    order,
    point: row.point,
    phase: row.phase,
    test: row.test,
    command: row.command,
    requests: row.requests,
    opsPerSec: row.opsPerSec,
    opsRange: row.opsRange,
    meanUs: row.meanUs,
    p50Us: row.p50Us,
    p90Us: row.p90Us,
    p99Us: row.p99Us,
    p999Us: row.p999Us,
    maxUs: row.maxUs,
    errors: row.errors,
    errorsByKind: row.errorsByKind,
    status: row.status,
    source: row,
  };
}

/** The row of the load running now, from its last completed second. */
function runningRow(load: LiveLoad, order: number): TableRow {
  const last = load.timeline[load.timeline.length - 1];
  return {
    order,
    point: load.at.point,
    phase: load.at.phase,
    test: load.at.test,
    command: 'total',
    requests: load.tick?.requests ?? 0,
    opsPerSec: last?.ops ?? 0,
    meanUs: NaN,
    p50Us: last?.p50Us ?? NaN,
    p90Us: NaN,
    p99Us: last?.p99Us ?? NaN,
    p999Us: NaN,
    maxUs: last?.maxUs ?? NaN,
    errors: load.tick?.errors ?? 0,
    errorsByKind: {},
    status: 'running',
  };
}

const latencyCell = (us: number) => (Number.isFinite(us) ? formatLatency(us) : '—');

export function tableColumns(rows: readonly TableRow[]): ColumnDef[] {
  const columns: ColumnDef[] = [];
  if (rows.some((row) => row.point)) columns.push({ key: 'point', header: 'Point', numeric: false, cell: (r) => r.point });
  if (new Set(rows.map((row) => row.phase)).size > 1) columns.push({ key: 'phase', header: 'Phase', numeric: false, cell: (r) => r.phase });
  columns.push(
    { key: 'test', header: 'Test', numeric: false, cell: (r) => (r.command === 'total' ? r.test : `${r.test} › ${r.command}`) + (r.status === 'running' ? ' (running)' : '') },
    { key: 'requests', header: 'Requests', numeric: true, cell: (r) => r.requests.toLocaleString('en-US') },
    {
      key: 'opsPerSec',
      header: 'Ops/s',
      numeric: true,
      cell: (r) => formatOps(r.opsPerSec) + (r.opsRange ? ` (${formatOps(r.opsRange[0])}–${formatOps(r.opsRange[1])})` : ''),
    },
    { key: 'meanUs', header: 'Mean', numeric: true, cell: (r) => latencyCell(r.meanUs) },
    { key: 'p50Us', header: 'p50', numeric: true, cell: (r) => latencyCell(r.p50Us) },
    { key: 'p90Us', header: 'p90', numeric: true, cell: (r) => latencyCell(r.p90Us) },
    { key: 'p99Us', header: 'p99', numeric: true, cell: (r) => latencyCell(r.p99Us) },
    { key: 'p999Us', header: 'p99.9', numeric: true, cell: (r) => latencyCell(r.p999Us) },
    { key: 'maxUs', header: 'Max', numeric: true, cell: (r) => latencyCell(r.maxUs) },
    {
      key: 'errors',
      header: 'Errors',
      numeric: true,
      cell: (r) =>
        r.errors === 0
          ? '0'
          : Object.keys(r.errorsByKind).length > 0
            ? Object.entries(r.errorsByKind)
                .map(([kind, n]) => `${kind} ${n.toLocaleString('en-US')}`)
                .join(', ')
            : r.errors.toLocaleString('en-US'),
    },
  );
  return columns;
}

/** Rows sorted by a column (a stable sort; unknown values last); no spec: run order. */
export function sortRows(rows: readonly TableRow[], spec?: SortSpec): TableRow[] {
  const sorted = [...rows];
  if (!spec) return sorted.sort((a, b) => a.order - b.order);
  const key = spec.key;
  const direction = spec.descending ? -1 : 1;
  const text = (row: TableRow) => (key === 'test' ? (row.command === 'total' ? row.test : `${row.test} ${row.command}`) : String(row[key]));
  const numericKey = key !== 'point' && key !== 'phase' && key !== 'test';
  return sorted.sort((a, b) => {
    if (numericKey) {
      const av = a[key] as number;
      const bv = b[key] as number;
      const aBad = !Number.isFinite(av);
      const bBad = !Number.isFinite(bv);
      if (aBad || bBad) return aBad === bBad ? a.order - b.order : aBad ? 1 : -1;
      return av === bv ? a.order - b.order : (av - bv) * direction;
    }
    const compared = text(a).localeCompare(text(b), 'en', { numeric: true });
    return compared === 0 ? a.order - b.order : compared * direction;
  });
}

/** The table as Markdown or redis-benchmark CSV, in the order shown (the running load left out). */
export function exportTable(rows: readonly TableRow[], format: 'csv' | 'markdown', spec?: SortSpec): string {
  const resultRowsInOrder = sortRows(rows, spec).flatMap((row) => (row.source ? [row.source] : []));
  return format === 'csv' ? toRedisBenchmarkCsv(resultRowsInOrder) : toMarkdown(resultRowsInOrder);
}

function headerFrom(run: RunFile, status: PanelStatus, live?: LiveRunState): HeaderInfo {
  const server = run.target.server;
  const header: HeaderInfo = {
    scenario: run.scenario.name,
    file: run.scenario.file,
    target: run.target.display || (live ? 'connecting…' : 'unknown'),
    server: server ? `Redis ${server.version} · ${server.mode}` : undefined,
    local: run.target.local,
    client: run.client,
    status,
    error: run.error,
    startedAt: run.startedAt,
    duration: formatDuration(run.durationMs),
  };
  if (live) {
    const load = currentLoad(live);
    const done = live.loads.filter((l) => l.result).length;
    const total = live.loads[live.loads.length - 1]?.at.total ?? 0;
    if (load) {
      const fraction = load.tick?.fraction;
      const name = [load.at.point, load.at.phase !== 'main' && load.at.phase ? load.at.phase : '', load.at.test].filter(Boolean).join(' ');
      const phase = load.tick?.warmingUp ? 'warming up' : fraction !== undefined ? `${Math.round(fraction * 100)}%` : `${formatDuration(load.tick?.elapsedMs ?? 0)}`;
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
      const load = point.repeats[summary.representative]?.find((l) => l.phase === summary.phase && l.test === summary.test);
      if (!load) continue;
      const name = testName(point.label, summary.phase, summary.test, phases);
      picked.push({ label: name, base64: load.total.histogram });
    }
  }
  if (picked.length === 1) {
    const only = run.points[0].repeats.flat().find((l) => l.commands.length > 1);
    if (only) for (const command of only.commands) picked.push({ label: `${picked[0].label} › ${command.command}`, base64: command.histogram });
  }
  return picked;
}

export function sweepSeries(run: RunFile): SweepSeries | undefined {
  const repeated = run.points.some((p) => p.repeats.length > 1);
  if (run.points.length < 2 && !repeated) return undefined;
  const tests: string[] = [];
  const phases = new Set(run.points.flatMap((p) => p.summary.map((s) => s.phase))).size;
  const nameOf = (phase: string, test: string) => testName('', phase, test, phases);
  for (const point of run.points) for (const s of point.summary) if (!tests.includes(nameOf(s.phase, s.test))) tests.push(nameOf(s.phase, s.test));
  const table: SweepSeries['table'] = [];
  const spreadText = (median: number, min: number, max: number, runs: number, format: (v: number) => string) =>
    runs > 1 ? `${format(median)} (${format(min)}–${format(max)})` : format(median);

  if (run.points.length < 2) {
    // Repeats only: one x per test.
    const point = run.points[0];
    const x = tests.map((_, i) => i + 1);
    const ops = tests.map((name) => point.summary.find((s) => nameOf(s.phase, s.test) === name));
    for (const s of point.summary) {
      table.push({
        label: nameOf(s.phase, s.test),
        test: nameOf(s.phase, s.test),
        ops: spreadText(s.opsPerSec.median, s.opsPerSec.min, s.opsPerSec.max, s.runs, formatOps),
        p99: spreadText(s.p99Us.median, s.p99Us.min, s.p99Us.max, s.runs, formatLatency),
      });
    }
    return {
      axis: 'test',
      x,
      xLabels: tests,
      log: false,
      series: [
        { label: 'ops/s', metric: 'ops', median: ops.map((s) => s?.opsPerSec.median ?? null), min: ops.map((s) => s?.opsPerSec.min ?? null), max: ops.map((s) => s?.opsPerSec.max ?? null) },
        { label: 'p99', metric: 'p99', median: ops.map((s) => (s ? s.p99Us.median / 1000 : null)), min: ops.map((s) => (s ? s.p99Us.min / 1000 : null)), max: ops.map((s) => (s ? s.p99Us.max / 1000 : null)) },
      ],
      table,
    };
  }

  const axes = run.plan.sweepAxes;
  const single = axes.length === 1 && run.points.every((p) => Number.isFinite(p.sweep[axes[0]]));
  const x = run.points.map((p, i) => (single ? p.sweep[axes[0]] : i + 1));
  const positive = x.every((v) => v > 0);
  const log = single && positive && Math.max(...x) / Math.min(...x) >= 20;
  const series: SweepSeries['series'] = [];
  for (const name of tests) {
    const at = run.points.map((p) => p.summary.find((s) => nameOf(s.phase, s.test) === name));
    series.push({
      label: `${name} ops/s`,
      metric: 'ops',
      median: at.map((s) => s?.opsPerSec.median ?? null),
      min: at.map((s) => s?.opsPerSec.min ?? null),
      max: at.map((s) => s?.opsPerSec.max ?? null),
    });
    series.push({
      label: `${name} p99`,
      metric: 'p99',
      median: at.map((s) => (s ? s.p99Us.median / 1000 : null)),
      min: at.map((s) => (s ? s.p99Us.min / 1000 : null)),
      max: at.map((s) => (s ? s.p99Us.max / 1000 : null)),
    });
  }
  for (const point of run.points) {
    for (const s of point.summary) {
      table.push({
        label: point.label,
        test: nameOf(s.phase, s.test),
        ops: spreadText(s.opsPerSec.median, s.opsPerSec.min, s.opsPerSec.max, s.runs, formatOps),
        p99: spreadText(s.p99Us.median, s.p99Us.min, s.p99Us.max, s.runs, formatLatency),
      });
    }
  }
  return { axis: single ? axes[0] : 'point', x, xLabels: run.points.map((p) => p.label), log, series, table };
}

/** Builds everything the panel shows from a run file, or from a live run (then `live` is its state). */
export function buildViewModel(run: RunFile, live?: LiveRunState): ViewModel {
  const results = resultRows(run);
  const rows = results.map((row, i) => tableRowFrom(row, i));
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
          offset: (l.startMs + warmupMs(run, l.at.point, l.at.phase)) / 1000,
          timeline: l.timeline,
        }))
    : run.points.flatMap((point) =>
        point.repeats.flatMap((loads, repeat) =>
          loads.map((load) => ({
            label: loadLabel(point.label, load.phase, load.test, repeat, point.repeats.length, phases),
            offset: (Date.parse(load.startedAt) - startedMs + warmupMs(run, point.label, load.phase)) / 1000,
            timeline: load.timeline,
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

  return {
    header: headerFrom(run, live ? 'running' : run.status, live),
    columns: tableColumns(rows),
    rows,
    thresholds: thresholdLines(run.thresholds),
    warnings: runWarnings(run),
    timeline: timelineSeries(timed),
    marks: eventMarks(run.server.events),
    percentiles: hasLatency ? percentileCurve(decoded) : undefined,
    histogram: hasLatency ? histogramBars(decoded) : undefined,
    server: serverSeries(run.server.samples),
    sweep,
    omitted,
  };
}

/** The live view-model: the run so far, plus the load running now. */
export function buildLiveViewModel(state: LiveRunState): ViewModel {
  return buildViewModel(liveRunFile(state), state);
}

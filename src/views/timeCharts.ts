// The results panel's charts over time and over sweep points: the per-second timeline of each load, the
// persistence events, the server's samples, and each test's median and spread over points or repeats.
// Pure: bundled into the webview and unit-tested.
import type { Stall, TimelineSecond } from '../engine';
import { ownValue } from '../gates/plainData';
import { formatLatency, formatOps } from '../results/format';
import type { PersistenceEvent, RunFile } from '../results/runFile';
import type { ServerSample } from '../redis/types';
import { serverTimeAt, serverTimeText } from './serverTime';
import { stallSpans, type StallSpan } from './stalls';

/** Latency and throughput over run time (seconds since the run started), one stretch per load with gaps between. */
export interface TimelineSeries {
  x: number[];
  ops: (number | null)[];
  p50Ms: (number | null)[];
  p99Ms: (number | null)[];
  /** Cluster loads: MOVED + ASK redirections answered in each bucket (a count, not a rate); absent for a run on one server. */
  redirections?: (number | null)[];
  /** Each load's stretch, for labels: [start, end] in run seconds. */
  segments: { start: number; end: number; label: string }[];
  /** Stretches without replies (LoadResult.stalls) in run seconds, shaded; absent when no load had one. */
  stalls?: StallSpan[];
  /**
   * The latency axis's top (ms) when a few buckets' p99 (a start-up spike) stand far above the rest: a high
   * percentile of the buckets, so that one spike does not flatten the whole run. Absent: the axis fits every point.
   */
  latencyAxisMaxMs?: number;
  /** The buckets above `latencyAxisMaxMs`, drawn as marks at the axis's top with their value. */
  latencyOutliers?: { x: number; ms: number }[];
  /**
   * Client groups (`load NAME`), which run at the same time: a line of their own each, on the same `x`, named
   * after the group. A value is `undefined` where the x is another line's bucket (the line runs on across it)
   * and null for a gap between the group's separate loads. `ops`, `p50Ms` and `p99Ms` then hold only the
   * loads of no group (all `undefined` in a run of groups only).
   */
  groups?: GroupLine[];
}

export interface GroupLine {
  name: string;
  background: boolean;
  ops: (number | null | undefined)[];
  p99Ms: (number | null | undefined)[];
}

/** Fewer buckets than this: every point is shown as it is (a percentile of a handful says nothing). */
const MIN_BUCKETS_TO_CLIP = 10;
/** The axis fits this percentile of the buckets' p99 … */
const CLIP_PERCENTILE = 95;
/** … with this much head room; only points above it are outliers. */
const CLIP_HEADROOM = 1.5;

/** Where the timeline's latency axis stops, and the points above it; undefined when every point fits. */
export function latencyClip(x: readonly number[], p99Ms: readonly (number | null)[]): Pick<TimelineSeries, 'latencyAxisMaxMs' | 'latencyOutliers'> | undefined {
  const values = p99Ms.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (values.length < MIN_BUCKETS_TO_CLIP) return undefined;
  const high = values[Math.min(values.length - 1, Math.ceil((CLIP_PERCENTILE / 100) * values.length) - 1)];
  const top = high * CLIP_HEADROOM;
  if (!(top > 0) || values[values.length - 1] <= top) return undefined;
  const latencyOutliers = p99Ms.flatMap((v, i) => (v !== null && v > top ? [{ x: x[i], ms: v }] : []));
  return { latencyAxisMaxMs: top, latencyOutliers };
}

/**
 * A load's buckets to draw: its last bucket goes when it lasted under half its predecessor (10–30 ms of a 100 ms
 * grid, or a stub of a second): a handful of replies over a sliver of time reads as a spike, not as the load.
 */
export function drawnBuckets(timeline: readonly TimelineSecond[]): readonly TimelineSecond[] {
  if (timeline.length < 2) return timeline;
  const length = (second: TimelineSecond) => second.partialMs ?? 1000;
  const last = timeline[timeline.length - 1];
  return length(last) < length(timeline[timeline.length - 2]) / 2 ? timeline.slice(0, -1) : timeline;
}

/** Persistence events in run seconds (`bgsave-start` …), drawn as marks on time charts. */
export interface EventMark {
  t: number;
  kind: string;
  label: string;
  failed: boolean;
}

export interface ServerSeries {
  x: number[];
  /** null where sampling missed samples (the server was unreachable): the chart shows a gap, not a line across it. */
  usedMemoryMb: (number | null)[];
  connectedClients: (number | null)[];
  /** Server CPU (user + sys) in % of one core over each sample's second; null where unknown or a counter went back (a restart). Absent for older run files. */
  cpuPercent?: (number | null)[];
  /** The server's main thread alone (the one that runs commands), where the server tells. */
  mainThreadCpuPercent?: (number | null)[];
}

/** Median and spread of each test over points (a sweep) or over repeats. */
export interface SweepSeries {
  /** Swept setting, or `point` for several axes, or `test` when only repeats vary. */
  axis: string;
  x: number[];
  xLabels: string[];
  log: boolean;
  /** `server`: the server's time per call in µs (its own axis), when the run file has it; `p50`: a ramp's steps (rampChart.ts). */
  series: { label: string; metric: 'ops' | 'p50' | 'p99' | 'server'; median: (number | null)[]; min: (number | null)[]; max: (number | null)[] }[];
  /** One row per x: the numbers behind the chart (`server`: µs per call, when any point has it). */
  table: { label: string; test: string; ops: string; p99: string; server?: string }[];
}

/** `value=100 write SET`: the point, the phase when there are several (unless the test is named after it), the test. */
export function testName(point: string, phase: string, test: string, phases: number): string {
  return [point, phases > 1 && phase !== test ? phase : '', test].filter(Boolean).join(' ');
}

export function loadLabel(point: string, phase: string, test: string, repeat: number, repeats: number, phases: number): string {
  return [testName(point, phase, test, phases), repeats > 1 ? `#${repeat + 1}` : ''].filter(Boolean).join(' ');
}

export interface TimedLoad {
  label: string;
  /** A client group's load: drawn on its group's line, not the timeline's. */
  group?: { name: string; background: boolean };
  /** Run seconds at which the load's measured second 0 began. */
  offset: number;
  timeline: TimelineSecond[];
  stalls?: readonly Stall[];
}

export function timelineSeries(loads: TimedLoad[]): TimelineSeries | undefined {
  if (loads.some((load) => load.group && load.timeline.length > 0)) return groupedTimeline(loads);
  const x: number[] = [];
  const ops: (number | null)[] = [];
  const p50Ms: (number | null)[] = [];
  const p99Ms: (number | null)[] = [];
  const redirections: (number | null)[] = [];
  const segments: TimelineSeries['segments'] = [];
  const sorted = [...loads].filter((l) => l.timeline.length > 0).sort((a, b) => a.offset - b.offset);
  for (const load of sorted) {
    const start = load.offset + load.timeline[0].t;
    const buckets = drawnBuckets(load.timeline);
    let end = start;
    // A gap before each stretch, so lines do not join separate loads.
    if (x.length > 0) {
      const gapAt = Math.max(x[x.length - 1] + 1e-3, start - 0.5);
      x.push(gapAt);
      ops.push(null);
      p50Ms.push(null);
      p99Ms.push(null);
      redirections.push(null);
    }
    for (const second of buckets) {
      // A second is plotted at its end; a cut-short last second at its real end.
      const t = load.offset + second.t + (second.partialMs !== undefined ? second.partialMs / 1000 : 1);
      if (x.length > 0 && t <= x[x.length - 1]) continue;
      x.push(t);
      ops.push(second.ops);
      p50Ms.push(second.p50Us / 1000);
      p99Ms.push(second.p99Us / 1000);
      redirections.push(second.moved !== undefined || second.ask !== undefined ? (second.moved ?? 0) + (second.ask ?? 0) : null);
      end = t;
    }
    segments.push({ start, end, label: load.label });
  }
  if (x.length === 0) return undefined;
  const series: TimelineSeries = redirections.some((count) => count !== null)
    ? { x, ops, p50Ms, p99Ms, redirections, segments }
    : { x, ops, p50Ms, p99Ms, segments };
  const stalls = stallSpans(sorted);
  if (stalls.length > 0) series.stalls = stalls;
  return { ...series, ...latencyClip(x, p99Ms) };
}

/** One line's points: the ends of its buckets (run seconds), null values for the gaps between its loads. */
interface LinePoints {
  t: number[];
  ops: (number | null)[];
  p50Ms: (number | null)[];
  p99Ms: (number | null)[];
}

/** A line through loads that follow one another (a group's repeats or points, or the loads of no group). */
function linePoints(loads: readonly TimedLoad[]): LinePoints {
  const line: LinePoints = { t: [], ops: [], p50Ms: [], p99Ms: [] };
  for (const load of [...loads].sort((a, b) => a.offset - b.offset)) {
    const start = load.offset + (load.timeline[0]?.t ?? 0);
    if (line.t.length > 0) {
      line.t.push(Math.max(line.t[line.t.length - 1] + 1e-3, start - 0.5));
      line.ops.push(null);
      line.p50Ms.push(null);
      line.p99Ms.push(null);
    }
    for (const second of drawnBuckets(load.timeline)) {
      const t = load.offset + second.t + (second.partialMs !== undefined ? second.partialMs / 1000 : 1);
      if (line.t.length > 0 && t <= line.t[line.t.length - 1]) continue;
      line.t.push(t);
      line.ops.push(second.ops);
      line.p50Ms.push(second.p50Us / 1000);
      line.p99Ms.push(second.p99Us / 1000);
    }
  }
  return line;
}

/** A line's values on the shared x: its own where it has a point, `undefined` elsewhere (drawn across). */
function onX(x: readonly number[], line: LinePoints, values: (number | null)[]): (number | null | undefined)[] {
  const at = new Map(line.t.map((t, i) => [t, values[i]]));
  return x.map((t) => (at.has(t) ? at.get(t) : undefined));
}

/** The timeline of a run with client groups: a line per group over one x, the loads of no group as one more. */
function groupedTimeline(loads: TimedLoad[]): TimelineSeries | undefined {
  const names = [...new Set(loads.flatMap((load) => (load.group ? [load.group.name] : [])))];
  const plain = linePoints(loads.filter((load) => !load.group && load.timeline.length > 0));
  const lines = names.map((name) => {
    const own = loads.filter((load) => load.group?.name === name && load.timeline.length > 0);
    return { name, background: own.some((load) => load.group!.background), points: linePoints(own) };
  });
  const x = [...new Set([...plain.t, ...lines.flatMap((line) => line.points.t)])].sort((a, b) => a - b);
  if (x.length === 0) return undefined;
  // Only where no line has a point is x not drawn: `undefined` keeps a line going across another's buckets.
  const series: TimelineSeries = {
    x,
    ops: onX(x, plain, plain.ops) as (number | null)[],
    p50Ms: onX(x, plain, plain.p50Ms) as (number | null)[],
    p99Ms: onX(x, plain, plain.p99Ms) as (number | null)[],
    segments: loads
      .filter((load) => !load.group && load.timeline.length > 0)
      .map((load) => ({ start: load.offset + load.timeline[0].t, end: load.offset + load.timeline[load.timeline.length - 1].t + 1, label: load.label })),
    groups: lines.map(({ name, background, points }) => ({ name, background, ops: onX(x, points, points.ops), p99Ms: onX(x, points, points.p99Ms) })),
  };
  const stalls = stallSpans(loads.filter((load) => load.timeline.length > 0));
  if (stalls.length > 0) series.stalls = stalls;
  // The axis is cut as for one line, over the highest p99 any line has at each x.
  const highest = x.map((_, i) => {
    const values = [series.p99Ms[i], ...series.groups!.map((line) => line.p99Ms[i])].filter((v): v is number => typeof v === 'number');
    return values.length > 0 ? Math.max(...values) : null;
  });
  return { ...series, ...latencyClip(x, highest) };
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
    label: ownValue(EVENT_WORDS, event.kind) ?? event.kind,
    failed: event.kind.endsWith('-failed'),
  }));
}

/** Samples further apart than this (s) have missed ones between them (they are taken once a second). */
const SAMPLE_GAP_S = 1.9;

/** The server's CPU seconds in a sample: the process's user + sys, or its main thread's, when it has them. */
type CpuCounter = (s: ServerSample) => number | undefined;
const processCpu: CpuCounter = (s) => (s.cpuUser !== undefined && s.cpuSys !== undefined ? s.cpuUser + s.cpuSys : undefined);
const mainThreadCpu: CpuCounter = (s) => s.cpuMainThread;

/**
 * Server CPU over the second before each sample, % of one core: the CPU counters' delta over the time
 * between two samples. Unknown for the first sample, where either lacks the counters, and where they went
 * back (the server restarted: a gap, not a dip).
 */
export function serverCpuPercent(previous: ServerSample | undefined, sample: ServerSample, counter: CpuCounter = processCpu): number | null {
  const before = previous && counter(previous);
  const now = counter(sample);
  if (!previous || before === undefined || now === undefined) return null;
  const seconds = (sample.t - previous.t) / 1000;
  if (!(seconds > 0) || now < before) return null;
  return ((now - before) / seconds) * 100;
}

/** The server's samples as a chart; undefined below two samples (a run shorter than the 1 s sampling period: one dot says nothing; serverNote says it in words). */
export function serverSeries(samples: readonly ServerSample[]): ServerSeries | undefined {
  if (samples.length < 2) return undefined;
  const series: ServerSeries = { x: [], usedMemoryMb: [], connectedClients: [] };
  const cpu: (number | null)[] = [];
  const mainThread: (number | null)[] = [];
  samples.forEach((s, i) => {
    const x = s.t / 1000;
    const previous = series.x[series.x.length - 1];
    if (i > 0 && x - previous > SAMPLE_GAP_S) {
      series.x.push(previous + 1);
      series.usedMemoryMb.push(null);
      series.connectedClients.push(null);
      cpu.push(null);
      mainThread.push(null);
    }
    series.x.push(x);
    series.usedMemoryMb.push(s.usedMemory / (1024 * 1024));
    series.connectedClients.push(s.connectedClients);
    cpu.push(serverCpuPercent(samples[i - 1], s));
    mainThread.push(serverCpuPercent(samples[i - 1], s, mainThreadCpu));
  });
  if (cpu.some((v) => v !== null)) series.cpuPercent = cpu;
  if (mainThread.some((v) => v !== null)) series.mainThreadCpuPercent = mainThread;
  return series;
}

/** The server's one sample in words, for a run too short for the chart. */
export function serverNote(samples: readonly ServerSample[]): string | undefined {
  if (samples.length !== 1) return undefined;
  const s = samples[0];
  return `Server: one sample (the run was shorter than the 1 s sampling period): used_memory ${(s.usedMemory / (1024 * 1024)).toFixed(1)} MiB, ${s.connectedClients} connected client${s.connectedClients === 1 ? '' : 's'}.`;
}

/** The server's time per call as a sweep series, when any point has it (older run files: none). */
function serverLine(label: string, at: (ReturnType<typeof serverTimeAt> | undefined)[]): SweepSeries['series'] {
  if (at.every((s) => s === undefined)) return [];
  return [{ label, metric: 'server', median: at.map((s) => s?.median ?? null), min: at.map((s) => s?.min ?? null), max: at.map((s) => s?.max ?? null) }];
}

const serverCell = (spread: ReturnType<typeof serverTimeAt>) => (spread ? { server: serverTimeText(spread) } : {});

export function sweepSeries(run: RunFile): SweepSeries | undefined {
  // A rate search's probes run in search order, not along an axis: its chart is the rate chart.
  if (run.plan.rateSearch) return undefined;
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
        ...serverCell(serverTimeAt(point, s.phase, s.test)),
      });
    }
    const server = ops.map((s) => (s ? serverTimeAt(point, s.phase, s.test) : undefined));
    return {
      axis: 'test',
      x,
      xLabels: tests,
      log: false,
      series: [
        {
          label: 'ops/s',
          metric: 'ops',
          median: ops.map((s) => s?.opsPerSec.median ?? null),
          min: ops.map((s) => s?.opsPerSec.min ?? null),
          max: ops.map((s) => s?.opsPerSec.max ?? null),
        },
        {
          label: 'p99',
          metric: 'p99',
          median: ops.map((s) => (s ? s.p99Us.median / 1000 : null)),
          min: ops.map((s) => (s ? s.p99Us.min / 1000 : null)),
          max: ops.map((s) => (s ? s.p99Us.max / 1000 : null)),
        },
        ...serverLine('srv µs/call', server),
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
    series.push(
      ...serverLine(
        `${name} srv µs/call`,
        run.points.map((p, i) => (at[i] ? serverTimeAt(p, at[i].phase, at[i].test) : undefined)),
      ),
    );
  }
  for (const point of run.points) {
    for (const s of point.summary) {
      table.push({
        label: point.label,
        test: nameOf(s.phase, s.test),
        ops: spreadText(s.opsPerSec.median, s.opsPerSec.min, s.opsPerSec.max, s.runs, formatOps),
        p99: spreadText(s.p99Us.median, s.p99Us.min, s.p99Us.max, s.runs, formatLatency),
        ...serverCell(serverTimeAt(point, s.phase, s.test)),
      });
    }
  }
  return { axis: single ? axes[0] : 'point', x, xLabels: run.points.map((p) => p.label), log, series, table };
}

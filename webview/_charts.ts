// The panel's charts (uPlot, canvas). Each chart is built from the view-model's series and the theme's
// colours; a live update calls setData when the series are the same, else the chart is rebuilt.
import uPlot from 'uplot';
import { formatLatency, formatOpsShort } from '../src/results/format';
import type { EventMark, StallSpan, ViewModel } from '../src/views/model';
import type { GroupLine } from '../src/views/timeCharts';
import { usText } from '../src/views/serverTime';
import { dedupeTicks, secondsLabel, timeTicks } from '../src/views/ticks';
import type { Theme } from './_theme';
import { button } from './_dom';

export type ChartId = 'timeline' | 'percentiles' | 'histogram' | 'server' | 'sweep' | 'rate' | 'ramp';

export interface ChartSpec {
  id: ChartId;
  title: string;
  /** What the chart shows, in words (the canvas's aria-label). */
  description: string;
  options: Omit<uPlot.Options, 'width' | 'height'>;
  data: uPlot.AlignedData;
  /** Same signature: the chart can take new data without being rebuilt. */
  signature: string;
  /** A line under the chart explaining marks (or undefined). */
  note?: string;
  /** Charts with a latency axis the user may switch: whether it is log now. */
  logAxis?: boolean;
}

/** The user's choice of a chart's latency axis (log or linear), over the model's default, for this page's life. */
const logAxisChoice = new Map<ChartId, boolean>();
export const logAxisFor = (id: ChartId, byDefault: boolean): boolean => logAxisChoice.get(id) ?? byDefault;

/** The figure's "Log axis" / "Linear axis" button, for a chart that has the choice. */
export function axisToggle(spec: ChartSpec, rerender: () => void): HTMLElement[] {
  if (spec.logAxis === undefined) return [];
  const log = spec.logAxis;
  const toggle = button(
    log ? 'Linear axis' : 'Log axis',
    () => {
      logAxisChoice.set(spec.id, !log);
      rerender();
    },
    { secondary: true },
  );
  toggle.classList.add('axis-toggle');
  toggle.setAttribute('aria-label', `Show ${spec.title} on a ${log ? 'linear' : 'log'} latency axis`);
  return [toggle];
}

export const seconds = (t: number) => secondsLabel(t);
export const ms = (v: number) => (v === 0 ? '0' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toFixed(3));
export const msTick = (v: number | null) => (v === null ? '' : `${ms(v)} ms`);

export function axis(theme: Theme, extra: uPlot.Axis = {}): uPlot.Axis {
  return {
    stroke: theme.foreground,
    font: `${theme.fontSize - 1}px ${theme.font}`,
    labelFont: `${theme.fontSize - 1}px ${theme.font}`,
    grid: { stroke: theme.grid, width: 1 },
    ticks: { stroke: theme.grid, width: 1 },
    ...extra,
  };
}

export function colour(theme: Theme, i: number): string {
  return theme.palette[i % theme.palette.length];
}

/** Saves the canvas state and clips drawing to the plot area (the caller restores it). */
function clipToPlot(u: uPlot): void {
  const { top, height, left, width } = u.bbox;
  u.ctx.save();
  u.ctx.beginPath();
  u.ctx.rect(left, top, width, height);
  u.ctx.clip();
}

/** The plot-high rectangle over [from, to] on the x scale, at least 2 px wide, on whole pixels (its outline drawn at +0.5 stays crisp, wherever the axes put the plot). */
function spanRect(u: uPlot, from: number, to: number): [number, number, number, number] {
  const x0 = Math.round(u.valToPos(from, 'x', true));
  const x1 = Math.round(u.valToPos(to, 'x', true));
  return [Math.min(x0, x1), u.bbox.top, Math.max(2, Math.abs(x1 - x0)), u.bbox.height];
}

/** Persistence marks: a shaded span while a fork ran, a solid line at starts and a red one at failures. */
function marksHook(marks: EventMark[], theme: Theme): (u: uPlot) => void {
  return (u) => {
    if (marks.length === 0) return;
    const { ctx } = u;
    const { top, height } = u.bbox;
    clipToPlot(u);
    const open = new Map<string, number>();
    const spans: { from: number; to: number; kind: string }[] = [];
    for (const mark of marks) {
      const job = mark.kind.replace(/-(start|end|failed)$/, '');
      if (mark.kind.endsWith('-start')) open.set(job, mark.t);
      else if (open.has(job)) {
        spans.push({ from: open.get(job) as number, to: mark.t, kind: job });
        open.delete(job);
      }
    }
    for (const [job, from] of open) spans.push({ from, to: u.scales.x.max ?? from, kind: job });
    ctx.globalAlpha = 0.14;
    for (const span of spans) {
      ctx.fillStyle = span.kind === 'bgsave' ? theme.purple : theme.yellow;
      ctx.fillRect(...spanRect(u, span.from, span.to));
    }
    ctx.globalAlpha = 1;
    ctx.lineWidth = Math.max(1, devicePixelRatio);
    for (const mark of marks) {
      const x = Math.round(u.valToPos(mark.t, 'x', true)) + 0.5;
      ctx.strokeStyle = mark.failed ? theme.red : mark.kind.startsWith('bgsave') ? theme.purple : theme.yellow;
      ctx.setLineDash(mark.kind.endsWith('-end') ? [4 * devicePixelRatio, 3 * devicePixelRatio] : []);
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + height);
      ctx.stroke();
    }
    ctx.restore();
  };
}

/** Stalls (no reply on some or all connections): a shaded stretch with a line at each end. */
function stallsHook(stalls: readonly StallSpan[], theme: Theme): (u: uPlot) => void {
  return (u) => {
    if (stalls.length === 0) return;
    const { ctx } = u;
    clipToPlot(u);
    for (const stall of stalls) {
      const rect = spanRect(u, stall.from, stall.to);
      ctx.globalAlpha = 0.18;
      ctx.fillStyle = theme.red;
      ctx.fillRect(...rect);
      ctx.globalAlpha = 0.8;
      ctx.strokeStyle = theme.red;
      ctx.lineWidth = Math.max(1, devicePixelRatio);
      ctx.strokeRect(rect[0] + 0.5, rect[1] + 0.5, rect[2], rect[3] - 1);
    }
    ctx.restore();
  };
}

/** The legend's "no reply" entry: the words of the stall under the cursor (a bucket is plotted at its end). */
function stallLegend(stalls: readonly StallSpan[], theme: Theme): uPlot.Series {
  return {
    label: 'no reply',
    scale: 'ms',
    stroke: theme.red,
    width: 0,
    points: { show: false },
    value: (u, _v, _series, idx) => {
      const x = idx === null ? undefined : u.data[0][idx];
      const stall = x === undefined ? undefined : stalls.find((s) => x > s.from && x <= s.to + 0.05);
      return stall ? stall.text : '—';
    },
  };
}

function stallsNote(stalls: readonly StallSpan[]): string | undefined {
  return stalls.length > 0 ? `Shaded red: ${stalls.map((s) => s.text).join('; ')}.` : undefined;
}

/** Names of the loads above their stretch of the timeline, when they fit. */
function segmentsHook(segments: { start: number; end: number; label: string }[], theme: Theme): (u: uPlot) => void {
  return (u) => {
    if (segments.length < 2) return;
    const { ctx } = u;
    const { top, left, width } = u.bbox;
    ctx.save();
    ctx.font = `${Math.round((theme.fontSize - 2) * devicePixelRatio)}px ${theme.font}`;
    ctx.fillStyle = theme.muted;
    ctx.textBaseline = 'top';
    for (const segment of segments) {
      // The first load starts before the first bucket's point (the x scale's minimum): label its visible part.
      const x0 = Math.max(left, u.valToPos(segment.start, 'x', true));
      const x1 = Math.min(left + width, u.valToPos(segment.end, 'x', true));
      const w = ctx.measureText(segment.label).width;
      if (w + 6 < x1 - x0) ctx.fillText(segment.label, x0 + 3, top + 2);
    }
    ctx.restore();
  };
}

/** Buckets whose p99 is above the clipped latency axis: a mark at the top edge with the value, so the spike is seen, not hidden. */
function outliersHook(outliers: readonly { x: number; ms: number }[], theme: Theme): (u: uPlot) => void {
  return (u) => {
    if (outliers.length === 0) return;
    const { ctx } = u;
    const { top } = u.bbox;
    const size = 5 * devicePixelRatio;
    ctx.save();
    ctx.fillStyle = theme.orange;
    ctx.font = `${Math.round((theme.fontSize - 2) * devicePixelRatio)}px ${theme.font}`;
    ctx.textBaseline = 'top';
    for (const outlier of outliers) {
      const x = u.valToPos(outlier.x, 'x', true);
      ctx.beginPath();
      ctx.moveTo(x - size, top + size * 1.6);
      ctx.lineTo(x + size, top + size * 1.6);
      ctx.lineTo(x, top);
      ctx.closePath();
      ctx.fill();
      ctx.fillText(`p99 ${ms(outlier.ms)} ms`, x + size * 1.4, top + 1);
    }
    ctx.restore();
  };
}

function outliersNote(t: ViewModel['timeline']): string | undefined {
  if (!t?.latencyOutliers?.length || t.latencyAxisMaxMs === undefined) return undefined;
  const n = t.latencyOutliers.length;
  return `Latency axis cut at ${ms(t.latencyAxisMaxMs)} ms (1.5 × the 95th percentile of the buckets' p99): ${n} bucket${n === 1 ? '' : 's'} above it, marked ▲ at the top with ${n === 1 ? 'its' : 'their'} p99.`;
}

/** Error bars (min–max over repeats) for sweep series that have a spread. */
function whiskersHook(spreads: { series: number; min: (number | null)[]; max: (number | null)[] }[]): (u: uPlot) => void {
  return (u) => {
    const { ctx } = u;
    ctx.save();
    ctx.lineWidth = Math.max(1, devicePixelRatio);
    for (const { series, min, max } of spreads) {
      const s = u.series[series];
      if (!s.show || !s.scale) continue;
      ctx.strokeStyle = typeof s.stroke === 'function' ? (s.stroke(u, series) as string) : (s.stroke as string);
      const xs = u.data[0];
      for (let i = 0; i < xs.length; i++) {
        const lo = min[i];
        const hi = max[i];
        if (lo === null || hi === null || lo === hi) continue;
        const x = Math.round(u.valToPos(xs[i], 'x', true)) + 0.5;
        const y0 = u.valToPos(lo, s.scale, true);
        const y1 = u.valToPos(hi, s.scale, true);
        const cap = 4 * devicePixelRatio;
        ctx.beginPath();
        ctx.moveTo(x, y0);
        ctx.lineTo(x, y1);
        ctx.moveTo(x - cap, y0);
        ctx.lineTo(x + cap, y0);
        ctx.moveTo(x - cap, y1);
        ctx.lineTo(x + cap, y1);
        ctx.stroke();
      }
    }
    ctx.restore();
  };
}

function marksNote(marks: EventMark[]): string | undefined {
  if (marks.length === 0) return undefined;
  const kinds = new Set(marks.map((m) => m.kind.replace(/-(start|end|failed)$/, '')));
  const parts: string[] = [];
  if (kinds.has('bgsave')) parts.push('shaded purple: a background snapshot (BGSAVE) was running');
  if (kinds.has('aof-rewrite')) parts.push('shaded yellow: an AOF rewrite was running');
  if (marks.some((m) => m.failed)) parts.push('red line: it failed');
  return `Marks — ${parts.join('; ')}. Solid line: started; dashed: ended.`;
}

/** 1-2-5 steps between min and max (for log axes: fewer grid lines than uPlot's 1…9 per decade). */
function oneTwoFive(min: number, max: number): number[] {
  const out: number[] = [];
  for (let decade = 10 ** Math.floor(Math.log10(min)); decade <= max; decade *= 10) {
    for (const step of [1, 2, 5]) {
      const v = decade * step;
      if (v >= min && v <= max) out.push(Number(v.toPrecision(6)));
    }
  }
  return out;
}

/** The sweep's scales by metric: the server's time per call has its own (µs). */
export const SWEEP_SCALES = { ops: 'ops', p50: 'ms', p99: 'ms', latency: 'ms', server: 'us' } as const;
export const usValue = (v: number) => `${usText(v)} µs`;
export const zeroToMax = (_u: uPlot, _min: number, max: number): uPlot.Range.MinMax => [0, max > 0 ? max * 1.15 : 1];
/** The outer right axis of the server's µs per call. */
export function serverTimeAxis(theme: Theme): uPlot.Axis {
  return axis(theme, {
    scale: 'us',
    side: 1,
    grid: { show: false },
    values: (_u, splits) => dedupeTicks(splits.map(usValue)),
    size: 64,
    label: 'server µs per call',
  });
}

export const legendValue = (format: (v: number) => string) => (_u: uPlot, v: number | null) => (v === null || v === undefined ? '—' : format(v));

/** Tick labels of the percentile axis, where x = 1 / (1 - p). */
const PERCENTILE_AXIS_LABELS: Record<number, string> = { 1: '0%', 10: '90%', 100: '99%', 1000: '99.9%', 10000: '99.99%', 100000: '99.999%' };

/** Scales, axes and the x series of an HDR-style percentile chart (x = 1 / (1 - p), log scale, p0 to p99.999). */
export function percentileChartOptions(theme: Theme, latencySeries: uPlot.Series[], log = false): ChartSpec['options'] {
  // A log axis spans the decades from the fastest reply to the slowest, so p50 and p99 stand apart instead of hugging zero.
  const y: uPlot.Scale = log
    ? { distr: 3, log: 10, range: (_u, min, max) => [min > 0 ? min / 1.25 : 0.001, max > 0 ? max * 1.25 : 1] }
    : { range: (_u, _min, max) => [0, max > 0 ? max * 1.05 : 1] };
  return {
    scales: { x: { time: false, distr: 3, log: 10, range: [1, 100000] }, y },
    series: [{ label: 'percentile', value: (_u, v) => (v === null ? '—' : `p${(100 * (1 - 1 / v)).toPrecision(6).replace(/\.?0+$/, '')}`) }, ...latencySeries],
    axes: [
      axis(theme, {
        splits: () => [1, 10, 100, 1000, 10000, 100000],
        values: (_u, splits) => splits.map((v) => PERCENTILE_AXIS_LABELS[v] ?? ''),
        label: 'percentile',
      }),
      axis(theme, {
        ...(log ? { splits: (_u: uPlot, _i: number, min: number, max: number) => oneTwoFive(min, max) } : {}),
        values: (_u, splits) => dedupeTicks(splits.map(msTick)),
        size: 72,
        label: log ? 'latency (log)' : 'latency',
      }),
    ],
  };
}

/** Latency values for a log axis: a zero has no place on it (a gap instead). */
export const positiveOnly = (values: readonly (number | null | undefined)[]) => values.map((v) => (v !== null && v !== undefined && v > 0 ? v : null));

/** A client group's two timeline series, in its colour and named after it: throughput solid, p99 dashed. */
function groupSeries(line: GroupLine, stroke: string): uPlot.Series[] {
  const name = line.background ? `${line.name} (background)` : line.name;
  return [
    { label: `${name} ops/s`, scale: 'ops', stroke, width: 1.5, value: legendValue(formatOpsShort), spanGaps: false },
    { label: `${name} p99`, scale: 'ms', stroke, width: 1.25, dash: [5, 3], value: legendValue((v) => `${ms(v)} ms`), spanGaps: false },
  ];
}

export function chartSpecs(model: ViewModel, theme: Theme): ChartSpec[] {
  const specs: ChartSpec[] = [];
  const timeAxis = axis(theme, { values: (_u, splits) => timeTicks(splits), label: 'time into the run' });

  if (model.timeline) {
    const t = model.timeline;
    const redirections = t.redirections;
    const stalls = t.stalls ?? [];
    const groupLines = t.groups ?? [];
    // A run of client groups only draws their lines; the loads of no group keep the usual three.
    const plainLine = groupLines.length === 0 || t.ops.some((v) => v !== undefined && v !== null);
    specs.push({
      id: 'timeline',
      title: `${redirections ? 'Throughput, latency and cluster redirections over time' : 'Throughput and latency over time'}${groupLines.length ? ', per client group' : ''}`,
      description: `Line chart of requests per second (left axis) and ${groupLines.length ? 'p99' : 'p50 and p99'} latency in milliseconds (right axis) for each second of the run, ${groupLines.length ? `a line of each per client group (${groupLines.map((line) => line.name).join(', ')})` : `${t.segments.length} load${t.segments.length === 1 ? '' : 's'}`}${model.marks.length ? ', with background save marks' : ''}${redirections ? ', and cluster MOVED plus ASK redirections counted in each bucket (outer right axis)' : ''}${stalls.length ? `; shaded red where no reply came: ${stalls.map((s) => s.text).join('; ')}` : ''}. The results table holds the numbers.`,
      signature: `timeline:${groupLines.map((line) => line.name).join(',')}:${t.latencyAxisMaxMs ?? ''}:${model.marks.length}:${redirections ? 'redirections:' : ''}${stalls.map((s) => `${s.from}-${s.to}`).join(',')}:${t.segments.map((s) => s.label).join('|')}`,
      note: [outliersNote(t), stallsNote(stalls), marksNote(model.marks)].filter(Boolean).join(' ') || undefined,
      options: {
        scales: {
          x: { time: false },
          ops: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
          ms: { range: (_u, _min, max) => [0, (t.latencyAxisMaxMs ?? max) > 0 ? (t.latencyAxisMaxMs ?? max) * 1.1 : 1] },
          ...(redirections ? { redirections: { range: (_u: uPlot, _min: number, max: number): uPlot.Range.MinMax => [0, max > 0 ? max * 1.1 : 1] } } : {}),
        },
        series: [
          { label: 'time', value: legendValue(seconds) },
          ...(plainLine
            ? [
                { label: 'ops/s', scale: 'ops', stroke: colour(theme, 0), width: 1.5, value: legendValue(formatOpsShort), spanGaps: false },
                { label: 'p50', scale: 'ms', stroke: theme.green, width: 1.25, value: legendValue((v) => `${ms(v)} ms`), spanGaps: false },
                { label: 'p99', scale: 'ms', stroke: theme.orange, width: 1.25, value: legendValue((v) => `${ms(v)} ms`), spanGaps: false },
              ]
            : []),
          ...groupLines.flatMap((line, i) => groupSeries(line, colour(theme, plainLine ? i + 1 : i))),
          ...(redirections
            ? [
                {
                  label: 'MOVED+ASK',
                  scale: 'redirections',
                  stroke: theme.red,
                  width: 1,
                  dash: [4, 3],
                  value: legendValue((v) => `${Math.round(v)} in the bucket`),
                  spanGaps: false,
                },
              ]
            : []),
          ...(stalls.length ? [stallLegend(stalls, theme)] : []),
        ],
        axes: [
          timeAxis,
          axis(theme, { scale: 'ops', values: (_u, splits) => splits.map((v) => formatOpsShort(v)), size: 56, label: 'ops/s' }),
          axis(theme, { scale: 'ms', side: 1, grid: { show: false }, values: (_u, splits) => dedupeTicks(splits.map(msTick)), size: 72, label: 'latency' }),
          ...(redirections
            ? [
                axis(theme, {
                  scale: 'redirections',
                  side: 1,
                  grid: { show: false },
                  values: (_u, splits) => dedupeTicks(splits.map((v) => String(Math.round(v)))),
                  size: 48,
                  label: 'redirections/s',
                }),
              ]
            : []),
        ],
        hooks: {
          draw: [stallsHook(stalls, theme), marksHook(model.marks, theme), segmentsHook(t.segments, theme), outliersHook(t.latencyOutliers ?? [], theme)],
        },
      },
      data: [
        t.x,
        ...(plainLine ? [t.ops, t.p50Ms, t.p99Ms] : []),
        ...groupLines.flatMap((line) => [line.ops, line.p99Ms]),
        ...(redirections ? [redirections] : []),
        ...(stalls.length ? [t.x.map(() => null)] : []),
      ] as uPlot.AlignedData,
    });
  }

  if (model.percentiles) {
    const p = model.percentiles;
    const log = logAxisFor('percentiles', p.log);
    specs.push({
      id: 'percentiles',
      title: 'Latency by percentile',
      description: `Percentile curve (HDR style) of latency in milliseconds from p0 to p99.999 for ${p.series.map((s) => s.label).join(', ')}, decoded from the recorded histograms. The table lists p50, p90, p99, p99.9 and max.`,
      signature: `percentiles:${log}:${p.series.map((s) => s.label).join('|')}`,
      logAxis: log,
      options: percentileChartOptions(
        theme,
        p.series.map((s, i) => ({ label: s.label, stroke: colour(theme, i), width: 1.5, value: legendValue((v: number) => `${ms(v)} ms`) })),
        log,
      ),
      data: [p.x, ...p.series.map((s) => (log ? positiveOnly(s.values) : s.values))],
    });
  }

  if (model.histogram) {
    const h = model.histogram;
    const bars = uPlot.paths.bars?.({ size: [0.92, 80], align: 1 });
    specs.push({
      id: 'histogram',
      title: 'Latency histogram',
      description: `Bar chart: share of requests (percent) in each latency bin from ${formatLatency(h.x[0] * 1000)} to ${formatLatency(h.x[h.x.length - 1] * 1000 * h.ratio)}, ${h.series.length} series.`,
      signature: `histogram:${h.series.map((s) => s.label).join('|')}:${h.x.length}:${h.x[0]}`,
      options: {
        scales: {
          x: { time: false, distr: 3, log: 10, range: [h.x[0], h.x[h.x.length - 1] * h.ratio] },
          y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
        },
        series: [
          { label: 'latency ≥', value: legendValue((v) => `${ms(v)} ms`) },
          ...h.series.map((s, i) => ({
            label: s.label,
            stroke: colour(theme, i),
            fill: colour(theme, i),
            alpha: h.series.length > 1 ? 0.55 : 0.8,
            width: 1,
            paths: bars,
            points: { show: false },
            show: i < 3,
            value: legendValue((v: number) => `${v.toFixed(2)}%`),
          })),
        ],
        axes: [
          axis(theme, {
            splits: (_u, _i, min, max) => oneTwoFive(min, max),
            values: (_u, splits) => splits.map((v) => (v === null ? '' : `${ms(v)} ms`)),
            label: 'latency',
          }),
          axis(theme, { values: (_u, splits) => splits.map((v) => `${v}%`), size: 52, label: 'share of requests' }),
        ],
      },
      data: [h.x, ...h.series.map((s) => s.values)],
    });
  }

  if (model.server) {
    const s = model.server;
    const cpuSeries = [
      // Two colours as well as two dashes: on one process the main thread's CPU often equals the process's, and the lines lie on each other.
      ...(s.cpuPercent ? [{ label: 'server CPU', values: s.cpuPercent, dash: [6, 3], stroke: theme.orange, width: 1.25 }] : []),
      ...(s.mainThreadCpuPercent ? [{ label: 'main thread CPU', values: s.mainThreadCpuPercent, dash: [2, 2], stroke: theme.green, width: 2 }] : []),
    ];
    const cpu = cpuSeries.length > 0;
    specs.push({
      id: 'server',
      title: cpu ? 'Server memory, clients and CPU' : 'Server memory and clients',
      description: `Line chart of the server's used_memory in MiB (left axis) and connected clients (right axis), sampled once a second${cpu ? ", and the server's CPU in % of one core over each second (outer right axis: the process's user + sys dashed in orange, its main thread dotted in green where the server tells; gaps where it was not known or its counters restarted)" : ''}${model.marks.length ? ', with marks where background saves or AOF rewrites started and ended' : ''}.`,
      signature: `server:${model.marks.length}:${cpuSeries.map((c) => c.label).join('|')}`,
      note: marksNote(model.marks),
      options: {
        scales: {
          x: { time: false },
          mem: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
          clients: { range: (_u, _min, max) => [0, Math.max(1, max * 1.2)] },
          ...(cpu ? { cpu: { range: (_u: uPlot, _min: number, max: number): uPlot.Range.MinMax => [0, Math.max(100, max * 1.1)] } } : {}),
        },
        series: [
          { label: 'time', value: legendValue(seconds) },
          { label: 'used_memory', scale: 'mem', stroke: theme.purple, width: 1.5, value: legendValue((v) => `${v.toFixed(1)} MiB`) },
          {
            label: 'connected clients',
            scale: 'clients',
            stroke: theme.blue,
            width: 1.25,
            paths: uPlot.paths.stepped?.({ align: 1 }),
            value: legendValue((v) => String(Math.round(v))),
          },
          ...cpuSeries.map((c) => ({
            label: c.label,
            scale: 'cpu',
            stroke: c.stroke,
            width: c.width,
            dash: c.dash,
            spanGaps: false,
            value: legendValue((v) => `${v.toFixed(0)} %`),
          })),
        ],
        axes: [
          timeAxis,
          axis(theme, { scale: 'mem', values: (_u, splits) => splits.map((v) => `${v.toFixed(v < 10 ? 1 : 0)} MiB`), size: 70, label: 'used_memory' }),
          axis(theme, {
            scale: 'clients',
            side: 1,
            grid: { show: false },
            values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? String(v) : '')),
            size: 44,
            label: 'clients',
          }),
          ...(cpu
            ? [
                axis(theme, {
                  scale: 'cpu',
                  side: 1,
                  grid: { show: false },
                  values: (_u, splits) => splits.map((v) => `${v.toFixed(0)}%`),
                  size: 48,
                  label: 'CPU',
                }),
              ]
            : []),
        ],
        hooks: { draw: [marksHook(model.marks, theme)] },
      },
      data: [s.x, s.usedMemoryMb, s.connectedClients, ...cpuSeries.map((c) => c.values)],
    });
  }

  if (model.sweep) {
    const sw = model.sweep;
    const hasServer = sw.series.some((s) => s.metric === 'server');
    specs.push(
      sweepSpec('sweep', sw, theme, {
        title: sw.axis === 'test' ? 'Repeats: median and spread' : `Sweep: ${sw.axis}`,
        description: `${sw.axis === 'test' ? 'Median' : `Throughput (solid, left axis) and p99 latency (dashed, right axis) against ${sw.axis}; median`}${hasServer ? ", the server's time per call in µs (dotted, outer right axis)," : ''} and min–max spread over repeats as error bars. The sweep table beside it lists the numbers.`,
      }),
    );
  }
  if (model.ramp) {
    const r = model.ramp;
    const tests = r.series.filter((s) => s.metric === 'ops').length;
    specs.push(
      sweepSpec('ramp', r, theme, {
        title: 'Ramp: throughput and latency per step',
        description: `Throughput (solid, left axis), p50 (dotted) and p99 (dashed) latency in milliseconds (right axis) at each step of ${tests === 1 ? 'the ramp' : `${tests} ramps`}, against the step's connected clients (${r.x.length} point${r.x.length === 1 ? '' : 's'}): where throughput stops rising and latency starts to; min–max over repeats as error bars. The results table lists each step.`,
        note: r.note,
      }),
    );
  }
  if (model.rate) specs.push(rateSpec(model.rate, theme));
  return specs;
}

/** Latency (left axis) and achieved throughput (right axis, dashed; the offered rate as the diagonal) against the offered rate. */
function rateSpec(rate: NonNullable<ViewModel['rate']>, theme: Theme): ChartSpec {
  let latencyIndex = 0;
  let achievedIndex = 0;
  const series: uPlot.Series[] = [{ label: 'offered', value: (_u, v) => (v === null ? '—' : `${formatOpsShort(v)}/s`) }];
  for (const s of rate.series) {
    const i = s.metric === 'latency' ? latencyIndex++ : achievedIndex++;
    series.push({
      label: s.label,
      scale: s.metric === 'latency' ? 'ms' : 'ops',
      stroke: s.label === 'offered ops/s' ? theme.lineMuted : colour(theme, s.metric === 'latency' ? i : i + 4),
      width: 1.75,
      dash: s.dashed ? [6, 4] : undefined,
      points: { show: true, size: 6 },
      value: legendValue(s.metric === 'latency' ? (v: number) => `${ms(v)} ms` : formatOpsShort),
    });
  }
  const data: uPlot.AlignedData = [rate.x, ...rate.series.map((s) => s.values)];
  const limit = rate.limitMs;
  const limitHook = (u: uPlot) => {
    if (limit === undefined) return;
    const y = u.valToPos(limit, 'ms', true);
    const ctx = u.ctx;
    ctx.save();
    ctx.strokeStyle = theme.red;
    ctx.setLineDash([2, 3]);
    ctx.beginPath();
    ctx.moveTo(u.bbox.left, y);
    ctx.lineTo(u.bbox.left + u.bbox.width, y);
    ctx.stroke();
    ctx.restore();
  };
  return {
    id: 'rate',
    title: 'Latency against offered load',
    description: `p50 and p99 latency (solid, left axis) and achieved throughput (dashed, right axis; the grey diagonal is the offered rate) at each offered rate${limit !== undefined ? `; the red dotted line is the search's limit of ${ms(limit)} ms` : ''}.`,
    signature: `rate:${rate.series.map((s) => s.label).join('|')}:${rate.x.join(',')}:${limit ?? ''}`,
    note: rate.note,
    options: {
      scales: {
        x: { time: false, distr: rate.x.length > 1 && rate.x[rate.x.length - 1] / rate.x[0] >= 8 ? 3 : 1, log: 10 },
        ms: { range: (_u, _min, max) => [0, Math.max(max, limit ?? 0) * 1.15 || 1] },
        ops: { range: (_u, _min, max) => [0, max > 0 ? max * 1.15 : 1] },
      },
      series,
      axes: [
        // A log axis leaves some splits null (ticks it skips): unlabelled, not a crash that blanks the chart.
        axis(theme, { values: (_u, splits) => splits.map((v) => (v === null ? '' : `${formatOpsShort(v)}/s`)), label: 'offered rate' }),
        axis(theme, { scale: 'ms', values: (_u, splits) => splits.map(msTick), size: 72, label: 'latency' }),
        axis(theme, {
          scale: 'ops',
          side: 1,
          grid: { show: false },
          values: (_u, splits) => splits.map((v) => formatOpsShort(v)),
          size: 56,
          label: 'achieved ops/s',
        }),
      ],
      hooks: { draw: [limitHook] },
    },
    data,
  };
}

export interface MountedChart {
  spec: ChartSpec;
  plot: uPlot;
}

/** A legend marker draws its series' line: solid, dashed or dotted as the line is, so that ops/s and p99, or SET and GET, read apart. */
export function markerDash(dash: number[] | undefined): 'solid' | 'dashed' | 'dotted' {
  if (!dash || dash.length === 0) return 'solid';
  return Math.max(...dash) <= 3 ? 'dotted' : 'dashed';
}

/**
 * The axes as drawn, in words (`ops/s: 0, 10k, 20k | latency: 0.5 ms, 1 ms, …`): the canvas has no text a
 * screen reader or a test can read, so each draw writes it to the chart's `data-axes`.
 */
function axesInWords(u: uPlot): string {
  return u.axes
    .map((a) => {
      const values = (a as uPlot.Axis & { _values?: (string | number | null)[] | null })._values ?? [];
      const label = typeof a.label === 'string' ? `${a.label}: ` : '';
      return label + values.filter((v) => v !== null && v !== '').join(', ');
    })
    .join(' | ');
}

/** A series' line colour as uPlot draws it (a stroke may be a function of the plot). */
function strokeOf(u: uPlot, i: number): string | undefined {
  const stroke = u.series[i].stroke;
  const value = typeof stroke === 'function' ? stroke(u, i) : stroke;
  return typeof value === 'string' ? value : undefined;
}

/** The colour and dash of each shown series, as drawn: what the legend and a contrast check read. */
export function drawnSeries(u: uPlot): DrawnSeries[] {
  const out: DrawnSeries[] = [];
  u.series.forEach((series, i) => {
    const colour = i === 0 || !series.show ? undefined : strokeOf(u, i);
    if (colour) out.push({ label: String(series.label ?? ''), colour, dash: markerDash(series.dash) });
  });
  return out;
}

export interface DrawnSeries {
  label: string;
  colour: string;
  dash: 'solid' | 'dashed' | 'dotted';
}

export function mountChart(spec: ChartSpec, target: HTMLElement, width: number): MountedChart {
  const legend: uPlot.Legend = { show: true, live: true, markers: { width: 3, dash: (u, i) => markerDash(u.series[i].dash) } };
  // The canvas has no text: each draw writes its axes in words and its lines' colours on the chart element.
  const describe = (u: uPlot) => {
    target.dataset.axes = axesInWords(u);
    target.dataset.series = JSON.stringify(drawnSeries(u));
  };
  const hooks = { ...spec.options.hooks, draw: [...(spec.options.hooks?.draw ?? []), describe] };
  const plot = new uPlot({ ...spec.options, hooks, width, height: 260, legend } as uPlot.Options, spec.data, target);
  return { spec, plot };
}

/** The chart as a PNG: the theme's background, the title and the legend's series names, then the plot. */
/**
 * A ResizeObserver that fits each mounted chart to its figure's width (window resizes, the grid
 * re-flowing), debounced: observe the figures, or a container holding them.
 */
export function chartResizer(charts: Map<ChartId, MountedChart>): ResizeObserver {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new ResizeObserver(() => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      for (const chart of charts.values()) {
        const target = chart.plot.root.parentElement;
        if (target && target.clientWidth > 0 && Math.abs(target.clientWidth - chart.plot.width) > 4)
          chart.plot.setSize({ width: target.clientWidth, height: 260 });
      }
    }, 50);
  });
}

export function chartPng(chart: MountedChart, theme: Theme): string {
  const source = chart.plot.ctx.canvas;
  const ratio = source.width / Math.max(1, chart.plot.width);
  const headerHeight = Math.round(28 * ratio);
  const canvas = document.createElement('canvas');
  canvas.width = source.width;
  canvas.height = source.height + headerHeight * 2;
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = theme.foreground;
  ctx.font = `600 ${Math.round(theme.fontSize * 1.1 * ratio)}px ${theme.font}`;
  ctx.textBaseline = 'middle';
  ctx.fillText(chart.spec.title, 8 * ratio, headerHeight / 2);
  ctx.drawImage(source, 0, headerHeight);
  let x = 8 * ratio;
  ctx.font = `${Math.round(theme.fontSize * ratio)}px ${theme.font}`;
  chart.plot.series.forEach((series, i) => {
    if (i === 0 || !series.show) return;
    const stroke = typeof series.stroke === 'function' ? series.stroke(chart.plot, i) : series.stroke;
    ctx.fillStyle = (stroke as string) ?? theme.foreground;
    ctx.fillRect(x, source.height + headerHeight * 1.5 - 5 * ratio, 10 * ratio, 10 * ratio);
    ctx.fillStyle = theme.foreground;
    const label = String(series.label ?? '');
    ctx.fillText(label, x + 14 * ratio, source.height + headerHeight * 1.5);
    x += 14 * ratio + ctx.measureText(label).width + 16 * ratio;
  });
  return canvas.toDataURL('image/png');
}

/** A chart's words: its title, its description (the canvas's aria-label) and a note under it. */
interface ChartWords {
  title: string;
  description: string;
  note?: string;
}

/** The ramp's steps or a sweep's x labelled on the axis one by one up to this many; past it, the axis picks its ticks. */
const MAX_LABELLED_POINTS = 16;

type SweepLike = Pick<NonNullable<ViewModel['sweep']>, 'axis' | 'x' | 'log' | 'series'>;

/** Same signature, same chart: the chart id, the axis, the series and the x. */
export const sweepSignature = (id: ChartId, sw: Pick<SweepLike, 'axis' | 'x'> & { series: readonly { label: string }[] }) =>
  `${id}:${sw.axis}:${sw.series.map((s) => s.label).join('|')}:${sw.x.join(',')}`;

/** A sweep's or a ramp's scales: x linear with half a point's margin (or log), ops/s and ms from 0, the server's µs when drawn. */
export function sweepScales(sw: Pick<SweepLike, 'x' | 'log'>, hasServer: boolean): uPlot.Options['scales'] {
  return {
    x: sw.log ? { time: false, distr: 3, log: 10 } : { time: false, range: [Math.min(...sw.x) - 0.5, Math.max(...sw.x) + 0.5] },
    ops: { range: (_u, _min, max) => [0, max > 0 ? max * 1.15 : 1] },
    ms: { range: (_u, _min, max) => [0, max > 0 ? max * 1.15 : 1] },
    ...(hasServer ? { us: { range: zeroToMax } } : {}),
  };
}

/** A sweep's or a ramp's axes: x, ops/s on the left, latency (ms) on the right, the server's µs per call outside it when drawn. */
export function sweepAxes(
  theme: Theme,
  id: ChartId,
  sw: Pick<SweepLike, 'axis' | 'x'> & { series: readonly { metric: string }[] },
  labelAt: (v: number) => string,
  labels: { ops: string; ms: string },
): uPlot.Axis[] {
  return [
    sweepXAxis(theme, id, sw, labelAt),
    axis(theme, { scale: 'ops', values: (_u, splits) => splits.map((v) => formatOpsShort(v)), size: 56, label: labels.ops }),
    axis(theme, { scale: 'ms', side: 1, grid: { show: false }, values: (_u, splits) => dedupeTicks(splits.map(msTick)), size: 72, label: labels.ms }),
    ...(sw.series.some((s) => s.metric === 'server') ? [serverTimeAxis(theme)] : []),
  ];
}

/** A sweep's x axis, each point labelled; a ramp's, its steps' clients — past MAX_LABELLED_POINTS steps, the axis's own ticks as plain counts. */
export function sweepXAxis(theme: Theme, id: ChartId, sw: Pick<SweepLike, 'axis' | 'x'>, labelAt: (v: number) => string): uPlot.Axis {
  if (id === 'ramp' && sw.x.length > MAX_LABELLED_POINTS)
    return axis(theme, { values: (_u, splits) => splits.map((v) => (v === null || !Number.isInteger(v) ? '' : String(v))), label: 'connected clients' });
  return axis(theme, {
    splits: () => sw.x,
    values: (_u, splits) => splits.map(id === 'ramp' ? String : labelAt),
    label: id === 'ramp' ? 'connected clients' : sw.axis,
  });
}

/**
 * Throughput (solid, left axis) and latency (right axis: p99 dashed, a ramp's p50 dotted; the server's µs per
 * call dotted on its own axis) at each x with min–max error bars: a sweep's points, or a ramp's steps — a ramp
 * is a sweep inside one test. Each test has one colour for all its lines.
 */
function sweepSpec(id: 'sweep' | 'ramp', sw: NonNullable<ViewModel['sweep']> | NonNullable<ViewModel['ramp']>, theme: Theme, words: ChartWords): ChartSpec {
  const numericAxis = sw.axis !== 'point' && sw.axis !== 'test';
  const labelAt = (v: number) => {
    const i = sw.x.indexOf(v);
    return i >= 0 ? (numericAxis && id === 'sweep' ? String(v) : sw.xLabels[i]) : '';
  };
  const index = { ops: 0, p50: 0, p99: 0, server: 0 };
  const hasServer = sw.series.some((s) => s.metric === 'server');
  const hasP50 = sw.series.some((s) => s.metric === 'p50');
  const series: uPlot.Series[] = [{ label: sw.axis, value: (_u, v) => (v === null ? '—' : labelAt(v)) }];
  for (const s of sw.series) {
    const i = index[s.metric]++;
    series.push({
      label: s.label,
      scale: SWEEP_SCALES[s.metric],
      stroke: colour(theme, i),
      width: 1.75,
      dash: s.metric === 'p99' ? [6, 4] : s.metric === 'server' || s.metric === 'p50' ? [2, 3] : undefined,
      points: { show: true, size: 6, fill: colour(theme, i) },
      paths: sw.axis === 'test' ? () => null : undefined,
      // Ramps of several tests climb in their own steps: a line runs on past the other tests' clients.
      ...(id === 'ramp' ? { spanGaps: true } : {}),
      value: legendValue(s.metric === 'ops' ? formatOpsShort : s.metric === 'server' ? usValue : (v: number) => `${ms(v)} ms`),
    });
  }
  const spreads = sw.series.map((s, i) => ({ series: i + 1, min: s.min, max: s.max })).filter((sp) => sp.min.some((v, i) => v !== null && v !== sp.max[i]));
  return {
    id,
    ...words,
    signature: sweepSignature(id, sw),
    options: {
      scales: sweepScales(sw, hasServer),
      series,
      axes: sweepAxes(theme, id, sw, labelAt, { ops: 'ops/s', ms: hasP50 ? 'p50 · p99' : 'p99' }),
      hooks: { draw: [whiskersHook(spreads)] },
    },
    data: [sw.x, ...sw.series.map((s) => s.median)],
  };
}

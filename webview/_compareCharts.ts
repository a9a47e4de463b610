// The comparison panel's charts: every run overlaid on shared axes, one colour per run (the theme's
// palette, in column order), with the results panel's axes, legend values and PNG export (_charts.ts).
import type uPlot from 'uplot';
import { formatOpsShort } from '../src/results/format';
import type { CompareViewModel, OverlaySeries, SweepOverlay } from '../src/views/compareModel';
import { timeTicks } from '../src/views/ticks';
import {
  axis,
  colour,
  legendValue,
  logAxisFor,
  ms,
  positiveOnly,
  msTick,
  percentileChartOptions,
  seconds,
  SWEEP_SCALES,
  sweepScales,
  sweepSignature,
  sweepAxes,
  usValue,
  type ChartSpec,
} from './_charts';
import type { Theme } from './_theme';

/** Dash patterns for a run's second, third… series (its first is solid). */
const DASHES: (number[] | undefined)[] = [undefined, [6, 4], [2, 3], [10, 3, 2, 3]];

function line(theme: Theme, s: OverlaySeries, variant: number, format: (v: number) => string, scale?: string): uPlot.Series {
  return {
    label: s.label,
    ...(scale ? { scale } : {}),
    stroke: colour(theme, s.run),
    width: variant === 0 ? 1.75 : 1.25,
    dash: DASHES[variant % DASHES.length],
    spanGaps: false,
    value: legendValue(format),
  };
}

const msValue = (v: number) => `${ms(v)} ms`;

export function compareChartSpecs(model: CompareViewModel, theme: Theme): ChartSpec[] {
  const specs: ChartSpec[] = [];
  const runs = model.columns.map((c) => c.label).join(', ');

  if (model.timeline) {
    const t = model.timeline;
    specs.push({
      id: 'timeline',
      title: 'Throughput and p99 over time',
      description: `Line chart of requests per second (solid, left axis) and p99 latency in milliseconds (dashed, right axis) for each second since each run started, one colour per run: ${runs}.`,
      signature: `timeline:${t.series.map((s) => s.label).join('|')}`,
      options: {
        scales: {
          x: { time: false },
          ops: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
          ms: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
        },
        series: [
          { label: 'time', value: legendValue(seconds) },
          ...t.series.map((s) => (s.metric === 'ops' ? line(theme, s, 0, formatOpsShort, 'ops') : line(theme, s, 1, msValue, 'ms'))),
        ],
        axes: [
          axis(theme, { values: (_u, splits) => timeTicks(splits), label: 'time into the run' }),
          axis(theme, { scale: 'ops', values: (_u, splits) => splits.map((v) => formatOpsShort(v)), size: 56, label: 'ops/s (solid)' }),
          axis(theme, { scale: 'ms', side: 1, grid: { show: false }, values: (_u, splits) => splits.map(msTick), size: 72, label: 'p99 (dashed)' }),
        ],
      },
      data: [t.x, ...t.series.map((s) => s.values)] as uPlot.AlignedData,
    });
  }

  if (model.percentiles) {
    const p = model.percentiles;
    const log = logAxisFor('percentiles', p.log);
    specs.push({
      id: 'percentiles',
      title: 'Latency by percentile',
      description: `Percentile curves (HDR style) of latency in milliseconds from p0 to p99.999, one colour per run (${runs}), one dash pattern per test. The table lists p50, p90, p99, p99.9 and max.`,
      signature: `percentiles:${log}:${p.series.map((s) => s.label).join('|')}`,
      logAxis: log,
      options: percentileChartOptions(
        theme,
        p.series.map((s) => line(theme, s, s.variant, msValue)),
        log,
      ),
      data: [p.x, ...p.series.map((s) => (log ? positiveOnly(s.values) : s.values))] as uPlot.AlignedData,
    });
  }

  if (model.sweep) {
    const sw = model.sweep;
    const hasServer = sw.series.some((s) => s.metric === 'server');
    specs.push(
      overlaySpec('sweep', sw, theme, {
        title: `Sweep: ${sw.axis}`,
        description: `Throughput (solid, left axis) and p99 latency (dashed, right axis)${hasServer ? " and the server's time per call in µs (dotted, outer right axis)" : ''} against ${sw.axis}, medians over repeats, one colour per run: ${runs}.`,
      }),
    );
  }
  if (model.ramp) {
    specs.push(
      overlaySpec('ramp', model.ramp, theme, {
        title: 'Ramp: throughput and latency per step',
        description: `Throughput (solid, left axis), p50 (dotted) and p99 (dashed) latency in milliseconds (right axis) at each ramp step against its connected clients, one colour per run: ${runs}. A step meets the other runs' step of the same clients on one x.`,
      }),
    );
  }
  return specs;
}

/** Dash of a metric's line: ops/s solid, p99 dashed, the server's µs per call dotted, a ramp's p50 dash-dotted. */
const METRIC_VARIANT: Record<OverlaySeries['metric'], number> = { ops: 0, p99: 1, latency: 1, server: 2, p50: 3 };

/** The runs' sweep (or ramp) curves on one x, one colour per run, a point at each x a run measured. */
function overlaySpec(id: 'sweep' | 'ramp', sw: SweepOverlay, theme: Theme, words: { title: string; description: string }): ChartSpec {
  const hasServer = sw.series.some((s) => s.metric === 'server');
  const hasP50 = sw.series.some((s) => s.metric === 'p50');
  const labelAt = (v: number) => {
    const i = sw.x.indexOf(v);
    return i >= 0 ? sw.xLabels[i] : '';
  };
  return {
    id,
    ...words,
    signature: sweepSignature(id, sw),
    options: {
      scales: sweepScales(sw, hasServer),
      series: [
        { label: sw.axis, value: (_u, v) => (v === null ? '—' : labelAt(v)) },
        ...sw.series.map((s) => ({
          ...line(theme, s, METRIC_VARIANT[s.metric], s.metric === 'ops' ? formatOpsShort : s.metric === 'server' ? usValue : msValue, SWEEP_SCALES[s.metric]),
          spanGaps: true,
          points: { show: true, size: 6, fill: colour(theme, s.run) },
        })),
      ],
      axes: sweepAxes(theme, id, sw, labelAt, { ops: 'ops/s (solid)', ms: hasP50 ? 'p50 (dash-dot) · p99 (dashed)' : 'p99 (dashed)' }),
    },
    data: [sw.x, ...sw.series.map((s) => s.values)] as uPlot.AlignedData,
  };
}

// The results panel's "latency against offered load" chart: p50 and p99 of each test against the offered
// rate (left axis, ms), and the throughput achieved against the offered rate (right axis), for a
// `sweep rate` run or a `find rate` search; the search's limit as a line and its result as a note.
// Pure: bundled into the webview and unit-tested.
import { extraMetric, rateCurve, searchSentence, type RateCurveRow } from '../results/rateCurve';
import type { RunFile } from '../results/runFile';

export interface RateSeries {
  label: string;
  /** `latency` in ms, `achieved` in ops/s (the offered rate is x itself). */
  metric: 'latency' | 'achieved';
  dashed: boolean;
  values: (number | null)[];
}

export interface RateChart {
  /** Offered rates (requests per second), ascending. */
  x: number[];
  series: RateSeries[];
  /** The search's latency limit in ms, drawn as a line. */
  limitMs?: number;
  /** The search's result in a sentence. */
  note?: string;
}

export function rateChart(run: RunFile): RateChart | undefined {
  const curve = rateCurve(run);
  if (!curve) return undefined;
  const x = [...new Set(curve.rows.map((row) => row.offered))];
  const rows = curve.rows;
  const at = (test: string, pick: (row: RateCurveRow) => number) =>
    x.map((offered) => {
      const row = rows.find((r) => r.offered === offered && r.test === test);
      return row ? pick(row) : null;
    });
  const extra = extraMetric(curve.search);
  const prefix = (test: string) => (curve.tests.length > 1 ? `${test} ` : '');
  const series: RateSeries[] = curve.tests.flatMap((test): RateSeries[] => [
    { label: `${prefix(test)}p50`, metric: 'latency', dashed: false, values: at(test, (row) => row.p50Us / 1000) },
    { label: `${prefix(test)}p99`, metric: 'latency', dashed: false, values: at(test, (row) => row.p99Us / 1000) },
    ...(extra
      ? [{ label: `${prefix(test)}${extra}`, metric: 'latency' as const, dashed: false, values: at(test, (row) => (row.metricUs ?? NaN) / 1000) }]
      : []),
    { label: `${prefix(test)}achieved ops/s`, metric: 'achieved', dashed: true, values: at(test, (row) => row.achieved) },
  ]);
  const chart: RateChart = { x, series: [{ label: 'offered ops/s', metric: 'achieved', dashed: true, values: [...x] }, ...series] };
  if (curve.search) {
    chart.limitMs = curve.search.search.limitUs / 1000;
    chart.note = searchSentence(curve.search);
  }
  return chart;
}

// The latency charts of the results panel: HDR histograms decoded from a run file, the percentile curve and
// the log-binned histogram. Pure: bundled into the webview and unit-tested. Charts are computed from the
// HDR histograms only, never from raw samples.
import * as hdr from 'hdr-histogram-js';
import { valuesAtPercentiles as valuesAtSlots } from '../engine/measure/percentile';

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
  /** Whether the latency axis starts as log: the tail is so far above the median (max/p50 ≥ LOG_AXIS_RATIO) that a linear axis flattens p50–p99 against zero. */
  log: boolean;
}

/** max/p50 from which the percentile chart's latency axis is log by default. */
export const LOG_AXIS_RATIO = 10;

/** The largest max/p50 over the curves (x = 2 is p50, the last x the highest percentile); 1 when no curve has both. */
export function tailRatio(x: readonly number[], series: readonly Pick<CurveSeries, 'values'>[]): number {
  const median = x.findIndex((v) => v >= 2 - 1e-9);
  let ratio = 1;
  for (const { values } of series) {
    const p50 = values[median];
    const top = values.reduce<number>((m, v) => (v !== null && v > m ? v : m), 0);
    if (p50 !== null && p50 !== undefined && p50 > 0) ratio = Math.max(ratio, top / p50);
  }
  return ratio;
}

/** Latency histogram: log-spaced bins, share of requests (%) in each bin per series. */
export interface HistogramBars {
  /** Bin lower bounds in ms. */
  x: number[];
  /** Bin upper bound over lower bound. */
  ratio: number;
  series: CurveSeries[];
}

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

/** The value at each percentile (ascending percentiles 0…100) by RBench's one rule (engine/percentile.ts). */
export function valuesAtPercentiles(histogram: DecodedHistogram, percentiles: readonly number[]): number[] {
  return valuesAtSlots({ counts: histogram.counts, lows: histogram.lows, highs: histogram.values }, histogram.total, percentiles);
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
  const series = histograms.map(({ label, histogram }) => ({
    label,
    values: histogram.total > 0 ? valuesAtPercentiles(histogram, percentiles).map((us) => us / 1000) : percentiles.map(() => null),
  }));
  return { x, percentiles, series, log: tailRatio(x, series) >= LOG_AXIS_RATIO };
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

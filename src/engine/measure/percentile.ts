// The one percentile rule of RBench, used by the timeline, the summary, the panel's curve, CSV and compare:
// HdrHistogram_c's hdr_value_at_percentile, the rule redis-benchmark reports with. The value at percentile
// p of n samples is the sample of rank round-half-up(p/100 × n) (at least 1), reported as the highest value
// of its histogram slot (the lowest for p0). hdr-histogram-js (HdrHistogram Java's rule) takes the rank
// ceil(p/100 × n) instead, so its getValueAtPercentile is never used for a figure.

/** The 1-based rank of the sample at `percentile` (0…100) among `total` samples. */
export function percentileRank(percentile: number, total: number): number {
  const requested = Math.min(Math.max(percentile, 0), 100);
  return Math.max(1, Math.floor((requested / 100) * total + 0.5));
}

/** Non-empty histogram slots in ascending order: their count, lowest and highest equivalent value. */
export interface Slots {
  counts: ArrayLike<number>;
  lows: ArrayLike<number>;
  highs: ArrayLike<number>;
}

/** The value at each of `percentiles` (ascending) over `slots` holding `total` samples; 0 when empty. */
export function valuesAtPercentiles(slots: Slots, total: number, percentiles: readonly number[]): number[] {
  const out: number[] = [];
  let slot = 0;
  let cumulative = slots.counts[0] ?? 0;
  for (const percentile of percentiles) {
    if (total === 0 || slots.counts.length === 0) {
      out.push(0);
      continue;
    }
    const rank = percentileRank(percentile, total);
    while (cumulative < rank && slot < slots.counts.length - 1) cumulative += slots.counts[++slot];
    out.push(percentile <= 0 ? slots.lows[slot] : slots.highs[slot]);
  }
  return out;
}

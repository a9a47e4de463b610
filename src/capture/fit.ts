// Fitting what a sample shows to what a scenario can say: the key distribution (uniform, or zipf with its
// exponent by maximum likelihood on the rank-frequency of the key numbers hit), and value sizes (a range
// when they spread evenly between their least and largest, else a weighted list of deciles).
import { quantileSorted } from 'simple-statistics';

export type KeyFit = { kind: 'uniform'; reason: string } | { kind: 'zipf'; exponent: number; ranks: number };

/** Hits a key number needs before its rank counts: below it, the order among keys is mostly noise. */
const MIN_HITS = 5;
/** A fitted exponent below this reads as uniform. */
const UNIFORM_BELOW = 0.15;

/** log-likelihood of counts (by rank 1…K, descending) under zipf(s) truncated to K ranks. */
function logLikelihood(counts: readonly number[], s: number, logRanks: readonly number[], n: number): number {
  let weighted = 0;
  let harmonic = 0;
  for (let r = 0; r < counts.length; r++) {
    weighted += counts[r] * logRanks[r];
    harmonic += Math.exp(-s * logRanks[r]);
  }
  return -s * weighted - n * Math.log(harmonic);
}

/**
 * The key distribution from how often each key number was hit. Zipf's exponent maximises the likelihood of
 * the ranks with at least MIN_HITS hits (golden-section search over 0.01…4); a flat head reads as uniform.
 */
export function fitKeys(hits: Iterable<number>): KeyFit {
  const counts = [...hits].sort((a, b) => b - a);
  // Uniform hits have Poisson counts: their largest stays within a few standard deviations of the mean. Sorting
  // such noise by count would fake a slope, so a head no higher than that reads as uniform before any fit.
  const mean = counts.reduce((sum, count) => sum + count, 0) / Math.max(1, counts.length);
  if (counts.length > 0 && counts[0] <= mean + 6 * Math.sqrt(mean) + 3) {
    return { kind: 'uniform', reason: `no key number stands out (the most hit ${counts[0]} times, the mean ${mean.toFixed(1)})` };
  }
  const head = counts.filter((count) => count >= MIN_HITS);
  if (head.length < 10) return { kind: 'uniform', reason: `too few keys were hit ${MIN_HITS}+ times to tell a skew (${head.length})` };
  const logRanks = head.map((_, r) => Math.log(r + 1));
  const n = head.reduce((sum, count) => sum + count, 0);
  let low = 0.01;
  let high = 4;
  const phi = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 60; i++) {
    const a = high - phi * (high - low);
    const b = low + phi * (high - low);
    if (logLikelihood(head, a, logRanks, n) > logLikelihood(head, b, logRanks, n)) high = b;
    else low = a;
  }
  const exponent = (low + high) / 2;
  if (exponent < UNIFORM_BELOW) return { kind: 'uniform', reason: `the hits are flat (zipf exponent ${exponent.toFixed(2)})` };
  return { kind: 'zipf', exponent: Math.round(exponent * 100) / 100, ranks: head.length };
}

export type SizeFit =
  { kind: 'fixed'; size: number } | { kind: 'range'; min: number; max: number } | { kind: 'weighted'; choices: { size: number; weight: number }[] };

/** Quantiles of sizes (any order): the quartiles a report shows. */
export function sizeQuantiles(values: readonly number[], ps: readonly number[] = [0.25, 0.5, 0.75]): number[] {
  if (values.length === 0) return ps.map(() => 0);
  const sorted = [...values].sort((a, b) => a - b);
  return ps.map((p) => quantileSorted(sorted, p));
}

/** Value sizes as a scenario's `value` line can say them. */
export function fitSizes(values: readonly number[]): SizeFit | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const min = sorted[0];
  const max = sorted[sorted.length - 1];
  if (max - min <= Math.max(1, min * 0.02)) return { kind: 'fixed', size: Math.max(1, Math.round(quantileSorted(sorted, 0.5))) };
  // Even spread: each decile within 4% of the range from where a uniform range puts it.
  const even = [0.1, 0.25, 0.5, 0.75, 0.9].every((p) => Math.abs(quantileSorted(sorted, p) - (min + p * (max - min))) <= 0.04 * (max - min));
  if (even) return { kind: 'range', min: Math.max(1, min), max: Math.max(1, max) };
  // Otherwise the medians of ten equal slices, 10% each (equal sizes merged).
  const choices = new Map<number, number>();
  for (let d = 0; d < 10; d++) {
    const size = Math.max(1, Math.round(quantileSorted(sorted, (d + 0.5) / 10)));
    choices.set(size, (choices.get(size) ?? 0) + 10);
  }
  return { kind: 'weighted', choices: [...choices].map(([size, weight]) => ({ size, weight })) };
}

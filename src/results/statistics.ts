// The comparison's statistics: a 95 % confidence interval for a change, by bootstrap, and THE rule that calls
// a change significant (the table, the Markdown, the compare panel and the regression gate all read the
// verdict it gives). A change is significant only when its interval excludes zero AND it exceeds the noise
// limit; without an interval (too few samples) the noise limit alone decides, and the output says so.
// Seeded: the same runs give the same intervals, on any machine, every time.
import { errorFunction, quantileSorted } from 'simple-statistics';

/** How an interval was obtained; `limit-only` when there were too few samples for one. */
export type StatisticTest = 'bootstrap-repeats' | 'block-bootstrap-timeline' | 'limit-only';

export const CONFIDENCE_PERCENT = 95;
export const RESAMPLES = 2000;
/** Fewer repeats than this on either side: the repeats are too few to resample (3 values have 10 distinct means). */
export const MIN_REPEATS = 3;
/** Fewer full timeline buckets than this on either side: no interval from the timeline. */
export const MIN_TIMELINE_SAMPLES = 8;

/** A 95 % interval of the change, in % of the reference (`-12.4` … `-3.1`). */
export interface ChangeInterval {
  low: number;
  high: number;
  test: Exclude<StatisticTest, 'limit-only'>;
  /** Samples on each side (repeats, or timeline buckets). */
  samples: [number, number];
  /** The block length of a block bootstrap (timeline buckets are autocorrelated). */
  block?: number;
}

/** The samples of one value on one side: one per repeat, and the load's timeline buckets (all repeats'), where known. */
export interface Samples {
  repeats: number[];
  timeline?: number[];
}

/** Mulberry32: a small, well-tested 32-bit generator; seeded, so intervals are reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a text: each row and metric gets its own seed, so an interval does not depend on the rows around it. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * The block length for a moving-block bootstrap of n autocorrelated samples: n^(1/3), the usual order for
 * a mean (Künsch 1989; Hall, Horowitz & Jing 1995), at least 1.
 */
export function blockLength(n: number): number {
  return Math.max(1, Math.round(Math.cbrt(n)));
}

/** The mean of one resample: blocks of `block` consecutive values from random starts, until n values are drawn. */
function resampleMean(values: number[], block: number, random: () => number): number {
  const n = values.length;
  const starts = n - block + 1;
  let sum = 0;
  let drawn = 0;
  while (drawn < n) {
    const start = Math.floor(random() * starts);
    for (let i = 0; i < block && drawn < n; i++, drawn++) sum += values[start + i];
  }
  return sum / n;
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/** Student's t at 97.5 % for 1…30 degrees of freedom. */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069,
  2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/**
 * The tail share of the expanded percentile interval (Hesterberg 2015, "What teachers should know about the
 * bootstrap"): the plain percentile interval is too narrow for small samples (√((n−1)/n), and it ignores
 * t's heavier tails), so the quantiles are taken further out, at Φ(−√(n/(n−1))·t(n−1)). With 3 repeats
 * that is the resamples' extremes; with 30 it is close to the usual 2.5 %.
 */
export function expandedTail(n: number): number {
  if (n < 2) return 0;
  const df = n - 1;
  // Beyond the table: t ≈ z + (z³ + z) / (4·df), the first term of its expansion in 1/df.
  const t = df <= T_975.length ? T_975[df - 1] : 1.96 + (1.96 ** 3 + 1.96) / (4 * df);
  // Φ(z) from the error function (simple-statistics' table of Φ stops at 0.001, too coarse for the tails here).
  const z = -Math.sqrt(n / (n - 1)) * t;
  return Math.max(0, 0.5 * (1 + errorFunction(z / Math.SQRT2)));
}

/**
 * The percentile bootstrap interval of the change of the mean from `reference` to `other`, in % of the
 * reference's mean. Both sides are resampled independently (they are separate runs); `block` 1 is the
 * ordinary bootstrap (independent repeats). The interval is the expanded percentile one (expandedTail) for
 * the smaller side's count of independent pieces (values, or blocks). Undefined when the reference's mean is 0.
 */
export function bootstrapChange(
  reference: number[],
  other: number[],
  block: number,
  seed: number,
  resamples = RESAMPLES,
): { low: number; high: number } | undefined {
  if (mean(reference) === 0) return undefined;
  const random = seededRandom(seed);
  const changes = new Float64Array(resamples);
  const refBlock = Math.min(block, reference.length);
  const otherBlock = Math.min(block, other.length);
  for (let r = 0; r < resamples; r++) {
    const a = resampleMean(reference, refBlock, random);
    const b = resampleMean(other, otherBlock, random);
    // A resample whose reference mean is 0 (a stalled stretch drawn alone) has no percentage: counted as no change.
    changes[r] = a === 0 ? 0 : ((b - a) / Math.abs(a)) * 100;
  }
  const sorted = Array.from(changes).sort((x, y) => x - y);
  const pieces = Math.floor(Math.min(reference.length / refBlock, other.length / otherBlock));
  const tail = expandedTail(pieces);
  return { low: quantileSorted(sorted, tail), high: quantileSorted(sorted, 1 - tail) };
}

/**
 * The interval of a change from two sides' samples: over repeats when both have MIN_REPEATS, else a block
 * bootstrap over the timeline buckets when both have MIN_TIMELINE_SAMPLES, else none.
 */
export function changeInterval(reference: Samples | undefined, other: Samples | undefined, seed: number): ChangeInterval | undefined {
  if (!reference || !other) return undefined;
  if (Math.min(reference.repeats.length, other.repeats.length) >= MIN_REPEATS) {
    const interval = bootstrapChange(reference.repeats, other.repeats, 1, seed);
    return interval && { ...interval, test: 'bootstrap-repeats', samples: [reference.repeats.length, other.repeats.length] };
  }
  if (!reference.timeline || !other.timeline) return undefined;
  const samples: [number, number] = [reference.timeline.length, other.timeline.length];
  if (Math.min(...samples) < MIN_TIMELINE_SAMPLES) return undefined;
  const block = blockLength(Math.min(...samples));
  const interval = bootstrapChange(reference.timeline, other.timeline, block, seed);
  return interval && { ...interval, test: 'block-bootstrap-timeline', samples, block };
}

/**
 * THE significance rule: a change counts only when it is at least the noise limit and, where an interval
 * could be computed, the interval excludes zero. A change from 0 (no percentage) is never noise.
 */
export function isSignificant(percent: number | null, absolute: number, noisePercent: number, interval: ChangeInterval | undefined): boolean {
  if (absolute === 0) return false;
  if (percent === null) return true;
  if (Math.abs(percent) < noisePercent) return false;
  return !interval || interval.low > 0 || interval.high < 0;
}

/** `[-12.4%, -3.1%]`: an interval as the outputs show it. */
export function formatInterval(interval: Pick<ChangeInterval, 'low' | 'high'>): string {
  const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}%`;
  return `[${signed(interval.low)}, ${signed(interval.high)}]`;
}

/** What each test is, in words, for the Markdown and text outputs. */
export const TEST_DESCRIPTIONS: Record<StatisticTest, string> = {
  'bootstrap-repeats': `bootstrap over the repeats (${RESAMPLES} resamples of each run's repeats; expanded percentile interval of the change of the mean, wider for few repeats)`,
  'block-bootstrap-timeline': `moving-block bootstrap over the timeline's buckets (per-second or 100 ms samples are autocorrelated: blocks of n^(1/3) consecutive buckets, ${RESAMPLES} resamples; expanded percentile interval of the change of the mean)`,
  'limit-only': `noise limit only (fewer than ${MIN_REPEATS} repeats and ${MIN_TIMELINE_SAMPLES} timeline buckets on a side, or a value the timeline does not hold)`,
};

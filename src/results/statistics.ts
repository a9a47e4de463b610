// The comparison's statistics: whether a change between two runs is more than the runs' own scatter, and
// THE rule that calls a change significant (the table, the Markdown, the compare panel and the regression
// gate all read the verdict it gives). A change is significant only when it exceeds the noise limit AND,
// where the runs were repeated, an exact permutation test on the repeats rejects "no change"
// (permutationTest.ts); the change shown, its interval and the test are all of one statistic, the
// repeats' centre (repeatsCentre), so an interval always holds the change beside it.
// A run's seconds are not independent samples (a stall, a save, a rewrite spans several, and the load's
// first and last buckets differ from the rest): with one run a side, or too few repeats for the test to
// reach 5 %, significance is not judged and the outputs say so; the noise limit alone applies then.
// bench/significance.mjs measures the test's false-positive rate on A/A pairs and its power for a 10 % change.
import { shiftTest, trimmedLogMean } from './permutationTest';
import { spreadOf } from './summary';

/** How a change was judged: a permutation test on the repeats, or the noise limit alone (`limit-only`). */
export type StatisticTest = 'permutation-repeats' | 'limit-only';

export const CONFIDENCE_PERCENT = 95;
/** The fewest repeats a side for the test to reach 5 % (3 against 3 cannot: its most lopsided split has 1 chance in 10). */
export const MIN_REPEATS = 4;
const ALPHA = 1 - CONFIDENCE_PERCENT / 100;

/** A 95 % interval of the change, in % of the reference (`-12.4` … `-3.1`). */
export interface ChangeInterval {
  low: number;
  high: number;
  test: Exclude<StatisticTest, 'limit-only'>;
  /** Repeats on each side. */
  samples: [number, number];
  /** The change the interval is of: of the repeats' centres (repeatsCentre), in % of the reference's; inside [low, high]. */
  estimate: number;
  /** The test's p-value for "no change": the interval excludes 0 exactly when it is at most 5 %. */
  pValue: number;
}

/** The samples of one value on one side: its figure in each repeat. */
export interface Samples {
  repeats: number[];
}

/**
 * The centre of a side's repeats the comparison shows and tests: the geometric mean of the repeats, from 5
 * repeats on once the highest and lowest are dropped (permutationTest.ts), or their median where a figure
 * is not above 0 (no logarithm).
 */
export function repeatsCentre(values: number[]): number {
  if (values.length <= 1) return values[0] ?? 0;
  return values.every(isPositive) ? Math.exp(trimmedLogMean(values.map(Math.log))) : spreadOf(values).median;
}

const isPositive = (value: number) => value > 0 && Number.isFinite(value);

/**
 * The interval of the change from `reference`'s repeats to `other`'s, in % of the reference: the permutation
 * test of the change of their centres, inverted (permutationTest.ts). Undefined when the repeats are too few
 * for the test to reach 5 % (fewer than 4 a side, or 3 against 4), or a figure is not above 0.
 */
export function changeInterval(reference: Samples | undefined, other: Samples | undefined): ChangeInterval | undefined {
  if (!reference || !other) return undefined;
  const all = [...reference.repeats, ...other.repeats];
  if (Math.min(reference.repeats.length, other.repeats.length) < 3 || !all.every(isPositive)) return undefined;
  const test = shiftTest(reference.repeats.map(Math.log), other.repeats.map(Math.log), ALPHA);
  if (!test) return undefined;
  const percent = (logRatio: number) => Math.expm1(logRatio) * 100;
  return {
    low: percent(test.low),
    high: percent(test.high),
    estimate: percent(test.estimate),
    pValue: test.pAtZero,
    test: 'permutation-repeats',
    samples: [reference.repeats.length, other.repeats.length],
  };
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
  'permutation-repeats':
    'exact permutation test on the repeats (each repeat one observation; the change of their geometric means, from 5 repeats the highest and lowest of each run dropped; the interval is the test inverted)',
  'limit-only': `significance not judged, the noise limit alone (one run each, or fewer than ${MIN_REPEATS} repeats a side: a run's seconds are not independent samples; use \`repeat ${MIN_REPEATS}\` or more)`,
};

// Calibration of the comparison's significance rule (src/results/statistics.ts): pairs of runs drawn from
// realistic per-second throughput, judged by the rule, counted. A/A pairs (the same level) measure the
// false-positive rate; A/B pairs (a known change) the power. Shared by test/unit/compare/significanceCalibration.test.ts
// (seeded, fixed trials) and bench/significance.mjs (more trials, other models, a recorded series).
import { seededRandom } from '../../src/results/permutationTest';
import { changeInterval, isSignificant } from '../../src/results/statistics';

/** A load's seconds: AR(1) noise around the level, and now and then a second or a whole repeat hit by a hiccup. */
export interface SeriesModel {
  /** Seconds per repeat (a repeat's figure is the mean of its seconds). */
  seconds: number;
  /** Correlation of one second with the next (a stall, a save, a rewrite spans several). */
  rho: number;
  /** Spread of one second, as a share of the level. */
  sigma: number;
  /** Chance of a second at a fraction of the level (a fork for a save, a page fault storm). */
  outlierSecond: number;
  /** Chance of a repeat whose every second is slowed (another process took the core). */
  outlierRepeat: number;
}

/**
 * A server-bound load on a quiet machine: seconds spread 4 % and correlated 0.6 with the next, 1 second in 50
 * hit by a hiccup, 1 repeat in 20 slowed throughout (repeats spread about 8 %, mostly from those). A busier
 * machine spreads more and no test finds 10 % as often: bench/significance.mjs gives the power for
 * other spreads and for seconds recorded on the shared machine (test/fixtures/significance).
 */
export const TYPICAL_SERIES: SeriesModel = { seconds: 10, rho: 0.6, sigma: 0.04, outlierSecond: 0.02, outlierRepeat: 0.05 };

/** A draw of one repeat's figure at `level`. */
export type RepeatDraw = (random: () => number, level: number) => number;

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** One repeat's mean throughput from `model`'s seconds. */
export function syntheticRepeat(model: SeriesModel): RepeatDraw {
  return (random, level) => {
    const slowed = random() < model.outlierRepeat ? 0.5 + 0.4 * random() : 1;
    let noise = gaussian(random) * model.sigma;
    let sum = 0;
    for (let s = 0; s < model.seconds; s++) {
      if (s > 0) noise = model.rho * noise + Math.sqrt(1 - model.rho ** 2) * gaussian(random) * model.sigma;
      const hiccup = random() < model.outlierSecond ? 0.2 + 0.6 * random() : 1;
      sum += Math.max(0, level * slowed * hiccup * (1 + noise));
    }
    return sum / model.seconds;
  };
}

/** One repeat's mean throughput from a recorded run's seconds: a stretch of `seconds` at a random start (wrapping), scaled to `level`. */
export function recordedRepeat(series: readonly number[], seconds: number): RepeatDraw {
  const mean = series.reduce((sum, value) => sum + value, 0) / series.length;
  return (random, level) => {
    const start = Math.floor(random() * series.length);
    let sum = 0;
    for (let s = 0; s < seconds; s++) sum += series[(start + s) % series.length];
    return ((sum / seconds) * level) / mean;
  };
}

export interface Calibration {
  pairs: number;
  /** Pairs the rule called significant. */
  significant: number;
  /** Pairs whose interval did not hold the change shown (must be 0). */
  outsideInterval: number;
}

/**
 * `pairs` pairs of `repeats` repeats a side, the second side at `change` × the first's level, judged by the rule
 * with `noisePercent` (0: the test alone). Seeded: the same arguments, the same counts.
 */
export function calibrate(
  draw: RepeatDraw,
  { pairs, repeats, change, noisePercent, seed }: { pairs: number; repeats: number; change: number; noisePercent: number; seed: number },
): Calibration {
  const random = seededRandom(seed);
  let significant = 0;
  let outsideInterval = 0;
  for (let p = 0; p < pairs; p++) {
    const reference = Array.from({ length: repeats }, () => draw(random, 100_000));
    const other = Array.from({ length: repeats }, () => draw(random, 100_000 * change));
    const interval = changeInterval({ repeats: reference }, { repeats: other });
    if (!interval) throw new Error(`no test for ${repeats} repeats a side`);
    if (interval.estimate < interval.low || interval.estimate > interval.high) outsideInterval++;
    if (isSignificant(interval.estimate, interval.estimate, noisePercent, interval)) significant++;
  }
  return { pairs, significant, outsideInterval };
}

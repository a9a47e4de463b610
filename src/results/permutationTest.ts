// The comparison's test on repeats: an exact permutation test of the change of the repeats' middle, and its
// interval by inverting the test. Under "no change" the repeats of the two runs are exchangeable, so each
// way of splitting their pooled figures into groups of the runs' sizes is equally likely; the p-value is the
// share of splits whose change is at least the one seen: counted, not approximated, so the false-positive
// rate is at most 5 % by construction (bench/significance.mjs measures it, and the power).
// The statistic is the difference of trimmed means of the logarithms (each side's highest and lowest
// repeat dropped, from 5 repeats on): a ratio, robust to one outlier repeat on either side (a repeat hit by
// a hiccup becomes a dropped value, not the middle).

/** Mulberry32: a small, well-tested 32-bit generator; seeded, so drawn splits and calibrations are reproducible. */
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

/** Splits enumerated in full up to this many (7 against 7 is 3,432); beyond, this many drawn at random (seeded). */
const EXACT_SPLITS = 5000;
const DRAWN_SPLITS = 1000;
/** Halvings of the search for an interval's end: the log ratio to within 1e-7 of the figures' range. */
const HALVINGS = 24;

/**
 * How many repeats each end of a side drops: one from 5 repeats on, a fifth of them from 10. None below 5:
 * with 4 a side, the splits that differ from the observed one only in a dropped repeat tie with it, and
 * no split is then rare enough for 5 % (the untrimmed 4 against 4 reaches 1 in 35).
 */
export function trimmedCount(n: number): number {
  return n >= 5 ? Math.max(1, Math.floor(n / 5)) : 0;
}

/** The middle of a side's figures: the geometric mean of its repeats once the highest and lowest are dropped. */
export function trimmedLogMean(logs: readonly number[]): number {
  const sorted = [...logs].sort((a, b) => a - b);
  const trim = trimmedCount(sorted.length);
  let sum = 0;
  for (let i = trim; i < sorted.length - trim; i++) sum += sorted[i];
  return sum / (sorted.length - 2 * trim);
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/** Every split (as `inFirst[i]` per pooled position) of m + n into m and n, or a seeded draw of them when there are too many. */
function splitsOf(m: number, n: number): Uint8Array[] {
  const total = m + n;
  const splits: Uint8Array[] = [];
  if (binomial(total, m) <= EXACT_SPLITS) {
    const pick = (from: number, left: number, current: Uint8Array) => {
      if (left === 0) return void splits.push(current.slice());
      for (let i = from; i <= total - left; i++) {
        current[i] = 1;
        pick(i + 1, left - 1, current);
        current[i] = 0;
      }
    };
    pick(0, m, new Uint8Array(total));
    return splits;
  }
  // The observed split first: a drawn test counts it among the splits (p = (1 + as extreme) / (1 + drawn)).
  splits.push(Uint8Array.from({ length: total }, (_, i) => (i < m ? 1 : 0)));
  const random = seededRandom(m * 65_537 + n);
  const order = Array.from({ length: total }, (_, i) => i);
  for (let s = 0; s < DRAWN_SPLITS; s++) {
    for (let i = total - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    const split = new Uint8Array(total);
    for (let i = 0; i < m; i++) split[order[i]] = 1;
    splits.push(split);
  }
  return splits;
}

const splitCache = new Map<string, Uint8Array[]>();

function cachedSplits(m: number, n: number): Uint8Array[] {
  const key = `${m},${n}`;
  let splits = splitCache.get(key);
  if (!splits) splitCache.set(key, (splits = splitsOf(m, n)));
  return splits;
}

/**
 * The p-value of "the second side's log figures exceed the first's by `shift`": the first side moved by
 * `shift`, the share of splits whose change of trimmed means is at least as far from 0 as the observed one.
 */
function pValue(first: readonly number[], second: readonly number[], shift: number, splits: Uint8Array[]): number {
  const pooled = [...first.map((value) => value + shift), ...second];
  const m = first.length;
  const n = second.length;
  const meanOf = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const observed = Math.abs(trimmedLogMean(second) - trimmedLogMean(pooled.slice(0, m)));
  // Ties in the trimmed statistic (repeats of equal figures, as quantized latencies are) are broken by the
  // change of the untrimmed means: still one statistic fixed before the splits are counted, so still exact.
  const observedMeans = Math.abs(meanOf(second) - meanOf(pooled.slice(0, m)));
  const byValue = pooled.map((_, i) => i).sort((a, b) => pooled[a] - pooled[b]);
  const total = pooled.reduce((sum, value) => sum + value, 0);
  const trimFirst = trimmedCount(m);
  const trimSecond = trimmedCount(n);
  const keptFirst = m - 2 * trimFirst;
  const keptSecond = n - 2 * trimSecond;
  // A split equal to the observed one counts as extreme: a tolerance for rounding.
  const tolerance = 1e-9 * (1 + Math.abs(pooled[byValue[pooled.length - 1]]));
  let extreme = 0;
  for (const split of splits) {
    let seenFirst = 0;
    let seenSecond = 0;
    let trimmedFirst = 0;
    let trimmedSecond = 0;
    let sumFirst = 0;
    for (const i of byValue) {
      if (split[i]) {
        if (seenFirst >= trimFirst && seenFirst < m - trimFirst) trimmedFirst += pooled[i];
        sumFirst += pooled[i];
        seenFirst++;
      } else {
        if (seenSecond >= trimSecond && seenSecond < n - trimSecond) trimmedSecond += pooled[i];
        seenSecond++;
      }
    }
    const change = Math.abs(trimmedSecond / keptSecond - trimmedFirst / keptFirst);
    if (change > observed + tolerance) extreme++;
    else if (change >= observed - tolerance && Math.abs((total - sumFirst) / n - sumFirst / m) >= observedMeans - tolerance) extreme++;
  }
  return extreme / splits.length;
}

export interface ShiftTest {
  /** The change of trimmed log means, second over first. */
  estimate: number;
  /** Its interval at `alpha` (log ratios), holding `estimate`; it excludes 0 exactly when `pAtZero` ≤ alpha. */
  low: number;
  high: number;
  /** The p-value of "no change". */
  pAtZero: number;
}

/**
 * The permutation test of `second` against `first` (log figures) and its interval by inversion: the shifts
 * the test does not reject at `alpha`. Undefined when no split could be extreme enough (3 against 3: 1 in 10).
 */
export function shiftTest(first: readonly number[], second: readonly number[], alpha: number): ShiftTest | undefined {
  const splits = cachedSplits(first.length, second.length);
  const estimate = trimmedLogMean(second) - trimmedLogMean(first);
  const values = [...first, ...second];
  const span = 2 * (Math.max(...values) - Math.min(...values)) + 1;
  const rejects = (shift: number) => pValue(first, second, shift, splits) <= alpha;
  // Fully apart, the observed split is the most extreme there is: if even that is not rejected, there is no test.
  if (!rejects(estimate + span) || !rejects(estimate - span)) return undefined;
  const pAtZero = pValue(first, second, 0, splits);
  // Each end is searched between a shift the test rejects and one it does not. On the side of 0, 0 is an end
  // of the search, so the interval excludes 0 exactly when the test rejects 0, whatever the p-value's shape.
  const end = (direction: 1 | -1): number => {
    let inside = estimate;
    let outside = estimate + direction * span;
    if (direction * (0 - estimate) > 0) {
      if (pAtZero <= alpha) outside = 0;
      else inside = 0;
    }
    for (let i = 0; i < HALVINGS; i++) {
      const middle = (inside + outside) / 2;
      if (rejects(middle)) outside = middle;
      else inside = middle;
    }
    return inside;
  };
  return { estimate, low: end(-1), high: end(1), pAtZero };
}

// Latency recording. The hot path records into a plain Float64Array laid out exactly like an
// HdrHistogram (lowest discernible value 1 µs, highest 60 s, 3 significant digits): recording is an
// index computation and an add, cheaper than calling into hdr-histogram-js (WebAssembly or JS) per
// reply. Because the bucket layout is the same, a recorder converts losslessly into an hdr-histogram-js
// histogram (summary.ts, main thread only) for summaries and the mergeable base64 form in results.

import { percentileRank } from './percentile';

export const HIGHEST_TRACKABLE_US = 60_000_000;
export const SIGNIFICANT_DIGITS = 3;
// HdrHistogram's derived constants for lowestDiscernibleValue = 1 and 3 significant digits:
// largestValueWithSingleUnitResolution = 2000 → subBucketCount = 2048 (2^11).
const SUB_BUCKET_COUNT_MAGNITUDE = 11;
const SUB_BUCKET_HALF_COUNT_MAGNITUDE = SUB_BUCKET_COUNT_MAGNITUDE - 1;
const SUB_BUCKET_HALF_COUNT = 1 << SUB_BUCKET_HALF_COUNT_MAGNITUDE;
const SUB_BUCKET_MASK = (1 << SUB_BUCKET_COUNT_MAGNITUDE) - 1;
// Values stay below 2^32, so a 32-bit leading-zero count replaces HdrHistogram's 64-bit one.
const LEADING_ZERO_COUNT_BASE = 32 - SUB_BUCKET_COUNT_MAGNITUDE;

function bucketsNeeded(highest: number): number {
  let smallestUntrackable = 1 << SUB_BUCKET_COUNT_MAGNITUDE;
  let buckets = 1;
  while (smallestUntrackable <= highest) {
    smallestUntrackable *= 2;
    buckets++;
  }
  return buckets;
}

export const COUNTS_LENGTH = (bucketsNeeded(HIGHEST_TRACKABLE_US) + 1) * SUB_BUCKET_HALF_COUNT;

export function countsIndex(value: number): number {
  const bucketIndex = LEADING_ZERO_COUNT_BASE - Math.clz32(value | SUB_BUCKET_MASK);
  const subBucketIndex = value >>> bucketIndex;
  return ((bucketIndex + 1) << SUB_BUCKET_HALF_COUNT_MAGNITUDE) + (subBucketIndex - SUB_BUCKET_HALF_COUNT);
}

/** The lowest value that lands in counts slot `index`. */
export function valueFromIndex(index: number): number {
  let bucketIndex = (index >> SUB_BUCKET_HALF_COUNT_MAGNITUDE) - 1;
  let subBucketIndex = (index & (SUB_BUCKET_HALF_COUNT - 1)) + SUB_BUCKET_HALF_COUNT;
  if (bucketIndex < 0) {
    subBucketIndex -= SUB_BUCKET_HALF_COUNT;
    bucketIndex = 0;
  }
  return subBucketIndex * 2 ** bucketIndex;
}

/** The highest value that lands in the same slot as `index` (what HdrHistogram reports for percentiles and max). */
export function highestEquivalentValue(index: number): number {
  const bucketIndex = Math.max(0, (index >> SUB_BUCKET_HALF_COUNT_MAGNITUDE) - 1);
  return valueFromIndex(index) + 2 ** bucketIndex - 1;
}

/** The middle of slot `index`'s range: what HdrHistogram's mean and standard deviation count its values as. */
export function medianEquivalentValue(index: number): number {
  const bucketIndex = Math.max(0, (index >> SUB_BUCKET_HALF_COUNT_MAGNITUDE) - 1);
  return valueFromIndex(index) + Math.floor(2 ** bucketIndex / 2);
}

/** Non-zero slots of a recorder: what workers send to the main thread (a few KB, transferable). */
export interface SparseCounts {
  indexes: Uint32Array;
  counts: Float64Array;
}

export class LatencyRecorder {
  readonly counts = new Float64Array(COUNTS_LENGTH);
  totalCount = 0;
  private lowestIndex = COUNTS_LENGTH;
  private highestIndex = -1;

  /** Records `count` replies that all took `micros` µs (replies of one batch that arrived in one chunk). */
  record(micros: number, count: number): void {
    const value = micros < HIGHEST_TRACKABLE_US ? (micros < 0 ? 0 : micros) : HIGHEST_TRACKABLE_US;
    const index = countsIndex(value);
    this.counts[index] += count;
    this.totalCount += count;
    if (index > this.highestIndex) this.highestIndex = index;
    if (index < this.lowestIndex) this.lowestIndex = index;
  }

  reset(): void {
    if (this.highestIndex >= 0) this.counts.fill(0, this.lowestIndex, this.highestIndex + 1);
    this.totalCount = 0;
    this.lowestIndex = COUNTS_LENGTH;
    this.highestIndex = -1;
  }

  addSparse(sparse: SparseCounts): void {
    const { indexes, counts } = sparse;
    for (let i = 0; i < indexes.length; i++) {
      const index = indexes[i];
      this.counts[index] += counts[i];
      this.totalCount += counts[i];
      if (index > this.highestIndex) this.highestIndex = index;
      if (index < this.lowestIndex) this.lowestIndex = index;
    }
  }

  /** Adds another recorder's counts slot by slot (no sparse copy: the main thread merges every bucket this way). */
  add(other: LatencyRecorder): void {
    const from = other.lowestIndex;
    const to = other.highestIndex;
    for (let i = from; i <= to; i++) this.counts[i] += other.counts[i];
    this.totalCount += other.totalCount;
    if (to > this.highestIndex) this.highestIndex = to;
    if (to >= 0 && from < this.lowestIndex) this.lowestIndex = from;
  }

  toSparse(): SparseCounts {
    const nonZero = this.nonEmptySlots();
    const indexes = new Uint32Array(nonZero);
    const counts = new Float64Array(nonZero);
    let at = 0;
    for (let i = this.lowestIndex; i <= this.highestIndex; i++) {
      if (this.counts[i] !== 0) {
        indexes[at] = i;
        counts[at++] = this.counts[i];
      }
    }
    return { indexes, counts };
  }

  /** The value at a percentile by RBench's one rule (engine/percentile.ts). */
  valueAtPercentile(percentile: number): number {
    if (this.totalCount === 0) return 0;
    const wanted = percentileRank(percentile, this.totalCount);
    let cumulative = 0;
    for (let i = this.lowestIndex; i <= this.highestIndex; i++) {
      cumulative += this.counts[i];
      if (cumulative >= wanted) return percentile <= 0 ? valueFromIndex(i) : highestEquivalentValue(i);
    }
    return highestEquivalentValue(this.highestIndex);
  }

  /** The lowest and highest slot recorded into (COUNTS_LENGTH and -1 when empty). */
  get lowestRecordedIndex(): number {
    return this.lowestIndex;
  }

  get highestRecordedIndex(): number {
    return this.highestIndex;
  }

  nonEmptySlots(): number {
    let slots = 0;
    for (let i = this.lowestIndex; i <= this.highestIndex; i++) if (this.counts[i] !== 0) slots++;
    return slots;
  }

  maxValue(): number {
    return this.highestIndex < 0 ? 0 : highestEquivalentValue(this.highestIndex);
  }

  /** Calls fn(value, count) for every non-empty slot, value being the slot's lowest value. */
  forEachSlot(fn: (value: number, count: number) => void): void {
    for (let i = this.lowestIndex; i <= this.highestIndex; i++) if (this.counts[i] !== 0) fn(valueFromIndex(i), this.counts[i]);
  }
}

/**
 * Recorders given back for the next merge to borrow. A new recorder is 136 KB of counts, which glibc hands out from
 * its heap, cleared and so resident, once its mmap threshold has moved past that size (the start's reads of the
 * bundle and its code cache move it): a load's end merged its reports through six new ones at once, ~0.8 MB more
 * peak RSS than the load itself (issue 46). Borrowed at the end, they are the load's own, given back by its timeline.
 */
const SPARE_RECORDERS = 8;
const spareRecorders: LatencyRecorder[] = [];

/** An empty recorder: one given back, else a new one. Give it back (returnRecorder) once nothing reads it. */
export function borrowRecorder(): LatencyRecorder {
  return spareRecorders.pop() ?? new LatencyRecorder();
}

/** `recorder` is read no more: emptied, it waits for the next borrowRecorder (a few at most; the rest go to the GC). */
export function returnRecorder(recorder: LatencyRecorder): void {
  recorder.reset();
  if (spareRecorders.length < SPARE_RECORDERS && !spareRecorders.includes(recorder)) spareRecorders.push(recorder);
}

/** `use` with a borrowed recorder, given back after it, whatever it throws. */
export function withRecorder<T>(use: (recorder: LatencyRecorder) => T): T {
  const recorder = borrowRecorder();
  try {
    return use(recorder);
  } finally {
    returnRecorder(recorder);
  }
}

/** Recorders waiting to be borrowed (tests). */
export function spareRecorderCount(): number {
  return spareRecorders.length;
}

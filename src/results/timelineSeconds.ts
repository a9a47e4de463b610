// Whole seconds of a load's timeline. A timeline is all 1 s buckets, or all 100 ms buckets for a short load
// (engine/types.ts TimelineSecond), its last bucket maybe cut short (`partialMs`); `ops` is a rate in both.
import type { LoadResult, TimelineSecond } from '../engine';

/** The length (ms) of a timeline's buckets: 100 when any starts between whole seconds, else 1000. */
export function bucketMs(timeline: readonly TimelineSecond[]): number {
  return timeline.some((bucket) => Math.abs(bucket.t - Math.round(bucket.t)) > 1e-6) ? 100 : 1000;
}

/** The replies of each bucket (its rate times its length). */
export function bucketReplies(bucket: TimelineSecond, lengthMs: number): number {
  return Math.round((bucket.ops * (bucket.partialMs ?? lengthMs)) / 1000);
}

/** The buckets that are whole seconds of the measured window: none of a fine (100 ms) timeline, nor a last second cut short. */
export function fullSeconds(timeline: readonly TimelineSecond[]): TimelineSecond[] {
  return bucketMs(timeline) === 1000 ? timeline.filter((bucket) => bucket.partialMs === undefined) : [];
}

/**
 * p5, p50 and p95 of the per-second throughput over the full seconds of a load's window (fine 100 ms
 * buckets and a last second cut short do not count); undefined without a full second.
 */
export function throughputPercentiles(load: LoadResult): LoadResult['throughputPercentiles'] {
  const sorted = fullSeconds(load.timeline)
    .map((bucket) => bucket.ops)
    .sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  // The same rank rule as latency (engine/percentile.ts): the sample of rank round-half-up(p/100 × n).
  const at = (p: number) => sorted[Math.max(1, Math.floor((p / 100) * sorted.length + 0.5)) - 1];
  return { p5: at(5), p50: at(50), p95: at(95), seconds: sorted.length };
}

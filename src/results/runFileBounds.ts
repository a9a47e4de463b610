// Keeps run files of long runs small: a multi-hour run would otherwise store one timeline entry per
// second per load and one INFO sample per second. Past the caps, timelines are merged into wider
// buckets and samples thinned, and the file says so (`timelineDownsampled`, `server.samplesThinned`),
// so a reader never mistakes a bucket for a second. Documented in docs/run-file.md.
import type { TimelineSecond } from '../engine/types';
import type { RunFile } from './runFile';

/** One hour of 1-second entries; a longer load is stored in buckets of several seconds. */
export const MAX_TIMELINE_POINTS = 3600;
/** INFO samples kept per run (one a second is taken): one hour's worth, then every k-th. */
export const MAX_SERVER_SAMPLES = 3600;

export interface TimelineDownsampled {
  /** Entries of the measured timeline merged into each stored one. */
  entriesPerPoint: number;
  /** Entries before merging. */
  originalPoints: number;
}

/**
 * Merges consecutive entries, `per` at a time. Nothing is flattered: `ops` is the time-weighted mean
 * rate, `errors` (and cluster `moved`/`ask`) the bucket's total, `p99Us` and `maxUs` the worst of the bucket, `p50Us` the mean.
 */
export function downsampleTimeline(timeline: readonly TimelineSecond[], per: number): TimelineSecond[] {
  const out: TimelineSecond[] = [];
  for (let at = 0; at < timeline.length; at += per) {
    const bucket = timeline.slice(at, at + per);
    let seconds = 0;
    let ops = 0;
    let errors = 0;
    let p50 = 0;
    let p99 = 0;
    let max = 0;
    for (const entry of bucket) {
      const length = (entry.partialMs ?? 1000) / 1000;
      seconds += length;
      ops += entry.ops * length;
      errors += entry.errors;
      p50 += entry.p50Us;
      p99 = Math.max(p99, entry.p99Us);
      max = Math.max(max, entry.maxUs);
    }
    const merged: TimelineSecond = { t: bucket[0].t, ops: seconds > 0 ? ops / seconds : 0, errors, p50Us: Math.round(p50 / bucket.length), p99Us: p99, maxUs: max };
    // Cluster redirections are counts: the bucket's total.
    if (bucket.some((entry) => entry.moved !== undefined || entry.ask !== undefined)) {
      merged.moved = bucket.reduce((sum, entry) => sum + (entry.moved ?? 0), 0);
      merged.ask = bucket.reduce((sum, entry) => sum + (entry.ask ?? 0), 0);
    }
    out.push(merged);
  }
  return out;
}

/** `run` with its timelines and server samples within the caps (a copy where something changed). */
export function boundRunFile(run: RunFile): RunFile {
  let changed = false;
  const points = run.points.map((point) => ({
    ...point,
    repeats: point.repeats.map((loads) =>
      loads.map((load) => {
        if (load.timeline.length <= MAX_TIMELINE_POINTS) return load;
        changed = true;
        const per = Math.ceil(load.timeline.length / MAX_TIMELINE_POINTS);
        const timelineDownsampled: TimelineDownsampled = { entriesPerPoint: per, originalPoints: load.timeline.length };
        return { ...load, timeline: downsampleTimeline(load.timeline, per), timelineDownsampled };
      }),
    ),
  }));
  let server = run.server;
  if (server.samples.length > MAX_SERVER_SAMPLES) {
    changed = true;
    const every = Math.ceil(server.samples.length / MAX_SERVER_SAMPLES);
    const samples = server.samples.filter((_, i) => i % every === 0);
    // The last sample closes the run: keep it.
    if (samples[samples.length - 1] !== server.samples[server.samples.length - 1]) samples.push(server.samples[server.samples.length - 1]);
    server = { ...server, samples, samplesThinned: { keptEvery: every, originalSamples: server.samples.length } } as RunFile['server'];
  }
  return changed ? { ...run, points, server } : run;
}

// The load's timeline on the main thread: every worker reports each bucket (100 ms while the load is short,
// then seconds); a bucket closes once all workers reported it (or when the load ends) into one entry
// with the merged latency histogram. A closed bucket's recorder (136 KB of counts) is reset and reused by the
// next bucket: one new ArrayBuffer per bucket would sit as garbage outside the heap until a full collection,
// which the main thread, allocating little, seldom needs (its RSS grew ~1.6 MB a second: issue 46).
import { LatencyRecorder, type SparseCounts } from './measure/histogram';
import type { TimelineSecond } from './types';
import type { SecondReport } from './workerMessages';
import { FINE_TIMELINE_LIMIT_MS } from './workerLoad';
import type { RampSteps } from './measure/rampSteps';

interface FineBucket {
  t: number;
  count: number;
  errors: number;
  moved: number;
  ask: number;
  spanMs: number;
  counts: ReturnType<LatencyRecorder['toSparse']>;
}

interface PendingSecond {
  reports: number;
  count: number;
  errors: number;
  moved: number;
  ask: number;
  spanMs: number;
  recorder: LatencyRecorder;
}

export class TimelineMerge {
  private readonly pending = new Map<number, PendingSecond>();
  private readonly timeline: TimelineSecond[] = [];
  // Count mode: the fine buckets' histograms, regrouped into seconds if the load outlasts the fine limit.
  private readonly fineBuckets: FineBucket[] = [];
  // The latencies of the buckets closed since the last takeLatency(), for live histograms (`--metrics`).
  private readonly unreported = new LatencyRecorder();
  // Recorders of closed buckets, reset, for the next buckets to open.
  private readonly spare: LatencyRecorder[] = [];
  private made = 0;

  /**
   * `countMode`: the load runs a request count (no planned duration). `cluster`: entries carry the
   * redirections, and `onMoved` runs for a bucket that met MOVED replies (slots moved).
   */
  constructor(
    private readonly workers: number,
    private readonly countMode: boolean,
    private readonly cluster: { onMoved(): void } | undefined,
    /** `ramp`: each closed bucket also goes to its step. */
    private readonly steps?: RampSteps,
  ) {}

  /** Adds one worker's report of a bucket; true once every worker has reported it. */
  add(second: SecondReport): boolean {
    let entry = this.pending.get(second.t);
    if (!entry) this.pending.set(second.t, (entry = { reports: 0, count: 0, errors: 0, spanMs: 0, moved: 0, ask: 0, recorder: this.recorder() }));
    entry.reports++;
    entry.count += second.count;
    entry.errors += second.errors;
    entry.spanMs = Math.max(entry.spanMs, second.spanMs);
    entry.recorder.addSparse(second.histogram);
    entry.moved += second.moved ?? 0;
    entry.ask += second.ask ?? 0;
    return entry.reports === this.workers;
  }

  /** Closes the bucket at `t` into the timeline. */
  close(t: number): TimelineSecond {
    const entry = this.pending.get(t)!;
    this.pending.delete(t);
    const second: TimelineSecond = {
      t,
      ops: Math.round((entry.count * 1000) / Math.max(1, entry.spanMs)),
      errors: entry.errors,
      p50Us: entry.recorder.valueAtPercentile(50),
      p99Us: entry.recorder.valueAtPercentile(99),
      maxUs: entry.recorder.maxValue(),
    };
    if (entry.spanMs < 999) second.partialMs = Math.round(entry.spanMs);
    this.unreported.add(entry.recorder);
    this.steps?.add(t, entry.count, entry.errors, entry.spanMs, entry.recorder);
    if (this.cluster) {
      second.moved = entry.moved;
      second.ask = entry.ask;
      // Slots moved: reload the layout for every worker (they already follow each MOVED on their own).
      if (entry.moved > 0) this.cluster.onMoved();
    }
    if (this.countMode && entry.spanMs < 999) {
      this.fineBuckets.push({
        t,
        count: entry.count,
        errors: entry.errors,
        moved: entry.moved,
        ask: entry.ask,
        spanMs: entry.spanMs,
        counts: entry.recorder.toSparse(),
      });
    }
    this.timeline.push(second);
    entry.recorder.reset();
    this.spare.push(entry.recorder);
    return second;
  }

  /** Recorders this merge has made so far: at most the buckets open at once, however long the load. */
  get recordersMade(): number {
    return this.made;
  }

  private recorder(): LatencyRecorder {
    const reused = this.spare.pop();
    if (reused) return reused;
    this.made++;
    return new LatencyRecorder();
  }

  /** The latencies of the buckets closed since the last call: each reply is handed out once. */
  takeLatency(): SparseCounts {
    const counts = this.unreported.toSparse();
    this.unreported.reset();
    return counts;
  }

  /** The last entry so far. */
  last(): TimelineSecond | undefined {
    return this.timeline[this.timeline.length - 1];
  }

  /** The load is over: closes the buckets still open, and returns the whole timeline in order, of one bucket length. */
  finish(): TimelineSecond[] {
    // Seconds still open (the final partial one, or one a terminated worker never reported).
    for (const t of [...this.pending.keys()].sort((a, b) => a - b)) this.close(t);
    this.timeline.sort((a, b) => a.t - b.t);
    coarsenFineBuckets(this.timeline, this.fineBuckets);
    return this.timeline;
  }
}

/**
 * A count-based load that outlasted the fine limit has 100 ms buckets for its first 10 s and seconds after:
 * regroup the fine ones into seconds so the whole timeline has one bucket length (from the recorded
 * histograms, not interpolated).
 */
function coarsenFineBuckets(timeline: TimelineSecond[], fine: FineBucket[]): void {
  const limit = FINE_TIMELINE_LIMIT_MS / 1000;
  if (fine.length === 0 || !timeline.some((s) => s.t >= limit)) return;
  const seconds = new Map<number, { count: number; errors: number; moved: number; ask: number; spanMs: number; recorder: LatencyRecorder }>();
  for (const bucket of fine) {
    const t = Math.floor(bucket.t + 1e-9);
    let second = seconds.get(t);
    if (!second) seconds.set(t, (second = { count: 0, errors: 0, moved: 0, ask: 0, spanMs: 0, recorder: new LatencyRecorder() }));
    second.count += bucket.count;
    second.errors += bucket.errors;
    second.moved += bucket.moved;
    second.ask += bucket.ask;
    second.spanMs += bucket.spanMs;
    second.recorder.addSparse(bucket.counts);
  }
  const coarse: TimelineSecond[] = [...seconds].map(([t, s]) => ({
    t,
    ops: Math.round((s.count * 1000) / Math.max(1, s.spanMs)),
    errors: s.errors,
    p50Us: s.recorder.valueAtPercentile(50),
    p99Us: s.recorder.valueAtPercentile(99),
    maxUs: s.recorder.maxValue(),
    ...(timeline.some((b) => b.moved !== undefined) ? { moved: s.moved, ask: s.ask } : {}),
  }));
  const rest = timeline.filter((s) => s.t >= limit);
  timeline.splice(0, timeline.length, ...coarse, ...rest);
}

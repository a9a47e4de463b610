// The load's timeline on the main thread: every worker reports each bucket (100 ms while the load is short,
// then seconds); a bucket closes once all workers reported it (or when the load ends) into one entry
// with the merged latency histogram. A closed bucket's recorder (136 KB of counts) is reset and reused by the
// next bucket: one new ArrayBuffer per bucket would sit as garbage outside the heap until a full collection,
// which the main thread, allocating little, seldom needs (its RSS grew ~1.6 MB a second: issue 46).
import { borrowRecorder, LatencyRecorder, returnRecorder, withRecorder, type SparseCounts } from './measure/histogram';
import type { TimelineSecond } from './types';
import type { SecondReport } from './workerMessages';
import { FINE_TIMELINE_LIMIT_MS } from './workerLoad';
import type { RampSteps } from './measure/rampSteps';

/**
 * Count mode: one second of the fine (100 ms) buckets, kept in case the load outlasts the fine limit and its
 * timeline is regrouped into seconds. Its histogram is the second's buckets merged (`parts`, one sparse copy each
 * time the second was left and taken up again): a 100 ms bucket's own copy, 100 of them alive to the limit, grew
 * the main thread's RSS by ~1.2 MiB over a load's first 10 s (issue 46).
 */
interface FineSecond {
  count: number;
  errors: number;
  moved: number;
  ask: number;
  spanMs: number;
  parts: SparseCounts[];
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
  // Count mode: the fine buckets by second, regrouped into seconds if the load outlasts the fine limit; the
  // buckets of the second being filled are merged in `fineRecorder` until a bucket of another second closes.
  private readonly fineSeconds = new Map<number, FineSecond>();
  private fineRecorder: LatencyRecorder | undefined;
  private fineSecond = -1;
  // The latencies of the buckets closed since the last takeLatency(), for live histograms (`--metrics`).
  private readonly unreported = new LatencyRecorder();
  // Recorders of open buckets, borrowed (histogram.ts) and given back as each closes, for the next to open.
  private held = 0;
  private mostHeld = 0;

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
    if (this.countMode && entry.spanMs < 999) this.keepFine(t, entry);
    this.timeline.push(second);
    returnRecorder(entry.recorder);
    this.held--;
    return second;
  }

  /** A fine bucket closed: its counts into its second's, its histogram merged into the second being filled. */
  private keepFine(t: number, entry: PendingSecond): void {
    const t1 = Math.floor(t + 1e-9);
    let second = this.fineSeconds.get(t1);
    if (!second) this.fineSeconds.set(t1, (second = { count: 0, errors: 0, moved: 0, ask: 0, spanMs: 0, parts: [] }));
    second.count += entry.count;
    second.errors += entry.errors;
    second.moved += entry.moved;
    second.ask += entry.ask;
    second.spanMs += entry.spanMs;
    if (t1 !== this.fineSecond) this.setFineAside();
    this.fineSecond = t1;
    (this.fineRecorder ??= borrowRecorder()).add(entry.recorder);
  }

  /** The second being filled is left: its merged histogram kept as a sparse copy. */
  private setFineAside(): void {
    const recorder = this.fineRecorder;
    if (recorder === undefined || recorder.totalCount === 0) return;
    this.fineSeconds.get(this.fineSecond)!.parts.push(recorder.toSparse());
    recorder.reset();
  }

  /** The most recorders this merge has held at once: the buckets open at once, however long the load. */
  get recordersMade(): number {
    return this.mostHeld;
  }

  private recorder(): LatencyRecorder {
    this.mostHeld = Math.max(this.mostHeld, ++this.held);
    return borrowRecorder();
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
    this.setFineAside();
    // Their last use: the load's end borrows them for its own merges (histogram.ts borrowRecorder).
    if (this.fineRecorder) returnRecorder(this.fineRecorder);
    this.fineRecorder = undefined;
    coarsenFineBuckets(this.timeline, this.fineSeconds);
    return this.timeline;
  }
}

/**
 * A count-based load that outlasted the fine limit has 100 ms buckets for its first 10 s and seconds after:
 * regroup the fine ones into seconds so the whole timeline has one bucket length (from the recorded
 * histograms, not interpolated), one second at a time through one recorder.
 */
function coarsenFineBuckets(timeline: TimelineSecond[], fine: ReadonlyMap<number, FineSecond>): void {
  const limit = FINE_TIMELINE_LIMIT_MS / 1000;
  if (fine.size === 0 || !timeline.some((s) => s.t >= limit)) return;
  const cluster = timeline.some((b) => b.moved !== undefined);
  const coarse: TimelineSecond[] = withRecorder((recorder) =>
    [...fine.keys()]
      .sort((a, b) => a - b)
      .map((t) => {
        const s = fine.get(t)!;
        recorder.reset();
        for (const part of s.parts) recorder.addSparse(part);
        return {
          t,
          ops: Math.round((s.count * 1000) / Math.max(1, s.spanMs)),
          errors: s.errors,
          p50Us: recorder.valueAtPercentile(50),
          p99Us: recorder.valueAtPercentile(99),
          maxUs: recorder.maxValue(),
          ...(cluster ? { moved: s.moved, ask: s.ask } : {}),
        };
      }),
  );
  const rest = timeline.filter((s) => s.t >= limit);
  timeline.splice(0, timeline.length, ...coarse, ...rest);
}

// The client's own pauses in one engine thread: garbage collection (perf_hooks 'gc' entries), the event
// loop's delay (monitorEventLoopDelay) and its blocks (a short interval timer noting how late it fires).
// A reply whose round trip [sent, received] overlapped pauses of PAUSE_MIN_MS or more, making up at least
// OVERLAP_SHARE of it, holds the client's pause: it goes into a second histogram, so the assembly can tell
// the tail the client made from the rest (a 2 s server freeze with a 3 ms GC inside stays the server's).
// GC entries arrive after the fact, so slow replies wait (bounded) until the pauses around them are known.
// Nothing here allocates per reply: the waiting ring doubles, at most a few times a load, as slow replies need it.
import { monitorEventLoopDelay, performance, PerformanceObserver, type IntervalHistogram } from 'node:perf_hooks';
import { HIGHEST_TRACKABLE_US, LatencyRecorder, type SparseCounts } from './histogram';
import type { ClientPauses } from '../types';
import { PauseSet } from './pauseSet';

/** Pauses shorter than this are the loop's ordinary work, not a pause a reply's latency would show. */
export const PAUSE_MIN_MS = 1;
/** The share of a round trip the client's pauses must fill for the reply to count as overlapped. */
export const OVERLAP_SHARE = 0.25;
/** The block timer's period: a turn of the loop that runs past its due time shows as lateness (any period catches a block; a longer one costs less: 5 ms is about 0.5 % of a core). */
const BLOCK_TIMER_MS = 5;
/** Timers fire up to a millisecond late by granularity alone: lateness beyond this is a block. */
const TIMER_SLACK_MS = 1;
/** GC entries reach the observer well after the pause (tens to a couple of hundred ms): replies are judged this long after they came in. */
const JUDGE_AFTER_MS = 250;
/** Recent pauses kept: enough to cover the replies waiting to be judged. */
const RECENT_PAUSES = 512;
/** Pauses this long are also kept for the whole run (bounded: the longest LONG_PAUSES), to tell a silence the client made. */
const LONG_PAUSE_MS = 5;
const LONG_PAUSES = 256;
/** Slow replies (≥ PAUSE_MIN_MS) waiting to be judged, a ring; when full, its oldest is judged at once. */
const SLOW_CAPACITY = 16384;
/**
 * The ring's first size. Most loads meet few slow replies: three rings of SLOW_CAPACITY are 384 KB, which glibc hands
 * out cleared (so resident) from its heap once its mmap threshold has moved past them (issue 46, peak RSS).
 */
const SLOW_FIRST_CAPACITY = 256;

/** One thread's pauses over the measured part (WorkerResult.pauses): the load's figures before the tail is judged. */
export type WorkerPauses = Omit<ClientPauses, 'tailShare' | 'p999UsWithoutPauses' | 'maxUsWithoutPauses'> & {
  /** Latencies of the replies that overlapped a pause (the total's replies, error replies included). */
  overlapped: SparseCounts;
};

export class PauseMonitor {
  private gcCount = 0;
  private gcMs = 0;
  private gcMaxMs = 0;
  private pauses = 0;
  private pausedMs = 0;
  private overlappedReplies = 0;
  private readonly overlapped = new LatencyRecorder();
  private readonly recent = new PauseSet(RECENT_PAUSES, 'recent');
  private readonly long = new PauseSet(LONG_PAUSES, 'longest');
  // Slow replies waiting to be judged, oldest first (a ring): when they came in, their latency, how many shared it.
  private slowAt = new Float64Array(SLOW_FIRST_CAPACITY);
  private slowMicros = new Float64Array(SLOW_FIRST_CAPACITY);
  private slowCount = new Float64Array(SLOW_FIRST_CAPACITY);
  private slowHead = 0;
  private slowSize = 0;
  private observer: PerformanceObserver | undefined;
  private delay: IntervalHistogram | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastTick = 0;
  private running = false;

  /** Measuring begins: counts from zero, the observers on. */
  start(): void {
    this.stop();
    this.gcCount = this.gcMs = this.gcMaxMs = this.pauses = this.pausedMs = this.overlappedReplies = 0;
    this.overlapped.reset();
    this.slowHead = this.slowSize = 0;
    this.recent.clear();
    this.long.clear();
    this.running = true;
    this.observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) this.gc(entry.startTime, entry.duration);
    });
    this.observer.observe({ entryTypes: ['gc'] });
    this.delay = monitorEventLoopDelay({ resolution: 10 });
    this.delay.enable();
    this.lastTick = performance.now();
    this.timer = setInterval(this.tick, BLOCK_TIMER_MS);
    this.timer.unref();
  }

  /** A reply (or `count` sharing one latency) of the total came in at `now` after `micros` µs. Called only for micros ≥ 1000. */
  slowReply(micros: number, count: number, now: number): void {
    if (!this.running) return;
    if (this.slowSize === this.slowAt.length) {
      if (this.slowAt.length < SLOW_CAPACITY) this.growSlow();
      else this.judgeOldest();
    }
    const i = (this.slowHead + this.slowSize++) % this.slowAt.length;
    this.slowAt[i] = now;
    this.slowMicros[i] = micros;
    this.slowCount[i] = count;
  }

  /** Measuring is over: the last replies judged, the observers off, the figures. */
  finish(): WorkerPauses {
    let eventLoopDelayP99Ms = 0;
    let eventLoopDelayMaxMs = 0;
    if (this.delay && this.delay.count > 0) {
      eventLoopDelayP99Ms = this.delay.percentile(99) / 1e6;
      eventLoopDelayMaxMs = this.delay.max / 1e6;
    }
    if (this.observer) for (const entry of this.observer.takeRecords()) this.gc(entry.startTime, entry.duration);
    // A block the timer had no turn to see yet (the load ended right after it).
    this.tick();
    this.judge(Infinity);
    this.stop();
    return {
      gcCount: this.gcCount,
      gcMs: this.gcMs,
      gcMaxMs: this.gcMaxMs,
      eventLoopDelayP99Ms,
      eventLoopDelayMaxMs,
      pauses: this.pauses,
      pausedMs: this.pausedMs,
      overlappedReplies: this.overlappedReplies,
      overlapped: this.overlapped.toSparse(),
    };
  }

  stop(): void {
    this.running = false;
    this.observer?.disconnect();
    this.observer = undefined;
    this.delay?.disable();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private gc(startTime: number, duration: number): void {
    if (!this.running) return;
    this.gcCount++;
    this.gcMs += duration;
    if (duration > this.gcMaxMs) this.gcMaxMs = duration;
    if (duration >= PAUSE_MIN_MS) this.pause(startTime, startTime + duration);
  }

  /** The block timer: lateness past the slack is a stretch the loop could not run anything else. */
  private readonly tick = (): void => {
    const now = performance.now();
    const blockedMs = now - this.lastTick - BLOCK_TIMER_MS - TIMER_SLACK_MS;
    if (blockedMs >= PAUSE_MIN_MS) this.pause(now - blockedMs, now);
    this.lastTick = now;
    this.judge(now - JUDGE_AFTER_MS);
  };

  /** Notes a pause, joined with those it overlaps (a GC is also a block of the loop). */
  private pause(from: number, to: number): void {
    const added = this.recent.add(from, to);
    this.pauses += added.pauses;
    this.pausedMs += added.ms;
    if (to - from >= LONG_PAUSE_MS) this.long.add(from, to);
  }

  /** How long the thread itself was paused (pauses of LONG_PAUSE_MS or more) within [from, to] (performance.now() times). */
  longPausedWithin(from: number, to: number): number {
    return this.long.within(from, to);
  }

  /** The ring full below its bound: twice the room, the waiting replies first in their order. */
  private growSlow(): void {
    const capacity = Math.min(SLOW_CAPACITY, this.slowAt.length * 2);
    const moved = (from: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> => {
      const to = new Float64Array(capacity);
      for (let k = 0; k < this.slowSize; k++) to[k] = from[(this.slowHead + k) % from.length];
      return to;
    };
    this.slowAt = moved(this.slowAt);
    this.slowMicros = moved(this.slowMicros);
    this.slowCount = moved(this.slowCount);
    this.slowHead = 0;
  }

  /** Judges the slow replies that came in before `before`, oldest first. */
  private judge(before: number): void {
    while (this.slowSize > 0 && this.slowAt[this.slowHead] < before) this.judgeOldest();
  }

  /** The oldest slow reply: if the client's pauses filled enough of its round trip, it goes to the overlapped histogram. */
  private judgeOldest(): void {
    const i = this.slowHead;
    this.slowHead = (i + 1) % this.slowAt.length;
    this.slowSize--;
    const latencyMs = this.slowMicros[i] / 1000;
    const pausedMs = this.recent.within(this.slowAt[i] - latencyMs, this.slowAt[i]);
    if (pausedMs >= PAUSE_MIN_MS && pausedMs >= latencyMs * OVERLAP_SHARE) {
      // As small integers, as the reply path hands the recorder: read back from a Float64Array they are heap
      // doubles, and V8 would throw away the recorder's optimized code (and the reply loops it is inlined into)
      // mid-run. The latency is clamped as record() clamps it; `| 0` then keeps it exact.
      this.overlapped.record(Math.min(this.slowMicros[i], HIGHEST_TRACKABLE_US) | 0, this.slowCount[i] | 0);
      this.overlappedReplies += this.slowCount[i];
    }
  }
}

// What one worker thread measured: per command label (latency histogram, requests, errors by kind)
// and the current second (for the timeline). Memory is flat whatever the number of requests.
import { LatencyRecorder } from './histogram';
import { PauseMonitor } from './clientPauses';
import type { LabelReport, SecondReport } from '../workerMessages';

/** Error kind for requests lost with their connection (no reply ever came). */
export const CONNECTION_ERROR_KIND = 'CONNECTION';
/** Error kind for requests still unanswered when the drain after the load timed out. */
export const TIMEOUT_ERROR_KIND = 'TIMEOUT';

export class LabelStats {
  readonly recorder = new LatencyRecorder();
  requests = 0;
  errors = 0;
  /** Requests counted that never got a reply (lost with their connection, or timed out). */
  unanswered = 0;
  /** A read's replies that found nothing (nil, or an empty collection: scenario/replyMisses.ts); counted only where `countsMisses`. */
  misses = 0;
  countsMisses = false;
  /** A queued read's replies (QUEUED) whose transaction did not run (EXEC nil or EXECABORT): they asked for no key. */
  notRun = 0;
  /** Reply-driven commands' counts (engine/fast/replyConnection.ts): full passes, items returned, scripts reloaded… */
  readonly replyCounts = new Map<string, number>();
  /** Replies inside the throughput window; set when the window closes (undefined: all replies so far). */
  windowReplies: number | undefined;
  readonly errorsByKind = new Map<string, number>();
  readonly errorExamples = new Map<string, string>();

  addError(kind: string, text: string, count: number): void {
    this.errors += count;
    this.errorsByKind.set(kind, (this.errorsByKind.get(kind) ?? 0) + count);
    if (!this.errorExamples.has(kind)) this.errorExamples.set(kind, text);
  }

  report(): LabelReport {
    return {
      requests: this.requests,
      errors: this.errors,
      windowReplies: this.windowReplies ?? this.requests - this.unanswered,
      errorsByKind: Object.fromEntries(this.errorsByKind),
      errorExamples: Object.fromEntries(this.errorExamples),
      histogram: this.recorder.toSparse(),
      ...(this.countsMisses ? { misses: this.misses } : {}),
      ...(this.notRun > 0 ? { notRun: this.notRun } : {}),
      ...(this.replyCounts.size > 0 ? { replyCounts: Object.fromEntries(this.replyCounts) } : {}),
    };
  }

  reset(): void {
    this.recorder.reset();
    this.requests = 0;
    this.errors = 0;
    this.unanswered = 0;
    this.misses = 0;
    this.notRun = 0;
    this.windowReplies = undefined;
    this.errorsByKind.clear();
    this.errorExamples.clear();
    this.replyCounts.clear();
  }
}

export class WorkerStats {
  readonly labels: LabelStats[];
  /** Latencies of the current second, all labels together. */
  readonly second = new LatencyRecorder();
  secondCount = 0;
  secondErrors = 0;
  /** Measured totals so far (for progress). */
  requests = 0;
  errors = 0;
  /** performance.now() of the last measured reply. */
  lastReplyAt = 0;
  /** Cluster: each node's share (reset and windowed with the labels); added by addNode. */
  readonly nodes: LabelStats[] = [];
  /** Cluster: MOVED and ASK redirections in the current bucket. */
  secondMoved = 0;
  secondAsk = 0;
  /** PUBLISH replies of the whole load (never reset: the subscribers hear the warm-up's messages too). */
  readonly published = { replies: 0, receivers: 0, unheard: 0 };

  /** A PUBLISH/SPUBLISH reply: how many subscribers got the message. */
  recordPublished(receivers: number): void {
    this.published.replies++;
    this.published.receivers += receivers;
    if (receivers === 0) this.published.unheard++;
  }
  /** The thread's own pauses; replies of 1 ms or more wait there to be judged against them. */
  readonly pauses = new PauseMonitor();

  /** `missRules`: per label, whether its replies are counted as hits and misses (non-zero: scenario/replyMisses.ts). */
  constructor(labelCount: number, missRules?: readonly number[]) {
    this.labels = Array.from({ length: labelCount }, () => new LabelStats());
    missRules?.forEach((rule, label) => {
      if (rule !== 0 && this.labels[label]) this.labels[label].countsMisses = true;
    });
  }

  /**
   * Cluster: a node's figures, made by this object's own class. A client path is a bundle of its own with its own
   * copy of this module (esbuild.mjs); figures made there would be a second class to the worker's summaries, whose
   * compiled code V8 then threw away and compiled again for both (deopts "wrong map" in a cluster run).
   */
  addNode(): LabelStats {
    const stats = new LabelStats();
    this.nodes.push(stats);
    return stats;
  }

  /** A measured reply of `label` that found nothing (its round trip is recorded as any other reply's); an MGET's nil keys, `count`. */
  recordMiss(label: number, count = 1): void {
    this.labels[label].misses += count;
  }

  /** A measured queued read whose transaction was discarded: neither a hit nor a miss. */
  recordNotRun(label: number): void {
    this.labels[label].notRun++;
  }

  /** A reply-driven command's count (`passes`, `items`, `reloads`, `skipped`, `read`, `acked`) grows by `count`. */
  recordReplyCount(label: number, name: string, count: number): void {
    const counts = this.labels[label].replyCounts;
    counts.set(name, (counts.get(name) ?? 0) + count);
  }

  /** `count` replies of label `label` that each took `micros` µs. */
  recordReplies(label: number, micros: number, count: number, now: number): void {
    const stats = this.labels[label];
    stats.recorder.record(micros, count);
    stats.requests += count;
    this.second.record(micros, count);
    this.secondCount += count;
    this.requests += count;
    this.lastReplyAt = now;
    // Only a round trip of 1 ms or more can hold a pause of 1 ms or more (the thread reads no reply while paused).
    if (micros >= 1000) this.pauses.slowReply(micros, count, now);
  }

  /**
   * A reply to one command of a group's unit: its own row only. The unit itself is the request, recorded
   * by recordReplies when its last reply arrives (requests, timeline and progress count units).
   */
  recordCommandReply(label: number, micros: number): void {
    const stats = this.labels[label];
    stats.recorder.record(micros, 1);
    stats.requests++;
  }

  /** An error reply to one command of a unit: its own row only (the unit's error is recordError's). */
  recordCommandError(label: number, kind: string, text: string): void {
    this.labels[label].addError(kind, text, 1);
  }

  /** A command of a unit that will get no reply: its own row only (the unit goes to recordUnanswered). */
  recordCommandUnanswered(label: number, kind: string, text: string, waitedMicros?: number): void {
    const stats = this.labels[label];
    if (waitedMicros !== undefined) stats.recorder.record(waitedMicros, 1);
    stats.unanswered++;
    stats.requests++;
    stats.addError(kind, text, 1);
  }

  /** An error reply (its round trip is recorded by recordReplies as well). */
  recordError(label: number, kind: string, text: string): void {
    this.labels[label].addError(kind, text, 1);
    this.secondErrors++;
    this.errors++;
  }

  /**
   * Requests that were sent but will never be answered: counted as requests and errors. A timed-out
   * request has waited `waitedMicros`: that wait is recorded as its latency (at least), so the summary's
   * max and high percentiles show the stall. They fall after the window, so the timeline leaves them out.
   */
  recordUnanswered(label: number, count: number, kind: string, text: string, waitedMicros?: number): void {
    const stats = this.labels[label];
    if (waitedMicros !== undefined) stats.recorder.record(waitedMicros, count);
    stats.unanswered += count;
    stats.requests += count;
    stats.addError(kind, text, count);
    this.secondCount += count;
    this.secondErrors += count;
    this.requests += count;
    this.errors += count;
  }

  /** The throughput window is over: replies from now on (the drain) count in the summary, not in throughput. */
  closeWindow(): void {
    for (const label of this.labels) label.windowReplies = label.requests - label.unanswered;
    for (const node of this.nodes) node.windowReplies = node.requests - node.unanswered;
  }

  /** Cluster: a MOVED or ASK redirection answered in the current bucket. */
  recordRedirect(kind: 'MOVED' | 'ASK'): void {
    if (kind === 'MOVED') this.secondMoved++;
    else this.secondAsk++;
  }

  /** Closes the current timeline bucket (`t` in seconds): its report, and a fresh recorder for the next. */
  takeSecond(t: number, spanMs: number): SecondReport {
    const report: SecondReport = {
      t,
      count: this.secondCount,
      errors: this.secondErrors,
      spanMs,
      histogram: this.second.toSparse(),
      ...(this.secondMoved > 0 ? { moved: this.secondMoved } : {}),
      ...(this.secondAsk > 0 ? { ask: this.secondAsk } : {}),
    };
    this.second.reset();
    this.secondMoved = this.secondAsk = 0;
    this.secondCount = 0;
    this.secondErrors = 0;
    return report;
  }

  reset(): void {
    for (const label of this.labels) label.reset();
    for (const node of this.nodes) node.reset();
    this.second.reset();
    this.secondMoved = this.secondAsk = 0;
    this.secondCount = this.secondErrors = this.requests = this.errors = 0;
    this.lastReplyAt = 0;
  }
}

// The load's client pauses (ClientPauses) from its threads' figures: counts and times added up, the
// event-loop delay of the busiest thread, and how much of the tail overlapped a pause: the total's
// histogram next to the histogram of the replies that overlapped one, and the two subtracted.
import type { ClientPauses } from '../types';
import type { WorkerPauses } from './clientPauses';
import { countsIndex, highestEquivalentValue, withRecorder, type LatencyRecorder, type SparseCounts } from './histogram';

/** `all`: the total's latency histograms (every thread); `threads`: each thread's pauses. */
export function summarizePauses(threads: readonly WorkerPauses[], all: readonly SparseCounts[]): ClientPauses | undefined {
  if (threads.length === 0) return undefined;
  // Borrowed recorders (histogram.ts): three new ones here were a load's end's peak of memory (issue 46).
  return withRecorder((overlapped) => withRecorder((total) => pausesThrough(threads, all, overlapped, total)));
}

function pausesThrough(threads: readonly WorkerPauses[], all: readonly SparseCounts[], overlapped: LatencyRecorder, total: LatencyRecorder): ClientPauses {
  for (const t of threads) overlapped.addSparse(t.overlapped);
  for (const sparse of all) total.addSparse(sparse);
  const sum = (pick: (t: WorkerPauses) => number) => threads.reduce((acc, t) => acc + pick(t), 0);
  const max = (pick: (t: WorkerPauses) => number) => threads.reduce((acc, t) => Math.max(acc, pick(t)), 0);
  const pauses: ClientPauses = {
    gcCount: sum((t) => t.gcCount),
    gcMs: sum((t) => t.gcMs),
    gcMaxMs: max((t) => t.gcMaxMs),
    eventLoopDelayP99Ms: max((t) => t.eventLoopDelayP99Ms),
    eventLoopDelayMaxMs: max((t) => t.eventLoopDelayMaxMs),
    pauses: sum((t) => t.pauses),
    pausedMs: sum((t) => t.pausedMs),
    overlappedReplies: sum((t) => t.overlappedReplies),
    tailShare: tailShare(total, overlapped),
  };
  withRecorder((without) => {
    withoutOverlapped(total, overlapped, without);
    if (without.totalCount > 0) {
      pauses.p999UsWithoutPauses = without.valueAtPercentile(99.9);
      pauses.maxUsWithoutPauses = without.maxValue();
    }
  });
  return pauses;
}

/** Of the replies at the total's p99.9 or slower (its slot and above), the share that overlapped a pause. */
function tailShare(total: LatencyRecorder, overlapped: LatencyRecorder): number {
  if (total.totalCount === 0) return 0;
  const from = countsIndex(total.valueAtPercentile(99.9));
  let slower = 0;
  let paused = 0;
  for (let i = from; i <= total.highestRecordedIndex; i++) {
    slower += total.counts[i];
    paused += overlapped.counts[i];
  }
  return slower > 0 ? Math.min(1, paused / slower) : 0;
}

/** The total's histogram with the overlapped replies taken out, into the empty `rest` (slot by slot; all share one layout). */
function withoutOverlapped(total: LatencyRecorder, overlapped: LatencyRecorder, rest: LatencyRecorder): void {
  for (let i = total.lowestRecordedIndex; i <= total.highestRecordedIndex; i++) {
    const left = total.counts[i] - overlapped.counts[i];
    if (left > 0) rest.record(highestEquivalentValue(i), left);
  }
}

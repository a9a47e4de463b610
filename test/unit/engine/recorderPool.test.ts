// Borrowed recorders (src/engine/measure/histogram.ts): a load's end merged its reports through six new 136 KB
// recorders at once, which glibc hands out cleared (so resident) from its heap once its mmap threshold has moved
// (issue 46: ~0.8 MB of peak RSS). The merges now borrow recorders the timeline gave back, and give them back.
import assert from 'node:assert/strict';
import { borrowRecorder, LatencyRecorder, returnRecorder, spareRecorderCount, withRecorder } from '../../../src/engine/measure/histogram';
import { summarizePauses } from '../../../src/engine/measure/pauseSummary';
import { commandResult } from '../../../src/engine/resultAssembly';
import { TimelineMerge } from '../../../src/engine/timelineMerge';
import type { LabelReport } from '../../../src/engine/workerMessages';
import type { WorkerPauses } from '../../../src/engine/measure/clientPauses';

function sparseOf(values: number[]): LatencyRecorder {
  const recorder = new LatencyRecorder();
  for (const value of values) recorder.record(value, 1);
  return recorder;
}

/** Empties the pool, so that each test counts from zero. */
function drainPool(): void {
  while (spareRecorderCount() > 0) borrowRecorder();
}

describe('borrowed latency recorders (issue 46: a load’s end costs no new recorders)', () => {
  beforeEach(drainPool);

  it('a recorder given back comes back empty to the next borrower, even after a throw', () => {
    const recorder = borrowRecorder();
    recorder.record(1234, 5);
    recorder.record(50_000, 1);
    returnRecorder(recorder);
    returnRecorder(recorder); // twice: still one spare
    assert.equal(spareRecorderCount(), 1);
    const again = borrowRecorder();
    assert.equal(again, recorder);
    assert.equal(again.totalCount, 0);
    assert.equal(again.highestRecordedIndex, -1);
    assert.ok(again.counts.every((count) => count === 0));
    assert.throws(() =>
      withRecorder((r) => {
        r.record(7, 1);
        throw new Error('boom');
      }),
    );
    assert.equal(spareRecorderCount(), 1);
    assert.equal(borrowRecorder().totalCount, 0);
  });

  it('the end’s merges (commands, pauses) borrow the recorders the timeline gave back, and give them back', () => {
    const merge = new TimelineMerge(1, true, undefined);
    for (let t = 0; t < 3; t += 0.1) {
      merge.add({ t, count: 2, errors: 0, spanMs: 100, histogram: sparseOf([100 + t * 10, 200]).toSparse() });
      merge.close(t);
    }
    merge.finish();
    const given = spareRecorderCount();
    assert.ok(given >= 2, `the timeline gave back ${given}`);
    const reports: LabelReport[] = [1, 2].map((k) => ({
      ...({} as LabelReport),
      requests: 3,
      errors: 0,
      windowReplies: 3,
      errorsByKind: {},
      errorExamples: {},
      histogram: sparseOf([100 * k, 2000 * k, 30_000]).toSparse(),
    }));
    const result = commandResult('GET', reports, 1000);
    assert.equal(result.latency.count, 6);
    assert.equal(result.latency.maxUs, sparseOf([30_000]).maxValue());
    const threads: WorkerPauses[] = [
      {
        gcCount: 1,
        gcMs: 2,
        gcMaxMs: 2,
        eventLoopDelayP99Ms: 1,
        eventLoopDelayMaxMs: 2,
        pauses: 1,
        pausedMs: 2,
        overlappedReplies: 2,
        overlapped: sparseOf([30_000, 30_000]).toSparse(),
      },
    ];
    const pauses = summarizePauses(
      threads,
      reports.map((r) => r.histogram),
    )!;
    assert.equal(pauses.maxUsWithoutPauses, sparseOf([4000]).maxValue());
    // The pauses need three at once: one more than the timeline gave, made once and given back with the others.
    const after = spareRecorderCount();
    assert.equal(after, Math.max(given, 3), 'every borrowed recorder was given back');
    commandResult('GET', reports, 1000);
    summarizePauses(
      threads,
      reports.map((r) => r.histogram),
    );
    assert.equal(spareRecorderCount(), after, 'a second end made no recorder');
  });
});

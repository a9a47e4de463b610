// The main thread's timeline stays bounded however long a load runs (issue 46): a bucket's merged histogram
// (136 KB of counts) is reused by the next bucket, not made anew, so a 100M-request run holds as many recorders
// as a short one; and a reused recorder carries nothing of the bucket before.
import assert from 'node:assert/strict';
import { TimelineMerge } from '../../../src/engine/timelineMerge';
import { LatencyRecorder } from '../../../src/engine/measure/histogram';
import type { SecondReport } from '../../../src/engine/workerMessages';

/** One worker's report of bucket `t`: `count` replies that all took `micros` µs. */
function report(t: number, count: number, micros: number): SecondReport {
  const recorder = new LatencyRecorder();
  recorder.record(micros, count);
  return { t, count, errors: 0, spanMs: 1000, histogram: recorder.toSparse() };
}

describe('TimelineMerge (issue 46: bounded main-thread memory)', () => {
  it('5,000 seconds from 4 workers: a handful of recorders, each second with its own latencies only', () => {
    const workers = 4;
    const merge = new TimelineMerge(workers, false, undefined);
    for (let t = 0; t < 5000; t++) {
      // Workers report out of step: the next second opens before the last worker closes this one.
      for (let w = 0; w < workers - 1; w++) merge.add(report(t, 10, 100 + t));
      if (t > 0) assert.equal(merge.add(report(t - 1, 10, 100 + t - 1)), true);
      if (t > 0) merge.close(t - 1);
    }
    merge.add(report(4999, 10, 100 + 4999));
    merge.close(4999);
    const timeline = merge.finish();
    assert.equal(timeline.length, 5000);
    assert.ok(merge.recordersMade <= 2, `recorders made: ${merge.recordersMade}`);
    for (const second of [timeline[0], timeline[1], timeline[2500], timeline[4999]]) {
      const own = new LatencyRecorder();
      own.record(100 + second.t, 1);
      assert.equal(second.p50Us, own.valueAtPercentile(50), `second ${second.t}`);
      assert.equal(second.maxUs, own.maxValue(), `second ${second.t}: a reused recorder kept an earlier bucket's counts`);
    }
    const latency = merge.takeLatency();
    assert.equal(
      latency.counts.reduce((sum, c) => sum + c, 0),
      5000 * workers * 10,
    );
  });

  it('merging one recorder into another (the bucket path) equals merging its sparse counts', () => {
    const a = new LatencyRecorder();
    const b = new LatencyRecorder();
    for (let i = 0; i < 2000; i++) b.record((i * 7919) % 5_000_000, 1 + (i % 3));
    const viaSparse = new LatencyRecorder();
    viaSparse.addSparse(b.toSparse());
    a.add(new LatencyRecorder()); // an empty recorder adds nothing, and moves no bound
    assert.equal(a.lowestRecordedIndex > a.highestRecordedIndex, true);
    a.add(b);
    assert.deepEqual(a.toSparse(), viaSparse.toSparse());
    assert.equal(a.totalCount, viaSparse.totalCount);
    assert.equal(a.valueAtPercentile(99.9), viaSparse.valueAtPercentile(99.9));
  });
});

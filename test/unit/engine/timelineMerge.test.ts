// The main thread's timeline stays bounded however long a load runs (issue 46): a bucket's merged histogram
// (136 KB of counts) is reused by the next bucket, not made anew, so a 100M-request run holds as many recorders
// as a short one; and a reused recorder carries nothing of the bucket before.
import assert from 'node:assert/strict';
import { TimelineMerge } from '../../../src/engine/timelineMerge';
import { LatencyRecorder } from '../../../src/engine/measure/histogram';
import type { SecondReport } from '../../../src/engine/workerMessages';

/** One worker's report of bucket `t`: `count` replies that all took `micros` µs (one per µs from there, `spread`). */
function report(t: number, count: number, micros: number, spanMs = 1000, spread = 1): SecondReport {
  const recorder = new LatencyRecorder();
  for (let k = 0; k < spread; k++) recorder.record(micros + k * 1000, count);
  return { t, count: count * spread, errors: 0, spanMs, histogram: recorder.toSparse() };
}

/**
 * A count-mode load of `fineSeconds` seconds of 100 ms buckets, then `seconds` of whole seconds, one worker; bucket
 * k's replies take 1000 + 37·k µs (and 50 more latencies a millisecond apart). `order` closes the fine buckets.
 */
function countModeLoad(fineSeconds: number, seconds: number, order: (ts: number[]) => number[] = (ts) => ts) {
  const merge = new TimelineMerge(1, true, undefined);
  const fine = Array.from({ length: fineSeconds * 10 }, (_, k) => Math.round(k) / 10);
  for (const t of fine) merge.add(report(t, 3, 1000 + 37 * Math.round(t * 10), 100, 50));
  for (const t of order(fine)) merge.close(t);
  for (let t = fineSeconds; t < fineSeconds + seconds; t++) {
    merge.add(report(t, 30, 5000 + t, 1000, 50));
    merge.close(t);
  }
  return merge.finish();
}

/** The truth for second `s` of countModeLoad: its ten buckets' latencies in one recorder. */
function fineTruth(s: number): LatencyRecorder {
  const truth = new LatencyRecorder();
  for (let k = s * 10; k < s * 10 + 10; k++) for (let j = 0; j < 50; j++) truth.record(1000 + 37 * k + j * 1000, 3);
  return truth;
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

  it('a count-mode load past the fine limit: its 100 ms buckets regrouped into seconds, each from its own buckets only', () => {
    const timeline = countModeLoad(10, 3);
    assert.deepEqual(
      timeline.map((s) => s.t),
      Array.from({ length: 13 }, (_, t) => t),
    );
    for (let s = 0; s < 10; s++) {
      const truth = fineTruth(s);
      assert.equal(timeline[s].ops, 1500, `second ${s}: 10 buckets × 150 replies over 10 × 100 ms`);
      assert.equal(timeline[s].p50Us, truth.valueAtPercentile(50), `second ${s}`);
      assert.equal(timeline[s].p99Us, truth.valueAtPercentile(99), `second ${s}`);
      assert.equal(timeline[s].maxUs, truth.maxValue(), `second ${s}`);
    }
  });

  it('fine buckets closed out of order (a worker ended late) still regroup into their own seconds', () => {
    // Second 3's last bucket closes after every other one; second 7's buckets close in reverse.
    const timeline = countModeLoad(10, 2, (ts) => {
      const late = ts.filter((t) => t === 3.9);
      const reversed = ts.filter((t) => t >= 7 && t < 8).reverse();
      return [...ts.filter((t) => t !== 3.9 && !(t >= 7 && t < 8)), ...reversed, ...late];
    });
    for (const s of [3, 7]) {
      const truth = fineTruth(s);
      assert.equal(timeline[s].p50Us, truth.valueAtPercentile(50), `second ${s}`);
      assert.equal(timeline[s].maxUs, truth.maxValue(), `second ${s}`);
    }
  });

  it('keeps a sparse copy per second of fine buckets, not one per 100 ms bucket (bounded memory to the fine limit)', () => {
    const toSparse = LatencyRecorder.prototype.toSparse;
    let copies = 0;
    LatencyRecorder.prototype.toSparse = function (this: LatencyRecorder) {
      copies++;
      return toSparse.call(this);
    };
    try {
      const merge = new TimelineMerge(1, true, undefined);
      const reports = Array.from({ length: 100 }, (_, k) => report(k / 10, 3, 1000 + k, 100, 50));
      copies = 0;
      for (const r of reports) {
        merge.add(r);
        merge.close(r.t);
      }
      assert.ok(copies <= 10, `${copies} sparse copies for 100 buckets over 10 s`);
    } finally {
      LatencyRecorder.prototype.toSparse = toSparse;
    }
  });
});

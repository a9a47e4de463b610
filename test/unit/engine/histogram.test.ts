import assert from 'node:assert/strict';
import * as hdr from 'hdr-histogram-js';
import { HIGHEST_TRACKABLE_US, LatencyRecorder, countsIndex, highestEquivalentValue, valueFromIndex } from '../../../src/engine/measure/histogram';
import { summarize } from '../../../src/engine/measure/summary';
import { Random } from '../../../src/engine/requests/random';

function referenceHistogram(): hdr.Histogram {
  return hdr.build({
    bitBucketSize: 64,
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_TRACKABLE_US,
    numberOfSignificantValueDigits: 3,
    autoResize: false,
  });
}

describe('latency recorder (HdrHistogram layout)', () => {
  it('maps values to the same slots as HdrHistogram, and back', () => {
    for (const value of [0, 1, 2047, 2048, 2049, 4095, 4096, 123_456, 59_999_999, HIGHEST_TRACKABLE_US]) {
      const index = countsIndex(value);
      assert.ok(valueFromIndex(index) <= value, `${value}`);
      assert.equal(countsIndex(valueFromIndex(index)), index);
    }
  });

  it('gives the mean and max of hdr-histogram-js fed the same values, and percentiles by the one rule', () => {
    const random = new Random(1);
    const recorder = new LatencyRecorder();
    const reference = referenceHistogram();
    const values: number[] = [];
    for (let i = 0; i < 50_000; i++) {
      // Log-uniform latencies from 1 µs to ~30 s; some recorded in groups (replies of one chunk).
      const value = Math.round(Math.exp(random.nextDouble() * Math.log(30_000_000)));
      const count = 1 + (i % 3);
      recorder.record(value, count);
      reference.recordValueWithCount(value, count);
      for (let c = 0; c < count; c++) values.push(value);
    }
    values.sort((a, b) => a - b);
    // redis-benchmark's rule (HdrHistogram_c): rank p/100 × n rounded half up; the slot's highest value (lowest for p0).
    const byRule = (p: number) => {
      const index = countsIndex(values[Math.max(1, Math.floor((p / 100) * values.length + 0.5)) - 1]);
      return p === 0 ? valueFromIndex(index) : highestEquivalentValue(index);
    };
    for (const p of [0, 1, 50, 90, 99, 99.9, 100]) assert.equal(recorder.valueAtPercentile(p), byRule(p), `p${p}`);
    const { latency, histogram } = summarize(recorder);
    assert.equal(latency.count, reference.totalCount);
    assert.equal(latency.p99Us, byRule(99));
    assert.ok(Math.abs(latency.meanUs - reference.mean) / reference.mean < 1e-9);
    assert.ok(Math.abs(latency.maxUs - reference.maxValue) <= reference.maxValue * 0.001);
    const decoded = hdr.decodeFromCompressedBase64(histogram);
    assert.equal(decoded.totalCount, reference.totalCount);
    reference.destroy();
    decoded.destroy();
  });

  it('summarises and encodes exactly as hdr-histogram-js does (mean, standard deviation, min, base64 bytes)', () => {
    const random = new Random(7);
    const shapes: [string, (i: number) => number][] = [
      ['empty', () => -1],
      ['zeros and ones', (i) => i % 2],
      ['one slot', () => 150],
      ['log-uniform up to 60 s', () => Math.round(Math.exp(random.nextDouble() * Math.log(HIGHEST_TRACKABLE_US)))],
      ['a mode and a far tail', (i) => (i % 997 === 0 ? 4_000_000 + i : 90 + (i % 40))],
    ];
    for (const [name, value] of shapes) {
      const recorder = new LatencyRecorder();
      const reference = referenceHistogram();
      for (let i = 0; i < 20_000; i++) {
        const v = value(i);
        if (v < 0) continue;
        // The recorder stores a slot; the reference gets the slot's lowest value, as summary.ts always gave it.
        const count = 1 + (i % 5) * 1000;
        recorder.record(v, count);
        reference.recordValueWithCount(valueFromIndex(countsIndex(v)), count);
      }
      const { latency, histogram } = summarize(recorder);
      assert.equal(histogram, hdr.encodeIntoCompressedBase64(reference), `${name}: encoding`);
      assert.equal(latency.count, reference.totalCount, name);
      assert.equal(latency.meanUs, reference.totalCount === 0 ? 0 : reference.mean, `${name}: mean`);
      assert.equal(latency.stddevUs, reference.totalCount === 0 ? 0 : reference.stdDeviation, `${name}: stddev`);
      const minNonZero = reference.minNonZeroValue === Number.MAX_SAFE_INTEGER ? 0 : reference.minNonZeroValue;
      assert.equal(latency.minUs, reference.totalCount === 0 ? 0 : minNonZero, `${name}: min`);
      // The summary walks the non-empty slots once for all its percentiles: the same values as the recorder's own walk.
      const percentiles: [number, number][] = [
        [50, latency.p50Us],
        [90, latency.p90Us],
        [95, latency.p95Us],
        [99, latency.p99Us],
        [99.9, latency.p999Us],
      ];
      for (const [p, got] of percentiles) assert.equal(got, recorder.valueAtPercentile(p), `${name}: p${p}`);
      assert.equal(latency.maxUs, recorder.maxValue(), `${name}: max`);
      reference.destroy();
    }
  });

  it('encodes a count of 0 recorded above the last non-empty slot as hdr-histogram-js does', () => {
    const recorder = new LatencyRecorder();
    const reference = referenceHistogram();
    recorder.record(100, 3);
    reference.recordValueWithCount(100, 3);
    recorder.record(5_000, 0);
    reference.recordValueWithCount(valueFromIndex(countsIndex(5_000)), 0);
    const { latency, histogram } = summarize(recorder);
    assert.equal(histogram, hdr.encodeIntoCompressedBase64(reference));
    assert.equal(latency.maxUs, recorder.maxValue());
    reference.destroy();
  });

  it('clamps values beyond 60 s, merges sparse copies and resets', () => {
    const a = new LatencyRecorder();
    a.record(100, 5);
    a.record(HIGHEST_TRACKABLE_US * 10, 1);
    const b = new LatencyRecorder();
    b.addSparse(a.toSparse());
    b.record(200, 4);
    assert.equal(b.totalCount, 10);
    assert.equal(b.valueAtPercentile(50), 100);
    assert.ok(b.maxValue() >= HIGHEST_TRACKABLE_US && b.maxValue() <= HIGHEST_TRACKABLE_US * 1.001);
    b.reset();
    assert.equal(b.totalCount, 0);
    assert.equal(b.valueAtPercentile(99), 0);
    assert.equal(b.toSparse().indexes.length, 0);
  });
});

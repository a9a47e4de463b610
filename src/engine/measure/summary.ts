// Summaries of latency recorders: the figures of a LatencySummary and the compressed base64 histogram
// (histogramEncoding.ts) straight from the recorder's slots. hdr-histogram-js's getters walk its
// iterator (the mean twice for a standard deviation), which cost every load's summary 60–80 ms of CPU;
// these loops give the same numbers (a test compares them) in a few milliseconds at most.
import type { Histogram } from 'hdr-histogram-js';
import { HIGHEST_TRACKABLE_US, SIGNIFICANT_DIGITS, medianEquivalentValue, valueFromIndex, type LatencyRecorder } from './histogram';
import { encodeRecorder } from './histogramEncoding';
import type { LatencySummary } from '../types';

/**
 * An hdr-histogram-js histogram with the recorder's counts (plain JS build, no WebAssembly to free), for
 * merging decoded histograms. The library is loaded on first use, so a run that only summarises never
 * evaluates it (nor pako and the embedded WebAssembly it pulls in).
 */
export function toHdrHistogram(recorder: LatencyRecorder): Histogram {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { build } = require('hdr-histogram-js/dist/HistogramBuilder') as typeof import('hdr-histogram-js/dist/HistogramBuilder');
  const histogram = build({
    bitBucketSize: 64,
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_TRACKABLE_US,
    numberOfSignificantValueDigits: SIGNIFICANT_DIGITS,
    autoResize: false,
  });
  recorder.forEachSlot((value, count) => histogram.recordValueWithCount(value, count));
  return histogram;
}

export function emptyLatencySummary(): LatencySummary {
  return { count: 0, minUs: 0, meanUs: 0, stddevUs: 0, p50Us: 0, p90Us: 0, p95Us: 0, p99Us: 0, p999Us: 0, maxUs: 0 };
}

export function summarize(recorder: LatencyRecorder): { latency: LatencySummary; histogram: string } {
  const histogram = encodeRecorder(recorder);
  const total = recorder.totalCount;
  if (total === 0) return { latency: emptyLatencySummary(), histogram };
  const { counts, lowestRecordedIndex: low, highestRecordedIndex: high } = recorder;
  // Summed in slot order, as hdr-histogram-js does, so the figures match it to the last bit.
  let sum = 0;
  let minUs = 0;
  for (let i = low; i <= high; i++) {
    const count = counts[i];
    if (count === 0) continue;
    if (minUs === 0) minUs = valueFromIndex(i);
    sum += medianEquivalentValue(i) * count;
  }
  const meanUs = sum / total;
  let squares = 0;
  for (let i = low; i <= high; i++) {
    const count = counts[i];
    if (count === 0) continue;
    const deviation = medianEquivalentValue(i) - meanUs;
    squares += deviation * deviation * count;
  }
  const latency: LatencySummary = {
    count: total,
    // The lowest non-zero value (hdr-histogram-js's minNonZeroValue; 0 when every reply took under 1 µs).
    minUs,
    meanUs,
    stddevUs: Math.sqrt(squares / total),
    // RBench's one percentile rule (engine/percentile.ts), not hdr-histogram-js's.
    p50Us: recorder.valueAtPercentile(50),
    p90Us: recorder.valueAtPercentile(90),
    p95Us: recorder.valueAtPercentile(95),
    p99Us: recorder.valueAtPercentile(99),
    p999Us: recorder.valueAtPercentile(99.9),
    // The highest value of the top slot, as the timeline reports it (hdr-histogram-js keeps the raw value).
    maxUs: recorder.maxValue(),
  };
  return { latency, histogram };
}

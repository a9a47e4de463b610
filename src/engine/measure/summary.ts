// Summaries of latency recorders: the figures of a LatencySummary and the compressed base64 histogram
// (histogramEncoding.ts) straight from the recorder's slots. hdr-histogram-js's getters walk its
// iterator (the mean twice for a standard deviation), which cost every load's summary 60–80 ms of CPU;
// these loops give the same numbers (a test compares them) in a few milliseconds at most.
import type { Histogram } from 'hdr-histogram-js';
import { HIGHEST_TRACKABLE_US, SIGNIFICANT_DIGITS, highestEquivalentValue, medianEquivalentValue, valueFromIndex, type LatencyRecorder } from './histogram';
import { encodeSparse } from './histogramEncoding';
import { valuesAtPercentiles } from './percentile';
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

/** The percentiles a LatencySummary holds, ascending (p50Us … p999Us). */
const SUMMARY_PERCENTILES = [50, 90, 95, 99, 99.9];

export function summarize(recorder: LatencyRecorder): { latency: LatencySummary; histogram: string } {
  // The non-empty slots, in two walks of the recorder; every figure below walks only those. A summary runs once a
  // load, in code V8 has not optimised, where each read of a Float64Array makes a new number object: nine walks of
  // every slot up to the highest made a cluster run's summaries ~3 MB of garbage, most of its collections (issue 46).
  const slots = recorder.toSparse();
  const histogram = encodeSparse(slots, recorder.highestRecordedIndex);
  const total = recorder.totalCount;
  const { indexes, counts } = slots;
  if (total === 0 || indexes.length === 0) return { latency: emptyLatencySummary(), histogram };
  // Summed in slot order, as hdr-histogram-js does, so the figures match it to the last bit.
  let sum = 0;
  for (let s = 0; s < indexes.length; s++) sum += medianEquivalentValue(indexes[s]) * counts[s];
  const meanUs = sum / total;
  let squares = 0;
  for (let s = 0; s < indexes.length; s++) {
    const deviation = medianEquivalentValue(indexes[s]) - meanUs;
    squares += deviation * deviation * counts[s];
  }
  // RBench's one percentile rule (engine/percentile.ts), not hdr-histogram-js's.
  const lows = Array.from(indexes, valueFromIndex);
  const highs = Array.from(indexes, highestEquivalentValue);
  const [p50Us, p90Us, p95Us, p99Us, p999Us] = valuesAtPercentiles({ counts, lows, highs }, total, SUMMARY_PERCENTILES);
  const latency: LatencySummary = {
    count: total,
    // The lowest non-zero value (hdr-histogram-js's minNonZeroValue; 0 when every reply took under 1 µs).
    minUs: lows.find((value) => value > 0) ?? 0,
    meanUs,
    stddevUs: Math.sqrt(squares / total),
    p50Us,
    p90Us,
    p95Us,
    p99Us,
    p999Us,
    // The highest value of the top slot, as the timeline reports it (hdr-histogram-js keeps the raw value).
    maxUs: recorder.maxValue(),
  };
  return { latency, histogram };
}

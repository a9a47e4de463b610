// Summaries of latency recorders through hdr-histogram-js, so that percentiles and the compressed
// base64 histograms in results agree with any later decoding. Main thread only (keeps the library,
// and its embedded WebAssembly, out of the worker bundle's start-up).
// The library's modules, not its index: the index also loads the log reader and writer, whose start-up
// (an Intl.NumberFormat) costs every CLI run about 15 ms of CPU for nothing.
import type { Histogram } from 'hdr-histogram-js';
import { encodeIntoCompressedBase64 } from 'hdr-histogram-js/dist/encoding';
import { build } from 'hdr-histogram-js/dist/HistogramBuilder';
import { HIGHEST_TRACKABLE_US, SIGNIFICANT_DIGITS, type LatencyRecorder } from './histogram';
import type { LatencySummary } from './types';

/** An hdr-histogram-js histogram with the recorder's counts (plain JS build: built once per result, no WebAssembly to free). */
export function toHdrHistogram(recorder: LatencyRecorder): Histogram {
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
  const histogram = toHdrHistogram(recorder);
  try {
    const latency: LatencySummary =
      histogram.totalCount === 0
        ? emptyLatencySummary()
        : {
            count: histogram.totalCount,
            minUs: histogram.minNonZeroValue,
            meanUs: histogram.mean,
            stddevUs: histogram.stdDeviation,
            // RBench's one percentile rule (engine/percentile.ts), not hdr-histogram-js's.
            p50Us: recorder.valueAtPercentile(50),
            p90Us: recorder.valueAtPercentile(90),
            p95Us: recorder.valueAtPercentile(95),
            p99Us: recorder.valueAtPercentile(99),
            p999Us: recorder.valueAtPercentile(99.9),
            // The highest value of the top slot, as the timeline reports it (hdr-histogram-js keeps the raw value).
            maxUs: recorder.maxValue(),
          };
    return { latency, histogram: encodeIntoCompressedBase64(histogram) };
  } finally {
    histogram.destroy();
  }
}

// Measures how responsive the extension host stays during a run: the engine's load runs in worker threads,
// so the host's event loop should only see progress messages. Recorded per run and logged at its end.
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface HostLag {
  p99Ms: number;
  maxMs: number;
}

/** Starts sampling the event-loop delay; `stop()` ends it and returns the lag seen meanwhile. */
export function watchHostLag(resolutionMs = 10): { stop(): HostLag } {
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  return {
    stop() {
      histogram.disable();
      // The histogram holds the time between timer wake-ups in nanoseconds, so an idle loop reads as the
      // resolution itself: the lag is what exceeds it. With no samples at all it reports NaN.
      const toMs = (ns: number) => (Number.isFinite(ns) ? Math.max(0, ns / 1e6 - resolutionMs) : 0);
      return { p99Ms: toMs(histogram.percentile(99)), maxMs: toMs(histogram.max) };
    },
  };
}

// Number formatting shared by the terminal, exports and panels.
import type { ExpectMetric } from '../scenario/plan';
import { groupDigits } from '../scenario/numberText';

/** Requests per second with thousands separators: `412,345`. */
export function formatOps(opsPerSec: number): string {
  return groupDigits(Math.round(opsPerSec));
}

/** Short throughput for one-line summaries: `412k`, `2.24M`. */
export function formatOpsShort(opsPerSec: number): string {
  if (opsPerSec >= 1e6) return `${(opsPerSec / 1e6).toFixed(opsPerSec >= 1e7 ? 1 : 2)}M`;
  if (opsPerSec >= 1e3) return `${(opsPerSec / 1e3).toFixed(opsPerSec >= 1e5 ? 0 : 1)}k`;
  return opsPerSec.toFixed(0);
}

/** Microseconds as milliseconds with three decimals, as redis-benchmark prints latencies. */
export function formatMs(us: number): string {
  return (us / 1000).toFixed(3);
}

/** The server's time per call in µs for a table cell: `3.1`, `410` (one decimal below 10 µs, where server times live). */
export function formatUsPerCall(us: number): string {
  return us < 100 ? us.toFixed(1) : groupDigits(Math.round(us));
}

/** A duration for people: `850 µs`, `1.9 ms`, `2.4 s`. */
export function formatLatency(us: number): string {
  if (us < 1000) return `${Math.round(us)} µs`;
  if (us < 1_000_000) return `${(us / 1000).toFixed(us < 10_000 ? 2 : 1)} ms`;
  return `${(us / 1_000_000).toFixed(2)} s`;
}

export function formatDuration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
}

/** A value of an `expect` metric in its natural unit. */
export function formatMetric(metric: ExpectMetric, value: number): string {
  switch (metric) {
    case 'ops':
      return `${formatOps(value)} ops/s`;
    case 'errors':
    case 'keys':
      return groupDigits(value);
    case 'error-rate':
      return `${(value * 100).toFixed(3)}%`;
    default:
      return formatLatency(value);
  }
}

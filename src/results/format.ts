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

/**
 * Microseconds as a number with the precision it needs, the one rule for every µs figure: `0.12` and `0.012`
 * below 1 µs (two significant digits: a GET's server time is 0.1–0.9 µs, and `0` would hide it), one decimal
 * below 100 µs (`3.1`, `45.3`), whole above (`410`, `1,420`). `digits` asks for more significant digits below 1 µs.
 */
export function formatMicros(us: number, digits = 2): string {
  if (us === 0 || !Number.isFinite(us)) return String(us === 0 ? 0 : us);
  if (Math.abs(us) < 1) return String(Number(us.toPrecision(digits)));
  return Math.abs(us) < 100 ? us.toFixed(1) : groupDigits(Math.round(us));
}

/** The server's time per call in µs for a table cell: `0.12`, `3.1`, `410` (formatMicros). */
export function formatUsPerCall(us: number): string {
  return formatMicros(us);
}

/**
 * Two µs figures of a change (`before → after`), written to the same decimals and with enough of them that
 * they differ when the values do: `0.11 → 0.10`, `3.14 → 3.12`; never `0.1 → 0.1` beside "fell 8.8 %".
 */
export function formatMicrosChange(before: number, after: number): [string, string] {
  const shown = [formatMicros(before), formatMicros(after)];
  // Whole µs (100 and above) read as they are: `12.0 → 400`, not `400.0`.
  if (shown[0] !== shown[1] && Math.max(Math.abs(before), Math.abs(after)) >= 100) return [shown[0], shown[1]];
  let decimals = Math.max(...shown.map((text) => text.split('.')[1]?.length ?? 0));
  let pair: [string, string] = [before.toFixed(decimals), after.toFixed(decimals)];
  while (pair[0] === pair[1] && before !== after && decimals < 6) {
    decimals++;
    pair = [before.toFixed(decimals), after.toFixed(decimals)];
  }
  return pair;
}

/** A duration for people: `0.12 µs`, `3.1 µs`, `850 µs`, `1.9 ms`, `2.4 s`. */
export function formatLatency(us: number): string {
  if (us < 10) return `${formatMicros(us)} µs`;
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
    case 'miss-rate':
      return `${(value * 100).toFixed(3)}%`;
    default:
      return formatLatency(value);
  }
}

import { groupDigits } from '../../scenario/numberText';
import { formatMicros } from '../format';
// How the verdicts write their figures: one style for every `why` line.

/** `97 %` of a core or of a window (a share 0…1 given as `share`). */
export function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}

/** A share that may be a fraction of a percent, with the precision it needs: `0.05 %`, `0.6 %`, `3 %`. */
export function finePercent(share: number): string {
  const value = share * 100;
  if (value >= 10 || value === 0) return `${Math.round(value)} %`;
  if (value < 0.01) return '< 0.01 %';
  return `${Number(value.toPrecision(1))} %`;
}

/** `0.12 µs`, `3.1 µs`, `410 µs`, `12.3 ms`, `2.0 s` (below 10 µs with formatMicros's precision). */
export function micros(us: number): string {
  if (us < 10) return `${formatMicros(us)} µs`;
  if (us < 1000) return `${Math.round(us)} µs`;
  if (us < 1_000_000) return `${(us / 1000).toFixed(1)} ms`;
  return `${(us / 1_000_000).toFixed(1)} s`;
}

/** A moment or a length in ms, as seconds with one decimal: `2.5 s`; below a second a length reads `150 ms`. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export function length(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : seconds(ms);
}

export function count(n: number): string {
  return groupDigits(Math.round(n));
}

/** `get 38,000, set 112`: the largest entries first, at most `most`. */
export function topCounts(counts: Record<string, number>, most = 3): string {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  const shown = entries.slice(0, most).map(([name, n]) => `${name} ${count(n)}`);
  return shown.join(', ') + (entries.length > most ? `, ${entries.length - most} more` : '');
}

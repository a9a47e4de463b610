// Axis tick labels for the webview charts: as many decimals as the spacing of the ticks needs (a short
// test's timeline is ticked every 0.1 s or finer), and never the same label twice in a row.

/** Seconds as `12s`, `2.5s`, `0.25s`, or `1m05s` from a minute on; `decimals` for values under a minute. */
export function secondsLabel(t: number, decimals?: number): string {
  if (t < 60) {
    const places = decimals ?? (Number.isInteger(t) ? 0 : 1);
    return `${t.toFixed(places)}s`;
  }
  const m = Math.floor(t / 60);
  const s = Math.round(t % 60);
  return s ? `${m}m${String(s).padStart(2, '0')}s` : `${m}m`;
}

/** Decimals that tell ticks `step` apart (0 for whole steps, up to 3). */
export function decimalsFor(step: number): number {
  if (!(step > 0)) return 0;
  for (let places = 0; places < 3; places++) {
    const scaled = step * 10 ** places;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6 && Math.round(scaled) >= 1) return places;
  }
  return 3;
}

/** Blanks a label equal to the one before it (uPlot may still place two ticks that round alike). */
export function dedupeTicks(labels: string[]): string[] {
  return labels.map((label, i) => (i > 0 && label === labels[i - 1] ? '' : label));
}

/** Labels of a time axis's ticks (seconds). */
export function timeTicks(splits: readonly number[]): string[] {
  const step = splits.length > 1 ? Math.min(...splits.slice(1).map((t, i) => Math.abs(t - splits[i]))) : 1;
  const decimals = decimalsFor(step);
  return dedupeTicks(splits.map((t) => secondsLabel(t, decimals)));
}

// The server's time per call of a test at a point (LoadResult.server.usecPerCall), over its repeats:
// what the sweep chart plots against the swept setting and the sweep table lists. Absent in older run
// files and where the server did not tell. Pure: bundled into the webview and unit-tested.
import type { PointResult, Spread } from '../results/runFile';
import { spreadOf } from '../results/summary';
import { formatUsPerCall } from '../results/format';

export function serverTimeAt(point: PointResult, phase: string, test: string): (Spread & { runs: number }) | undefined {
  const values = point.repeats.flatMap((loads) =>
    loads.flatMap((l) => (l.phase === phase && l.test === test && l.server?.usecPerCall !== undefined ? [l.server.usecPerCall] : [])),
  );
  return values.length > 0 ? { ...spreadOf(values), runs: values.length } : undefined;
}

/** µs per call as the tables show it (the CLI's format): `3.1`, `12`, `1,420`. */
export const usText = formatUsPerCall;

/** `12.3` µs per call, or `12.3 (11.9–13.0)` over repeats. */
export function serverTimeText(spread: (Spread & { runs: number }) | undefined): string {
  if (!spread) return '—';
  return spread.runs > 1 ? `${usText(spread.median)} (${usText(spread.min)}–${usText(spread.max)})` : usText(spread.median);
}

// Summaries over repeats: the median and spread of each measured test at a sweep point.
import type { LoadResult } from '../engine';
import type { Spread, TestSummary } from './runFile';

export function spreadOf(values: number[]): Spread {
  if (values.length === 0) return { median: 0, min: 0, max: 0, stddev: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  const variance = values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], stddev: Math.sqrt(variance) };
}

/** Groups the loads of all repeats by phase and test (in first-seen order) and summarises each group. */
export function summariseRepeats(repeats: LoadResult[][]): TestSummary[] {
  const groups = new Map<string, { phase: string; test: string; loads: { repeat: number; load: LoadResult }[] }>();
  repeats.forEach((loads, repeat) => {
    for (const load of loads) {
      const key = `${load.phase}\u0000${load.test}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { phase: load.phase, test: load.test, loads: [] }));
      group.loads.push({ repeat, load });
    }
  });
  return [...groups.values()].map(({ phase, test, loads }) => {
    const ops = spreadOf(loads.map(({ load }) => load.total.opsPerSec));
    const closest = loads.reduce((best, entry) =>
      Math.abs(entry.load.total.opsPerSec - ops.median) < Math.abs(best.load.total.opsPerSec - ops.median) ? entry : best,
    );
    return {
      phase,
      test,
      runs: loads.length,
      opsPerSec: ops,
      p50Us: spreadOf(loads.map(({ load }) => load.total.latency.p50Us)),
      p99Us: spreadOf(loads.map(({ load }) => load.total.latency.p99Us)),
      representative: closest.repeat,
    };
  });
}

/** The load that stands for a summary row: the repeat closest to the median throughput. */
export function representativeLoad(repeats: LoadResult[][], summary: TestSummary): LoadResult | undefined {
  return repeats[summary.representative]?.find((load) => load.phase === summary.phase && load.test === summary.test);
}

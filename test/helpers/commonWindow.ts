// What the server ran while every part of a sharded run measured: the parts' requests inside their common
// window (latest start of measuring to earliest end), read bucket by bucket from their timelines, over that
// window. Computed here independently of src/results/merge.ts, to judge its merged throughput.
import type { LoadResult } from '../../src/engine/types';

/** Undefined when the parts never measured at the same time (short parts on a busy machine may not). */
export function ratesOverCommonWindow(loads: LoadResult[]): number | undefined {
  const start = (load: LoadResult) => Date.parse(load.measuredFrom ?? load.startedAt);
  const from = Math.max(...loads.map(start));
  const to = Math.min(...loads.map((load) => start(load) + load.durationMs));
  if (to <= from) return undefined;
  let requests = 0;
  for (const load of loads) {
    for (const bucket of load.timeline) {
      const s = start(load) + bucket.t * 1000;
      const e = s + (bucket.partialMs ?? 1000);
      requests += (bucket.ops * Math.max(0, Math.min(e, to) - Math.max(s, from))) / 1000;
    }
  }
  return (requests * 1000) / (to - from);
}

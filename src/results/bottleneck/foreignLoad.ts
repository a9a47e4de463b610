// foreign-load: the server ran commands this test did not send: someone else was using it (or RBench
// miscounted), so its figures are not this test's alone.
import type { LoadResult } from '../../engine';
import type { RunFile } from '../runFile';
import type { BottleneckJudge } from './judge';
import { count, topCounts } from './figures';

export const foreignLoad: BottleneckJudge = {
  kind: 'foreign-load',
  description: "The server ran commands this test did not send: another client shared it, so the figures are not this test's alone.",
  judge: ({ server }) => {
    const foreign = server?.foreign;
    if (!foreign || foreign.calls === 0) return undefined;
    return `the server ran ${count(foreign.calls)} commands this test did not send (${topCounts(foreign.commands)})`;
  },
};

/** Commands the server ran that a run's measured loads did not send, added up (0 when none or not read). */
export function foreignCalls(run: Pick<RunFile, 'points'>): number {
  const loads: LoadResult[] = run.points.flatMap((point) => point.repeats.flat());
  return loads.reduce((sum, load) => sum + (load.server?.foreign?.calls ?? 0), 0);
}

/** `the server ran 38,112 commands this run did not send`, or undefined for a clean run. */
export function foreignLoadLine(run: Pick<RunFile, 'points'>): string | undefined {
  const calls = foreignCalls(run);
  return calls > 0 ? `the server ran ${count(calls)} commands this run did not send` : undefined;
}

// foreign-load: the server ran commands this test did not send: someone else was using it (or RBench
// miscounted), so its figures are not this test's alone. When that someone is another RBench run (its
// connections carry RBench's names, src/runner/otherRuns.ts), the verdict names it.
import type { LoadResult } from '../../engine';
import type { RunFile } from '../runFile';
import type { BottleneckJudge } from './judge';
import { ownValue } from '../../gates/plainData';
import type { ServerDelta } from '../../redis/types';
import { count, percent, topCounts } from './figures';

export const foreignLoad: BottleneckJudge = {
  kind: 'foreign-load',
  description:
    "The server ran commands this test did not send: another client (another RBench run, when it says so) shared it, so the figures are not this test's alone.",
  judge: ({ server }) => {
    const foreign = server?.foreign;
    const share = server && foreign ? foreignTimeShare(server) : undefined;
    const time = share !== undefined ? `; they took ${share < 0.01 ? `${(share * 100).toFixed(1)} %` : percent(share)} of the server's time in the window` : '';
    const ran =
      foreign && foreign.calls > 0
        ? `the server ran ${count(foreign.calls)} commands this test did not send (${topCounts(foreign.commands)})${time}`
        : undefined;
    const others = server?.otherRuns ?? [];
    // Another run connected during the load: its load is why, even where the counters were too coarse to show it.
    if (others.length > 0) return `${otherRunsOverlapped(others.map((name) => ({ name })))}${ran ? `: ${ran}` : ''}`;
    return ran;
  },
};

/** The server's time in the foreign calls (each command's µs per call × its foreign calls) as a share of the window. */
function foreignTimeShare(server: ServerDelta): number | undefined {
  if (!server.foreign || server.windowMs <= 0) return undefined;
  let usec = 0;
  for (const [name, calls] of Object.entries(server.foreign.commands)) {
    const counters = ownValue(server.commands, name);
    if (!counters) return undefined;
    usec += calls * counters.usecPerCall;
  }
  return usec / (server.windowMs * 1000);
}

/** The prefix of every RBench run's connection names (CLIENT SETNAME); `rbench-control` is an older RBench's or Test Connection's. */
export const RUN_CLIENT_PREFIX = 'rbench-run:';

/** `"cache" from 127.0.0.1`: another RBench run by its connection name (`rbench-run:cache:3f9a1c`) and address. */
export function describeOtherRun(other: { name: string; addr?: string }): string {
  const scenario = other.name.startsWith(RUN_CLIENT_PREFIX) ? other.name.slice(RUN_CLIENT_PREFIX.length).replace(/:[0-9a-f]{6}$/, '') : undefined;
  const who = scenario ? `"${scenario}"` : 'an RBench control connection';
  return other.addr ? `${who} from ${other.addr.replace(/:\d+$/, '')}` : who;
}

/** `another RBench run ("cache" from 127.0.0.1) overlapped this one`: the verdict's and the warnings' words. */
export function otherRunsOverlapped(others: readonly { name: string; addr?: string }[]): string {
  const names = others.map(describeOtherRun).join(', ');
  return `${others.length === 1 ? 'another RBench run' : `${others.length} other RBench runs`} (${names}) overlapped this one`;
}

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

// `expect keys = N`: the keys in the database once a point's prefill phases have run, before its first
// measured phase (the benchmark spec's `check keyspacelen`). DBSIZE on the control connection (the plan's
// database); on a cluster the masters' keyspace counts summed, as the run's samples sum them.
import type Redis from 'ioredis';
import type { PhasePlan, ScenarioPlan } from '../scenario/plan';
import type { ClusterMonitor } from './clusterMonitor';
import type { ServerMonitor } from '../redis/monitor';

/** The index of the phase after which the keys are counted (the last prefill), or -1 when none is asked for. */
export function keysCountedAfter(plan: ScenarioPlan, phases: readonly PhasePlan[]): number {
  if (!plan.expects.some((expectation) => expectation.metric === 'keys')) return -1;
  let last = -1;
  phases.forEach((phase, index) => {
    if (!phase.measured) last = index;
  });
  return last;
}

/** The keys now, or undefined when the server would not say (the expectation is then not measured: it fails). */
export async function countKeys(
  control: Redis | undefined,
  monitor: ServerMonitor | ClusterMonitor | undefined,
  cluster: boolean,
): Promise<number | undefined> {
  try {
    if (cluster) return monitor ? (await monitor.sampleNow()).keys : undefined;
    return control ? await control.dbsize() : undefined;
  } catch {
    return undefined;
  }
}

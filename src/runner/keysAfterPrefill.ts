// `expect keys = N`: the keys in the database once a point's prefill phases have run (or, without one, before
// its first phase: a dataset from `--rdb`), before its first measured phase (the benchmark spec's `check keyspacelen`). DBSIZE on the control connection (the plan's
// database); on a cluster the masters' keyspace counts summed, as the run's samples sum them.
import type { ControlLink } from '../redis/controlLink';
import type { PhasePlan, ScenarioPlan } from '../scenario/plan';
import type { ClusterMonitor } from './clusterMonitor';
import type { ServerMonitor } from '../redis/monitor';

/**
 * The index of the phase before which the keys are counted: the one after the last prefill, or the first
 * when there is none (a dataset loaded from an RDB file); undefined when no `expect keys` asks.
 */
export function keysCountedBefore(plan: ScenarioPlan, phases: readonly PhasePlan[]): number | undefined {
  if (!plan.expects.some((expectation) => expectation.metric === 'keys')) return undefined;
  let last = -1;
  phases.forEach((phase, index) => {
    if (!phase.measured) last = index;
  });
  return last + 1;
}

/** The keys now, or undefined when the server would not say (the expectation is then not measured: it fails). */
export async function countKeys(
  control: ControlLink | undefined,
  monitor: ServerMonitor | ClusterMonitor | undefined,
  cluster: boolean,
): Promise<number | undefined> {
  try {
    if (cluster) return monitor ? (await monitor.sampleNow()).keys : undefined;
    return control ? Number(await control.call('DBSIZE')) : undefined;
  } catch {
    return undefined;
  }
}

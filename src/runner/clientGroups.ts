// A phase's client groups (`load NAME` lines), run at the same time on one timeline: each group by the runner
// of its kind, chosen in one table. A `requests` group is an engine load of its own (its threads, connections,
// histograms and rate); the loads start sending together (a StartBarrier: each waits until all are connected)
// and the phase ends when the last of them does. A new kind
// (subscribers, blocking consumers) is a file exporting a GroupRunner and one row of GROUP_KINDS.
import { runLoad, runSubscribers, StartBarrier, type LoadResult, type LoadTick } from '../engine';
import type { ConnectionOptions } from '../redis/types';
import type { ClientGroupKind, ClientGroupPlan, ClientPath } from '../scenario/plan';

export interface GroupRunContext {
  connection: ConnectionOptions;
  client: ClientPath;
  clusterDetected: boolean;
  signal?: AbortSignal;
  onTick: (tick: LoadTick) => void;
  /** The phase's groups start sending together: this group is `index` of the barrier's. */
  startTogether: { barrier: StartBarrier; index: number };
  /**
   * Resolves when every group of the phase that is not a subscriber group has ended, with the deliveries their
   * PUBLISH replies promise (undefined when a publisher did not count them): a subscriber group ends then.
   */
  othersDone: Promise<number | undefined>;
}

/** Runs one group to its end; throws only when it could not start (as runLoad does). */
export type GroupRunner = (group: ClientGroupPlan, context: GroupRunContext) => Promise<LoadResult>;

const runRequests: GroupRunner = (group, context) =>
  runLoad(
    {
      phase: group.phase,
      test: group.phase.tests[0],
      connection: context.connection,
      client: context.client,
      ...(context.clusterDetected ? { clusterDetected: true } : {}),
    },
    { signal: context.signal, onTick: context.onTick, startTogether: context.startTogether },
  );

/** Subscribers listen until the others (the publishers) end, then drain (src/engine/pubsub/subscriberLoad.ts). */
const runSubscriberGroup: GroupRunner = (group, context) =>
  runSubscribers(
    { phase: group.phase, test: group.phase.tests[0], connection: context.connection },
    { signal: context.signal, onTick: context.onTick, startTogether: context.startTogether, publishersDone: context.othersDone },
  );

export const GROUP_KINDS: Record<ClientGroupKind, GroupRunner> = {
  requests: runRequests,
  subscribers: runSubscriberGroup,
};

/** The deliveries the publishers' replies promise: their sum, or undefined when one publisher did not count (ioredis, cluster). */
function expectedDeliveries(results: readonly PromiseSettledResult<LoadResult>[]): number | undefined {
  let sum = 0;
  let publishers = 0;
  for (const outcome of results) {
    if (outcome.status !== 'fulfilled') continue;
    const pubsub = outcome.value.pubsub;
    if (pubsub?.role === 'publisher') {
      publishers++;
      sum += pubsub.expected ?? 0;
    }
  }
  return publishers > 0 ? sum : undefined;
}

/** Each group's outcome, in the plan's order: its result, or why it could not start. */
export type GroupOutcome = { group: ClientGroupPlan; result: LoadResult } | { group: ClientGroupPlan; error: string };

/**
 * Runs all groups at once. A group that cannot start leaves the others running (what they measure is kept);
 * its outcome says why.
 */
export async function runClientGroups(
  groups: readonly ClientGroupPlan[],
  context: Omit<GroupRunContext, 'onTick' | 'startTogether' | 'othersDone'> & { onTick: (index: number, tick: LoadTick) => void },
): Promise<GroupOutcome[]> {
  // A group that ends before it connected (refused, cancelled) leaves the barrier: the others never wait for it.
  const barrier = new StartBarrier(groups.length);
  let othersEnded!: (results: PromiseSettledResult<LoadResult>[]) => void;
  const othersSettled = new Promise<PromiseSettledResult<LoadResult>[]>((resolve) => (othersEnded = resolve));
  const othersDone = othersSettled.then(expectedDeliveries);
  const runs = groups.map((group, index) =>
    GROUP_KINDS[group.kind](group, { ...context, onTick: (tick) => context.onTick(index, tick), startTogether: { barrier, index }, othersDone }).finally(() =>
      barrier.leave(index),
    ),
  );
  void Promise.allSettled(runs.filter((_, index) => groups[index].kind !== 'subscribers')).then(othersEnded);
  const settled = await Promise.allSettled(runs);
  return settled.map((outcome, index) => {
    const group = groups[index];
    if (outcome.status === 'rejected') {
      const error = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
      return { group, error: `client group ${group.name}: ${error}` };
    }
    outcome.value.group = { name: group.name, background: group.background };
    return { group, result: outcome.value };
  });
}

/** The connections all groups open together: checked before any opens (each load checks only its own). */
export function groupClients(groups: readonly ClientGroupPlan[]): number {
  return groups.reduce((sum, group) => sum + group.phase.load.clients, 0);
}

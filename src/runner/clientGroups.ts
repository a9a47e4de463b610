// A phase's client groups (`load NAME` lines), run at the same time on one timeline: each group by the runner
// of its kind, chosen in one table. A `requests` group is an engine load of its own (its threads, connections,
// histograms and rate); the loads start sending together (a StartBarrier: each waits until all are connected)
// and the phase ends when its last measured group does: background groups are stopped then (each group runs
// under a signal of its own, so every kind inherits the stop). The `requests` groups of `threads auto` share
// their engine threads (engine SharedThreads: max of their threads, not the sum), so that two groups cost the
// machine no more threads than one group of the same clients. A new kind (subscribers, blocking consumers) is a
// file exporting a GroupRunner, honouring `signal`, and one row of GROUP_KINDS.
import { errorStatusWhy, runConsumers, runLoad, runSubscribers, SharedThreads, StartBarrier, type LoadResult, type LoadTick } from '../engine';
import type { ConnectionOptions } from '../redis/types';
import type { ClientGroupKind, ClientGroupPlan, ClientPath } from '../scenario/plan';
import { isPublishTest } from '../scenario/publishCommands';

export interface GroupRunContext {
  connection: ConnectionOptions;
  client: ClientPath;
  clusterDetected: boolean;
  /**
   * Ends the group: the run was cancelled or, for a background group, every measured group of the phase has
   * ended. A runner stops sending, keeps what it measured and resolves (status `cancelled` is fine: the stop of a
   * background group is made `complete` here).
   */
  signal?: AbortSignal;
  onTick: (tick: LoadTick) => void;
  /** The phase's groups start sending together: this group is `index` of the barrier's. */
  startTogether: { barrier: StartBarrier; index: number };
  /**
   * Resolves when the phase's groups that only listen (consumers, subscribers) may stop listening: the groups that
   * send (producers, publishers) have ended — the measured ones when there are any, for a background sender is
   * stopped only after the measured groups end. Its value is the deliveries the publishers' PUBLISH replies promise
   * (undefined when a publisher did not count them).
   */
  othersDone: Promise<number | undefined>;
  /** The engine threads the phase's groups share (ended when the phase's groups have). */
  sharedThreads: SharedThreads;
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
    { signal: context.signal, onTick: context.onTick, startTogether: context.startTogether, sharedThreads: context.sharedThreads },
  );

// Blocked calls taking the jobs the producers push, until the producers end and the queue is drained.
const runConsumerGroup: GroupRunner = (group, context) =>
  runConsumers(
    { phase: group.phase, test: group.phase.tests[0], connection: context.connection, client: context.client },
    { signal: context.signal, onTick: context.onTick, startTogether: context.startTogether, producersEnded: context.othersDone },
  );

/** Subscribers listen until the others (the publishers) end, then drain (src/engine/pubsub/subscriberLoad.ts). */
const runSubscriberGroup: GroupRunner = (group, context) =>
  runSubscribers(
    { phase: group.phase, test: group.phase.tests[0], connection: context.connection },
    { signal: context.signal, onTick: context.onTick, startTogether: context.startTogether, publishersDone: context.othersDone },
  );

export const GROUP_KINDS: Record<ClientGroupKind, GroupRunner> = {
  requests: runRequests,
  consumers: runConsumerGroup,
  subscribers: runSubscriberGroup,
};

/** Groups that only listen: they end when the groups that send have ended. */
const LISTENING_KINDS: ReadonlySet<ClientGroupKind> = new Set(['consumers', 'subscribers']);

/**
 * The deliveries the publishers' replies promise: their sum, or undefined when a publisher did not count (PUBLISH
 * on a cluster) — a partial sum would end the subscribers' drain before the messages do.
 */
function expectedDeliveries(results: readonly PromiseSettledResult<LoadResult>[], groups: readonly ClientGroupPlan[]): number | undefined {
  let sum = 0;
  let publishers = 0;
  for (const [index, outcome] of results.entries()) {
    if (outcome.status !== 'fulfilled') continue;
    const pubsub = outcome.value.pubsub;
    if (pubsub?.role === 'publisher') {
      publishers++;
      sum += pubsub.expected ?? 0;
    } else if (isPublishTest(groups[index].phase.tests[0])) return undefined;
  }
  return publishers > 0 ? sum : undefined;
}

/** Each group's outcome, in the plan's order: its result, or why it could not start. */
export type GroupOutcome = { group: ClientGroupPlan; result: LoadResult } | { group: ClientGroupPlan; error: string };

/**
 * Runs all groups at once. A group that cannot start leaves the others running (what they measure is kept);
 * its outcome says why. When every measured group has ended, the background groups still running are stopped:
 * what they measured is kept and their status is that of a load that ran to its end (`group.stopped` says it was
 * cut short). A phase of background groups only runs each to its own end.
 */
export async function runClientGroups(
  groups: readonly ClientGroupPlan[],
  context: Omit<GroupRunContext, 'onTick' | 'startTogether' | 'othersDone' | 'sharedThreads'> & { onTick: (index: number, tick: LoadTick) => void },
): Promise<GroupOutcome[]> {
  // A group that ends before it connected (refused, cancelled) leaves the barrier: the others never wait for it.
  const barrier = new StartBarrier(groups.length);
  const sharedThreads = new SharedThreads();
  const stops = groups.map(() => new AbortController());
  const cancel = () => stops.forEach((stop) => stop.abort());
  if (context.signal?.aborted) cancel();
  context.signal?.addEventListener('abort', cancel);
  const ended = new Set<number>();
  const stoppedBackground = new Set<number>();
  let measuredRunning = groups.filter((group) => !group.background).length;
  const measuredEnded = () => {
    if (--measuredRunning > 0) return;
    groups.forEach((group, index) => {
      if (!group.background || ended.has(index) || stops[index].signal.aborted) return;
      stoppedBackground.add(index);
      stops[index].abort();
    });
  };
  // Listeners (consumers, subscribers) stop once the senders have ended: the measured ones when there are any (a
  // background sender is stopped only after the measured groups, listeners among them, have ended), else all.
  const sending = groups.filter((group) => !LISTENING_KINDS.has(group.kind));
  const measuredSenders = sending.some((group) => !group.background);
  const senders: Promise<LoadResult>[] = [];
  const senderGroups: ClientGroupPlan[] = [];
  let sendersEnded!: (results: PromiseSettledResult<LoadResult>[]) => void;
  const othersDone = new Promise<PromiseSettledResult<LoadResult>[]>((resolve) => (sendersEnded = resolve)).then((results) =>
    expectedDeliveries(results, senderGroups),
  );
  const running = groups.map((group, index) => {
    const run = GROUP_KINDS[group.kind](group, {
      ...context,
      signal: stops[index].signal,
      onTick: (tick) => context.onTick(index, tick),
      startTogether: { barrier, index },
      othersDone,
      sharedThreads,
    }).finally(() => {
      barrier.leave(index);
      ended.add(index);
      if (!group.background) measuredEnded();
    });
    if (!LISTENING_KINDS.has(group.kind) && (!measuredSenders || !group.background)) {
      senders.push(run);
      senderGroups.push(group);
    }
    return run;
  });
  void Promise.allSettled(senders).then(sendersEnded);
  const settled = await Promise.allSettled(running).finally(() => {
    context.signal?.removeEventListener('abort', cancel);
    return sharedThreads.close();
  });
  return settled.map((outcome, index) => {
    const group = groups[index];
    if (outcome.status === 'rejected') {
      const error = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
      return { group, error: `client group ${group.name}: ${error}` };
    }
    const result = outcome.value;
    result.group = { name: group.name, background: group.background };
    if (stoppedBackground.has(index) && !context.signal?.aborted) endStopped(result);
    return { group, result };
  });
}

/**
 * A background group stopped because the measured groups ended: it did what it was asked, beside them. Its
 * status is a finished load's (errors past the threshold still mark it); a failure stays a failure.
 */
function endStopped(result: LoadResult): void {
  result.group = { ...result.group!, stopped: true };
  if (result.status !== 'cancelled') return;
  const reason = errorStatusWhy(result.total, result.commands);
  result.status = reason ? 'complete-with-errors' : 'complete';
  if (reason) result.errorStatusReason = reason;
}

// How a load is spread over worker threads: each thread's share of the connections and of the requests,
// and the settings (WorkerConfig) each thread gets.
import type { ClusterTopology } from '../redis/clusterTopology';
import type { ConnectionOptions } from '../redis/types';
import type { TestPlan } from '../scenario/plan';
import { clusterPlan } from './cluster/plan';
import { missRulesOf } from '../scenario/replyMisses';
import { isPublishTest, isShardPublishTest } from '../scenario/publishCommands';
import type { LoadOptions, LoadRequest } from './types';
import type { WorkerConfig } from './workerMessages';
import { createSharedBudget } from './requestBudget';
import { workerData } from './requests/tableValues';

/** Give up on a server that stays unreachable (all connections down) for this long. */
export const DEFAULT_SERVER_LOST_TIMEOUT_MS = 3000;
/** No reply on any connection while requests are outstanding for this long ends a load as stalled (`stall-timeout`). */
export const DEFAULT_STALL_TIMEOUT_MS = 10_000;
/** Timeline bucket length for short loads (duration under 10 s, or a count-based load's first 10 s). */
export const FINE_BUCKET_MS = 100;

/**
 * Requests per client, as even as possible, the remainder on the lowest clients: client c's share is the
 * count of the requests j with j mod clients = c. Shards split a load's requests by it (their clients'
 * shares, src/runner/shard.ts), which scenarioRequest relies on; within a machine the connections share one budget.
 */
export function splitRequests(requests: number, connections: number): number[] {
  const base = Math.floor(requests / connections);
  const remainder = requests - base * connections;
  return Array.from({ length: connections }, (_, c) => base + (c < remainder ? 1 : 0));
}

/** Contiguous ranges of connection indexes, one per thread. */
export function splitConnections(connections: number, threads: number): number[][] {
  const counts = splitRequests(connections, threads);
  const ranges: number[][] = [];
  let next = 0;
  for (const count of counts) {
    ranges.push(Array.from({ length: count }, (_, i) => next + i));
    next += count;
  }
  return ranges.filter((r) => r.length > 0);
}

/** Structured clone cannot carry functions (e.g. checkServerIdentity); workers get plain data. */
function cloneableConnection(connection: ConnectionOptions): ConnectionOptions {
  if (!connection.tls) return { ...connection };
  const tls = Object.fromEntries(Object.entries(connection.tls).filter(([, v]) => typeof v !== 'function'));
  return { ...connection, tls };
}

/**
 * The rows a test records: one per distinct command label, each command's index among them. A command group
 * records its unit first (UNIT_LABEL: the test's total), then its commands' rows.
 */
export function testLabels(test: TestPlan): { labels: string[]; labelIndexes: number[] } {
  const commandLabels = [...new Set(test.commands.map((c) => c.command.label))];
  const first = test.group ? 1 : 0;
  return {
    labels: test.group ? [test.name, ...commandLabels] : commandLabels,
    labelIndexes: test.commands.map((c) => first + commandLabels.indexOf(c.command.label)),
  };
}

/** What a load's threads share besides the request: its seed, rows, and (cluster targets) the layout. */
export interface LoadShares {
  seed: number;
  threads: number;
  labels: string[];
  labelIndexes: number[];
  topology?: ClusterTopology;
}

/** One WorkerConfig per thread: its range of connections, the load's one request budget, and the load's settings. */
export function workerConfigs(request: LoadRequest, options: LoadOptions, shares: LoadShares): WorkerConfig[] {
  const { phase, test } = request;
  const plan = phase.load;
  const { seed, labels, labelIndexes, topology } = shares;
  const ranges = splitConnections(plan.clients, shares.threads);
  // One budget for all threads (a shard: this machine's part), in memory they share.
  const budget = plan.requests !== undefined ? createSharedBudget(plan.requests, plan.shard?.firstClient ?? 0, plan.clients) : undefined;
  // Data tables: the same shared buffers go to every thread (posted once each, never per request).
  const data = workerData(phase);
  const idle = splitRequests(plan.idleConnections ?? 0, ranges.length);
  return ranges.map((range, worker) => ({
    worker,
    client: request.client,
    connection: cloneableConnection(request.connection),
    test,
    keys: phase.keys,
    value: phase.value,
    ...(phase.valueFill ? { valueFill: phase.valueFill } : {}),
    ...(data ? { data } : {}),
    labels,
    labelIndexes,
    missRules: missRulesOf(test, labels),
    ...(countsReceivers(test, topology !== undefined) ? { countsReceivers: true } : {}),
    pipeline: plan.pipeline,
    totalConnections: plan.shard?.totalClients ?? plan.clients,
    connections: range.map((index) => ({ index: (plan.shard?.firstClient ?? 0) + index })),
    ...(budget ? { budget } : {}),
    durationMs: plan.durationMs,
    warmupMs: plan.warmupMs,
    ratePerConnection: plan.rate !== undefined ? plan.rate / plan.clients : undefined,
    ...(plan.reconnectEvery !== undefined ? { reconnectEvery: plan.reconnectEvery } : {}),
    ...(idle[worker] > 0 ? { idleConnections: idle[worker] } : {}),
    ...(plan.connectOnly ? { connectOnly: true } : {}),
    ...(plan.ramp ? { ramp: { ...plan.ramp } } : {}),
    seed,
    ...(worker === 0 && options.serverPid !== undefined ? { serverPid: options.serverPid } : {}),
    serverLostTimeoutMs: options.serverLostTimeoutMs ?? DEFAULT_SERVER_LOST_TIMEOUT_MS,
    stallTimeoutMs: plan.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
    fineBucketMs: FINE_BUCKET_MS,
    ...(topology ? { cluster: clusterPlan(test, labels, topology, request.connection.replicaReads === true) } : {}),
  }));
}

/**
 * Whether the load sums its publish replies. One server: PUBLISH and SPUBLISH. A cluster, SPUBLISH only: a
 * shard channel's subscribers are all on the master that owns its slot, so the reply counts every delivery;
 * PUBLISH's reply counts the receiving node's subscribers alone, not the other nodes' it forwards the message to.
 */
function countsReceivers(test: TestPlan, cluster: boolean): boolean {
  return cluster ? isShardPublishTest(test) : isPublishTest(test);
}

// What the runner does around every load, a test's or a client group's alike: the server's counters read before
// and after it, and once it ended its server delta, bytes per second, AOF fsync policy, the other runs seen,
// the verdict, the chosen percentiles and the throughput percentiles. One function for both paths of
// runScenario, so a figure added to one cannot be missing from the other.
import type { LoadResult } from '../engine';
import { tallyBetween, type CommandTally, type TallyMark } from '../redis/commandTally';
import { serverCountersOff } from '../redis/info';
import type { ServerMonitor } from '../redis/monitor';
import { SLOWLOG_AFTER_ENTRIES, type NodeCounters } from '../redis/serverCounters';
import { bottleneckOf } from '../results/bottleneck';
import { addChosenPercentiles } from '../results/chosenPercentiles';
import { accountingFor, bytesPerSecond, serverDelta, withSiblingGroups, type Accounting } from '../results/serverDelta';
import { throughputPercentiles } from '../results/timelineSeconds';
import type { TestPlan } from '../scenario/plan';
import type { ClusterMonitor } from './clusterMonitor';
import type { NestedCalls } from './nestedCalls';

type Monitor = ServerMonitor | ClusterMonitor;

/** The server's counters, and what RBench's own connections had sent when they were asked for. */
export interface CountersRead {
  nodes: NodeCounters[];
  mark: TallyMark;
}

/**
 * The server's counters before a load. On a throwaway server RBench resets its statistics first (CONFIG
 * RESETSTAT), so INFO latencystats cover this load alone; a user's server is never reset. A failed read leaves
 * the load without `server`: the counters explain a result, they never fail it.
 */
export async function countersBefore(monitor: Monitor | undefined, throwaway: boolean, tally: CommandTally): Promise<CountersRead | undefined> {
  if (!monitor || serverCountersOff()) return undefined;
  try {
    if (throwaway) await monitor.resetStats();
    // Marked before the read is sent: the server counts this INFO (after it ran) and what follows it in the window.
    const mark = tally.mark();
    return { nodes: await monitor.readCounters(), mark };
  } catch {
    return undefined;
  }
}

export async function countersAfter(monitor: Monitor | undefined, tally: CommandTally): Promise<CountersRead | undefined> {
  if (!monitor || serverCountersOff()) return undefined;
  // Marked before the read is sent: this INFO's answer does not count itself.
  const mark = tally.mark();
  const nodes = await monitor.readCounters({ slowlogEntries: SLOWLOG_AFTER_ENTRIES }).catch(() => undefined);
  return nodes ? { nodes, mark } : undefined;
}

/** What ran the load: its test and warm-up, the module calls probed for it, and, for a client group, the other groups' sends. */
export interface LoadSource {
  test: TestPlan;
  warmupMs: number;
  probed?: NestedCalls;
  /** The phase's other client groups: their requests are the run's own load in this one's window. */
  siblingGroups?: readonly Accounting[];
}

/** What surrounded the load: the counters read around it and who else used the server meanwhile. */
export interface LoadSurroundings {
  before?: CountersRead;
  after?: CountersRead;
  /** Sibling parts of a sharded run that sent meanwhile what only their run files count (rbench merge judges). */
  siblingParts: number;
  /** This run is a part of a sharded run of this many parts (`--shard I/N`): its siblings may send meanwhile, seen or not. */
  shardParts?: number;
  /** Other runs seen on the server meanwhile. */
  otherRuns: readonly string[];
  /** A throwaway server: its statistics were reset before the load. */
  local: boolean;
  /** The AOF fsync policy CONFIG GET read when the run started (absent where CONFIG was refused). */
  appendfsync?: string;
  percentiles?: readonly number[];
}

/** A load's requests as the server's accounting counts them (without RBench's own commands). */
export function sendsOf(source: LoadSource, result: LoadResult): Accounting {
  return accountingFor(source.test, result, source.warmupMs);
}

/** Completes an ended load's result with every figure derived from its surroundings, and its verdict. */
export function settleLoad(result: LoadResult, source: LoadSource, around: LoadSurroundings): void {
  const { before, after } = around;
  if (before && after) {
    let accounting = accountingFor(source.test, result, source.warmupMs, tallyBetween(before.mark, after.mark), source.probed?.nested);
    if (source.probed?.inexact) accounting.inexact ??= source.probed.inexact;
    if (source.siblingGroups) accounting = withSiblingGroups(accounting, source.siblingGroups);
    if (around.siblingParts > 0 || (around.shardParts ?? 1) > 1)
      accounting.siblings = { parts: around.siblingParts, ...(around.shardParts ? { of: around.shardParts } : {}) };
    result.server = serverDelta(before.nodes, after.nodes, accounting, around.local ? 'per-test' : 'cumulative');
    const bytes = bytesPerSecond(result.server);
    if (bytes) result.bytesPerSec = bytes;
    if (result.server.aof && around.appendfsync) result.server.aof.fsync = around.appendfsync;
  }
  if (result.server && around.otherRuns.length > 0) result.server.otherRuns = [...around.otherRuns];
  // The verdict from the client's and the server's evidence; judged again at the end of the run, when the run's
  // persistence events (from the per-second samples) are known.
  result.bottleneck = bottleneckOf(result);
  addChosenPercentiles(result, around.percentiles);
  const throughput = throughputPercentiles(result);
  if (throughput) result.throughputPercentiles = throughput;
}

// runLoad: runs one test of one phase against a connection, in worker threads, and merges what the
// workers measured into one LoadResult. VS Code's extension host only receives messages, so it stays responsive
// whatever the load; a small one (threads.ts runsInThread: at most 1,000 requests) runs on it, as a worker would,
// saving the worker's start. The CLI's thread has nothing else to do: a one-thread load of any length runs on it
// (threads.ts letLoadsHoldThisThread). The client groups of a phase share their engine threads (sharedThreads.ts).
import { randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ClusterTopologyError, discoverTopology } from '../redis/clusterTopology';
import { openRawControl } from './fast/rawControl';
import type { ConnectionOptions } from '../redis/types';
import { checkConnectionCapacity } from './capacity';
import { ClusterTracker } from './cluster/tracker';
import { LoadError } from './errors';
import { testLabels, workerConfigs } from './loadPlan';
import { readTcp, tcpBetween } from './tcpCounters';
import { validateLoad } from './loadValidation';
import { assembleResult, commandResult } from './resultAssembly';
import type { SharedThreads } from './sharedThreads';
import { loadsMayHoldThisThread, resolveThreads, runsInThread, sharesThreads } from './threads';
import type { LoadOptions, LoadRequest, LoadResult } from './types';
import { workerResourceLimits } from './workerHeap';
import { runWorkers, type WorkerRun } from './workerThreads';

/** A load among others of its phase (client groups): with `sharedThreads`, a load of `threads auto` runs on those. */
export interface PhaseLoadOptions extends LoadOptions {
  sharedThreads?: SharedThreads;
}

export async function runLoad(request: LoadRequest, options: PhaseLoadOptions = {}): Promise<LoadResult> {
  validateLoad(request);
  const idle = request.phase.load.idleConnections ?? 0;
  await checkConnectionCapacity(request.connection, request.phase.load.clients + idle, idle);
  const seed = request.seed ?? request.phase.keys.seed ?? randomInt(1, 2 ** 32);
  const { labels, labelIndexes } = testLabels(request.test);
  const threads = resolveThreads(request.phase.load);
  const cluster = request.connection.cluster ? new ClusterTracker(request.connection, await loadTopology(request.connection)) : undefined;
  const startedAt = new Date().toISOString();
  const loadStart = performance.now();

  const result: WorkerRun['result'] = (status, parts) => {
    const assembled = assembleResult(request, { status, startedAt, seed, threads, labels, ...parts });
    if (cluster) assembled.cluster = cluster.result(parts.workers ?? [], assembled.durationMs, request.clusterDetected === true, commandResult);
    return assembled;
  };
  if (options.signal?.aborted) return result('cancelled', {});

  const configs = workerConfigs(request, options, { seed, threads, labels, labelIndexes, topology: cluster?.topology });
  const tcpBefore = readTcp();
  const inThread = runsInThread(request.phase.load, threads, {
    startTogether: options.startTogether !== undefined,
    callerFree: loadsMayHoldThisThread(),
    leanHeap: configs.every((config) => workerResourceLimits(config) !== undefined),
  });
  const shared = !inThread && sharesThreads(request.phase.load) ? options.sharedThreads : undefined;
  const done = await runWorkers(configs, { plan: request.phase.load, options, startedAt, loadStart, cluster, result, inThread, shared });
  const tcp = tcpBetween(tcpBefore, readTcp());
  if (tcp) done.tcp = tcp;
  // The slot ranges each master served at the end of the load (a reshard may have moved some).
  if (cluster && done.cluster) await cluster.finalSlots(done.cluster);
  return done;
}

/** The cluster's layout before a load: what makes it unreadable or refused ends the load as a LoadError. */
async function loadTopology(connection: ConnectionOptions) {
  try {
    return await discoverTopology(connection, openRawControl);
  } catch (error) {
    throw error instanceof ClusterTopologyError ? new LoadError(error.message) : error;
  }
}

// How many worker threads a load gets, and which small loads need none (inThreadLoad.ts).
import { availableParallelism } from 'node:os';
import type { LoadPlan } from '../scenario/plan';
import { optimizeOnlyWhileLoading } from './optimizeWhileLoading';

/** Requests up to which a load runs on the caller's thread when that thread serves others too (VS Code's extension host). */
export const SMALL_LOAD_REQUESTS = 1000;

let callerThreadFree = false;

/**
 * Says that the caller's thread has nothing else to do while a load runs (the CLI's process; not VS Code's extension
 * host, which serves every extension): a one-thread load of any length then runs on it. A worker cost every run
 * ~30 ms of CPU to start, a second JIT of the engine on V8's helper threads (~25 ms) and ~10 MiB of peak RSS at
 * 1M requests (issue 46). Such a thread also has V8 optimize only while a load runs (optimizeWhileLoading.ts).
 */
export function letLoadsHoldThisThread(free = true): void {
  callerThreadFree = free;
  optimizeOnlyWhileLoading(free);
}

/** Whether letLoadsHoldThisThread was said. */
export function loadsMayHoldThisThread(): boolean {
  return callerThreadFree;
}

/**
 * True when the load runs on the caller's thread (inThreadLoad.ts) rather than in a worker: one thread, and nothing
 * that coordinates (a start barrier shared with other loads) or holds a changing set of connections (a ramp, idle
 * connections held beside it). A cluster's load runs here too: its layout reloads reach the load as a worker's
 * would (workerThreads.ts posts them); a worker's start and second JIT cost a 1,000-request run on a 3-master
 * cluster ~120 ms of CPU, and a 2M-request one ~20 MiB of peak RSS (issue 46). Then a count of at most SMALL_LOAD_REQUESTS requests and
 * no duration (a few ms of work); or, when the caller's thread is free (`callerFree`), any length of a load whose
 * path wants the lean heap that thread has (`leanHeap`, workerHeap.ts: the CLI keeps its young generation small;
 * a path that allocates per reply gets a worker with V8's default).
 */
export function runsInThread(
  load: Pick<LoadPlan, 'requests' | 'durationMs' | 'ramp' | 'idleConnections'>,
  threads: number,
  context: { startTogether: boolean; callerFree?: boolean; leanHeap?: boolean },
): boolean {
  const small = load.durationMs === undefined && load.requests !== undefined && load.requests <= SMALL_LOAD_REQUESTS;
  return (
    threads === 1 &&
    (small || (context.callerFree === true && context.leanHeap === true)) &&
    !load.ramp &&
    !(load.idleConnections ?? 0) &&
    !context.startTogether
  );
}

/**
 * True when a load may run on engine threads shared with the other loads of its phase (sharedThreads.ts): it
 * leaves `threads` to `auto`. A load that names its threads keeps that many of its own.
 */
export function sharesThreads(load: Pick<LoadPlan, 'threads'>): boolean {
  return load.threads === 'auto';
}

/**
 * The 'auto' rule. Every load but a small one (runsInThread) runs in worker threads; the question is
 * how many. Extra threads pay off only when the client is the bottleneck: shallow pipelines (each
 * request costs the client its own write and read system calls) with many connections to share out.
 * When the server is the bottleneck (deep pipelines), or the machine has no spare core (a local
 * server needs one), extra threads just compete with the server: measured on 2 cores with a local
 * server, 2 threads lost throughput even at pipeline 1 once the machine was busy.
 *   - 2 cores or fewer → 1
 *   - pipeline ≥ 3, or fewer than 16 clients → 1
 *   - otherwise → min(4, cores / 2, clients / 16)
 * An explicit number is used as given (0 counts as 1), capped at the number of clients.
 */
export function resolveThreads(load: Pick<LoadPlan, 'threads' | 'clients' | 'pipeline'>, cores = availableParallelism()): number {
  if (load.threads !== 'auto') return Math.max(1, Math.min(Math.floor(load.threads), load.clients));
  if (cores <= 2 || load.pipeline >= 3 || load.clients < 16) return 1;
  return Math.max(1, Math.min(4, Math.floor(cores / 2), Math.floor(load.clients / 16)));
}

// How many worker threads a load gets.
import { availableParallelism } from 'node:os';
import type { LoadPlan } from '../scenario/plan';

/**
 * The 'auto' rule. Every load runs in worker threads (never on the caller's thread); the question is
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

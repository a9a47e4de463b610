// How many worker threads a load gets.
import { availableParallelism } from 'node:os';
import type { ClientPath, LoadPlan } from '../scenario/plan';

/**
 * 'auto' rule, from measurements on a 2-core machine with the server on the same box:
 * extra threads pay off only when the client is the bottleneck, i.e. when each request costs the
 * client a system call of its own (pipeline 1–2) and there are enough connections to share. When the
 * server is the bottleneck (deep pipelines) extra threads just compete with it for the cores.
 *   - pipeline ≥ 3, or fewer than 8 clients → 1 thread
 *   - otherwise → min(cores − 1, clients / 8, 4), at least 1 (one core is left for a local server)
 * An explicit number is used as given (0 counts as 1), capped at the number of clients.
 */
export function resolveThreads(load: LoadPlan, _client: ClientPath, cores = availableParallelism()): number {
  if (load.threads !== 'auto') return Math.max(1, Math.min(Math.floor(load.threads), load.clients));
  if (load.pipeline >= 3 || load.clients < 8) return 1;
  return Math.max(1, Math.min(cores - 1, Math.floor(load.clients / 8), 4));
}

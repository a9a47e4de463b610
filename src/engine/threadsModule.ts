// node:worker_threads, required when it is first needed, not when the engine loads: a small load runs on the
// caller's thread (inThreadLoad.ts), and its start need not load Node's worker machinery (internal/worker,
// its messaging and error serialisation), which it never uses.
import type * as WorkerThreads from 'node:worker_threads';

export function threadsModule(): typeof WorkerThreads {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('node:worker_threads') as typeof WorkerThreads;
}

// In the CLI, V8 optimizes only while a load runs or is being prepared. What the CLI's thread runs after a load (its
// summary, its verdicts, the run file) runs once; V8 still compiled its longest loops with TurboFan on a helper
// thread, mostly after they had run (issue 46, `--trace-opt`: `summarize`, percentiles, the HDR encoder). Without
// that, on this machine: the helper threads' CPU of 1M GETs at P16 151 → 131 ms, of 400k SETs at P10 161 → 129 ms,
// a 100-request run 20 → 13 ms; the main thread's the same within noise (6 to 8 A B rounds, /proc schedstat).
// V8's flags are the process's: the flag is off only while no load runs on any thread, and set back before the
// next load creates its threads (a code cache is checked against the flags it was made under). VS Code's extension
// host runs every extension's code: there the flag is never touched.
import { setFlagsFromString } from 'node:v8';
import { FLAG_LOCK } from './sharedThreads';

let running = 0;
let optimizing = true;
let onlyWhileLoading = false;

/** Said with threads.ts letLoadsHoldThisThread (the CLI's process); unsaid, V8 optimizes again at once. */
export function optimizeOnlyWhileLoading(only: boolean): void {
  onlyWhileLoading = only;
  if (!only && !optimizing) setOptimizing(true);
}

/** A load is about to create its threads: V8 optimizes again if it had stopped. */
export function loadStarting(): void {
  running++;
  preparingLoads();
}

/**
 * The caller prepares what its next loads need (a file's check, a scenario's set-up, its data files of up to
 * 64 MiB): work of any size, so V8 optimizes again until the next load ends.
 */
export function preparingLoads(): void {
  if (!optimizing) setOptimizing(true);
}

/** A load has ended (each loadStarting is matched once): with none left running, the CLI's V8 stops optimizing. */
export function loadEnded(): void {
  running = Math.max(0, running - 1);
  if (running === 0 && optimizing && onlyWhileLoading) setOptimizing(false);
}

/** Runs a load that starts no threads of its own (subscribers and consumers, on the caller's thread) as a load. */
export async function asLoad<T>(run: () => Promise<T>): Promise<T> {
  loadStarting();
  try {
    return await run();
  } finally {
    loadEnded();
  }
}

/** Whether V8 optimizes now, as this module last set it. */
export function optimizingNow(): boolean {
  return optimizing;
}

/** Sets V8's --turbofan, holding the lock an engine thread holds to set --expose-gc (worker.ts collectGarbage). */
function setOptimizing(on: boolean): void {
  const lock = new Int32Array(FLAG_LOCK);
  while (Atomics.compareExchange(lock, 0, 0, 1) !== 0) Atomics.wait(lock, 0, 1, 5);
  try {
    setFlagsFromString(on ? '--turbofan' : '--no-turbofan');
    optimizing = on;
  } finally {
    Atomics.store(lock, 0, 0);
    Atomics.notify(lock, 0);
  }
}

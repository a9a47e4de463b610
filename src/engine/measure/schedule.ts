// A thread's window as the scheduler accounted it (schedstat's time on a CPU and time runnable waiting for a
// core), split into shares, and when that thread was starved: one rule for the engine's own call
// (src/engine/verdicts.ts) and the bottleneck verdict (src/results/bottleneck/cpuShares.ts). Pure, with no
// Node import, so the webview's bundle of the verdict can take it (eslint.config.mjs lets it through the face).
/** A thread's window in three parts, as shares of it: on a CPU, runnable but waiting for a core, and asleep (no work). */
export interface ScheduleShares {
  run: number;
  wait: number;
  idle: number;
  /** run + wait: the share of the window the thread had work. */
  busy: number;
}

/** The shares of `windowMs` (figures from a run file are a stranger's: each part clamped to the window). */
export function scheduleShares(schedule: { runMs: number; runnableWaitMs: number }, windowMs: number): ScheduleShares | undefined {
  if (!(windowMs > 0) || !Number.isFinite(schedule.runMs) || !Number.isFinite(schedule.runnableWaitMs)) return undefined;
  const run = Math.min(1, Math.max(0, schedule.runMs / windowMs));
  const wait = Math.min(1 - run, Math.max(0, schedule.runnableWaitMs / windowMs));
  return { run, wait, idle: 1 - run - wait, busy: run + wait };
}

/**
 * Starved: waiting for a core was the largest part of the thread's window. It waited at least as long as it
 * ran, so the scheduler gave it at most half the CPU it had work for, and at least as long as it slept, so
 * it was held up more by the machine than by waiting for anyone's reply. Its event-loop figure does not
 * matter: time spent waiting for a core looks idle there.
 */
export function isStarved(shares: ScheduleShares): boolean {
  return shares.wait > 0 && shares.wait >= shares.run && shares.wait >= shares.idle;
}

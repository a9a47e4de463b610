// The calling thread's CPU time and its wait for a core, from Linux's /proc/thread-self/schedstat (ns on
// a CPU, ns runnable on a runqueue, timeslices). Read synchronously on purpose: an asynchronous read would
// run on libuv's pool and describe a pool thread. Elsewhere (no such file) the figures are absent.
import { readFileSync } from 'node:fs';
import { threadSchedstat } from '../gates/procStats';

export interface ThreadSchedule {
  runMs: number;
  runnableWaitMs: number;
}

const SCHEDSTAT = '/proc/thread-self/schedstat';
let missing = process.platform !== 'linux';

/** This thread's totals since it started, or undefined where the system does not tell. */
export function threadSchedule(): ThreadSchedule | undefined {
  if (missing) return undefined;
  try {
    const [run, wait] = readFileSync(SCHEDSTAT, 'latin1').trim().split(/\s+/).map(Number);
    if (!Number.isFinite(run) || !Number.isFinite(wait)) return undefined;
    return { runMs: run / 1e6, runnableWaitMs: wait / 1e6 };
  } catch {
    missing = true;
    return undefined;
  }
}

/** What the thread got between two readings. */
export function scheduleBetween(start: ThreadSchedule | undefined, end: ThreadSchedule | undefined): ThreadSchedule | undefined {
  if (!start || !end) return undefined;
  return { runMs: Math.max(0, end.runMs - start.runMs), runnableWaitMs: Math.max(0, end.runnableWaitMs - start.runnableWaitMs) };
}

/** CPU time of the calling thread in ms: process.threadCpuUsage (Node ≥ 23.9), else schedstat's run time. */
export function threadCpuMs(): number | undefined {
  const usage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.();
  return usage ? (usage.user + usage.system) / 1000 : threadSchedule()?.runMs;
}

/** A local server's main thread (tid == pid, where Redis runs commands) now: the runner verified the pid is that redis-server. */
export function serverThreadSchedule(pid: number | undefined): ThreadSchedule | undefined {
  return pid === undefined ? undefined : threadSchedstat(pid, pid);
}

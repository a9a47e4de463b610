// A local server's threads as the scheduler saw them: time on a CPU and time runnable but waiting for a
// core (/proc/<pid>/task/<tid>/schedstat, through src/gates/procStats.ts), for the verdict's utilization
// law (src/results/bottleneck/cpuShares.ts). Only for a server on this machine whose pid its INFO gives,
// and only when that pid is really a redis-server listening where we connected: a pid in another pid
// namespace, or a reused one, is never read as the server.
import { isLoopbackHost } from '../gates/network';
import { childIds, machineBusyMs, processCpu, readProcFile, threadIds, threadSchedstat } from '../gates/procStats';
import type { ConnectionOptions } from './types';

/** The server's threads' totals since they started, ms: the main thread (tid == pid, where commands run) and any io-threads. */
export interface ServerSchedule {
  runMs: number;
  runnableWaitMs: number;
  /** io-threads (`io_thd_*`), added up, when the server runs any. */
  ioThreads?: { count: number; runMs: number; runnableWaitMs: number };
  /**
   * CPU time of the server's fork children (BGSAVE, AOF rewrite) on this machine: those it reaped, and those still
   * running. A child takes a core the client and the server may need (persistence weighs it in the verdict).
   */
  childrenRunMs?: number;
  /** CPU time all of the machine's cores spent on work: what the child competed with (beside childrenRunMs). */
  machineBusyMs?: number;
}

/** Names redis-server gives its process (comm, at most 15 characters); a Redis Stack build keeps the same. */
const SERVER_NAMES = new Set(['redis-server']);

/** Whether the target is this machine: a unix socket, or a loopback host. */
export function isLocalTarget(options: Pick<ConnectionOptions, 'host' | 'path' | 'cluster' | 'sentinel'>): boolean {
  if (options.cluster || options.sentinel) return false;
  return options.path !== undefined || isLoopbackHost(options.host);
}

/**
 * The pid INFO's `process_id` names, when it is a redis-server of this machine that listens where we
 * connected: its name is redis-server and its title (Redis writes `redis-server 127.0.0.1:6379` over its
 * command line) names our port or socket. Undefined otherwise: then no schedstat is read.
 */
export function verifiedServerPid(processId: string | undefined, options: Pick<ConnectionOptions, 'port' | 'path'>): number | undefined {
  if (processId === undefined || !/^\d{1,10}$/.test(processId)) return undefined;
  const pid = Number(processId);
  if (!SERVER_NAMES.has(readProcFile(pid, 'comm')?.trim() ?? '')) return undefined;
  const title = readProcFile(pid, 'cmdline')?.replace(/\0/g, ' ') ?? '';
  const listens = options.path !== undefined ? title.includes(options.path) : new RegExp(`:${options.port}(\\s|$)`).test(title);
  return listens ? pid : undefined;
}

/** The server's main thread and io-threads now, or undefined when the system does not tell. */
export function readServerSchedule(pid: number): ServerSchedule | undefined {
  const main = threadSchedstat(pid, pid);
  if (!main) return undefined;
  const schedule: ServerSchedule = { ...main };
  let io: ServerSchedule['ioThreads'];
  for (const tid of threadIds(pid) ?? []) {
    if (tid === pid || !readProcFile(pid, 'comm', tid)?.startsWith('io_thd_')) continue;
    const figures = threadSchedstat(pid, tid);
    if (!figures) continue;
    io = { count: (io?.count ?? 0) + 1, runMs: (io?.runMs ?? 0) + figures.runMs, runnableWaitMs: (io?.runnableWaitMs ?? 0) + figures.runnableWaitMs };
  }
  if (io) schedule.ioThreads = io;
  const children = childrenRunMs(pid);
  const machine = machineBusyMs();
  if (children !== undefined && machine !== undefined) Object.assign(schedule, { childrenRunMs: children, machineBusyMs: machine });
  return schedule;
}

/** The reaped children's CPU (the process's stat) plus each live child's time on a CPU (its schedstat), ms. */
function childrenRunMs(pid: number): number | undefined {
  const reaped = processCpu(pid)?.reapedChildrenMs;
  const live = childIds(pid);
  if (reaped === undefined || live === undefined) return undefined;
  return live.reduce((sum, child) => sum + (threadSchedstat(child, child)?.runMs ?? 0), reaped);
}

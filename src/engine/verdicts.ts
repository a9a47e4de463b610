// The verdicts on a finished load, from what its workers measured: whether the client or the server set
// the pace, whether the server stalled, and whether errors make the load count as failed work.
import type { ClientHealth, CommandResult, LoadRequest } from './types';
import type { WorkerResult } from './workerMessages';
import { groupDigits } from '../scenario/numberText';
import { isStarved, scheduleShares } from './measure/schedule';
import { escapeControl } from '../gates/output';
import { ownValue } from '../gates/plainData';

/** Busy share of the busiest engine thread (its CPU time, or event-loop busy time) above which the client may be the limit. */
const CLIENT_BOUND_UTILIZATION = 0.9;
/** Below this the engine clearly had headroom, so the server (or network) set the pace. */
const SERVER_BOUND_UTILIZATION = 0.75;
/** Open loop: the client is the limit only if it also fell behind its schedule for more than this share of sends. */
const CLIENT_BOUND_LATE_SHARE = 0.01;
/**
 * Error replies and timeouts above this share of a load's requests end it as `complete-with-errors`
 * (documented in docs/rbench-format.md; a scenario accepts errors with `expect error-rate < X`).
 */
export const ERROR_STATUS_THRESHOLD = 0.01;

/**
 * Whether the client was the limit, from its own CPU time: the busiest thread busy (its CPU time where the
 * runtime or Linux's schedstat can tell, else event-loop busy time, which no longer counts waiting since
 * the open loop sleeps on timers) and the process using about a core per thread; in the open loop, sends
 * late as well. A thread starved of CPU by other processes (waiting for a core the largest part of the
 * window, threadCpu.ts) is never called `server`: its low CPU time is not headroom (src/results/bottleneck names it).
 */
export function bottleneck(
  workers: WorkerResult[],
  durationMs: number,
  threads: number,
  cpuPercent: number,
  lateShare: number | undefined,
): ClientHealth['bottleneck'] {
  if (workers.length === 0 || durationMs === 0) return 'unknown';
  const busy = workers.reduce((max, w) => Math.max(max, w.threadCpuMs !== undefined ? w.threadCpuMs / durationMs : w.eventLoopUtilization), 0);
  const processBusy = cpuPercent / 100 / Math.max(1, threads);
  const behind = lateShare === undefined || lateShare > CLIENT_BOUND_LATE_SHARE;
  if (busy >= CLIENT_BOUND_UTILIZATION && processBusy >= CLIENT_BOUND_UTILIZATION * 0.9 && behind) return 'client';
  if (workers.some((worker) => starved(worker, durationMs))) return 'unknown';
  if (busy < SERVER_BOUND_UTILIZATION || !behind) return 'server';
  return 'unknown';
}

/** Starved by the scheduler's own accounting (threadCpu.ts), whatever its event loop says: a wait for a core looks idle there. */
function starved(worker: WorkerResult, durationMs: number): boolean {
  const shares = worker.threadCpu && scheduleShares(worker.threadCpu, durationMs);
  return shares !== undefined && isStarved(shares);
}

/** A load that ended because the server stopped answering: how long it was silent, and what was sent of the plan. */
export function stallWhy(workers: WorkerResult[], sent: number, plan: LoadRequest['phase']['load'], windowMs: number): string | undefined {
  const stalled = workers.filter((w) => w.stall !== undefined);
  if (stalled.length === 0) return undefined;
  const silentS = Math.max(...stalled.map((w) => w.stall!.silentMs)) / 1000;
  const outstanding = stalled.reduce((sum, w) => sum + w.stall!.outstanding, 0);
  const format = groupDigits;
  const seconds = (s: number) => `${s < 10 ? s.toFixed(1).replace(/\.0$/, '') : Math.round(s)} s`;
  const sentOfPlan =
    plan.requests !== undefined
      ? `${format(sent)} of ${format(plan.requests)} planned requests sent`
      : `stopped after ${seconds(windowMs / 1000)} of the planned ${seconds(plan.durationMs! / 1000)}`;
  return `the server sent no reply for ${seconds(silentS)} with ${format(outstanding)} requests outstanding (now TIMEOUT errors); ${sentOfPlan}`;
}

/** The most error kinds a reason names (the largest counts), and the longest server text it quotes for one. */
const MAX_KINDS_NAMED = 3;
const MAX_QUOTED = 160;

/** A server's error text as a reason quotes it: control characters made visible (gates/output.ts), cut to MAX_QUOTED. */
function quoted(text: string): string {
  const shown = escapeControl(text);
  return shown.length <= MAX_QUOTED ? shown : `${shown.slice(0, MAX_QUOTED)}…`;
}

/**
 * `FT.CREATE: Index already exists (1×)`: each kind of error (its first word, for grouping) in the server's
 * own words (the first reply of that kind) and the commands that met it, largest count first.
 */
export function errorKindsText(total: CommandResult, commands: readonly CommandResult[]): string {
  const kinds = Object.entries(total.errorsByKind).sort((a, b) => b[1] - a[1]);
  const named = kinds.slice(0, MAX_KINDS_NAMED).map(([kind, count]) => {
    const where = commands.filter((command) => ownValue(command.errorsByKind, kind) !== undefined).map((command) => quoted(command.command));
    return `${where.length > 0 ? `${where.join(', ')}: ` : ''}${quoted(ownValue(total.errorExamples, kind) ?? kind)} (${groupDigits(count)}×)`;
  });
  const more = kinds.length - named.length;
  return named.join('; ') + (more > 0 ? `; and ${more} more kind${more === 1 ? '' : 's'}` : '');
}

/** Why a load that ran to its end counts as failed work: nothing succeeded, or errors above the threshold. */
export function errorStatusWhy(total: CommandResult, commands: readonly CommandResult[]): string | undefined {
  if (total.requests === 0 || total.errors === 0) return undefined;
  const share = total.errors / total.requests;
  const kinds = errorKindsText(total, commands);
  const percent = `${(share * 100).toFixed(share < 0.1 ? 2 : 1)}%`;
  if (total.errors >= total.requests) return `nothing succeeded: all ${groupDigits(total.requests)} requests failed (${kinds})`;
  if (share > ERROR_STATUS_THRESHOLD) {
    return `${percent} of requests failed (${kinds}), above the ${ERROR_STATUS_THRESHOLD * 100}% threshold`;
  }
  return undefined;
}

// The client's own load, read the same way by the client kinds and by round-trip: how busy its busiest
// thread was and how much CPU the process used per thread.
import type { ClientHealth } from '../../engine';
import { percent } from './figures';

/** `busiest thread 97 % busy, process 188 % of a core over 2 threads`. */
export function clientFigures(health: ClientHealth): string {
  const busy = health.eventLoopUtilization !== undefined ? `busiest thread ${percent(health.eventLoopUtilization)} busy, ` : '';
  return `${busy}process ${percent(health.cpuPercent / 100)} of a core over ${health.threads} thread${health.threads === 1 ? '' : 's'}`;
}

/** Share of the window the busiest thread got a core (/proc schedstat), when the system told. */
export function cpuGotShare(health: ClientHealth, windowMs: number): number | undefined {
  return health.threadCpu && windowMs > 0 ? health.threadCpu.runMs / windowMs : undefined;
}

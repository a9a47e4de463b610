// How busy the machine was during a run (/proc/stat): on a shared machine the other processes' load, not
// the path, sets much of a tail, and the report should say how much there was.
import { readFileSync } from 'node:fs';

/** The machine's CPU time so far, in clock ticks: all of it, idle (with iowait) and stolen by a hypervisor. */
export function cpuSample() {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = ticks;
    return { total: user + nice + system + idle + iowait + irq + softirq + steal, idle: idle + iowait, steal };
  } catch {
    return null;
  }
}

/** Busy and stolen shares (0…1) of all cores between two samples; null where /proc/stat is missing. */
export function cpuShares(before, after) {
  if (!before || !after || after.total === before.total) return null;
  const total = after.total - before.total;
  return { busy: 1 - (after.idle - before.idle) / total, steal: (after.steal - before.steal) / total };
}

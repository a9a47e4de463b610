// The one door to the kernel's per-process files (the file gate refuses /proc: endless or secret files):
// only a numeric pid's name (comm), its command line and its threads' scheduler figures (schedstat), each
// read bounded, a process's CPU times and children (stat, children) for a local server's forks, and the
// machine's CPU time (/proc/stat's first line) to weigh a fork child against everything else that ran. A server's pid comes from its own INFO reply (a stranger's word), so nothing else is reachable.
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';

/** The most bytes read of one such file (a command line is the longest; the rest are one short line). */
const MAX_BYTES = 4096;
/** The most threads listed of one process (redis-server has a handful; io-threads at most 128). */
const MAX_THREADS = 1024;

/** The files this door opens, per process or per thread. */
export type ProcFile = 'comm' | 'cmdline' | 'schedstat' | 'stat' | 'children';

function validId(id: number): boolean {
  return Number.isSafeInteger(id) && id > 0 && id < 2 ** 22 + 1;
}

/** `/proc/<pid>/<file>`, or `/proc/<pid>/task/<tid>/<file>`: its text (up to MAX_BYTES), or undefined when it cannot be read. */
function readBounded(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(MAX_BYTES);
    let length = 0;
    for (let read = 1; read > 0 && length < MAX_BYTES; length += read) read = readSync(fd, buffer, length, MAX_BYTES - length, null);
    return buffer.subarray(0, length).toString('latin1');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

export function readProcFile(pid: number, file: ProcFile, tid?: number): string | undefined {
  if (process.platform !== 'linux' || !validId(pid) || (tid !== undefined && !validId(tid))) return undefined;
  const path = tid === undefined ? `/proc/${pid}/${file}` : `/proc/${pid}/task/${tid}/${file}`;
  return readBounded(path);
}

/** The thread ids of a process (`/proc/<pid>/task`), at most MAX_THREADS, or undefined when it cannot be listed. */
export function threadIds(pid: number): number[] | undefined {
  if (process.platform !== 'linux' || !validId(pid)) return undefined;
  try {
    return readdirSync(`/proc/${pid}/task`)
      .slice(0, MAX_THREADS)
      .map(Number)
      .filter((tid) => validId(tid));
  } catch {
    return undefined;
  }
}

/** A thread's schedstat: ns on a CPU and ns runnable on a runqueue (waiting for a core), as ms; undefined when not told. */
export function threadSchedstat(pid: number, tid: number): { runMs: number; runnableWaitMs: number } | undefined {
  const text = readProcFile(pid, 'schedstat', tid);
  const fields = text?.trim().split(/\s+/) ?? [];
  if (fields.length < 2 || !fields.slice(0, 2).every((field) => /^\d{1,20}$/.test(field))) return undefined;
  return { runMs: Number(fields[0]) / 1e6, runnableWaitMs: Number(fields[1]) / 1e6 };
}

/** USER_HZ: the unit of /proc's CPU times, 100 on every Linux ABI (the kernel converts to it for user space). */
const TICKS_PER_SECOND = 100;
/** The most children listed of one process (a redis-server has at most one fork child at a time). */
const MAX_CHILDREN = 64;

/** A process's own CPU time and its reaped children's (utime + stime, cutime + cstime), ms; undefined when not told. */
export function processCpu(pid: number): { ownMs: number; reapedChildrenMs: number } | undefined {
  const text = readProcFile(pid, 'stat');
  // The name (field 2) is in parentheses and may hold spaces or parentheses: the fields follow its last ')'.
  const fields =
    text
      ?.slice(text.lastIndexOf(')') + 1)
      .trim()
      .split(/\s+/) ?? [];
  const times = fields.slice(11, 15);
  if (times.length < 4 || !times.every((field) => /^\d{1,20}$/.test(field))) return undefined;
  const [utime, stime, cutime, cstime] = times.map((field) => (Number(field) * 1000) / TICKS_PER_SECOND);
  return { ownMs: utime + stime, reapedChildrenMs: cutime + cstime };
}

/** The live children of a process (`/proc/<pid>/task/<pid>/children`), at most MAX_CHILDREN, or undefined when not told. */
export function childIds(pid: number): number[] | undefined {
  const text = readProcFile(pid, 'children', pid);
  if (text === undefined) return undefined;
  return text
    .trim()
    .split(/\s+/)
    .filter((word) => /^\d{1,10}$/.test(word))
    .map(Number)
    .filter((id) => validId(id))
    .slice(0, MAX_CHILDREN);
}

/** The CPU time all the machine's cores spent on work (user, nice, system, irq, softirq, steal: /proc/stat), ms. */
export function machineBusyMs(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  const first = readBounded('/proc/stat')?.split('\n', 1)[0] ?? '';
  const fields = first.trim().split(/\s+/);
  if (fields[0] !== 'cpu' || fields.length < 9 || !fields.slice(1, 9).every((field) => /^\d{1,20}$/.test(field))) return undefined;
  const [user, nice, system, , , irq, softirq, steal] = fields.slice(1, 9).map(Number);
  return ((user + nice + system + irq + softirq + steal) * 1000) / TICKS_PER_SECOND;
}

// The one door to the kernel's per-process files (the file gate refuses /proc: endless or secret files):
// only a numeric pid's name (comm), its command line and its threads' scheduler figures (schedstat), each
// read bounded. A server's pid comes from its own INFO reply (a stranger's word), so nothing else is reachable.
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';

/** The most bytes read of one such file (a command line is the longest; the rest are one short line). */
const MAX_BYTES = 4096;
/** The most threads listed of one process (redis-server has a handful; io-threads at most 128). */
const MAX_THREADS = 1024;

/** The files this door opens, per process or per thread. */
export type ProcFile = 'comm' | 'cmdline' | 'schedstat';

function validId(id: number): boolean {
  return Number.isSafeInteger(id) && id > 0 && id < 2 ** 22 + 1;
}

/** `/proc/<pid>/<file>`, or `/proc/<pid>/task/<tid>/<file>`: its text (up to MAX_BYTES), or undefined when it cannot be read. */
export function readProcFile(pid: number, file: ProcFile, tid?: number): string | undefined {
  if (process.platform !== 'linux' || !validId(pid) || (tid !== undefined && !validId(tid))) return undefined;
  const path = tid === undefined ? `/proc/${pid}/${file}` : `/proc/${pid}/task/${tid}/${file}`;
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

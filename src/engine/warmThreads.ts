// Engine threads kept warm between the loads of a process (issue 46). A load of its own used to start a worker
// thread and end it with the load: Node's bootstrap of a second realm, dist/worker.js compiled again and its hot
// functions compiled again by the JIT, ~50 ms of CPU a load; the next test of the file, sweep point or repeat paid
// it again (10 tests of 5,000 requests cost 1.4 s of CPU, one test of 50,000 0.4 s). A thread whose load has
// ended now waits for the next load of the same heap (workerHeap.ts), hosting it as a shared thread does
// (sharedThreads.ts, worker.ts hostLoads). Loads at the same time get threads of their own, as before. A thread
// is kept only when its load settled (sent its result, or could not connect): a load ended without that (a stop
// past its grace, a crash) may have left work running, so its thread is ended, as a worker of its own was.
import type { ResourceLimits } from 'node:worker_threads';
import { HostedLoad, startHostThread, type HostThread } from './sharedThreads';
import { workerResourceLimits } from './workerHeap';
import type { WorkerConfig } from './workerMessages';

/** An idle thread ends after this long without a load: the editor's extension host lives on between runs. */
const IDLE_THREAD_MS = 30_000;

interface WarmThread {
  thread: HostThread;
  script: string;
  /** Its heap's resourceLimits, as a key: a load takes only a thread of its own path's heap. */
  heap: string;
  busy: boolean;
  idleTimer?: NodeJS.Timeout;
}

const threads: WarmThread[] = [];
let nextId = 0;
let started = 0;

/** The load of `config` on an idle warm thread of its heap, or on a new one. */
export function hostOnWarmThread(script: string, config: WorkerConfig): HostedLoad {
  const limits = workerResourceLimits(config);
  const heap = heapKey(limits);
  let warm = threads.find((each) => !each.busy && each.script === script && each.heap === heap);
  if (warm) clearTimeout(warm.idleTimer);
  else warm = startWarmThread(script, heap, limits);
  warm.busy = true;
  const chosen = warm;
  return new HostedLoad(chosen.thread, config, nextId++, (settled) => released(chosen, settled));
}

/** Threads started by this process so far, and those alive now (tests). */
export function warmThreadCounts(): { started: number; alive: number } {
  return { started, alive: threads.length };
}

/** Ends every idle thread now (tests: a count of threads started needs to know which were warm before). */
export function endIdleThreads(): void {
  for (const warm of threads.filter((each) => !each.busy)) end(warm);
}

function startWarmThread(script: string, heap: string, limits: ResourceLimits | undefined): WarmThread {
  const warm: WarmThread = { thread: startHostThread(script, limits), script, heap, busy: false };
  started++;
  threads.push(warm);
  warm.thread.worker.once('exit', () => forget(warm));
  return warm;
}

function released(warm: WarmThread, settled: boolean): void {
  if (!settled) {
    end(warm);
    return;
  }
  warm.busy = false;
  warm.idleTimer = setTimeout(() => end(warm), IDLE_THREAD_MS);
  warm.idleTimer.unref();
}

function end(warm: WarmThread): void {
  forget(warm);
  void warm.thread.worker.terminate();
}

function forget(warm: WarmThread): void {
  clearTimeout(warm.idleTimer);
  const at = threads.indexOf(warm);
  if (at >= 0) threads.splice(at, 1);
}

function heapKey(limits: ResourceLimits | undefined): string {
  return limits ? JSON.stringify(limits) : 'default';
}

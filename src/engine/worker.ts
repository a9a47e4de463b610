// Entry point of an engine worker thread: runs its share of the connections (WorkerLoad) and talks to
// the main thread (workerThreads.ts). Bundled by esbuild to dist/worker.js; tsc puts it next to workerThreads.js.
// A small load runs the same code on the caller's thread (inThreadLoad.ts requires this file for serveLoad); a
// shared engine thread (sharedThreads.ts: the client groups of a phase) runs several, each on a port of its own.
import type { MessagePort } from 'node:worker_threads';
import { openClientPath } from './clientPaths';
import type { HostData, HostToMain, MainToHost, MainToWorker, WorkerConfig, WorkerToMain } from './workerMessages';
import { threadsModule } from './threadsModule';
import { WorkerLoad } from './workerLoad';

/** The main thread as the load sees it: a worker's parentPort, or the in-thread port of a small load. */
export interface LoadPort {
  postMessage(message: WorkerToMain): void;
  on(event: 'message', listener: (message: MainToWorker) => void): void;
}

/** Runs one thread's share of a load through `port`; the function returned ends it at once, as terminating a worker does. */
export function serveLoad(port: LoadPort, config: WorkerConfig): () => void {
  const path = openClientPath(config);
  const load = new WorkerLoad(config, (message: WorkerToMain) => port.postMessage(message), path.factory);
  // Cluster paths: one routing state shared by this thread's connections.
  const cluster = path.cluster();
  load.cluster = cluster;
  let started = false;
  let stopped = false;
  let ended = false;
  port.on('message', (message: MainToWorker) => {
    if (ended) return;
    if (message.type === 'start' && !started && !stopped) {
      started = true;
      load.start();
    } else if (message.type === 'topology') {
      // A layout naming a node the network gate refuses is not taken, and ends the load.
      const refusal = cluster?.apply(message.topology);
      if (refusal) load.fail(refusal);
    } else if (message.type === 'stop' && !stopped) {
      stopped = true;
      load.stop();
    }
  });
  // Ended while connecting: once every connection has settled (one still opening would stay open), all close.
  let settled = false;
  void load.open().then(() => {
    settled = true;
    if (ended) load.fail('the load was ended');
  });
  return () => {
    ended = true;
    if (settled) load.fail('the load was ended');
  };
}

/** A shared engine thread: serves each load it is handed on that load's port, and ends one when told. */
function hostLoads(parent: MessagePort, flagLock: Int32Array): void {
  const ends = new Map<number, { end: () => void; port: MessagePort }>();
  parent.on('message', (message: MainToHost) => {
    if (message.type === 'serve') {
      // What the loads before left is collected before this one opens its connections (see collectGarbage).
      beforeNextLoad(flagLock, ends.size > 0);
      try {
        ends.set(message.id, { end: serveLoad(message.port, message.config), port: message.port });
      } catch (error) {
        const failed = error instanceof Error ? error : new Error(String(error));
        parent.postMessage({ type: 'serve-failed', id: message.id, message: failed.message, stack: failed.stack } satisfies HostToMain);
        message.port.close();
      }
    } else {
      const load = ends.get(message.id);
      ends.delete(message.id);
      load?.end();
      load?.port.close();
    }
  });
}

let fullGc: (() => void) | undefined;
/** Loads started on this thread so far. */
let served = 0;

/** Called as each load starts on this thread: collects what the loads before left when none still runs (collectGarbage). */
export function beforeNextLoad(flagLock: Int32Array, othersRunning: boolean): void {
  if (served++ > 0 && !othersRunning) collectGarbage(flagLock);
}

/**
 * A thread kept for the next load (warmThreads.ts), or the CLI's thread (inThreadLoad.ts), collects what the loads
 * before left, before the next one starts: V8 would collect it only when the old generation reached its limit, so the buffers and sockets of every
 * ended load stayed resident, ~0.8 MiB a load (30 tests of 5,000 requests: 111 MiB of peak RSS against 88 with a
 * thread a load), and a later load would pay for the collection while it measures. A collection every few loads,
 * once the heap and its external memory had grown 4 MiB, still let RSS grow (95–98 MiB for the 30 tests): the
 * sockets' native memory is freed only with their wrappers. A collection costs ~8 ms, off the measured window.
 * A thread that serves one load never loads node:v8 or node:vm. V8 gives `gc` only to a context made while
 * --expose-gc is set; the flag goes back at once, so that code caches made under the default flags still fit.
 */
function collectGarbage(flagLock: Int32Array): void {
  if (!fullGc) {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { setFlagsFromString } = require('node:v8') as typeof import('node:v8');
    const { runInNewContext } = require('node:vm') as typeof import('node:vm');
    /* eslint-enable @typescript-eslint/no-require-imports */
    // The flag is the process's: one thread at a time (HostData.flagLock), each holding it for microseconds.
    while (Atomics.compareExchange(flagLock, 0, 0, 1) !== 0) Atomics.wait(flagLock, 0, 1, 5);
    try {
      setFlagsFromString('--expose-gc');
      const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
      if (typeof gc === 'function') fullGc = gc as () => void;
    } finally {
      setFlagsFromString('--no-expose-gc');
      Atomics.store(flagLock, 0, 0);
      Atomics.notify(flagLock, 0);
    }
    // V8 gave no `gc`: the thread goes on without collecting (its memory then grows with its loads, nothing fails).
    if (!fullGc) return;
  }
  fullGc();
}

/** An engine thread's work: the load, or the loads, its workerData names. Called only on a worker thread. */
export function startThread(): void {
  const { isMainThread, parentPort, workerData } = threadsModule();
  const data = workerData as WorkerConfig | HostData;
  if (!isMainThread && parentPort) {
    if ('host' in data) hostLoads(parentPort, new Int32Array(data.flagLock));
    else serveLoad(parentPort, data);
  }
}

// As a thread's own script (tsc's build; in dist/ the thread's script is workerLaunch.ts, which calls startThread).
// Required by inThreadLoad.ts, this file leaves node:worker_threads unloaded.
if (require.main === module) startThread();

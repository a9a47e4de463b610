// A load on the caller's thread: the worker's own code (worker.ts serveLoad, required from the worker script beside
// this module) behind the face of a Worker that workerThreads.ts talks to. A worker thread costs every run ~35 ms of
// CPU and ~7 MiB of memory to start (Node's bootstrap of a second realm, the script compiled again). Messages are
// copied both ways as a worker's are (structuredClone): the load reuses what it posted, the main thread keeps what
// it got. Which loads run here: threads.ts runsInThread (a small one anywhere; in the CLI, any one-thread load).
// A fault thrown on this thread while such a load runs ends the load as its worker's crash would (failLoadsOnThisThread).
import { EventEmitter } from 'node:events';
import type { LoadPort } from './worker';
import { FLAG_LOCK } from './sharedThreads';
import type { MainToWorker, WorkerConfig, WorkerToMain } from './workerMessages';

interface Engine {
  serveLoad(port: LoadPort, config: WorkerConfig): () => void;
  beforeNextLoad(flagLock: Int32Array, othersRunning: boolean): void;
}

/** The loads running on this thread now. */
const live = new Set<InThreadLoad>();

/** How many loads run on this thread now. */
export function loadsOnThisThread(): number {
  return live.size;
}

/**
 * An uncaught exception on this thread while loads run on it: each is told it as its worker's 'error' (the load then
 * stops and keeps what it measured, workerThreads.ts). False when no load runs here: the fault is the caller's own.
 */
export function failLoadsOnThisThread(error: unknown): boolean {
  if (live.size === 0) return false;
  const fault = error instanceof Error ? error : new Error(String(error));
  for (const load of [...live]) load.emit('error', fault);
  return true;
}

export class InThreadLoad extends EventEmitter {
  private toLoad: ((message: MainToWorker) => void) | undefined;
  private end: (() => void) | undefined;
  private ended = false;

  constructor(script: string, config: WorkerConfig) {
    super();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const engine = require(script) as Engine;
    // What the loads before left (their sockets' native memory is freed only with their wrappers) is collected
    // before this one opens its connections, as on a warm engine thread (worker.ts beforeNextLoad): 30 tests of
    // 1,500 requests in one file grew peak RSS by 26 MiB against 3 tests, without it.
    const othersRunning = live.size > 0;
    live.add(this);
    const port: LoadPort = {
      postMessage: (message: WorkerToMain) => {
        if (this.ended) return;
        const copy = structuredClone(message);
        setImmediate(() => !this.ended && this.emit('message', copy));
      },
      on: (_event, listener) => (this.toLoad = listener),
    };
    // After the caller has added its listeners, as a worker's first message comes after its start.
    setImmediate(() => {
      if (this.ended) return;
      try {
        engine.beforeNextLoad(new Int32Array(FLAG_LOCK), othersRunning);
        this.end = engine.serveLoad(port, config);
      } catch (error) {
        this.ended = true;
        live.delete(this);
        this.emit('error', error);
      }
    });
  }

  postMessage(message: MainToWorker): void {
    const copy = structuredClone(message);
    setImmediate(() => !this.ended && this.toLoad?.(copy));
  }

  /** Ends the load at once (its connections close), as terminating its worker would; no message follows. */
  terminate(): Promise<number> {
    if (!this.ended) {
      this.ended = true;
      live.delete(this);
      this.end?.();
    }
    return Promise.resolve(0);
  }
}

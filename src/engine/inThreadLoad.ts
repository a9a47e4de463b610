// A small load on the caller's thread: the worker's own code (worker.ts serveLoad, required from the worker script
// beside this module) behind the face of a Worker that workerThreads.ts talks to. A worker thread costs every run
// ~35 ms of CPU and ~7 MiB of memory to start (Node's bootstrap of a second realm, the script compiled again) for
// what a 100-request load needs a few ms of. Messages are copied both ways as a worker's are (structuredClone): the
// load reuses what it posted, the main thread keeps what it got. A load past SMALL_LOAD_REQUESTS, or one with
// several threads, a duration, a ramp, a cluster or a start barrier, keeps its worker threads (threads.ts).
import { EventEmitter } from 'node:events';
import type { LoadPort } from './worker';
import type { MainToWorker, WorkerConfig, WorkerToMain } from './workerMessages';

type ServeLoad = (port: LoadPort, config: WorkerConfig) => () => void;

export class InThreadLoad extends EventEmitter {
  private toLoad: ((message: MainToWorker) => void) | undefined;
  private end: (() => void) | undefined;
  private ended = false;

  constructor(script: string, config: WorkerConfig) {
    super();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { serveLoad } = require(script) as { serveLoad: ServeLoad };
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
        this.end = serveLoad(port, config);
      } catch (error) {
        this.ended = true;
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
      this.end?.();
    }
    return Promise.resolve(0);
  }
}

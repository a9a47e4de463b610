// Engine threads shared by the loads of one phase (its client groups, issue 43). Each load of its own was a worker
// thread of its own: two groups of 25 clients ran two engine threads beside the main thread and a local server,
// where one group of 50 ran one, and on 2 cores the extra thread cost ~18% of the total throughput. A shared
// thread (worker.ts hostLoads) runs several loads, each on a MessagePort of its own through the same serveLoad
// a dedicated worker runs, so each load keeps its own connections, histograms, timeline and stop.
//
// The rule (threads.ts sharesThreads): the loads that leave `threads` to `auto` share; a load's N threads are
// N distinct shared threads, the ones hosting the fewest connections, started only when fewer exist. So the
// groups of a phase use max(their threads) engine threads, not their sum. A load with an explicit `threads N`
// keeps N threads of its own. A shared thread's CPU figures (thread CPU, event-loop use, pauses) are the
// thread's: of every load it hosts, which is what limits each of them.
import { EventEmitter } from 'node:events';
import type { MessagePort, ResourceLimits, Worker } from 'node:worker_threads';
import { threadsModule } from './threadsModule';
import { workerCode } from './workerCode';
import type { HostData, HostToMain, MainToHost, MainToWorker, WorkerConfig, WorkerToMain } from './workerMessages';

export interface HostThread {
  worker: Worker;
  /** The live loads it hosts, each with its connection count. */
  loads: Map<HostedLoad, number>;
}

export class SharedThreads {
  private readonly threads: HostThread[] = [];
  private nextId = 0;

  /** One hosted load per config, each on a different thread: the least busy, new ones started when too few. */
  host(script: string, configs: readonly WorkerConfig[]): HostedLoad[] {
    while (this.threads.length < configs.length) this.threads.push(startHostThread(script));
    const byConnections = (thread: HostThread) => [...thread.loads.values()].reduce((sum, connections) => sum + connections, 0);
    const chosen = [...this.threads].sort((a, b) => byConnections(a) - byConnections(b)).slice(0, configs.length);
    return configs.map((config, i) => new HostedLoad(chosen[i], config, this.nextId++));
  }

  /** Engine threads started so far. */
  get size(): number {
    return this.threads.length;
  }

  /** Ends the threads (their loads have ended: a load still hosted is ended with them). */
  async close(): Promise<void> {
    const threads = this.threads.splice(0);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }
}

/** HostData.flagLock: one for the process, whichever pool starts its threads (and the loads on the main thread). */
export const FLAG_LOCK = new SharedArrayBuffer(4);

/**
 * Starts a thread that hosts the loads it is handed (worker.ts hostLoads), with V8's default heap unless
 * `resourceLimits` says otherwise. Unref'd: a thread with no load must not keep the process alive (close() may
 * not come, as on a crash of the caller); a hosted load's port keeps it alive while the load runs.
 */
export function startHostThread(script: string, resourceLimits?: ResourceLimits): HostThread {
  const code = workerCode(script);
  const workerData: HostData = { host: true, flagLock: FLAG_LOCK, ...(code ? { code } : {}) };
  const thread: HostThread = {
    worker: new (threadsModule().Worker)(script, { workerData, ...(resourceLimits ? { resourceLimits } : {}) }),
    loads: new Map(),
  };
  const everyLoad = (event: 'error' | 'exit', value: unknown) => [...thread.loads.keys()].forEach((load) => load.threadEnded(event, value));
  thread.worker.on('message', (message: HostToMain) => {
    const load = [...thread.loads.keys()].find((each) => each.id === message.id);
    load?.threadEnded('error', Object.assign(new Error(message.message), { stack: message.stack }));
  });
  thread.worker.on('error', (error) => everyLoad('error', error));
  thread.worker.on('exit', (code) => everyLoad('exit', code));
  thread.worker.unref();
  return thread;
}

/** One load on a shared thread, with the face of its Worker that workerThreads.ts talks to. */
export class HostedLoad extends EventEmitter {
  private readonly port: MessagePort;
  private ended = false;
  /** The load told its end (its result, or that it could not connect): it has closed what it opened. */
  private settled = false;

  constructor(
    private readonly thread: HostThread,
    config: WorkerConfig,
    readonly id: number,
    /** Told when the load is ended, and whether it had settled (warmThreads.ts keeps only such a thread). */
    private readonly released?: (settled: boolean) => void,
  ) {
    super();
    const { port1, port2 } = new (threadsModule().MessageChannel)();
    this.port = port1;
    port1.on('message', (message: WorkerToMain) => {
      if (message.type === 'result' || message.type === 'connect-failed') this.settled = true;
      this.emit('message', message);
    });
    thread.loads.set(this, config.connections.length);
    thread.worker.postMessage({ type: 'serve', id, config, port: port2 } satisfies MainToHost, [port2]);
  }

  postMessage(message: MainToWorker): void {
    if (!this.ended) this.port.postMessage(message);
  }

  /** Ends the load at once (its connections close), as terminating its own worker would; the thread goes on. */
  terminate(): Promise<number> {
    if (!this.ended) {
      this.ended = true;
      this.thread.loads.delete(this);
      this.thread.worker.postMessage({ type: 'end', id: this.id } satisfies MainToHost);
      this.port.close();
      this.released?.(this.settled);
    }
    return Promise.resolve(0);
  }

  /** The thread crashed, exited, or could not start this load: told to the load as its own worker's end would be. */
  threadEnded(event: 'error' | 'exit', value: unknown): void {
    if (!this.ended) this.emit(event, value);
  }
}

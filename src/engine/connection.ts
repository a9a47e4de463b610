// What a connection and the thread's load (WorkerLoad) see of each other, whatever client path drives the
// connection (clientPaths.ts): the connection's life-cycle calls, and the little of the load it uses.
import type { ClusterState } from './cluster/clusterState';
import type { WorkerStats } from './measure/stats';
import type { WorkerConfig } from './workerMessages';
import type { RequestBudget } from './requestBudget';

/** Open loop: at most this many requests in flight per connection; beyond, sends wait (and become late). */
export const OPEN_LOOP_MAX_IN_FLIGHT = 4096;

/** What the thread's life cycle needs from a connection, whatever client library drives it. */
export interface LoadConnection {
  readonly index: number;
  /** Finished: no more requests to send and none in flight (or closed). */
  readonly finished: boolean;
  readonly up: boolean;
  readonly reconnects: number;
  /** `reconnect every N`: connections closed and reopened as planned. */
  readonly cycles: number;
  /** Requests sent and not answered yet. */
  readonly outstanding: number;
  /** Connects and runs the handshake; rejects with a LoadError. */
  open(): Promise<void>;
  /** Closed loop: keep the pipeline full from now on. */
  startClosedLoop(now: number): void;
  /** Measuring starts: restart the key and choice sequences; `budget` is the load's shared one (absent: unlimited). */
  beginMeasuring(budget: RequestBudget | undefined): void;
  /** Open loop: whether the budget allows another batch. */
  hasBudget(): boolean;
  /** Open loop: whether a batch can go out now (connected, below the in-flight cap). */
  canSend(): boolean;
  /** Open loop: sends one batch that was due at `intended`; returns how many requests it held. */
  sendScheduled(intended: number, now: number): number;
  /** Sends nothing more; finishes once the replies in flight are in. */
  drain(): void;
  /** Gives up on the replies in flight: counts them as errors of `kind` (when given) and closes. */
  abandon(kind?: string, text?: string): void;
}

/** What a connection uses of its thread's load (WorkerLoad implements it): settings, state, and its reports back. */
export interface ConnectionHost {
  readonly config: WorkerConfig;
  readonly stats: WorkerStats;
  /** Requests written, per label index (a group: its commands' rows), warm-up and drain included: what the server should count. */
  readonly sent: Float64Array;
  readonly openLoop: boolean;
  readonly measuring: boolean;
  /** No new requests (deadline, cancellation or failure). */
  readonly stopping: boolean;
  /** performance.now() at which a duration-mode load stops sending. */
  readonly deadline: number;
  /** A connection may have finished: when all have, the load is over. */
  connectionFinished(): void;
  /** The shared request budget is spent: every connection of the thread drains. */
  budgetSpent(): void;
  connectionDown(message: string): void;
  connectionUp(): void;
  /** Connection `index` (its global index) read replies at `now`: the silence watch's clock (once per chunk read). */
  heard(index: number, now: number): void;
  reconnectFailed(message: string): void;
  /** A connection was opened (or reopened) in `micros` µs: connect, TLS and handshake. */
  connected(micros: number): void;
  /** Connection `index` starts sending on a new connection (a cycle, a ramp's step): the time before is no silence of the server's. */
  startsAfresh(index: number, now: number): void;
  /** A fault that waiting cannot mend: stop now, keep what was measured, say why. */
  fail(message: string): void;
  /** Open loop: a blocked connection may send again. */
  kick(): void;
}

export type ConnectionFactory = (index: number, load: ConnectionHost) => LoadConnection;

/** What a client path gives its worker thread: how to make each connection, and the cluster routing state they share. */
export interface PathConnections {
  readonly factory: ConnectionFactory;
  /** Cluster paths: the thread's routing state, once the first connection made it (single-node paths: none). */
  cluster(): ClusterState | undefined;
}

/** What each client path's module exports (the name clientPaths.ts loads it by). */
export interface ClientPathModule {
  openClientPath(config: WorkerConfig): PathConnections;
}

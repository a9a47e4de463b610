// Messages between the main thread (workerThreads.ts) and the engine's worker threads (worker.ts).
import type { ClientPath, KeyPlan, TestPlan, ValueFill, ValuePlan } from '../scenario/plan';
import type { ConnectionOptions } from '../redis/types';
import type { ClusterTopology } from '../redis/clusterTopology';
import type { SparseCounts } from './measure/histogram';
import type { WorkerPauses } from './measure/clientPauses';
import type { Silence } from './measure/silences';
import type { LoadStatus } from './types';
import type { SharedBudget } from './requestBudget';
import type { WorkerData } from './requests/tableValues';
import type { MessagePort } from 'node:worker_threads';
import type { BundleCode } from '../gates/compiledBundle';

/** The workerData of a shared engine thread (sharedThreads.ts): it hosts the loads handed to it, none of its own. */
export interface HostData {
  host: true;
  /**
   * One Int32 shared by every host thread of the process: held while a thread sets V8's --expose-gc, makes the
   * context that takes `gc` and sets the flag back (worker.ts collectGarbage). V8's flags are the process's: a
   * thread setting it back while another made its context left that one without `gc` (seen: 3 threads at once).
   */
  flagLock: SharedArrayBuffer;
  /** dist/worker-main.js and its checked code cache, for dist/worker.js to compile (workerCode.ts); absent in tsc's build. */
  code?: BundleCode;
}

/** To a shared engine thread: run a load, its messages on `port` as a worker's on its parentPort; or end one at once. */
export type MainToHost = { type: 'serve'; id: number; config: WorkerConfig; port: MessagePort } | { type: 'end'; id: number };

/** From a shared engine thread: a load it was handed could not start (its own worker would have crashed). */
export interface HostToMain {
  type: 'serve-failed';
  id: number;
  message: string;
  stack?: string;
}

export interface WorkerConfig {
  worker: number;
  client: ClientPath;
  connection: ConnectionOptions;
  test: TestPlan;
  keys: KeyPlan;
  value: ValuePlan;
  valueFill?: ValueFill;
  /** Data-file tables (shared memory: one copy for all threads) and the `ttl` range. */
  data?: WorkerData;
  /** Distinct labels of the test's commands, and the label index of each command. */
  labels: string[];
  labelIndexes: number[];
  /** Per label: which replies are misses (scenario/replyMisses.ts MissRule); absent: none counted. */
  missRules?: number[];
  /** The test only publishes (PUBLISH/SPUBLISH): sum its integer replies, the receivers of each message. */
  countsReceivers?: boolean;
  pipeline: number;
  /** Connections across all workers (the stride of sequential keys). */
  totalConnections: number;
  /** This worker's connections: their global index. */
  connections: { index: number }[];
  /** Count mode: the measured requests, one budget shared by every connection of every worker (requestBudget.ts). */
  budget?: SharedBudget;
  durationMs?: number;
  warmupMs: number;
  /** Open loop: requests per second for each connection. */
  ratePerConnection?: number;
  /** `reconnect every N`: requests per connection before it is closed and a new one opened. */
  reconnectEvery?: number;
  /** `idle-connections`: this worker's share of the connections held idle beside the load. */
  idleConnections?: number;
  /** `connect-only on`: each request opens, times and closes a connection (fast/connectOnlyConnection.ts). */
  connectOnly?: boolean;
  /** `ramp`: connections with a global index below `from` open at the start, `step` more every `everyMs` of measuring. */
  ramp?: { from: number; to: number; step: number; everyMs: number };
  seed: number;
  /** The first thread only: a local server's verified pid, whose main thread's schedstat it reads at the window's edges. */
  serverPid?: number;
  serverLostTimeoutMs: number;
  /** No reply on any connection of this worker for this long while requests are outstanding ends the load. */
  stallTimeoutMs: number;
  /** Timeline bucket length while the load is short (100 ms), switching to 1 s once it lasts 10 s. */
  fineBucketMs?: number;
  /** Cluster targets: the layout and how to route each label. */
  cluster?: ClusterPlan;
  /** Set by tests only (never from a scenario or a setting): a forced garbage-collection storm every `gcStormEveryMs`. */
  testHooks?: { gcStormEveryMs: number };
}

export interface ClusterPlan {
  topology: ClusterTopology;
  /** Send read-only labels to replicas (READONLY connections). */
  replicaReads: boolean;
  /** Per label: RESP argument index of the key that routes it (1 = first after the name), or -1 for none. */
  keyArguments: number[];
  /** Per label: the command only reads (may go to a replica). */
  readOnly: boolean[];
}

/** A worker's cluster figures: per node (by announced address), and redirections. */
export interface WorkerClusterReport {
  nodes: { node: string; role: 'master' | 'replica'; report: LabelReport; moved: number; ask: number }[];
  moved: number;
  ask: number;
}

/** `topology`: the main thread reloaded the cluster's layout (after MOVED replies). */
export type MainToWorker = { type: 'start' } | { type: 'stop' } | { type: 'topology'; topology: ClusterTopology };

export interface SecondReport {
  /** Start of the bucket in seconds since this worker began measuring (0.1 steps for fine buckets). */
  t: number;
  count: number;
  errors: number;
  spanMs: number;
  histogram: SparseCounts;
  /** Cluster: redirections answered in this bucket. */
  moved?: number;
  ask?: number;
}

export interface LabelReport {
  requests: number;
  errors: number;
  /** Replies (error replies included) inside the throughput window. */
  windowReplies: number;
  errorsByKind: Record<string, number>;
  errorExamples: Record<string, string>;
  histogram: SparseCounts;
  /** A read's replies that found nothing (nil, or an empty collection); present only for a label that counts them. */
  misses?: number;
  /** A queued read's replies whose transaction was discarded (EXEC nil, EXECABORT); absent when none. */
  notRun?: number;
  /** Reply-driven commands' counts by name (measure/stats.ts recordReplyCount); absent when none. */
  replyCounts?: Record<string, number>;
}

/** A publisher's PUBLISH replies, warm-up included: read, their sum (deliveries the server made), and those of 0. */
export interface PublishReport {
  replies: number;
  receivers: number;
  unheard: number;
}

export interface WorkerResult {
  status: LoadStatus;
  error?: string;
  labels: LabelReport[];
  /** `countsReceivers`: the PUBLISH replies of this thread's connections. */
  published?: PublishReport;
  /** The throughput window: the planned duration, or first send to last reply (count mode), or until stopped. */
  durationMs: number;
  /** Time spent after the window waiting for replies still in flight. */
  drainMs: number;
  /** Requests sent on the open-loop schedule (the base of the late-send share). */
  scheduledSends: number;
  /** Requests written per label index (a group: its commands' rows only), warm-up and drain included. */
  sent: number[];
  /** CPU time of this thread over the measured part, in ms: process.threadCpuUsage (Node ≥ 23.9), else Linux's schedstat. */
  threadCpuMs?: number;
  /** Linux: this thread's time on a CPU and runnable waiting for one over the measured part (threadCpu.ts). */
  threadCpu?: { runMs: number; runnableWaitMs: number };
  /** The local server's main thread over the same part (WorkerConfig.serverPid). */
  serverThread?: { runMs: number; runnableWaitMs: number };
  /** This thread's own pauses and the replies that overlapped them (measure/clientPauses.ts). */
  pauses?: WorkerPauses;
  /** Stretches of 100 ms or more in which connections had requests outstanding and heard nothing (measure/silences.ts). */
  silences?: Silence[];
  opened: number;
  reconnects: number;
  /** `reconnect every N`: connections closed and reopened as planned (not counted in `reconnects`, which are losses). */
  cycles?: number;
  /** Idle connections held beside the load. */
  idle?: number;
  /** Set-up time (connect, TLS, handshake) of every connection this worker opened, in µs, warm-up included. */
  connectTimes?: SparseCounts;
  lateSends: number;
  eventLoopUtilization: number;
  eventLoopLagP99Ms: number;
  /** Requests sent but never answered when the load ended (drain timeout), counted as TIMEOUT errors. */
  unanswered: number;
  /** The server stalled: no reply for `silentMs` with `outstanding` requests in flight; the load ended there. */
  stall?: { silentMs: number; outstanding: number };
  cluster?: WorkerClusterReport;
}

export type WorkerToMain =
  | { type: 'ready'; opened: number }
  | { type: 'connect-failed'; message: string }
  | { type: 'measuring' }
  | { type: 'second'; second: SecondReport; requests: number; errors: number }
  | { type: 'result'; result: WorkerResult; lastSecond?: SecondReport };

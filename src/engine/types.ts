// What the engine returns for one load (one test of one phase at one sweep point).
import type { ClientPath, PhasePlan, TestPlan } from '../scenario/plan';
import type { ConnectionOptions, ServerDelta } from '../redis/types';
import type { SparseCounts } from './measure/histogram';
import type { StartBarrier } from './startBarrier';

export interface LatencySummary {
  /** Recorded replies (errors included: an error reply is still a round trip). */
  count: number;
  minUs: number;
  meanUs: number;
  stddevUs: number;
  p50Us: number;
  p90Us: number;
  p95Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
  /** The scenario's chosen percentiles (`percentiles`, `--percentiles`) by name (`p99.99` → µs), added by the runner from the histogram. */
  percentiles?: Record<string, number>;
}

export interface CommandResult {
  /** Command label (`SET`, `LRANGE_100`), or `total`. */
  command: string;
  requests: number;
  errors: number;
  /** First word of the error reply (`OOM`, `MISCONF`, `WRONGTYPE`, `ERR`) → count. */
  errorsByKind: Record<string, number>;
  /** One full error text per kind, as the server sent it. */
  errorExamples: Record<string, string>;
  /**
   * Reads only (scenario/replyMisses.ts): replies that found nothing — nil, or an empty collection for a read of
   * a key's contents. Hits are the other replies that are not errors. Absent where the command is no read (a
   * total: where any of its commands is none).
   */
  misses?: number;
  /**
   * Reads of several keys or fields at once (MGET, HMGET, ZMSCORE), whose misses are counted per key: the keys or
   * fields asked for by the replies that were not errors, the miss rate's denominator. Also on a read queued in a
   * transaction that was discarded (EXEC nil, EXECABORT) at times: its replies that asked, the discarded ones left out.
   * Absent for other rows (their denominator is the replies that were not errors); on a total, present when one of
   * its rows has it.
   */
  lookups?: number;
  /**
   * Reply-driven commands (scenario/replyForms.ts), by name: `passes` (full SCAN passes) and `items` (keys returned),
   * `reloads` (scripts reloaded after NOSCRIPT), `read` (entries XREADGROUP returned), `acked` (XACK's count) and
   * `skipped` (XACKs not sent: nothing was read). Absent for other commands.
   */
  replies?: Record<string, number>;
  opsPerSec: number;
  latency: LatencySummary;
  /** The HDR histogram of latencies in microseconds, compressed base64 (hdr-histogram-js), mergeable. */
  histogram: string;
}

/**
 * One bucket of the measured part of a load's window: a second, or 100 ms for short loads (duration under
 * 10 s, or a count-based load's first 10 s when it ends sooner). Replies arriving after a duration window
 * (the drain) and requests that timed out are in the summary, not in the timeline.
 */
export interface TimelineSecond {
  /** Start of the bucket in seconds since measuring began (0, 1, 2, … or 0, 0.1, 0.2, …). */
  t: number;
  /** Replies per second in this bucket (a rate, whatever the bucket's length). */
  ops: number;
  errors: number;
  p50Us: number;
  p99Us: number;
  maxUs: number;
  /** The bucket's length in ms when shorter than a second (a fine bucket, or the last one cut short); `ops` is still per second. */
  partialMs?: number;
  /** Cluster targets: MOVED and ASK redirections answered in this bucket (counts, not rates). */
  moved?: number;
  ask?: number;
}

export interface ClientHealth {
  threads: number;
  /** CPU used by the engine process over the load, in % of one core (may exceed 100 with threads). */
  cpuPercent: number;
  /** 99th percentile of event-loop lag in the busiest thread, in milliseconds. */
  eventLoopLagP99Ms: number;
  /** Event-loop utilization (0…1) of the busiest engine thread over the measured part. */
  eventLoopUtilization?: number;
  /** Open loop: share of scheduled sends that went out late (0…1). */
  lateShare?: number;
  /**
   * `client` when the engine itself was the limit, so the numbers understate the server: its own CPU time
   * (process CPU per thread, and the busiest thread's CPU or event-loop busy time) near a full core, and in
   * the open loop sends falling behind the schedule too.
   */
  bottleneck: 'client' | 'server' | 'unknown';
  /**
   * CPU the busiest engine thread (the one that had work longest) got and how long it waited, runnable, for a core (Linux
   * /proc/thread-self/schedstat), over the measured part. A thread busy but waiting is starved by other
   * processes: a client limit too. Absent where the system does not tell.
   */
  threadCpu?: { runMs: number; runnableWaitMs: number };
  /** The engine's own pauses over the measured part: what of the latency the client itself caused. */
  pauses?: ClientPauses;
}

/**
 * The client's own pauses (garbage collection, event-loop blocks, timers firing late), measured in every
 * engine thread and added up. A reply whose round trip overlapped such a pause is flagged: its latency
 * holds the client's pause, not only the server's and the network's time.
 */
export interface ClientPauses {
  /** Garbage-collection pauses (perf_hooks 'gc' entries) and their total and longest length. */
  gcCount: number;
  gcMs: number;
  gcMaxMs: number;
  /** Event-loop delay (monitorEventLoopDelay) of the busiest thread: p99 and max, in ms. */
  eventLoopDelayP99Ms: number;
  eventLoopDelayMaxMs: number;
  /** Pauses of at least 1 ms (GC or event-loop blocks), their count and total length. */
  pauses: number;
  pausedMs: number;
  /** Replies whose round trip overlapped a client pause. */
  overlappedReplies: number;
  /** Of the replies slower than the test's p99.9, the share (0…1) that overlapped a client pause. */
  tailShare: number;
  /** The test's p99.9 and max with the overlapped replies left out (what the server and network alone gave). */
  p999UsWithoutPauses?: number;
  maxUsWithoutPauses?: number;
}

/**
 * A stretch of the measured window in which some or all connections heard no reply while they had
 * requests outstanding, at least 100 ms and 10 × the test's p99 (the workers report silences of 100 ms or more; the assembly
 * keeps those past 10 × p99). Times in ms since measuring began.
 */
export interface Stall {
  fromMs: number;
  toMs: number;
  /** Connections silent through the whole stretch, of how many the load had. */
  connections: number;
  of: number;
}

/** What set the pace of a test, from the client's and the server's evidence (src/results/bottleneck). */
export type BottleneckKind =
  | 'server-cpu'
  | 'client-cpu'
  | 'client-starved'
  | 'machine-cpu'
  | 'round-trip'
  | 'persistence'
  | 'memory'
  | 'slow-commands'
  | 'foreign-load'
  | 'stall'
  | 'network'
  | 'late-sends'
  | 'mixed'
  | 'undetermined';

export interface Bottleneck {
  kind: BottleneckKind;
  /** One line with the figures behind the verdict. */
  why: string;
  /** `mixed`: the kinds that hold, each with its own line. */
  parts?: { kind: Exclude<BottleneckKind, 'mixed' | 'undetermined'>; why: string }[];
}

/**
 * `complete-with-errors`: the load ran to its end but error replies and timeouts passed ERROR_STATUS_THRESHOLD
 * of its requests, or nothing succeeded at all: its figures describe failures, not the server's speed.
 */
export type LoadStatus = 'complete' | 'complete-with-errors' | 'cancelled' | 'failed';

/** What the throughput window of a load is (see docs/run-file.md). */
export type WindowKind = 'planned-duration' | 'first-send-to-last-reply' | 'first-send-to-stall' | 'until-stopped';

/** One step of a ramp: its connected clients, the part of the window it lasted, its replies and their latency. */
export interface RampStep {
  clients: number;
  /** ms since measuring began. */
  fromMs: number;
  toMs: number;
  replies: number;
  errors: number;
  opsPerSec: number;
  latency: LatencySummary;
}

export interface LoadResult {
  test: string;
  phase: string;
  measured: boolean;
  client: ClientPath;
  status: LoadStatus;
  /** For a failed load: what went wrong and how to fix it. */
  error?: string;
  startedAt: string;
  /** Wall-clock time measuring began (after connecting and warm-up); lines up runs of several machines. */
  measuredFrom?: string;
  /** Measured time (warm-up excluded): the throughput window, equal to windowMs. */
  durationMs: number;
  /** The throughput window: ops/s = replies inside it / its length. */
  windowMs?: number;
  windowKind?: WindowKind;
  /** After a duration window: how long the engine waited (bounded) for replies still in flight. */
  drainMs?: number;
  /** Why the status is complete-with-errors. */
  errorStatusReason?: string;
  total: CommandResult;
  commands: CommandResult[];
  timeline: TimelineSecond[];
  /** Open loop only. */
  openLoop?: {
    targetRate: number;
    /** Requests sent later than their intended time (latency counts from the intended time). */
    lateSends: number;
  };
  connections: {
    opened: number;
    /** Connections lost and opened again. */
    reconnects: number;
    /** `reconnect every N`: connections closed and opened again as planned. */
    cycles?: number;
    /** `idle-connections`: connections held idle beside the load. */
    idle?: number;
    /**
     * How long each connection took to set up (TCP connect, TLS handshake, AUTH/HELLO/SELECT and PING answered), in µs,
     * over every connection the load opened (warm-up included): its count is the connections made. The ioredis path's own
     * reconnects after a loss are not in it (ioredis makes them inside the library).
     */
    setup?: { latency: LatencySummary; histogram: string };
  };
  health: ClientHealth;
  /** The seed used for keys and values (the scenario's, or the random one drawn). */
  seed: number;
  /** Only in a run joined by `rbench merge`: each load machine's own figures for this load. */
  parts?: LoadPart[];
  /** `ramp clients A..B step S every T`: one entry per step of the staircase, in order. */
  ramp?: RampStep[];
  /** Cluster targets only: how the cluster was known, the redirections followed, and each node's share. */
  cluster?: ClusterResult;
  /** Every request the engine wrote for this load, warm-up and drain included (the server's calls should match). */
  sent?: {
    requests: number;
    byLabel: Record<string, number>;
    /** The connections' handshakes (`ping`, `auth`, `select`, `hello`), where the path's are known exactly (fast, one node). */
    handshakes?: Record<string, number>;
  };
  /**
   * Percentiles of the per-second throughput (ops/s) over the full seconds of the measured window (the
   * runner reads them off the timeline); absent when the window held no full second.
   */
  throughputPercentiles?: { p5: number; p50: number; p95: number; seconds: number };
  /**
   * Bytes per second the clients sent (requests) and received (replies) over the load, as the server counted
   * them (INFO total_net_input_bytes / total_net_output_bytes between the reads around the test, over that
   * time): every client of the server, RBench's connections and reads included. Absent where not read.
   */
  bytesPerSec?: { sent: number; received: number };
  /** Stretches without replies (src/engine measures them per connection). */
  stalls?: Stall[];
  /** TCP segments sent and retransmitted over the load (this host's network namespace, Linux). */
  tcp?: TcpCounters;
  /** The server's own counters over this load (src/runner reads them before and after it). */
  server?: ServerDelta;
  /**
   * A local server's main thread over the measured part itself, read by the engine where the window opened and
   * closed (LoadOptions.serverPid): ms on a CPU and runnable waiting for one. `server.schedule` spans the counters'
   * reads around the load, a little wider (connecting, the end's reads), so its idle share is a little larger.
   */
  serverThread?: { runMs: number; runnableWaitMs: number };
  /** What set the pace (src/results/bottleneck, one rule for the CLI, the panel, compare and merge). */
  bottleneck?: Bottleneck;
  /** A `load NAME` client group's load, run at the same time as its phase's other groups (`test` is the group's name). */
  group?: { name: string; background: boolean; stopped?: boolean };
  /** A consumer group's (blocked calls taking the jobs other groups push): see ConsumerResult. */
  consumer?: ConsumerResult;
  /** Pub/Sub: a publisher's PUBLISH replies, or a subscriber group's deliveries (docs/rbench-format.md "Pub/Sub"). */
  pubsub?: PubSubResult;
}

/**
 * A consumer group's figures (src/engine/consumers). `total` then counts jobs: its requests are the jobs taken,
 * its ops/s jobs/s, its latency the wake-up latency.
 */
export interface ConsumerResult {
  consumers: number;
  /** Blocked calls answered (jobs returned, or nothing when the wait timed out). */
  pops: number;
  /** Jobs taken: a pop of one element is one job; BLMPOP, BZMPOP and the stream reads may return several. */
  jobs: number;
  /** Calls that returned nothing: the wait ran out (the file's timeout), or the run unblocked them at the end. */
  emptyReturns: number;
  /**
   * Push → pop time (µs) of the jobs whose value begins with a send stamp (`__now__`), on this machine's
   * monotonic clock; its count is those jobs. Jobs without a stamp are counted, not timed.
   */
  wakeUp: { latency: LatencySummary; histogram: string };
  /** Time the consumers waited with nothing to take (a call that returned nothing, the wait before a job was pushed), summed, ms. */
  idleMs: number;
  /** idleMs over the window: how many consumers were idle on average. */
  idleConsumers: number;
  /** From the producers' end until the last consumer stopped, ms. */
  drainMs: number;
  /**
   * How the consumers stopped: `drained` (the queue read empty, or each wait ran out), `drain-limit` (no job taken for
   * twice the wait's timeout plus a second — 5 s for a wait without one — or 10 minutes of draining), `cancelled`.
   */
  ended: 'drained' | 'drain-limit' | 'cancelled';
  /** The queue at the end, read on a separate connection: LLEN, ZCARD or XLEN per key (EXISTS 0: the key is gone), XPENDING for a stream group. */
  queueLeft: { key: string; command: string; length: number }[];
  /** `XACK KEY GROUP __ids__` after the read: the XACKs sent (one per read that returned entries) and the entries they acknowledged. */
  acks?: number;
  acked?: number;
}

/**
 * Pub/Sub figures. A publisher (a group of PUBLISH/SPUBLISH only, either client path, one server; a cluster: SPUBLISH, fast path) sums its replies:
 * each is the number of subscribers that got the message, so their sum is the deliveries to expect. A subscriber
 * group counts what it received and, from the send stamp (`__now__`) at the start of each message, the
 * publish→receive latency (its `total` and row: delivered/s and that latency).
 */
export interface PubSubResult {
  role: 'publisher' | 'subscriber';
  /** Publisher: PUBLISH replies read (warm-up included: the subscribers hear those messages too). */
  published?: number;
  /** Publisher: the sum of those replies, the deliveries the server made; subscriber: the publishers' sum, when known. */
  expected?: number;
  /** Publisher: messages no subscriber heard (reply 0). */
  unheard?: number;
  /** Subscriber: messages received, on all its connections, from its first subscription to the end of the drain. */
  delivered?: number;
  /** Subscriber: expected − delivered, when the expected count is known (never negative). */
  lost?: number;
  /** Subscriber: messages received without a send stamp at their start (not in the latency). */
  unstamped?: number;
  /** Subscriber: messages per channel (the channel the message came on), at most MAX_PUBSUB_CHANNELS of them. */
  channels?: Record<string, number>;
  /** Subscriber: its connections the server closed during the run (a slow subscriber past `client-output-buffer-limit pubsub`). */
  disconnected?: number;
  /**
   * Subscriber, on a cluster: shard channels subscribed again at their slot's new master, after the old one
   * unsubscribed them (`sunsubscribe`: the slot moved) or refused with MOVED at subscribe time.
   */
  resubscribed?: number;
  /** Subscriber: how long the drain after the publishers' end lasted (until every expected delivery, or 1 s of silence). */
  drainMs?: number;
  /** The clocks the latency compares: one machine's monotonic clock, or several machines' (`--shard`: not comparable). */
  clock?: 'one-machine' | 'several-machines';
}

/** Channels a subscriber result lists by name; the rest are added up under `…`. */
export const MAX_PUBSUB_CHANNELS = 1000;

/** A cluster load's breakdown (src/engine cluster routing). Node totals add up to the load's total. */
export interface ClusterResult {
  /** True when `INFO cluster` said so although neither the profile nor the scenario did. */
  detected: boolean;
  /** MOVED and ASK redirections followed during the load. */
  moved: number;
  ask: number;
  /** Times the slot map was reloaded (after MOVED, or a node lost). */
  topologyRefreshes: number;
  nodes: NodeResult[];
}

/** One cluster node's share of a load. */
export interface NodeResult {
  /** `host:port` as the cluster announces it. */
  node: string;
  role: 'master' | 'replica';
  /** Slot ranges the node served at the end of the load (`0-5460`), masters only. */
  slots?: string;
  /** Like the load's total: requests answered by this node, errors, ops/s over the load's window, latency, and
   *  its HDR histogram (so `rbench merge` joins nodes of several machines exactly). */
  total: CommandResult;
  /** Redirections this node answered with. */
  moved: number;
  ask: number;
}

/** One machine's share of a merged load (src/results/merge.ts). */
export interface LoadPart {
  /** `shard 2/3`, or the part's run id when the runs were not sharded. */
  part: string;
  /** The clients this machine ran. */
  clients: number;
  status: LoadStatus;
  measuredFrom?: string;
  durationMs: number;
  seed: number;
  total: Omit<CommandResult, 'histogram'>;
}

/** Live progress, at most a few times a second. */
export interface LoadTick {
  elapsedMs: number;
  /** Measured requests so far. */
  requests: number;
  errors: number;
  /** 0…1 when the end is known (count or duration), else undefined. */
  fraction?: number;
  /** The second just completed. */
  lastSecond?: TimelineSecond;
  /** The latencies (µs, non-empty slots) of the timeline buckets closed since the previous tick, each reply once: live histograms (`--metrics`) add them up. */
  lastSecondLatency?: SparseCounts;
  warmingUp: boolean;
}

/** TCP counters over a load (/proc/net/snmp, /proc/net/netstat): every socket of the host's network namespace, not the load's alone. */
export interface TcpCounters {
  scope: 'host';
  /** Segments sent (OutSegs) and of them retransmitted (RetransSegs). */
  segments: number;
  retransmits: number;
  /** Retransmission timeouts (TcpExt TCPTimeouts): each held its segment for at least the RTO's minimum, 200 ms. */
  timeouts?: number;
  /** Tail-loss probes (TcpExt TCPLossProbes): with one segment in flight Linux waits 2 round trips + 200 ms before one. */
  lossProbes?: number;
}

export interface LoadRequest {
  phase: PhasePlan;
  test: TestPlan;
  connection: ConnectionOptions;
  client: ClientPath;
  /** Overrides the plan's seed. */
  seed?: number;
  /** The runner found a cluster (`INFO server` redis_mode) that neither the profile nor the scenario declared. */
  clusterDetected?: boolean;
}

export interface LoadOptions {
  signal?: AbortSignal;
  onTick?: (tick: LoadTick) => void;
  /** Stop with status 'failed' when every connection has been down this long (default 3000 ms). */
  serverLostTimeoutMs?: number;
  /** Client groups: this load is `index` of the barrier's loads, and starts sending when all are connected. */
  startTogether?: { barrier: StartBarrier; index: number };
  /**
   * A local server's verified pid (src/redis/serverSchedule.ts): its main thread's schedstat is read where the load's
   * window opens and closes, so the verdict weighs the server over the client's very window (LoadResult.serverThread).
   */
  serverPid?: number;
}

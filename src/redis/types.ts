// Connection settings and server observations shared by the engine, the CLI and the extension.
import type { ConnectionOptions as TlsConnectionOptions } from 'node:tls';
import type { NetworkRule } from '../gates/network';

/** Everything needed to open a connection; the password is already looked up (env or secret storage). */
export interface ConnectionOptions {
  host: string;
  port: number;
  /** A unix socket to connect to instead of host:port (`unix:///path/redis.sock`); host is then `localhost`. */
  path?: string;
  /** Present for rediss:// or `tls on`: passed to tls.connect (ca/cert/key already read from files). */
  tls?: TlsConnectionOptions;
  username?: string;
  password?: string;
  db?: number;
  /** The control connections' CLIENT SETNAME (a run's own, src/runner/otherRuns.ts); default `rbench-control`. */
  clientName?: string;
  resp: 2 | 3;
  connectTimeoutMs: number;
  /** Cluster mode: the seed node is host:port; slots are discovered on connect. */
  cluster?: boolean;
  /** A Sentinel target: host:port is the primary found when the run began; connections ask the sentinels again. */
  sentinel?: SentinelOptions;
  /** Cluster mode: read-only commands go to replicas (READONLY connections). */
  replicaReads?: boolean;
  /** Where the password came from (`environment variable REDIS_PASSWORD`), for error messages; never the password. */
  passwordSource?: string;
  /** The network gate's rule (src/gates/network.ts), fixed before any contact; absent: read from these options. */
  network?: NetworkRule;
}

/** Where the sentinels are and how to reach them; TLS (options.tls) applies to sentinels and data nodes alike. */
export interface SentinelOptions {
  /** The name the sentinels monitor the primary under. */
  name: string;
  nodes: { host: string; port: number }[];
  /** Credentials of the sentinels themselves (`sentinel-user`, `sentinel-password`); the data nodes' are username/password. */
  username?: string;
  password?: string;
  passwordSource?: string;
}

/** A named connection defined in editor settings; a scenario selects it with `profile NAME`. */
export interface ConnectionProfile {
  /** redis://, rediss:// or unix:// URL, without a password. */
  url: string;
  /** Shown in pickers and reports instead of the name. */
  label?: string;
  user?: string;
  /** Name of the environment variable holding the password. */
  passwordEnv?: string;
  /** Take the password from the editor's secret storage (the CLI reads RBENCH_PASSWORD). */
  passwordSecret?: boolean;
  /** TLS settings; their presence turns TLS on (as does a rediss:// URL). Relative files resolve against baseDir. */
  tls?: {
    ca?: string;
    cert?: string;
    key?: string;
    servername?: string;
    insecure?: boolean;
  };
  cluster?: boolean;
  /** Sentinel targets (`redis-sentinel://…` URL): the ACL user and password source of the sentinels, never a literal password. */
  sentinelUser?: string;
  sentinelPasswordEnv?: string;
  sentinelPasswordSecret?: boolean;
  /** Cluster mode: read-only commands go to replicas. */
  replicaReads?: boolean;
  /** Refuse scenarios that write (a shared or production server). */
  readOnly?: boolean;
  /** Hosts besides the URL's that the cluster's nodes or the primary the sentinels name may be on (the network gate). */
  allowHosts?: string[];
}

/** Facts about the server, read once before a run. */
export interface ServerFacts {
  version: string;
  /** `standalone`, `cluster` or `sentinel` (INFO server redis_mode). */
  mode: string;
  os?: string;
  /** INFO server `redis_build_id`: tells two builds of one version apart (`--server-binary A --server-binary B`). */
  buildId?: string;
  /** A server that is not Redis by its own word: `valkey 8.0.1` (INFO `server_name`, `valkey_version`); `version` stays its Redis-compatible version. */
  product?: string;
  /** CONFIG GET save appendonly maxmemory maxmemory-policy, when the server allows it. */
  config: Record<string, string>;
  /** Keys in the selected database before the run. */
  keys?: number;
}

/** One INFO sample, taken once a second during a run on a separate connection. */
export interface ServerSample {
  /** Milliseconds since the run started. */
  t: number;
  usedMemory: number;
  usedMemoryRss: number;
  connectedClients: number;
  instantaneousOps: number;
  totalCommandsProcessed: number;
  rdbBgsaveInProgress: boolean;
  rdbLastBgsaveStatus: string;
  rdbChangesSinceLastSave: number;
  /** RDB saves started since the server started (counts failed ones; Redis 7+). */
  rdbSaves?: number;
  aofEnabled: boolean;
  aofRewriteInProgress: boolean;
  aofLastBgrewriteStatus: string;
  /** AOF rewrites started since the server started (counts failed ones; Redis 7+). */
  aofRewrites?: number;
  latestForkUsec: number;
  evictedKeys: number;
  expiredKeys: number;
  /** Keys across all databases (from the Keyspace section). */
  keys: number;
  /** errorstat_* counters: error prefix → count. */
  errorstats: Record<string, number>;
  /** Sums over `INFO commandstats` (all commands): calls and µs spent in them; absent when the server refused the section. */
  commandCalls?: number;
  commandUsec?: number;
  /** `INFO cpu`, seconds since the server started: process user/sys, main thread where the server has it. */
  cpuUser?: number;
  cpuSys?: number;
  cpuMainThread?: number;
  totalForks?: number;
}

/** One command's counters from `INFO commandstats` (`cmdstat_get:calls=…,usec=…,rejected_calls=…,failed_calls=…`). */
export interface CommandCounters {
  calls: number;
  usec: number;
  /** Redis 7+: refused before running (ACL, OOM, arity…) and failed while running. */
  rejected?: number;
  failed?: number;
}

/**
 * The server's counters at one moment, read for per-test deltas: exact counters only (no rates). A field
 * the server did not give is absent, with the reason in `absent` (section or field name → why).
 */
export interface ServerCounters {
  /** By command name as the server reports it, lower-case, subcommands as `config|get`. */
  commands: Record<string, CommandCounters>;
  /** `INFO cpu`, seconds: the whole process and, where the server has them, its main thread. */
  cpu?: { user: number; sys: number; mainThreadUser?: number; mainThreadSys?: number };
  totalForks?: number;
  latestForkUsec?: number;
  evictedKeys?: number;
  expiredKeys?: number;
  /** `rejected_connections`, `total_error_replies`: load refused or failed. */
  rejectedConnections?: number;
  /** `total_net_input_bytes`, `total_net_output_bytes`: bytes the server read from and wrote to its clients. */
  netInputBytes?: number;
  netOutputBytes?: number;
  /** SLOWLOG: the newest entry's id (entries with a higher id are new) and the log's length. */
  slowlogLastId?: number;
  /** LATENCY LATEST: event → the latest spike's time (unix s) and its length in ms. */
  latencyEvents?: Record<string, { time: number; latestMs: number; maxMs: number }>;
  /** INFO persistence: the AOF is on, and the fsyncs it had to delay (appendfsync everysec, the disk behind). */
  aofEnabled?: boolean;
  aofDelayedFsync?: number;
  /** Redis 7+ `INFO latencystats`: percentiles per command in µs, cumulative since the server started or was reset. */
  latencyStats?: Record<string, { p50: number; p99: number; p999: number }>;
  absent?: Record<string, string>;
}

/** The server's side of one test: counter deltas between a read before it and one after it. */
export interface ServerDelta {
  /** Nodes read (1, or every master of a cluster, added up). */
  nodes: number;
  /** Time between the two reads, ms. */
  windowMs: number;
  /** All commands the server ran in the window, and the time it spent in them. */
  calls: number;
  usec: number;
  /** Per command (server names, lower-case). */
  commands: Record<string, CommandCounters & { usecPerCall: number }>;
  /** The commands the test sent, added up: the server's time per call for them (the latency split). */
  usecPerCall?: number;
  /** Server CPU over the window, % of one core (user + sys); main thread alone where the server tells. */
  cpuPercent?: number;
  mainThreadCpuPercent?: number;
  /**
   * A local server's main thread over the window as the scheduler saw it (/proc schedstat): ms on a CPU and
   * ms runnable but waiting for a core; io-threads added up beside it. Absent for a remote server or a cluster.
   */
  schedule?: {
    runMs: number;
    runnableWaitMs: number;
    ioThreads?: { count: number; runMs: number; runnableWaitMs: number };
    /** CPU time of the server's fork children (BGSAVE, AOF rewrite) in the window, where the system tells. */
    childrenRunMs?: number;
    /** CPU time all of the machine's cores spent on work in the window (with childrenRunMs). */
    machineBusyMs?: number;
  };
  /** Forks in the window (BGSAVE, AOF rewrite) and the latest one's length. */
  forks?: number;
  forkUsec?: number;
  evictedKeys?: number;
  expiredKeys?: number;
  /** Bytes the server read from its clients (their requests) and wrote to them (its replies) in the window: every client's, RBench's included. */
  netInputBytes?: number;
  netOutputBytes?: number;
  /**
   * The AOF, when it was on: its fsync policy (CONFIG GET appendfsync, read when the run started) and the
   * fsyncs the server delayed in the window (INFO persistence aof_delayed_fsync).
   */
  aof?: { fsync?: string; delayedFsyncs?: number };
  /** SLOWLOG entries newer than the test's start, and the slowest of them. */
  slowlog?: { entries: number; slowest?: { command: string; usec: number } };
  /** LATENCY LATEST events that happened during the test. */
  latencyEvents?: { event: string; latestMs: number; maxMs: number }[];
  /**
   * Server-side latency percentiles (µs) per command: `perTest` when the server was reset before the test
   * (a throwaway server), `cumulative` when they are since the server started (a user's server, never reset).
   */
  latencyStats?: { scope: 'per-test' | 'cumulative'; commands: Record<string, { p50: number; p99: number; p999: number }> };
  /**
   * What RBench sent for this load by the server's command names (`get`, `config|get`): what `foreign` is
   * measured against, kept so `rbench merge` can judge foreign load against the sum of the parts.
   */
  sent?: Record<string, number>;
  /**
   * RBench's own commands over the window, counted as sent (sampling, control, handshakes), and the calls the
   * accounting cannot place (in flight at the window's edges, uncounted handshakes): foreign load is beyond them.
   */
  own?: { sent: Record<string, number>; uncertain: number };
  /** Commands the test's commands ran inside the server (`hgetall` → `ft.search`, learned by a probe): not foreign. */
  nested?: Record<string, string>;
  /** Other RBench runs connected to the server during this load (their connection names, src/runner/otherRuns.ts). */
  otherRuns?: string[];
  /** What the server ran that this load did not send (calls beyond RBench's own, per command), when any. */
  foreign?: { calls: number; commands: Record<string, number> };
  /** Cluster: each master's share. */
  byNode?: { node: string; calls: number; usec: number; cpuPercent?: number }[];
  /** Fields the server did not give, and why (`cpu: INFO cpu refused (NOPERM)`), never zeros. */
  absent?: Record<string, string>;
}

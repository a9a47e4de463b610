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
}

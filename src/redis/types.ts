// Connection settings and server observations shared by the engine, the CLI and the extension.
import type { ConnectionOptions as TlsConnectionOptions } from 'node:tls';

/** Everything needed to open a connection; the password is already looked up (env or secret storage). */
export interface ConnectionOptions {
  host: string;
  port: number;
  /** Present for rediss:// or `tls on`: passed to tls.connect (ca/cert/key already read from files). */
  tls?: TlsConnectionOptions;
  username?: string;
  password?: string;
  db?: number;
  resp: 2 | 3;
  connectTimeoutMs: number;
  /** Cluster mode: the seed node is host:port; slots are discovered on connect. */
  cluster?: boolean;
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
  rdbSaves?: number;
  aofEnabled: boolean;
  aofRewriteInProgress: boolean;
  aofLastBgrewriteStatus: string;
  latestForkUsec: number;
  evictedKeys: number;
  expiredKeys: number;
  /** Keys across all databases (from the Keyspace section). */
  keys: number;
  /** errorstat_* counters: error prefix → count. */
  errorstats: Record<string, number>;
}

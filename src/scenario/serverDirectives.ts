// Which redis.conf directives a scenario may give its throwaway redis-server. A shared `.rbench` file is
// written by a stranger: it may tune the server (persistence, memory, eviction, threads, encodings), not
// load code, read other files or write outside the server's temp folder. Plain data, no `vscode`.

/** Directives the launcher sets itself; a scenario cannot change them. */
export const MANAGED_SERVER_DIRECTIVES: readonly string[] = [
  'port',
  'bind',
  'dir',
  'daemonize',
  'pidfile',
  'enable-debug-command',
  'enable-module-command',
  'enable-protected-configs',
  'unixsocketperm',
];

const PERSISTENCE = [
  'save',
  'appendonly',
  'appendfsync',
  'no-appendfsync-on-rewrite',
  'auto-aof-rewrite-percentage',
  'auto-aof-rewrite-min-size',
  'aof-use-rdb-preamble',
  'aof-rewrite-incremental-fsync',
  'aof-timestamp-enabled',
  'rdbcompression',
  'rdbchecksum',
  'rdb-save-incremental-fsync',
  'stop-writes-on-bgsave-error',
];
const MEMORY = [
  'maxmemory',
  'maxmemory-policy',
  'maxmemory-samples',
  'maxmemory-eviction-tenacity',
  'maxmemory-clients',
  'lazyfree-lazy-eviction',
  'lazyfree-lazy-expire',
  'lazyfree-lazy-server-del',
  'lazyfree-lazy-user-del',
  'lazyfree-lazy-user-flush',
  'activedefrag',
  'active-defrag-ignore-bytes',
  'active-defrag-threshold-lower',
  'active-defrag-threshold-upper',
  'active-defrag-cycle-min',
  'active-defrag-cycle-max',
  'active-defrag-max-scan-fields',
  'activerehashing',
  'active-expire-effort',
  'jemalloc-bg-thread',
  'hz',
  'dynamic-hz',
];
const THREADS_AND_CLIENTS = [
  'io-threads',
  'io-threads-do-reads',
  'maxclients',
  'timeout',
  'tcp-keepalive',
  'tcp-backlog',
  'client-output-buffer-limit',
  'client-query-buffer-limit',
  'proto-max-bulk-len',
  'databases',
  'requirepass',
  'busy-reply-threshold',
  'lua-time-limit',
  'latency-tracking',
  'latency-tracking-info-percentiles',
  'latency-monitor-threshold',
  'slowlog-log-slower-than',
  'slowlog-max-len',
  'notify-keyspace-events',
  'tracking-table-max-keys',
];
const ENCODINGS = [
  'hash-max-listpack-entries',
  'hash-max-listpack-value',
  'hash-max-ziplist-entries',
  'hash-max-ziplist-value',
  'list-max-listpack-size',
  'list-max-ziplist-size',
  'list-compress-depth',
  'set-max-intset-entries',
  'set-max-listpack-entries',
  'set-max-listpack-value',
  'zset-max-listpack-entries',
  'zset-max-listpack-value',
  'zset-max-ziplist-entries',
  'zset-max-ziplist-value',
  'stream-node-max-bytes',
  'stream-node-max-entries',
  'hll-sparse-max-bytes',
];

/** Tuning directives a scenario may set on its throwaway server. */
export const ALLOWED_SERVER_DIRECTIVES: ReadonlySet<string> = new Set([...PERSISTENCE, ...MEMORY, ...THREADS_AND_CLIENTS, ...ENCODINGS]);

/** Why the most tempting refused directives are refused, in the user's terms. */
const REASONS: Record<string, string> = {
  loadmodule: 'it would load and run a shared library inside the server',
  include: 'it would read another configuration file',
  logfile: "it would write a file outside the server's temp folder",
  dbfilename: 'it would name the file the server writes',
  appendfilename: 'it would name the file the server writes',
  appenddirname: 'it would name the folder the server writes',
  aclfile: 'it would read another file',
  'rename-command': 'it would hide or rename commands',
  replicaof: 'it would connect the server to another host',
  slaveof: 'it would connect the server to another host',
  'tls-port': 'it would read certificate files',
};

/** Why the throwaway server refuses `directive` (lower case), or undefined when it is allowed. */
export function serverDirectiveRefusal(directive: string): string | undefined {
  if (MANAGED_SERVER_DIRECTIVES.includes(directive)) return `\`${directive}\` is managed by rbench for the throwaway server — remove this line`;
  // `server unixsocket on|off` only switches the socket in the server's own temp folder (checked by the reader).
  if (ALLOWED_SERVER_DIRECTIVES.has(directive) || directive === 'unixsocket') return undefined;
  const reason = REASONS[directive] ?? 'it is not a tuning directive';
  return `\`server ${directive}\` is refused: ${reason}. The throwaway server takes tuning directives only (persistence, memory, eviction, threads, encodings), such as \`server maxmemory 100mb\``;
}

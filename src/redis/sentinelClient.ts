// ioredis's own Sentinel mode for the control connection (INFO monitor, facts, clean-up) and the ioredis
// load path: it asks the sentinels on every (re)connect, so both follow a failover.
import type { RedisOptions } from 'ioredis';
import { approvedNodes, NodeRefusedError } from '../gates/network';
import { primaryRefusal } from './sentinel';
import type { ConnectionOptions } from './types';

/** The settings that turn an ioredis client at host:port into one at the primary the sentinels name; {} for other targets. */
export function sentinelClientOptions(options: ConnectionOptions): RedisOptions {
  const sentinel = options.sentinel;
  if (!sentinel) return {};
  const settings: RedisOptions = {
    host: undefined,
    port: undefined,
    sentinels: sentinel.nodes.map((node) => ({ host: node.host, port: node.port })),
    name: sentinel.name,
    role: 'master',
    // Only the sentinels the target names are contacted, never others they announce: a shared file loads what it shows.
    updateSentinels: false,
    sentinelCommandTimeout: options.connectTimeoutMs,
    // All sentinels unreachable: a few more rounds, then the client gives up (ioredis would retry forever).
    sentinelRetryStrategy: (attempt) => (attempt <= 3 ? attempt * 200 : null),
    // A demoted primary keeps its clients until the sentinels reconfigure it: ioredis listens for +switch-master instead.
    failoverDetector: true,
    // A READONLY reply means the primary became a replica: reconnect, which asks the sentinels again.
    reconnectOnError: (error) => error.message.startsWith('READONLY'),
    // The network gate on the primary the sentinels name: ioredis passes it through natMap before it connects,
    // and a refusal thrown there counts as that sentinel's failure, so no socket opens to it.
    natMap: primaryGate(options, sentinel.name),
  };
  if (sentinel.username !== undefined) settings.sentinelUsername = sentinel.username;
  if (sentinel.password !== undefined) settings.sentinelPassword = sentinel.password;
  if (options.tls) {
    settings.enableTLSForSentinelMode = true;
    // SNI per host: each sentinel is checked against its own name (tls.connect's default), not `tls-servername`.
    settings.sentinelTLS = { ...options.tls, servername: undefined };
  }
  return settings;
}

/** ioredis's `natMap` for a Sentinel target: every address stays as named, but one the network gate refuses throws the refusal. */
function primaryGate(options: ConnectionOptions, name: string): (key: string) => null {
  const approved = approvedNodes(options);
  return (key) => {
    const colon = key.lastIndexOf(':');
    const refusal = primaryRefusal(approved, name, { host: key.slice(0, colon), port: Number(key.slice(colon + 1)) });
    if (refusal) throw new NodeRefusedError(refusal);
    return null;
  };
}

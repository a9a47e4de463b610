// TLS settings per cluster node. The target's `tls servername` names the seed it was written for; every
// other node is checked against its own name: the hostname it announces, else its host when that is a
// name, else (an IP) no SNI and the certificate's IP entries.
import { isIP } from 'node:net';
import type { ConnectionOptions as TlsConnectionOptions } from 'node:tls';
import { errorPlace, tlsRefusal } from '../../redis/errors';
import type { ConnectionOptions } from '../../redis/types';
import type { ClusterState } from './clusterState';

export function nodeTls(seed: ConnectionOptions, node: { host: string; port: number; hostname?: string; seed?: true }): TlsConnectionOptions | undefined {
  if (!seed.tls) return undefined;
  if (node.seed || (node.host === seed.host && node.port === seed.port)) return seed.tls;
  const name = node.hostname ?? (isIP(node.host) ? undefined : node.host);
  return { ...seed.tls, servername: name };
}

/** The message when node `key` (`host:port`, as ioredis names it) refused the TLS handshake; undefined for other failures. */
export function nodeTlsRefusal(seed: ConnectionOptions, cluster: ClusterState, key: string, error: Error): string | undefined {
  if (!seed.tls) return undefined;
  const colon = key.lastIndexOf(':');
  const host = key.slice(0, colon);
  const port = Number(key.slice(colon + 1));
  const known = cluster.nodes.find((n) => n.host === host && n.port === port);
  return tlsRefusal(error, errorPlace({ ...seed, host, port, tls: nodeTls(seed, known ?? { host, port }) }));
}

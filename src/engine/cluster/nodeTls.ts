// TLS settings per cluster node. The target's `tls servername` names the seed it was written for; every
// other node is checked against its own name: the hostname it announces, else its host when that is a
// name, else (an IP) no SNI and the certificate's IP entries.
import { isIP } from 'node:net';
import type { ConnectionOptions as TlsConnectionOptions } from 'node:tls';
import { errorPlace, tlsRefusal, type ErrorPlace } from '../../redis/errors';
import type { ConnectionOptions } from '../../redis/types';
import type { ClusterState } from './clusterState';

type NodeAddress = { host: string; port: number; hostname?: string; seed?: true };

export function nodeTls(seed: ConnectionOptions, node: NodeAddress): TlsConnectionOptions | undefined {
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
  return tlsRefusal(error, nodeErrorPlace(seed, known ?? { host, port }));
}

/** Where a node's connection failed, for the messages: a node other than the seed is not checked under `tls servername`, so its name fix differs. */
export function nodeErrorPlace(seed: ConnectionOptions, node: NodeAddress): ErrorPlace {
  const tls = nodeTls(seed, node);
  const place = errorPlace({ ...seed, host: node.host, port: node.port, path: undefined, db: 0, tls });
  if (!tls || tls === seed.tls) return place;
  const holds = "set the node's cluster-announce-hostname to a name its certificate holds";
  place.nameFix = tls.servername
    ? `this node is checked against ${node.hostname ? 'the hostname it announces' : 'the host name it is announced at'}, not \`tls servername\` (that names the seed only): put "${tls.servername}" in its certificate, or ${holds}`
    : `this node announces no hostname, so its certificate must hold its IP: add IP:${node.host} to it, or ${holds}`;
  return place;
}

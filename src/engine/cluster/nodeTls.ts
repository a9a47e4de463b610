// TLS settings per cluster node. The target's `tls servername` names the seed it was written for; every
// other node is checked against its own name: the hostname it announces, else its host when that is a
// name, else (an IP) no SNI and the certificate's IP entries.
import { isIP } from 'node:net';
import type { ConnectionOptions as TlsConnectionOptions } from 'node:tls';
import type { ConnectionOptions } from '../../redis/types';

export function nodeTls(seed: ConnectionOptions, node: { host: string; port: number; hostname?: string }): TlsConnectionOptions | undefined {
  if (!seed.tls) return undefined;
  if (node.host === seed.host && node.port === seed.port) return seed.tls;
  const name = node.hostname ?? (isIP(node.host) ? undefined : node.host);
  return { ...seed.tls, servername: name };
}

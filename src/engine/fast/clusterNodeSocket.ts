// Opens a fast-path socket to one node of a cluster: the network gate's last check (every node was gated when it
// became known), then the node's own TLS settings and the handshake (AUTH/HELLO, PING; no SELECT: a cluster has db 0).
import { NodeRefusedError } from '../../gates/network';
import type { ConnectionOptions } from '../../redis/types';
import type { ClusterState } from '../cluster/clusterState';
import { nodeErrorPlace, nodeTls } from '../cluster/nodeTls';
import { openSocket, type RawConnection } from './connect';

export function openClusterNode(cluster: ClusterState, seed: ConnectionOptions, node: number): Promise<RawConnection> {
  const { host, port } = cluster.nodes[node];
  const refusal = cluster.approved.check(host, port, 'the cluster names');
  if (refusal) return Promise.reject(new NodeRefusedError(refusal));
  const options = { ...seed, host, port, path: undefined, db: 0, tls: nodeTls(seed, cluster.nodes[node]) };
  return openSocket(options, nodeErrorPlace(seed, cluster.nodes[node]));
}

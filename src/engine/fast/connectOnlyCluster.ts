// `connect-only on` against a Redis Cluster: a request is one connection to one master, the masters taken in turn
// (client i's k-th connection goes to master (i + k) mod M). R requests are R connections spread evenly, each
// master's row counting its share: what a max-connection or accept-rate test of a cluster needs. A connection to
// every master per request would make one request M connections and time the slowest of M handshakes as one.
// Each connection passes the network gate (the layout's nodes were gated when read) and the node's handshake.
// A module of its own (clientPathModules.json): the single-node storm's thread does not load the cluster state.
import type { ClientPathModule } from '../connection';
import { clusterPathConnections } from '../cluster/clusterPathConnections';
import type { ClusterState } from '../cluster/clusterState';
import type { ConnectionOptions } from '../../redis/types';
import { openClusterNode } from './clusterNodeSocket';
import { ConnectOnlyConnection, type StormTarget } from './connectOnlyConnection';

/** A cluster's masters in turn, starting at the client's index (so the clients spread from their first turn). */
export function mastersInTurn(cluster: ClusterState, seed: ConnectionOptions, client: number): StormTarget {
  return {
    refused: cluster.refused,
    open: (turn) => {
      const node = cluster.anyMaster(client + turn);
      return { opening: openClusterNode(cluster, seed, node), node: cluster.nodes[node]?.stats };
    },
  };
}

/** The connect-only path on a cluster (clientPaths.ts). */
export const openClientPath: ClientPathModule['openClientPath'] = (config) =>
  clusterPathConnections(config, (index, load, cluster) => new ConnectOnlyConnection(index, load, mastersInTurn(cluster, config.connection, index)));

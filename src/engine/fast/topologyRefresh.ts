// Re-reads the slot map from a live node while a master is unreachable. After a failover its promoted
// replica serves the slots, but a dead master sends no MOVED: only the other nodes can tell. Plain socket
// and the small RESP reader (no client library in the fast path's threads); one question at a time per
// worker, at most every REFRESH_INTERVAL_MS.
import { performance } from 'node:perf_hooks';
import { RespErrorReply } from '../../protocol/respValue';
import type { ConnectionOptions } from '../../redis/types';
import { openSocket } from './connect';
import { askRaw } from './rawReply';
import type { ClusterState } from '../cluster/clusterState';
import { nodeTls } from '../cluster/nodeTls';
import { topologyFromShards, type ClusterTopology } from '../../redis/clusterTopology';

export const REFRESH_INTERVAL_MS = 250;

const lastAsked = new WeakMap<ClusterState, number>();
const asking = new WeakSet<ClusterState>();

/**
 * Asks the other masters for the slot map (node `unreachable` is skipped) and applies the first answer. A
 * map naming a node the network gate refuses is not applied: `refused` gets the refusal.
 */
export function refreshTopology(state: ClusterState, connection: ConnectionOptions, unreachable: number, refused: (message: string) => void): void {
  const now = performance.now();
  if (asking.has(state) || now - (lastAsked.get(state) ?? -Infinity) < REFRESH_INTERVAL_MS) return;
  asking.add(state);
  lastAsked.set(state, now);
  void (async () => {
    for (const node of [...state.nodes]) {
      if (node.index === unreachable || node.role !== 'master') continue;
      const topology = await askShards({ ...connection, host: node.host, port: node.port, path: undefined, db: 0, tls: nodeTls(connection, node) }).catch(
        () => undefined,
      );
      if (topology && topology.slots.length > 0) {
        const refusal = state.apply(topology);
        if (refusal) refused(refusal);
        return;
      }
    }
  })().finally(() => asking.delete(state));
}

async function askShards(options: ConnectionOptions): Promise<ClusterTopology> {
  const connection = await openSocket(options);
  try {
    const reply = await askRaw(connection, ['CLUSTER', 'SHARDS'], options.connectTimeoutMs);
    if (reply instanceof RespErrorReply || !Array.isArray(reply)) throw new Error(`CLUSTER SHARDS: ${JSON.stringify(reply)}`);
    return topologyFromShards(reply as Parameters<typeof topologyFromShards>[0], options);
  } finally {
    connection.socket.destroy();
  }
}

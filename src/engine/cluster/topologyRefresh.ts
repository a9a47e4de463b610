// Re-reads the slot map from a live node while a master is unreachable. After a failover its promoted
// replica serves the slots, but a dead master sends no MOVED: only the other nodes can tell. Plain socket
// and the small RESP reader (no client library in the fast path's threads); one question at a time per
// worker, at most every REFRESH_INTERVAL_MS.
import { performance } from 'node:perf_hooks';
import { readRespValue, RespErrorReply, type RespValue } from '../../redis/respValue';
import type { ConnectionOptions } from '../../redis/types';
import { openSocket } from '../connect';
import { encodeRespCommand } from '../resp/encode';
import type { ClusterState } from './clusterState';
import { topologyFromShards, type ClusterTopology } from './topology';

export const REFRESH_INTERVAL_MS = 250;

const lastAsked = new WeakMap<ClusterState, number>();
const asking = new WeakSet<ClusterState>();

/** Asks the other masters for the slot map (node `unreachable` is skipped) and applies the first answer. */
export function refreshTopology(state: ClusterState, connection: ConnectionOptions, unreachable: number): void {
  const now = performance.now();
  if (asking.has(state) || now - (lastAsked.get(state) ?? -Infinity) < REFRESH_INTERVAL_MS) return;
  asking.add(state);
  lastAsked.set(state, now);
  void (async () => {
    for (const node of [...state.nodes]) {
      if (node.index === unreachable || node.role !== 'master') continue;
      const topology = await askShards({ ...connection, host: node.host, port: node.port, path: undefined, db: 0 }).catch(() => undefined);
      if (topology && topology.slots.length > 0) {
        state.apply(topology);
        return;
      }
    }
  })().finally(() => asking.delete(state));
}

function askShards(options: ConnectionOptions): Promise<ClusterTopology> {
  return openSocket(options).then(
    (connection) =>
      new Promise<ClusterTopology>((resolve, reject) => {
        let received = Buffer.alloc(0);
        const done = (finish: () => void) => {
          clearTimeout(timer);
          connection.socket.destroy();
          finish();
        };
        const timer = setTimeout(() => done(() => reject(new Error('no answer to CLUSTER SHARDS'))), options.connectTimeoutMs);
        connection.socket.on('error', () => undefined);
        connection.socket.on('close', () => done(() => reject(new Error('closed before answering CLUSTER SHARDS'))));
        connection.onBytes((chunk, length) => {
          // The chunk is only valid during the call: keep a copy.
          received = Buffer.concat([received, chunk.subarray(0, length)]);
          let reply: RespValue;
          try {
            const read = readRespValue(received);
            if (!read) return;
            reply = read.value;
          } catch (error) {
            done(() => reject(error as Error));
            return;
          }
          if (reply instanceof RespErrorReply || !Array.isArray(reply)) done(() => reject(new Error(`CLUSTER SHARDS: ${JSON.stringify(reply)}`)));
          else done(() => resolve(topologyFromShards(reply as Parameters<typeof topologyFromShards>[0], options)));
        });
        connection.socket.write(encodeRespCommand(['CLUSTER', 'SHARDS']));
      }),
  );
}

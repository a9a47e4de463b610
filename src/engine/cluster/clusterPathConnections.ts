// What both cluster paths give their worker thread: connections that share one routing state, made with
// the first connection (it counts into the thread's stats), behind the network gate's approved nodes.
import { approvedNodes } from '../../gates/network';
import type { ConnectionHost, LoadConnection, PathConnections } from '../connection';
import type { WorkerConfig } from '../workerMessages';
import { ClusterState } from './clusterState';

export function clusterPathConnections(
  config: WorkerConfig,
  connection: (index: number, load: ConnectionHost, cluster: ClusterState) => LoadConnection,
): PathConnections {
  const plan = config.cluster;
  if (!plan) throw new Error('a cluster client path needs the cluster plan');
  let state: ClusterState | undefined;
  return {
    factory: (index, load) => {
      // A redirection the network gate refuses ends the load, once the read that met it is done.
      state ??= new ClusterState(plan, load.stats, approvedNodes(config.connection), (refusal) => queueMicrotask(() => load.fail(refusal)));
      return connection(index, load, state);
    },
    cluster: () => state,
  };
}

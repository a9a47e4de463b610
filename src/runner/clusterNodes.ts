// What a run does on every master of a cluster: clean-up (SCAN sees only the node it is sent to) and INFO sampling.
import { approvedNodes } from '../gates/network';
import { nodeTls, openRawControl, slotOf } from '../engine';
import { discoverTopology } from '../redis/clusterTopology';
import { deleteKeysMatching, type Cleanup } from '../redis/cleanup';
import type { MonitorOptions } from '../redis/monitor';
import type { ConnectionOptions } from '../redis/types';
import { ClusterMonitor } from './clusterMonitor';

/** Keys grouped by hash slot: one UNLINK per slot. */
export function keysBySlot(keys: string[]): string[][] {
  const groups = new Map<number, string[]>();
  for (const key of keys) {
    const slot = slotOf(key);
    const group = groups.get(slot);
    if (group) group.push(key);
    else groups.set(slot, [key]);
  }
  return [...groups.values()];
}

/** Deletes the keys matching `pattern` (those `owns` accepts, when given) on every master of the cluster; returns how many were deleted and left alone. */
export async function deleteClusterKeysMatching(connection: ConnectionOptions, pattern: string, owns?: (key: string) => boolean): Promise<Cleanup> {
  const topology = await discoverTopology(connection, openRawControl);
  const masters = topology.nodes.filter((n) => n.role === 'master');
  // discoverTopology passed the layout through the network gate; asked again where the sockets open.
  const refusal = approvedNodes(connection).refusal(masters, 'the clean-up would reach');
  if (refusal) throw new Error(refusal);
  const total: Cleanup = { deleted: 0, leftAlone: 0 };
  for (const node of masters) {
    const link = await openRawControl({
      ...connection,
      host: node.host,
      port: node.port,
      path: undefined,
      cluster: false,
      tls: nodeTls(connection, node),
    });
    try {
      const { deleted, leftAlone } = await deleteKeysMatching(link, pattern, { groupKeys: keysBySlot, owns });
      total.deleted += deleted;
      total.leftAlone += leftAlone;
    } finally {
      await link.close();
    }
  }
  return total;
}

/** An INFO monitor over every master of the cluster. */
export async function clusterMonitor(connection: ConnectionOptions, options: MonitorOptions): Promise<ClusterMonitor> {
  const topology = await discoverTopology(connection, openRawControl);
  return new ClusterMonitor(
    connection,
    topology.nodes.filter((n) => n.role === 'master'),
    options,
  );
}

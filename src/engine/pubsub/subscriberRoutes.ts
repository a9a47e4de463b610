// Where one subscriber's subscriptions go. One server: one connection, one command listing every channel. A
// cluster: SSUBSCRIBE's channels are keys (their key specs say so), each subscribed on the master that owns its
// slot — a connection per master the subscriber needs, a command per slot (one command's shard channels must
// share a slot, else CROSSSLOT). SUBSCRIBE and PSUBSCRIBE hear what is published on any node (the cluster bus
// forwards it to all), so one connection to one master does, the subscribers spread over the masters.
import type { ClusterTopology, TopologyNode } from '../../redis/clusterTopology';
import { slotOf } from '../cluster/slot';

export interface SubscriberRoute {
  /** The cluster node to connect to; undefined: the target itself. */
  node?: TopologyNode;
  /** The subscribe commands to send on that connection. */
  commands: string[][];
  /** How many subscriptions the server confirms for them (one per channel argument). */
  confirmations: number;
}

/** The connections subscriber `client` opens, and what each subscribes: `name` is SUBSCRIBE, PSUBSCRIBE or SSUBSCRIBE. */
export function subscriberRoutes(name: string, channels: readonly string[], client: number, topology?: ClusterTopology): SubscriberRoute[] {
  if (!topology) return [{ commands: [[name, ...channels]], confirmations: channels.length }];
  if (name !== 'SSUBSCRIBE') {
    const masters = topology.nodes.filter((node) => node.role === 'master');
    return [{ node: masters[client % masters.length], commands: [[name, ...channels]], confirmations: channels.length }];
  }
  const bySlotByMaster = new Map<number, Map<number, string[]>>();
  for (const channel of channels) {
    const slot = slotOf(channel);
    const master = masterOf(topology, slot);
    const bySlot = bySlotByMaster.get(master) ?? new Map<number, string[]>();
    bySlotByMaster.set(master, bySlot);
    bySlot.set(slot, [...(bySlot.get(slot) ?? []), channel]);
  }
  return [...bySlotByMaster].map(([master, bySlot]) => ({
    node: topology.nodes[master],
    commands: [...bySlot.values()].map((slotChannels) => [name, ...slotChannels]),
    confirmations: [...bySlot.values()].reduce((sum, slotChannels) => sum + slotChannels.length, 0),
  }));
}

/** The index in `nodes` of the master serving `slot` (every slot is served: discoverTopology checked it). */
function masterOf(topology: ClusterTopology, slot: number): number {
  const range = topology.slots.find(([first, last]) => slot >= first && slot <= last);
  if (!range) throw new Error(`slot ${slot} is served by no master`);
  return range[2];
}

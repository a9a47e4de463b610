// A cluster's layout, read on the main thread before a load: the masters with their slot ranges and their
// replicas, from CLUSTER SHARDS (Redis 7.0+), else CLUSTER SLOTS. Workers get it as plain data.
import { approvedNodes } from '../gates/network';
import type { ControlLink, OpenControl } from './controlLink';
import { address } from './errors';
import type { ConnectionOptions } from './types';

export interface TopologyNode {
  host: string;
  port: number;
  role: 'master' | 'replica';
  /** For a replica: the index of its master in `nodes`. */
  master?: number;
  /** The node's announced hostname (CLUSTER SHARDS, `cluster-announce-hostname`): its TLS server name. */
  hostname?: string;
  /** The node the target names (its `tls servername` is this node's), recognised by node ID whatever address it is announced at. */
  seed?: true;
}

export interface ClusterTopology {
  nodes: TopologyNode[];
  /** [first slot, last slot, index of the master in `nodes`]. */
  slots: [number, number, number][];
}

type Reply = string | number | Buffer | null | Reply[];

/** A reply the layout cannot be read from: the server's own words, for the message. */
class LayoutError extends Error {}

/** The target is no cluster, its layout cannot be read or is refused, or not all slots are served: the message is meant for the user as is (the engine reports it as a LoadError). */
export class ClusterTopologyError extends Error {
  override name = 'ClusterTopologyError';
}

/** A RESP array of name/value pairs as a Map (never an object: the names are the server's). */
function fields(list: Reply): Map<string, Reply> {
  const map = new Map<string, Reply>();
  if (!Array.isArray(list)) throw new LayoutError(`expected a list of fields, got ${describe(list)}`);
  for (let i = 0; i + 1 < list.length; i += 2) map.set(String(list[i]), list[i + 1]);
  return map;
}

function listOf(reply: Reply | undefined, what: string): Reply[] {
  if (reply === undefined || reply === null) return [];
  if (!Array.isArray(reply)) throw new LayoutError(`${what} is ${describe(reply)}, not a list`);
  return reply;
}

function describe(reply: Reply | undefined): string {
  return JSON.stringify(reply)?.slice(0, 80) ?? String(reply);
}

/** A node's announced address; an empty or `?` endpoint means "the address you reached me on". */
function hostOf(endpoint: Reply | undefined, seed: ConnectionOptions): string {
  if (Array.isArray(endpoint)) throw new LayoutError(`a node's address is ${describe(endpoint)}`);
  const text = endpoint === undefined || endpoint === null ? '' : String(endpoint);
  return text === '' || text === '?' ? seed.host : text;
}

function portOf(value: Reply | undefined): number {
  const port = Array.isArray(value) ? NaN : Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new LayoutError(`a node's port is ${describe(value)}`);
  return port;
}

function slotOf(value: Reply | undefined): number {
  const slot = Array.isArray(value) ? NaN : Number(value);
  if (!Number.isInteger(slot) || slot < 0 || slot > 16383) throw new LayoutError(`a slot is ${describe(value)}`);
  return slot;
}

class Builder {
  readonly topology: ClusterTopology = { nodes: [], slots: [] };
  private readonly byAddress = new Map<string, number>();

  constructor(private readonly seedId: string | undefined) {}

  node(host: string, port: number, role: TopologyNode['role'], master?: number, hostname?: string, id?: Reply): number {
    const key = `${host}:${port}`;
    let index = this.byAddress.get(key);
    if (index === undefined) {
      const seed = this.seedId !== undefined && id !== undefined && id !== null && String(id) === this.seedId;
      index =
        this.topology.nodes.push({
          host,
          port,
          role,
          ...(master !== undefined ? { master } : {}),
          ...(hostname ? { hostname } : {}),
          ...(seed ? { seed } : {}),
        }) - 1;
      this.byAddress.set(key, index);
    }
    return index;
  }

  slots(first: number, last: number, master: number): void {
    if (first > last) throw new LayoutError(`a slot range runs from ${first} down to ${last}`);
    this.topology.slots.push([first, last, master]);
  }
}

/** `seedId`: the node ID of the node `seed` names (CLUSTER MYID), marked `seed` in the layout. */
/** `seedId`: the node ID of the node `seed` names (CLUSTER MYID), marked `seed` in the layout. Throws on a reply that is no layout. */
export function topologyFromShards(shards: Reply, seed: ConnectionOptions, seedId?: string): ClusterTopology {
  const builder = new Builder(seedId);
  for (const shard of listOf(shards, 'CLUSTER SHARDS')) {
    const info = fields(shard);
    const nodes = listOf(info.get('nodes'), "a shard's nodes")
      .map(fields)
      .filter((n) => String(n.get('health') ?? 'online') !== 'failed');
    const masterFields = nodes.find((n) => String(n.get('role')) === 'master');
    const slots = listOf(info.get('slots'), "a shard's slots");
    if (!masterFields || slots.length === 0) continue;
    const nodePort = (n: Map<string, Reply>) => portOf(seed.tls && n.has('tls-port') ? n.get('tls-port') : n.get('port'));
    const hostnameOf = (n: Map<string, Reply>) => (n.get('hostname') && !Array.isArray(n.get('hostname')) ? String(n.get('hostname')) : undefined);
    const master = builder.node(
      hostOf(masterFields.get('endpoint') ?? masterFields.get('ip'), seed),
      nodePort(masterFields),
      'master',
      undefined,
      hostnameOf(masterFields),
      masterFields.get('id'),
    );
    for (let i = 0; i + 1 < slots.length; i += 2) builder.slots(slotOf(slots[i]), slotOf(slots[i + 1]), master);
    for (const replica of nodes) {
      if (replica === masterFields || String(replica.get('health') ?? 'online') !== 'online') continue;
      builder.node(hostOf(replica.get('endpoint') ?? replica.get('ip'), seed), nodePort(replica), 'replica', master, hostnameOf(replica), replica.get('id'));
    }
  }
  return builder.topology;
}

export function topologyFromSlots(ranges: Reply, seed: ConnectionOptions, seedId?: string): ClusterTopology {
  const builder = new Builder(seedId);
  for (const range of listOf(ranges, 'CLUSTER SLOTS')) {
    const [first, last, masterInfo, ...replicas] = listOf(range, 'a slot range');
    const masterNode = listOf(masterInfo, "a slot range's master");
    const master = builder.node(hostOf(masterNode[0], seed), portOf(masterNode[1]), 'master', undefined, undefined, masterNode[2]);
    builder.slots(slotOf(first), slotOf(last), master);
    for (const replica of replicas) {
      const node = listOf(replica, 'a replica');
      builder.node(hostOf(node[0], seed), portOf(node[1]), 'replica', master, undefined, node[2]);
    }
  }
  return builder.topology;
}

/** Reads the layout through `redis`, connected to the node `seed` names (marked `seed`: the nodes announce IPs where the target may give a name). */
export async function readTopology(redis: ControlLink, seed: ConnectionOptions): Promise<ClusterTopology> {
  const seedId = await (redis.call('CLUSTER', 'MYID') as Promise<Reply>).then(
    (id) => (id === null ? undefined : String(id)),
    () => undefined,
  );
  let topology: ClusterTopology;
  try {
    topology = topologyFromShards((await redis.call('CLUSTER', 'SHARDS')) as Reply, seed, seedId);
  } catch (error) {
    if (error instanceof LayoutError) throw error;
    // Before 7.0 there is no CLUSTER SHARDS.
    topology = topologyFromSlots((await redis.call('CLUSTER', 'SLOTS')) as Reply, seed, seedId);
  }
  return topology;
}

/**
 * The network gate on a layout: undefined when every node may be contacted, else the refusal listing those
 * that may not. Nothing has been sent to any of them yet.
 */
export function topologyRefusal(topology: ClusterTopology, connection: ConnectionOptions): string | undefined {
  const approved = approvedNodes(connection);
  const what = approved.rule.declared
    ? `the cluster at ${address(connection)} announces`
    : `${address(connection)} says it is a Redis Cluster node (redis_mode:cluster), and announces`;
  return approved.refusal(topology.nodes, what);
}

/**
 * Reads the topology through the seed node, on a control connection `open` makes (a run's: the engine's raw one,
 * so that a cluster run loads no ioredis: ~20 ms of CPU at its start); a clear ClusterTopologyError when the
 * target is no cluster or not all slots are served.
 */
export async function discoverTopology(connection: ConnectionOptions, open: OpenControl): Promise<ClusterTopology> {
  const redis = await open({ ...connection, cluster: false });
  try {
    const topology = await readTopology(redis, connection).catch((error: Error) => {
      if (error instanceof LayoutError)
        throw new ClusterTopologyError(`the cluster at ${address(connection)} gave a layout that cannot be read: ${error.message}`);
      throw new ClusterTopologyError(
        `${address(connection)} is not a Redis Cluster node (${error.message}): turn \`cluster\` off for this target, or point it at a cluster node`,
      );
    });
    // Before any node is contacted: only those the user approved (src/gates/network.ts).
    const refusal = topologyRefusal(topology, connection);
    if (refusal) throw new ClusterTopologyError(refusal);
    const served = topology.slots.reduce((sum, [first, last]) => sum + last - first + 1, 0);
    if (served < 16384) {
      throw new ClusterTopologyError(
        `the cluster at ${address(connection)} serves ${served} of 16384 hash slots: fix the cluster (CLUSTER INFO on its nodes) before loading it`,
      );
    }
    return topology;
  } finally {
    await redis.close();
  }
}

/** `0-5460,10923-10923`: the slot ranges of master `index`. */
export function slotRanges(topology: ClusterTopology, index: number): string {
  return topology.slots
    .filter(([, , master]) => master === index)
    .sort((a, b) => a[0] - b[0])
    .map(([first, last]) => (first === last ? String(first) : `${first}-${last}`))
    .join(',');
}

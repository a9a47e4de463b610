// A cluster's layout, read on the main thread before a load: the masters with their slot ranges and their
// replicas, from CLUSTER SHARDS (Redis 7.0+), else CLUSTER SLOTS. Workers get it as plain data.
import type Redis from 'ioredis';
import { closeControlConnection, openControlConnection } from '../../redis/control';
import { address } from '../../redis/errors';
import type { ConnectionOptions } from '../../redis/types';
import { LoadError } from '../errors';

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

function fields(list: Reply[]): Map<string, Reply> {
  const map = new Map<string, Reply>();
  for (let i = 0; i + 1 < list.length; i += 2) map.set(String(list[i]), list[i + 1]);
  return map;
}

/** A node's announced address; an empty or `?` endpoint means "the address you reached me on". */
function hostOf(endpoint: unknown, seed: ConnectionOptions): string {
  const text = endpoint === undefined || endpoint === null ? '' : String(endpoint);
  return text === '' || text === '?' ? seed.host : text;
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
      index = this.topology.nodes.push({ host, port, role, ...(master !== undefined ? { master } : {}), ...(hostname ? { hostname } : {}), ...(seed ? { seed } : {}) }) - 1;
      this.byAddress.set(key, index);
    }
    return index;
  }
}

/** `seedId`: the node ID of the node `seed` names (CLUSTER MYID), marked `seed` in the layout. */
export function topologyFromShards(shards: Reply[], seed: ConnectionOptions, seedId?: string): ClusterTopology {
  const builder = new Builder(seedId);
  for (const shard of shards as Reply[][]) {
    const info = fields(shard);
    const nodes = ((info.get('nodes') as Reply[][]) ?? []).map(fields).filter((n) => String(n.get('health') ?? 'online') !== 'failed');
    const masterFields = nodes.find((n) => String(n.get('role')) === 'master');
    const slots = (info.get('slots') as Reply[]) ?? [];
    if (!masterFields || slots.length === 0) continue;
    const portOf = (n: Map<string, Reply>) => Number(seed.tls && n.has('tls-port') ? n.get('tls-port') : n.get('port'));
    const hostnameOf = (n: Map<string, Reply>) => (n.get('hostname') ? String(n.get('hostname')) : undefined);
    const master = builder.node(hostOf(masterFields.get('endpoint') ?? masterFields.get('ip'), seed), portOf(masterFields), 'master', undefined, hostnameOf(masterFields), masterFields.get('id'));
    for (let i = 0; i + 1 < slots.length; i += 2) builder.topology.slots.push([Number(slots[i]), Number(slots[i + 1]), master]);
    for (const replica of nodes) {
      if (replica === masterFields || String(replica.get('health') ?? 'online') !== 'online') continue;
      builder.node(hostOf(replica.get('endpoint') ?? replica.get('ip'), seed), portOf(replica), 'replica', master, hostnameOf(replica), replica.get('id'));
    }
  }
  return builder.topology;
}

export function topologyFromSlots(ranges: Reply[], seed: ConnectionOptions, seedId?: string): ClusterTopology {
  const builder = new Builder(seedId);
  for (const range of ranges as Reply[][]) {
    const [first, last, masterInfo, ...replicas] = range as [number, number, Reply[], ...Reply[][]];
    const master = builder.node(hostOf(masterInfo[0], seed), Number(masterInfo[1]), 'master', undefined, undefined, masterInfo[2]);
    builder.topology.slots.push([Number(first), Number(last), master]);
    for (const replica of replicas) builder.node(hostOf(replica[0], seed), Number(replica[1]), 'replica', master, undefined, replica[2]);
  }
  return builder.topology;
}

/** Reads the layout through `redis`, connected to the node `seed` names (marked `seed`: the nodes announce IPs where the target may give a name). */
export async function readTopology(redis: Redis, seed: ConnectionOptions): Promise<ClusterTopology> {
  const seedId = await (redis.call('CLUSTER', 'MYID') as Promise<Reply>).then(
    (id) => (id === null ? undefined : String(id)),
    () => undefined,
  );
  let topology: ClusterTopology;
  try {
    topology = topologyFromShards((await redis.call('CLUSTER', 'SHARDS')) as Reply[], seed, seedId);
  } catch {
    // Before 7.0 there is no CLUSTER SHARDS.
    topology = topologyFromSlots((await redis.call('CLUSTER', 'SLOTS')) as Reply[], seed, seedId);
  }
  return topology;
}

/** Reads the topology through the seed node; a clear LoadError when the target is no cluster or not all slots are served. */
export async function discoverTopology(connection: ConnectionOptions): Promise<ClusterTopology> {
  const redis = await openControlConnection({ ...connection, cluster: false });
  try {
    const topology = await readTopology(redis, connection).catch((error: Error) => {
      throw new LoadError(
        `${address(connection)} is not a Redis Cluster node (${error.message}): turn \`cluster\` off for this target, or point it at a cluster node`,
      );
    });
    const served = topology.slots.reduce((sum, [first, last]) => sum + last - first + 1, 0);
    if (served < 16384) {
      throw new LoadError(`the cluster at ${address(connection)} serves ${served} of 16384 hash slots: fix the cluster (CLUSTER INFO on its nodes) before loading it`);
    }
    return topology;
  } finally {
    await closeControlConnection(redis);
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

// One worker's view of the cluster: which node serves each slot, the nodes it knows (masters, replicas,
// and nodes first met in a redirection), and what each node answered. Shared by the worker's connections.
import { formatAddress, type ApprovedNodes } from '../../gates/network';
import type { ClusterPlan, WorkerClusterReport } from '../workerMessages';
import type { LabelStats, WorkerStats } from '../measure/stats';
import { SLOT_COUNT } from './slot';
import type { ClusterTopology } from '../../redis/clusterTopology';

export interface KnownNode {
  index: number;
  host: string;
  port: number;
  role: 'master' | 'replica';
  /** Announced hostname, when the cluster gives one: the name its TLS certificate is checked against. */
  hostname?: string;
  /** The node the target names: checked under the target's `tls servername`. */
  seed?: true;
  stats: LabelStats;
  moved: number;
  ask: number;
}

/** The slot map as ranges of one master each (ClusterState.masterRanges). */
export interface MasterRanges {
  readonly starts: Int32Array;
  readonly masters: Int32Array;
}

export class ClusterState {
  readonly nodes: KnownNode[] = [];
  /** Slot → index of the master serving it. */
  readonly owner = new Int32Array(SLOT_COUNT);
  /** Counts the changes of `owner` (a new layout, a MOVED): a copy of it kept elsewhere is stale once this moves on. */
  routing = 0;
  /** Master index → its replicas' indexes. */
  private replicas = new Map<number, number[]>();
  private readonly byAddress = new Map<string, number>();
  moved = 0;
  ask = 0;
  /** Indexes of the masters (rebuilt when the nodes change). */
  private masters: number[] = [];
  /** The slot map as ranges of one master each (masterRanges), and the `routing` they were made from. */
  private ranges: MasterRanges = { starts: new Int32Array(0), masters: new Int32Array(0) };
  private rangesOf = -1;
  /** The network gate refused the layout the load began with: the connections refuse to open, with this message. */
  readonly refused: string | undefined;

  constructor(
    readonly plan: ClusterPlan,
    private readonly stats: WorkerStats,
    /** The network gate: every node this worker learns of (layout, MOVED, ASK) passes it before it is known. */
    readonly approved: ApprovedNodes,
    /** Told of a redirection the network gate refused (the load ends with it). */
    private readonly onRefused?: (refusal: string) => void,
  ) {
    this.refused = this.apply(plan.topology);
  }

  /**
   * Takes a freshly read layout: slot owners and replicas replaced, nodes kept (their figures too). A layout
   * naming a node the network gate refuses is not taken: the refusal is returned instead.
   */
  apply(topology: ClusterTopology): string | undefined {
    const refusal = this.approved.refusal(topology.nodes, 'the cluster layout names');
    if (refusal) return refusal;
    this.masters = [];
    const indexes = topology.nodes.map((n) => this.node(n.host, n.port, n.role));
    topology.nodes.forEach((n, i) => {
      if (n.hostname) this.nodes[indexes[i]].hostname = n.hostname;
      if (n.seed) this.nodes[indexes[i]].seed = true;
    });
    this.replicas = new Map();
    topology.nodes.forEach((n, i) => {
      if (n.role !== 'replica' || n.master === undefined) return;
      const master = indexes[n.master];
      this.replicas.set(master, [...(this.replicas.get(master) ?? []), indexes[i]]);
    });
    for (const [first, last, master] of topology.slots) this.owner.fill(indexes[master], first, last + 1);
    this.routing++;
    return undefined;
  }

  /**
   * The slot map as ranges of one master each: range r is slots starts[r] … starts[r + 1] - 1, served by masters[r].
   * Made once per layout for all the thread's connections: a walk of 16,384 owners per connection cost a cluster
   * run ~9 ms of CPU before the JIT took it, and its compiled loop was thrown away at every next connection.
   */
  masterRanges(): MasterRanges {
    if (this.rangesOf === this.routing) return this.ranges;
    const owner = this.owner;
    let count = 1;
    for (let slot = 1; slot < SLOT_COUNT; slot++) if (owner[slot] !== owner[slot - 1]) count++;
    const starts = new Int32Array(count);
    const masters = new Int32Array(count);
    masters[0] = owner[0];
    for (let slot = 1, r = 0; slot < SLOT_COUNT; slot++) {
      if (owner[slot] === owner[slot - 1]) continue;
      starts[++r] = slot;
      masters[r] = owner[slot];
    }
    this.ranges = { starts, masters };
    this.rangesOf = this.routing;
    return this.ranges;
  }

  /** The node at host:port, added (with its own figures) the first time it is met. */
  node(host: string, port: number, role: 'master' | 'replica' = 'master'): number {
    const key = `${host}:${port}`;
    let index = this.byAddress.get(key);
    if (index === undefined) {
      const stats = this.stats.addNode();
      index = this.nodes.push({ index: this.nodes.length, host, port, role, stats, moved: 0, ask: 0 }) - 1;
      this.masters = [];
      this.byAddress.set(key, index);
    } else if (this.nodes[index].role !== role) {
      this.nodes[index].role = role;
      this.masters = [];
    }
    return index;
  }

  /** Where a request for `slot` goes: its master, or for a read with replica reads on, one of its replicas (spread by `spread`). */
  route(slot: number, read: boolean, spread: number): number {
    const master = this.owner[slot];
    if (!read || !this.plan.replicaReads) return master;
    const replicas = this.replicas.get(master);
    return replicas && replicas.length > 0 ? replicas[spread % replicas.length] : master;
  }

  /** Masters, for requests with no key (spread over them by `spread`). */
  anyMaster(spread: number): number {
    const masters = this.masterIndexes();
    return masters.length > 0 ? masters[spread % masters.length] : 0;
  }

  get masterCount(): number {
    return this.masterIndexes().length;
  }

  private masterIndexes(): number[] {
    if (this.masters.length === 0) this.masters = this.nodes.filter((n) => n.role === 'master').map((n) => n.index);
    return this.masters;
  }

  /**
   * A MOVED or ASK reply from node `from`: counted when measured; MOVED also hands the slot to the node named
   * (an empty host means "the address you reached me on": `from`'s). Returns that node, or the network gate's
   * refusal when it may not be contacted (nothing re-routed then; `onRefused` is told).
   */
  redirect(from: number, kind: 'MOVED' | 'ASK', slot: number, host: string, port: number, measured: boolean): number | string {
    host ||= this.nodes[from].host;
    // Every known node passed the gate when it was added, and the rule holds for the whole load: only a
    // node not met before is checked.
    if (!this.byAddress.has(`${host}:${port}`)) {
      const refusal = this.approved.check(
        host,
        port,
        `${kind === 'ASK' ? 'an' : 'a'} ${kind} reply from ${formatAddress(this.nodes[from] ?? { host: '?', port: 0 })} names`,
      );
      if (refusal) {
        this.onRefused?.(refusal);
        return refusal;
      }
    }
    const target = this.node(host, port);
    if (kind === 'MOVED' && this.owner[slot] !== target) {
      this.owner[slot] = target;
      this.routing++;
    }
    if (!measured) return target;
    if (kind === 'MOVED') {
      this.moved++;
      this.nodes[from].moved++;
    } else {
      this.ask++;
      this.nodes[from].ask++;
    }
    this.stats.recordRedirect(kind);
    return target;
  }

  /** Measuring starts: redirections of the warm-up are not the load's. */
  resetCounts(): void {
    this.moved = this.ask = 0;
    for (const node of this.nodes) node.moved = node.ask = 0;
  }

  report(): WorkerClusterReport {
    return {
      // Replicas nothing was sent to (replica reads off) are left out; a master is always shown, even idle.
      nodes: this.nodes
        .filter((n) => n.role === 'master' || n.stats.requests > 0 || n.moved + n.ask > 0)
        .map((n) => ({ node: `${n.host}:${n.port}`, role: n.role, report: n.stats.report(), moved: n.moved, ask: n.ask })),
      moved: this.moved,
      ask: this.ask,
    };
  }
}

/** `MOVED 3999 127.0.0.1:6381` / `ASK …` → slot and address, or undefined for anything else. */
export function parseRedirect(text: string): { kind: 'MOVED' | 'ASK'; slot: number; host: string; port: number } | undefined {
  const match = /^(MOVED|ASK) (\d+) (.*):(\d+)$/.exec(text);
  if (!match) return undefined;
  const host = match[3].startsWith('[') ? match[3].slice(1, -1) : match[3];
  return { kind: match[1] as 'MOVED' | 'ASK', slot: Number(match[2]), host, port: Number(match[4]) };
}

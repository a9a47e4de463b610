// The main thread's side of a cluster load: the layout (reloaded when workers meet MOVED replies) and the
// per-node breakdown joined from every worker's figures.
import type { ConnectionOptions } from '../../redis/types';
import type { LabelReport, WorkerResult } from '../workerMessages';
import type { ClusterResult, CommandResult, NodeResult } from '../types';
import { discoverTopology, slotRanges, type ClusterTopology } from '../../redis/clusterTopology';
import { openRawControl } from '../fast/rawControl';

type Summarize = (name: string, reports: LabelReport[], durationMs: number) => CommandResult;

export class ClusterTracker {
  refreshes = 0;
  private refreshing = false;

  constructor(
    private readonly connection: ConnectionOptions,
    public topology: ClusterTopology,
  ) {}

  /** Reloads the layout (one reload at a time) and hands it to `deliver`; a failed reload keeps the old one. */
  refresh(deliver: (topology: ClusterTopology) => void): void {
    if (this.refreshing) return;
    this.refreshing = true;
    discoverTopology(this.connection, openRawControl).then(
      (topology) => {
        this.refreshing = false;
        this.topology = topology;
        this.refreshes++;
        deliver(topology);
      },
      () => (this.refreshing = false),
    );
  }

  /** Re-reads the layout once the load is over and sets each master's slot ranges from it (kept as they were if that fails). */
  async finalSlots(result: ClusterResult): Promise<void> {
    try {
      this.topology = await discoverTopology(this.connection, openRawControl);
    } catch {
      return;
    }
    const index = new Map<string, number>(this.topology.nodes.map((n, i) => [`${n.host}:${n.port}`, i]));
    for (const node of result.nodes) {
      const i = index.get(node.node);
      if (i === undefined) continue;
      node.role = this.topology.nodes[i].role;
      const slots = node.role === 'master' ? slotRanges(this.topology, i) : '';
      if (slots) node.slots = slots;
      else delete node.slots;
    }
  }

  /** Joins the workers' per-node figures by node; node totals add up to the load's total. */
  result(workers: WorkerResult[], durationMs: number, detected: boolean, summarize: Summarize): ClusterResult {
    const byNode = new Map<string, { role: NodeResult['role']; reports: LabelReport[]; moved: number; ask: number }>();
    let moved = 0;
    let ask = 0;
    for (const worker of workers) {
      if (!worker.cluster) continue;
      moved += worker.cluster.moved;
      ask += worker.cluster.ask;
      for (const node of worker.cluster.nodes) {
        let entry = byNode.get(node.node);
        if (!entry) byNode.set(node.node, (entry = { role: node.role, reports: [], moved: 0, ask: 0 }));
        entry.reports.push(node.report);
        entry.moved += node.moved;
        entry.ask += node.ask;
      }
    }
    const masters = new Map<string, number>(this.topology.nodes.map((n, i) => [`${n.host}:${n.port}`, i]));
    const nodes: NodeResult[] = [...byNode].map(([node, entry]) => {
      const index = masters.get(node);
      const known = index !== undefined ? this.topology.nodes[index] : undefined;
      const role = known?.role ?? entry.role;
      const slots = index !== undefined && role === 'master' ? slotRanges(this.topology, index) : '';
      return {
        node,
        role,
        ...(slots ? { slots } : {}),
        total: summarize(node, entry.reports, durationMs),
        moved: entry.moved,
        ask: entry.ask,
      };
    });
    // Addresses in code-unit order: localeCompare's first call loads ICU's collation, ~7 ms of every cluster run.
    nodes.sort((a, b) => (a.role !== b.role ? (a.role === 'master' ? -1 : 1) : a.node < b.node ? -1 : a.node > b.node ? 1 : 0));
    return { detected, moved, ask, topologyRefreshes: this.refreshes, nodes };
  }
}

// `rbench merge` for cluster loads: each node's figures from every load machine joined exactly — requests
// and errors added, histograms added and read again (never percentiles averaged), redirections added.
import type { ClusterResult, CommandResult, LoadResult, NodeResult } from '../engine';

/** The cluster breakdown of loads run at once on several machines; undefined when none ran on a cluster. */
export function mergeClusterResults(
  loads: readonly LoadResult[],
  mergeTotal: (name: string, results: CommandResult[]) => CommandResult,
): ClusterResult | undefined {
  const results = loads.flatMap((load) =>
    load.cluster ? [{ cluster: load.cluster, end: Date.parse(load.measuredFrom ?? load.startedAt) + load.durationMs }] : [],
  );
  if (results.length === 0) return undefined;
  // Role and slots as the last part to finish saw them: a node's slots are those it served at the end.
  results.sort((a, b) => a.end - b.end);
  const byNode = new Map<string, NodeResult[]>();
  for (const { cluster } of results) {
    for (const node of cluster.nodes) {
      const seen = byNode.get(node.node);
      if (seen) seen.push(node);
      else byNode.set(node.node, [node]);
    }
  }
  const sum = <T>(items: readonly T[], pick: (item: T) => number) => items.reduce((total, item) => total + pick(item), 0);
  const nodes = [...byNode.entries()].map(([name, parts]): NodeResult => {
    const last = parts[parts.length - 1];
    return {
      node: name,
      role: last.role,
      ...(last.slots !== undefined ? { slots: last.slots } : {}),
      total: mergeTotal(
        last.total.command,
        parts.map((part) => part.total),
      ),
      moved: sum(parts, (part) => part.moved),
      ask: sum(parts, (part) => part.ask),
    };
  });
  const clusters = results.map((result) => result.cluster);
  return {
    detected: clusters.some((cluster) => cluster.detected),
    moved: sum(clusters, (cluster) => cluster.moved),
    ask: sum(clusters, (cluster) => cluster.ask),
    topologyRefreshes: sum(clusters, (cluster) => cluster.topologyRefreshes),
    nodes,
  };
}

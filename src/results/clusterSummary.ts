// One line about a cluster run for the CLI and the results panel's header: how many masters and replicas
// carried the load, whether the cluster was detected (not declared), and the redirections followed.
import type { ClusterResult } from '../engine';
import type { RunFile } from './runFile';
import { groupDigits } from '../scenario/numberText';

/** The measured loads' cluster results, in run order. */
export function clusterResults(run: RunFile): ClusterResult[] {
  return run.points.flatMap((point) => point.repeats.flat().flatMap((load) => (load.measured && load.cluster ? [load.cluster] : [])));
}

/** `3 masters, 3 replicas`: the nodes that took load in any measured load, or undefined for a run on one server. */
export function clusterTopology(run: RunFile): string | undefined {
  const results = clusterResults(run);
  if (results.length === 0) return undefined;
  const nodes = new Map<string, 'master' | 'replica'>();
  for (const result of results) for (const node of result.nodes) nodes.set(node.node, node.role);
  const masters = [...nodes.values()].filter((role) => role === 'master').length;
  const replicas = nodes.size - masters;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(masters, 'master')}${replicas ? `, ${plural(replicas, 'replica')}` : ''}`;
}

/** `detected (…) · 3 masters, 3 replicas took load · MOVED 12, ASK 0 · slot map reloaded 1×`, or undefined for a run on one server. */
export function clusterDescription(run: RunFile): string | undefined {
  const results = clusterResults(run);
  const topology = clusterTopology(run);
  if (!topology) return undefined;
  const sum = (pick: (result: ClusterResult) => number) => results.reduce((total, result) => total + pick(result), 0);
  const parts: string[] = [];
  if (results.some((result) => result.detected)) parts.push('detected (the target did not say `cluster on`; INFO cluster did)');
  parts.push(`${topology} took load`);
  parts.push(`MOVED ${groupDigits(sum((r) => r.moved))}, ASK ${groupDigits(sum((r) => r.ask))}`);
  const refreshes = sum((r) => r.topologyRefreshes);
  if (refreshes > 0) parts.push(`slot map reloaded ${refreshes}×`);
  return parts.join(' · ');
}

/** The CLI's line: `cluster: …`. */
export function clusterLine(run: RunFile): string | undefined {
  const description = clusterDescription(run);
  return description && `cluster: ${description}`;
}

// Cluster run files for the display tests: real plans from the resolver, made-up but self-consistent
// measurements — each node's histogram holds its own latencies and the load's total holds them all.
import { LatencyRecorder } from '../../../src/engine/measure/histogram';
import { summarize } from '../../../src/engine/measure/summary';
import type { ClusterResult, CommandResult, LoadResult, TimelineSecond } from '../../../src/engine/types';
import type { RunFile } from '../../../src/results/runFile';
import { loadResult, makeRun } from '../compare/fixtures';

export interface NodeSpec {
  node: string;
  role?: 'master' | 'replica';
  slots?: string;
  /** Latencies in µs and how many replies took each. */
  latencies: [us: number, count: number][];
  errors?: number;
  moved?: number;
  ask?: number;
}

/** A command's result from recorded latencies, over a window of `windowMs`. */
export function measured(command: string, latencies: [number, number][], windowMs: number, errors = 0): CommandResult {
  const recorder = new LatencyRecorder();
  for (const [us, count] of latencies) recorder.record(us, count);
  const { latency, histogram } = summarize(recorder);
  const requests = latencies.reduce((sum, [, count]) => sum + count, 0);
  return {
    command,
    requests,
    errors,
    errorsByKind: errors ? { CLUSTERDOWN: errors } : {},
    errorExamples: errors ? { CLUSTERDOWN: 'CLUSTERDOWN The cluster is down' } : {},
    opsPerSec: (requests * 1000) / windowMs,
    latency,
    histogram,
  };
}

/** A SET load on a cluster: per-node results, the total of them all, a timeline with redirections. */
export function clusterLoad(
  nodes: NodeSpec[],
  options: { detected?: boolean; durationMs?: number; measuredFrom?: string; timeline?: TimelineSecond[]; refreshes?: number } = {},
): LoadResult {
  const durationMs = options.durationMs ?? 2000;
  const load = loadResult('main', 'SET', { ops: 0, p99: 0 });
  const all = nodes.flatMap((node) => node.latencies);
  const errors = nodes.reduce((sum, node) => sum + (node.errors ?? 0), 0);
  load.total = measured('total', all, durationMs, errors);
  load.commands = [{ ...load.total, command: 'SET' }];
  load.durationMs = durationMs;
  load.windowMs = durationMs;
  if (options.measuredFrom) load.measuredFrom = options.measuredFrom;
  load.timeline = options.timeline ?? [];
  const cluster: ClusterResult = {
    detected: options.detected ?? false,
    moved: nodes.reduce((sum, node) => sum + (node.moved ?? 0), 0),
    ask: nodes.reduce((sum, node) => sum + (node.ask ?? 0), 0),
    topologyRefreshes: options.refreshes ?? 0,
    nodes: nodes.map((node) => ({
      node: node.node,
      role: node.role ?? 'master',
      ...(node.slots ? { slots: node.slots } : {}),
      total: measured('total', node.latencies, durationMs, node.errors ?? 0),
      moved: node.moved ?? 0,
      ask: node.ask ?? 0,
    })),
  };
  load.cluster = cluster;
  return load;
}

export const THREE_MASTERS: NodeSpec[] = [
  {
    node: '127.0.0.1:7000',
    slots: '0-5460',
    latencies: [
      [100, 900],
      [2000, 10],
    ],
    moved: 3,
  },
  {
    node: '127.0.0.1:7001',
    slots: '5461-10922',
    latencies: [
      [120, 1000],
      [5000, 1],
    ],
    errors: 2,
  },
  { node: '127.0.0.1:7002', slots: '10923-16383', latencies: [[90, 1100]], ask: 1 },
];

export const CLUSTER_SCENARIO = '### cluster set\ncluster on\nclients 4\nrequests 3011\nSET k:__key__ __value__\n';

export function clusterRun(load: LoadResult = clusterLoad(THREE_MASTERS), more: { id?: string } = {}): RunFile {
  return makeRun({ text: CLUSTER_SCENARIO, results: { '': [[load]] }, ...more });
}

// The result rows with their breakdowns: under each test's total (and a mix's commands), one row per cluster
// node (LoadResult.cluster) and one per load machine of a merged run (LoadResult.parts). The CLI table
// (`--per-node`, `rbench merge`), the exports and the results panel read these rows.
import type { LoadResult } from '../engine';
import { rowFrom, type ResultRow } from './rows';
import type { RunFile } from './runFile';
import { representativeLoad } from './summary';

export interface Breakdown {
  /** A mix's commands under its total (default true). */
  commands?: boolean;
  /** One row per cluster node. */
  nodes?: boolean;
  /** One row per load machine of a merged run. */
  parts?: boolean;
  /** One row per step of a ramp (`ramp clients A..B step S every T`). */
  steps?: boolean;
}

/** Each test's total, then the breakdowns asked for; a cluster load's total row carries its redirections. */
export function breakdownRows(run: RunFile, breakdown: Breakdown = {}): ResultRow[] {
  const rows: ResultRow[] = [];
  for (const point of run.points) {
    for (const summary of point.summary) {
      const load = representativeLoad(point.repeats, summary);
      if (!load) continue;
      const row = (result: LoadResult['total'], isTotal = false) => rowFrom(run, point.label, summary, load, result, isTotal);
      const total = row(load.total, true);
      if (load.cluster) total.redirections = { moved: load.cluster.moved, ask: load.cluster.ask };
      rows.push(total);
      // A client group's commands follow its total, one or several.
      if (breakdown.commands !== false && (load.commands.length > 1 || load.group)) for (const command of load.commands) rows.push(row(command));
      if (breakdown.steps) {
        for (const [i, step] of (load.ramp ?? []).entries()) rows.push({ ...row(stepResult(step, i)), clients: step.clients, detail: 'step' });
      }
      if (breakdown.parts) {
        for (const part of load.parts ?? []) {
          rows.push({ ...row({ ...part.total, command: part.part, histogram: '' }), clients: part.clients, status: part.status, detail: 'part' });
        }
      }
      if (breakdown.nodes) {
        for (const node of load.cluster?.nodes ?? []) {
          rows.push({
            ...row({ ...node.total, command: nodeRowName(node.node) }),
            detail: 'node',
            node: { role: node.role, ...(node.slots ? { slots: node.slots } : {}) },
            redirections: { moved: node.moved, ask: node.ask },
          });
        }
      }
    }
  }
  return rows;
}

/** A node row's `command`: `node 10.0.0.1:6379`. */
export const nodeRowName = (address: string) => `node ${address}`;

/** The figures of the node a row names (`node 10.0.0.1:6379`) in one load. */
export function nodeResult(load: LoadResult, rowName: string): LoadResult['total'] | undefined {
  return load.cluster?.nodes.find((node) => nodeRowName(node.node) === rowName)?.total;
}

type RampStep = NonNullable<LoadResult['ramp']>[number];

/** A ramp's step `index` as a result row's figures: named `step 2: 20 clients` (the same step of another run pairs with it by that name). */
function stepResult(step: RampStep, index: number): LoadResult['total'] {
  return {
    command: `step ${index + 1}: ${step.clients} client${step.clients === 1 ? '' : 's'}`,
    requests: step.replies,
    errors: step.errors,
    errorsByKind: {},
    errorExamples: {},
    opsPerSec: step.opsPerSec,
    latency: step.latency,
    histogram: '',
  };
}

/** The figures of the ramp step a row names (`step 2: 20 clients`) in one load. */
export function stepFigures(load: LoadResult, rowName: string): LoadResult['total'] | undefined {
  return load.ramp?.map(stepResult).find((result) => result.command === rowName);
}

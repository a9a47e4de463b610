// The seeds' headline figures under the CLI table: the server's peak memory and key count, values per
// second for variadic commands, and (when asked) throughput per client. Each says what it measures.
import type { RunFile } from './runFile';
import { formatOps, formatOpsShort } from './format';
import { valuesPerRequest } from './keyLength';
import { clusterLine } from './clusterSummary';
import { primaryLine } from './sentinelPrimaries';

/** Bytes as `8.94 GB` (powers of 1024, as Redis's used_memory_human). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(2)} ${units[unit]}`;
}

export function runHeadlines(run: RunFile, options: { perClient?: boolean; perNode?: boolean } = {}): string[] {
  const lines: string[] = [];
  const cluster = clusterLine(run);
  if (cluster) lines.push(options.perNode ? cluster : `${cluster} (each node's figures: --per-node)`);
  const primary = primaryLine(run);
  if (primary) lines.push(primary);
  const samples = [...run.server.samples, ...(run.server.after ? [run.server.after] : [])];
  if (samples.length > 0) {
    const peak = Math.max(...samples.map((sample) => sample.usedMemory));
    const keys = samples[samples.length - 1].keys;
    lines.push(`server: peak used_memory ${formatBytes(peak)} (sampled every second), ${keys.toLocaleString('en-US')} keys at the end`);
  }
  for (const point of run.points) {
    const planPoint = run.plan.points.find((candidate) => candidate.label === point.label);
    for (const summary of point.summary) {
      const phase = planPoint?.phases.find((candidate) => candidate.name === summary.phase);
      const test = phase?.tests.find((candidate) => candidate.name === summary.test);
      const name = `${point.label ? point.label + ' ' : ''}${summary.test}`;
      const values = valuesPerRequest(test);
      if (values > 1) {
        lines.push(
          `${name}: ${formatOpsShort(summary.opsPerSec.median)} commands/s × ${values} values = ${formatOpsShort(summary.opsPerSec.median * values)} values/s`,
        );
      }
      if (options.perClient && phase) {
        const clients = phase.load.clients;
        lines.push(
          `${name}: ${formatOps(summary.opsPerSec.median / clients)} ops/s per client (${clients} client${clients === 1 ? '' : 's'}, ${formatOps(summary.opsPerSec.median)} ops/s in all)`,
        );
      }
    }
  }
  return lines;
}

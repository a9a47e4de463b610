// The seeds' headline figures under the CLI table: the server's peak memory and key count, values per
// second for variadic commands, and (when asked) throughput per client. Each says what it measures. Then
// each test's bottleneck verdict, and the run's end line.
import type { LoadResult } from '../engine';
import type { RunFile } from './runFile';
import { bottleneckOf, longestStall, NOTABLE_STALL_MS } from './bottleneck';
import { formatDuration, formatOps, formatOpsShort } from './format';
import { representativeLoad } from './summary';
import { savedAtLine, savedNote, statusWords } from './verdict';
import { valuesPerRequest } from './keyLength';
import { clusterLine } from './clusterSummary';
import { primaryLine } from './sentinelPrimaries';
import { groupDigits } from '../scenario/numberText';

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
    lines.push(`server: peak used_memory ${formatBytes(peak)} (sampled every second), ${groupDigits(keys)} keys at the end`);
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

/** `GET bottleneck: round-trip — p50 410 µs at the client, …` per test; a `mixed` verdict lists its kinds below it. */
export function bottleneckLines(run: RunFile): string[] {
  const lines: string[] = [];
  for (const point of run.points) {
    for (const summary of point.summary) {
      const load = representativeLoad(point.repeats, summary);
      if (!load) continue;
      const verdict = load.bottleneck ?? bottleneckOf(load);
      const name = `${point.label ? point.label + ' ' : ''}${summary.test}`;
      if (verdict.parts) {
        lines.push(`${name} bottleneck: ${verdict.kind}`, ...verdict.parts.map((part) => `  - ${part.kind} — ${part.why}`));
      } else {
        lines.push(`${name} bottleneck: ${verdict.kind} — ${verdict.why}`);
      }
    }
  }
  return lines;
}

/** The longest stall of any measured load, when it passes NOTABLE_STALL_MS: such a run never reads as a clean complete. */
export function notableStallMs(run: Pick<RunFile, 'points'>): number | undefined {
  const loads: LoadResult[] = run.points.flatMap((point) => point.repeats.flat());
  const longest = Math.max(0, ...loads.map((load) => longestStall(load)).map((stall) => (stall ? stall.toMs - stall.fromMs : 0)));
  return longest > NOTABLE_STALL_MS ? longest : undefined;
}

/**
 * The CLI's last line of a run: where it was saved (`Run saved: … (12s)`), and how it ended when a stall
 * longer than a second makes it more than a clean complete (`Run complete, with a 2.0 s stall, results saved: …`).
 * Undefined when there is nothing to say (not saved, no stall).
 */
export function runEndLine(run: Pick<RunFile, 'status' | 'points' | 'durationMs'>, path: string | undefined): string | undefined {
  const stallMs = notableStallMs(run);
  if (stallMs === undefined) return path ? savedAtLine(run, path) : undefined;
  const ended = `Run ${statusWords(run)}, with a ${(stallMs / 1000).toFixed(1)} s stall`;
  return path ? `${ended}, ${savedNote(run)}: ${path}  (${formatDuration(run.durationMs)})` : ended;
}

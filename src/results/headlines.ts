// The seeds' headline figures under the CLI table: the server's peak memory and key count, values per
// second for variadic commands, and (when asked) throughput per client. Each says what it measures. Then
// each test's bottleneck verdict, and the run's end line.
import { replyCountLines } from './replyCounts';
import type { Bottleneck, LoadResult } from '../engine';
import type { RunFile } from './runFile';
import type { ServerSample } from '../redis/types';
import { bottleneckOf, longestStall, NOTABLE_STALL_MS } from './bottleneck';
import { formatDuration, formatOps, formatOpsShort } from './format';
import { representativeLoad } from './summary';
import { savedAtLine, savedNote, statusWords } from './verdict';
import { valuesPerRequest } from './keyLength';
import { clusterLine } from './clusterSummary';
import { consumerLines } from './consumerLines';
import { primaryLine } from './sentinelPrimaries';
import { formatBytes, groupDigits } from '../scenario/numberText';

/** `valuesLines: false`: no `values/s` line per test (the brief lines carry values/s on the test's own line). */
/** `server: peak used_memory 2.9 MiB (sampled every second), 4 keys at the end` from a stretch of samples. */
function memoryLine(who: string, samples: readonly ServerSample[]): string {
  const peak = Math.max(...samples.map((sample) => sample.usedMemory));
  return `${who}: peak used_memory ${formatBytes(peak)} (sampled every second), ${groupDigits(samples[samples.length - 1].keys)} keys at the end`;
}

/**
 * The server's peak memory and keys; a `sweep server` run, whose points each ran on a server of their own,
 * gets a line per point: a point's samples are those after the previous point's last load ended (its own
 * prefill included) up to its own last load's end.
 */
function serverMemoryLines(run: RunFile): string[] {
  const samples = [...run.server.samples, ...(run.server.after ? [run.server.after] : [])];
  if (samples.length === 0) return [];
  if (!run.points.some((point) => point.server) || run.points.length < 2) return [memoryLine('server', samples)];
  const started = Date.parse(run.startedAt);
  const ends = run.points.map((point) => Math.max(...point.repeats.flat().map((load) => Date.parse(load.startedAt) + load.durationMs - started)));
  return run.points.flatMap((point, i) => {
    const last = i === run.points.length - 1;
    const own = run.server.samples.filter((sample) => (i === 0 || sample.t > ends[i - 1]) && (last || sample.t <= ends[i]));
    return own.length > 0 ? [memoryLine(`server ${point.label}`, own)] : [];
  });
}

export function runHeadlines(run: RunFile, options: { perClient?: boolean; perNode?: boolean; valuesLines?: boolean } = {}): string[] {
  const lines: string[] = [];
  const cluster = clusterLine(run);
  if (cluster) lines.push(options.perNode ? cluster : `${cluster} (each node's figures: --per-node)`);
  const primary = primaryLine(run);
  if (primary) lines.push(primary);
  lines.push(...serverMemoryLines(run));
  lines.push(...consumerLines(run));
  for (const point of run.points) {
    const planPoint = run.plan.points.find((candidate) => candidate.label === point.label);
    for (const summary of point.summary) {
      const phase = planPoint?.phases.find((candidate) => candidate.name === summary.phase);
      const test = phase?.tests.find((candidate) => candidate.name === summary.test);
      const name = `${point.label ? point.label + ' ' : ''}${summary.test}`;
      const values = valuesPerRequest(test);
      if (values > 1 && options.valuesLines !== false) {
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
  lines.push(...replyCountLines(run));
  return lines;
}

/**
 * `GET bottleneck: round-trip — p50 410 µs at the client, …`; tests whose verdicts read the same are named
 * together on one line (`PING_INLINE, PING_MBULK, SET bottleneck: …`): a suite of twenty tests held to the same
 * limit says so once. A `mixed` verdict lists its kinds below it.
 */
export function bottleneckLines(run: RunFile): string[] {
  const groups = new Map<string, { names: string[]; verdict: Bottleneck }>();
  for (const point of run.points) {
    for (const summary of point.summary) {
      const load = representativeLoad(point.repeats, summary);
      if (!load) continue;
      const verdict = load.bottleneck ?? bottleneckOf(load);
      const name = `${point.label ? point.label + ' ' : ''}${summary.test}`;
      const key = JSON.stringify([verdict.kind, verdict.why, verdict.parts ?? []]);
      const group = groups.get(key);
      if (group) group.names.push(name);
      else groups.set(key, { names: [name], verdict });
    }
  }
  return [...groups.values()].flatMap(({ names, verdict }) => {
    const who = names.join(', ');
    return verdict.parts
      ? [`${who} bottleneck: ${verdict.kind}`, ...verdict.parts.map((part) => `  - ${part.kind} — ${part.why}`)]
      : [`${who} bottleneck: ${verdict.kind} — ${verdict.why}`];
  });
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

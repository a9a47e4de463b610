// One scenario on several targets (`rbench run FILE --url A --url B`, the editor's "Run on Several Targets…"):
// each target has its own RunSession (its own consent, as a single target's run), the same server named
// twice is refused (the same host:port or profile before any contact, the same INFO run_id after consent),
// the targets run one after another — with `repeat N`, each repeat in turn on every target (A B A B…) so
// that drift over time hits them all — and the runs are compared (results/compare.ts).
import { dirname, join, resolve } from 'node:path';
import { FileGateError, writeFileSafely } from '../gates/files';
import { withNetworkRule } from '../gates/network';
import { ownValue } from '../gates/plainData';
import { parseRedisUrl, redactUrl } from '../protocol/redisUrl';
import { closeControlConnection, openControlConnection } from '../redis/control';
import { parseInfo } from '../redis/info';
import type { ConnectionProfile } from '../redis/types';
import { compareRuns, type Comparison, type CompareOptions } from '../results/compare';
import { comparisonToMarkdown } from '../results/compareFormat';
import { RUN_FILE_SUFFIX, runFileName, type PointResult, type RunFile } from '../results/runFile';
import { summariseRepeats } from '../results/summary';
import { endsParts, joinParts } from './joinParts';
import { countLoads, type LoadPosition } from './runScenario';
import type { FinishedRun, NotRun, PreparedRun, RunSession, SessionOutcome } from './session';
import { parseActiveTarget } from './targets';

/** A scenario prepared (checked, consented) for one of the targets. */
export interface TargetRun {
  /** The target as the user named it (`redis://10.0.0.5:6379`, a profile's name, `local`). */
  label: string;
  session: RunSession;
  prepared: PreparedRun;
}

/** Where a named target points, for telling two names of one server apart before any contact; undefined for `local`. */
function placeOf(value: string, profiles: Record<string, ConnectionProfile>): string | undefined {
  const active = parseActiveTarget(value, profiles);
  if (active.kind === 'local' || active.kind === 'invalid') return undefined;
  const url = active.kind === 'profile' ? ownValue(profiles, active.name)?.url : active.url;
  if (url === undefined) return undefined;
  const parsed = parseRedisUrl(url);
  if (typeof parsed === 'string') return undefined;
  if (parsed.path) return `unix:${parsed.path}`;
  if (parsed.sentinel) return `sentinel:${parsed.sentinel.nodes.map((node) => `${node.host.toLowerCase()}:${node.port}`).join(',')}/${parsed.sentinel.name}`;
  return `${parsed.host.toLowerCase()}:${parsed.port}`;
}

/** Two targets that name the same server (host:port, socket, or through a profile): refused before anything runs. */
export function sameTargetRefusal(values: readonly string[], profiles: Record<string, ConnectionProfile>, flag = '--url'): string | undefined {
  const seen = new Map<string, string>();
  for (const value of values) {
    const place = placeOf(value, profiles);
    if (place === undefined) continue;
    const earlier = seen.get(place);
    if (earlier !== undefined)
      return `${flag} ${redactUrl(earlier)} and ${flag} ${redactUrl(value)} are the same server (${place}): comparing a server with itself measures nothing — name each target once`;
    seen.set(place, value);
  }
  return undefined;
}

/** The server's INFO run_id, or undefined when it cannot be read (the run itself will say why). */
async function runIdOf(target: TargetRun): Promise<{ runId: string; display: string } | undefined> {
  if (target.prepared.choice.local) return undefined;
  const connection = target.session.connectionOf(target.prepared);
  if (!connection.options) return undefined;
  try {
    const control = await openControlConnection(withNetworkRule(connection.options));
    try {
      const runId = parseInfo(await control.info('server')).server?.run_id;
      return runId ? { runId, display: connection.display } : undefined;
    } finally {
      await closeControlConnection(control);
    }
  } catch {
    return undefined;
  }
}

/**
 * Two targets that reached the same server by different names (`localhost` and `127.0.0.1`, a DNS alias):
 * the same INFO run_id. Asked after consent, before any load.
 */
export async function sameServerRefusal(targets: readonly TargetRun[]): Promise<string | undefined> {
  const seen = new Map<string, TargetRun>();
  for (const target of targets) {
    const id = await runIdOf(target);
    if (!id) continue;
    const earlier = seen.get(id.runId);
    if (earlier)
      return `${redactUrl(earlier.label)} and ${redactUrl(target.label)} are the same server (the same run_id ${id.runId} in INFO): comparing a server with itself measures nothing — name each target once`;
    seen.set(id.runId, target);
  }
  return undefined;
}

/** With `repeat N` on several targets each repeat runs on every target in turn (A B A B…), so that drift hits all of them. */
export function interleaves(targets: readonly TargetRun[]): boolean {
  const plan = targets[0]?.prepared.plan;
  return targets.length > 1 && plan !== undefined && plan.repeat > 1 && !plan.rateSearch;
}

/**
 * Runs the scenario on each target and saves each target's run: one after another, or with repeats
 * interleaved (each a one-repeat run, joined per target into a run of the whole plan).
 */
export async function runOnTargets(targets: readonly TargetRun[], signal?: AbortSignal): Promise<SessionOutcome[]> {
  if (!interleaves(targets)) {
    const outcomes: SessionOutcome[] = [];
    for (const target of targets) {
      if (signal?.aborted) break;
      outcomes.push(await target.session.execute(target.prepared, signal));
    }
    return outcomes;
  }
  const repeats = targets[0].prepared.plan.repeat;
  const parts: RunFile[][] = targets.map(() => []);
  const refused: (NotRun | undefined)[] = targets.map(() => undefined);
  for (let repeat = 0; repeat < repeats && !signal?.aborted; repeat++) {
    for (const [index, target] of targets.entries()) {
      if (signal?.aborted) break;
      const last = parts[index][parts[index].length - 1];
      if (refused[index] || (last && endsParts(last.status))) continue;
      const once = { ...target.prepared, plan: { ...target.prepared.plan, repeat: 1 } };
      const perRepeat = countLoads(once.plan);
      const place = (at: LoadPosition): LoadPosition => ({ ...at, repeat, index: at.index + repeat * perRepeat, total: perRepeat * repeats });
      const outcome = await target.session.measure(once, signal, place);
      if ('kind' in outcome) refused[index] = outcome;
      else parts[index].push(outcome);
    }
  }
  return targets.map((target, index): SessionOutcome => {
    const measured = parts[index];
    if (measured.length === 0) return refused[index] ?? { kind: 'not-run', reason: 'error', message: 'cancelled before it ran', file: target.prepared.file };
    const run = joinRepeats(measured);
    if (refused[index] && run.status !== 'failed') {
      run.status = 'failed';
      run.error = refused[index].message;
    }
    return target.session.save(target.prepared, run);
  });
}

/** One-repeat runs of one plan as one run with those repeats, in the order they ran. */
export function joinRepeats(parts: readonly RunFile[]): RunFile {
  const plan = { ...parts[0].plan, repeat: parts.length };
  const points: PointResult[] = parts[0].points.map((point) => {
    const repeats = parts.flatMap((part) => part.points.find((other) => other.label === point.label)?.repeats ?? []);
    return { ...point, repeats, summary: summariseRepeats(repeats) };
  });
  return joinParts(plan, parts, points);
}

/** The finished runs compared, the first target the reference, each column named by its target; undefined with fewer than two. */
export function compareTargets(
  targets: readonly TargetRun[],
  outcomes: readonly SessionOutcome[],
  options: Pick<CompareOptions, 'noisePercent'> = {},
): { comparison: Comparison; runs: FinishedRun[] } | undefined {
  const runs: FinishedRun[] = [];
  const labels: string[] = [];
  outcomes.forEach((outcome, index) => {
    if (outcome.kind !== 'finished') return;
    runs.push(outcome);
    labels.push(redactUrl(targets[index].label));
  });
  if (runs.length < 2) return undefined;
  return {
    comparison: compareRuns(
      runs.map((outcome) => outcome.run),
      { ...options, labels },
    ),
    runs,
  };
}

/**
 * The comparison as Markdown beside the first run's file (`….comparison.md`), written inside the same folder
 * as the run files; the path, or why it could not be written.
 */
export function saveComparison(comparison: Comparison, firstRun: FinishedRun, root?: string): { path: string } | { saveError: string } {
  if (!firstRun.path) return { saveError: 'the comparison was not saved: the first run file was not written' };
  const shown = join(dirname(firstRun.path), runFileName(firstRun.run).replace(RUN_FILE_SUFFIX, '.comparison.md'));
  try {
    writeFileSafely(resolve(shown), comparisonToMarkdown(comparison), { root: root ?? resolve(dirname(firstRun.path)) });
    return { path: shown };
  } catch (error) {
    if (!(error instanceof FileGateError)) throw error;
    return { saveError: `the comparison could not be saved in ${dirname(firstRun.path)}: ${error.message}` };
  }
}

// `sweep server …`: each point runs on a throwaway redis-server of its own, started with the scenario's
// `server` lines and the point's directives (the point's win). Consecutive points with the same directives
// (a server sweep crossed with another sweep) share one server. The parts' run files are joined into one
// run of the whole plan: one result table and chart, each point naming its server and the directives
// CONFIG GET read back. RunSession starts the servers (session.ts); this file orders and joins.
import { dictionary } from '../gates/plainData';
import type { PointPlan, ScenarioPlan, ServerDirective } from '../scenario/plan';
import type { PointResult, RunFile } from '../results/runFile';
import { endsParts, joinParts } from './joinParts';
import { countLoads, type LoadPosition, type RunProgress } from './runScenario';

/** True when the plan's points each ask for a throwaway server of their own. */
export function isServerSweep(plan: ScenarioPlan): boolean {
  return plan.points.some((point) => point.server !== undefined);
}

/** Why a server sweep cannot run on this target: it would reconfigure a server that is not RBench's own. */
export function serverSweepRefusal(plan: ScenarioPlan, local: boolean, target: string): string | undefined {
  if (local || !isServerSweep(plan)) return undefined;
  return `"${plan.name}" has \`sweep server\`, which starts a throwaway redis-server for each point; it is not run on ${target}, as that would reconfigure a server of yours — run it without --url (or pick the target "local")`;
}

/** The redis.conf lines of a point's server: the scenario's, less the directives the point sets, then the point's. */
export function pointServerConfig(base: readonly ServerDirective[], point: PointPlan): ServerDirective[] {
  if (!point.server) return [...base];
  const own = new Set(point.server.map((directive) => directive.name));
  return [...base.filter((directive) => !own.has(directive.name)), ...point.server];
}

/** The points in runs of the same server directives, in plan order. */
export function serverGroups(plan: ScenarioPlan): { config: ServerDirective[]; points: PointPlan[] }[] {
  const groups: { key: string; config: ServerDirective[]; points: PointPlan[] }[] = [];
  for (const point of plan.points) {
    const config = pointServerConfig(plan.server, point);
    const key = JSON.stringify(config);
    const last = groups[groups.length - 1];
    if (last && last.key === key) last.points.push(point);
    else groups.push({ key, config, points: [point] });
  }
  return groups.map(({ config, points }) => ({ config, points }));
}

/** One part of the sweep: the plan narrowed to one server's points. */
export interface ServerPart {
  plan: ScenarioPlan;
  /** The directives CONFIG GET should read back. */
  configKeys: string[];
  first: boolean;
  /** Progress with the load's place among all the sweep's loads. */
  onProgress: (event: RunProgress) => void;
}

/**
 * A part that could not start: the message says why. `connection: false` when the scenario itself was at
 * fault (a command the server does not know), so the CLI exits as for a scenario error.
 */
export type PartOutcome = RunFile | { failed: string; connection?: boolean };

/**
 * Runs each server's part one after another (`runPart` starts the server, runs, stops it) and joins them.
 * A part that fails to start ends the sweep with what the earlier parts measured; a first part that fails
 * to start is the whole run's failure (returned as is).
 */
export async function runServerSweep(
  plan: ScenarioPlan,
  runPart: (part: ServerPart) => Promise<PartOutcome>,
  onProgress: (event: RunProgress) => void = () => undefined,
): Promise<PartOutcome> {
  const groups = serverGroups(plan);
  const total = countLoads(plan);
  const parts: RunFile[] = [];
  let offset = 0;
  let failure: string | undefined;
  for (const [index, group] of groups.entries()) {
    const partPlan: ScenarioPlan = { ...plan, server: group.config, points: group.points };
    const shift = offset;
    const place = (at: LoadPosition): LoadPosition => ({ ...at, index: at.index + shift, total });
    const outcome = await runPart({
      plan: partPlan,
      configKeys: [...new Set(group.points.flatMap((point) => (point.server ?? []).map((directive) => directive.name)))],
      first: index === 0,
      onProgress: (event) => onProgress(event.kind === 'server-sample' ? event : { ...event, at: place(event.at) }),
    });
    if ('failed' in outcome) {
      if (parts.length === 0) return outcome;
      failure = outcome.failed;
      break;
    }
    parts.push(outcome);
    offset += countLoads(partPlan);
    if (endsParts(outcome.status)) break;
  }
  const run = joinServerParts(plan, parts);
  if (failure) {
    run.status = 'failed';
    run.error = failure;
  }
  return run;
}

/** The parts' run files as one run of the whole plan, each point naming its server and the swept directives' values. */
export function joinServerParts(plan: ScenarioPlan, parts: readonly RunFile[]): RunFile {
  const swept = new Set(plan.points.flatMap((point) => (point.server ?? []).map((directive) => directive.name)));
  const points: PointResult[] = [];
  for (const part of parts) {
    const facts = part.target.server;
    for (const point of part.points) {
      const config = dictionary<string>();
      for (const name of swept) if (facts && Object.hasOwn(facts.config, name)) config[name] = facts.config[name];
      points.push({ ...point, server: { display: part.target.display, ...(facts ? { version: facts.version } : {}), config } });
    }
  }
  const run = joinParts(plan, parts, points);
  // The run-wide facts are the first server's; a swept directive differs by point, so it is named there only.
  const facts = run.target.server && { ...run.target.server, config: withoutKeys(run.target.server.config, swept) };
  run.target = { ...run.target, display: 'a throwaway redis-server per point', ...(facts ? { server: facts } : {}) };
  return run;
}

function withoutKeys(config: Record<string, string>, keys: ReadonlySet<string>): Record<string, string> {
  const copy = dictionary<string>();
  for (const [key, value] of Object.entries(config)) if (!keys.has(key)) copy[key] = value;
  return copy;
}

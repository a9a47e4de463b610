// The target's own command table, read when a run has connected and before any load: every command the
// scenario sends must be one the server knows (a module's command included), with a fitting arity; the
// safety classes, the refusals and the cluster key positions follow the server's own description. What the
// user was asked about (the consent, from the built-in table, where an unknown command counted as the worst)
// must cover what the server says: a class it did not list ends the run.
import type { ControlLink } from '../redis/controlLink';
import { openRawControl } from '../engine';
import { parseInfo } from '../redis/info';
import { sentinelAsDataNode } from '../redis/sentinel';
import { readCommandTable } from '../redis/commandTable';
import type { ConnectionOptions } from '../redis/types';
import { crossSlotRefusal } from '../scenario/clusterKeys';
import { arityProblem } from '../scenario/commandCheck';
import { keyPositions, type CommandClass } from '../scenario/commands';
import { BUILT_IN_TABLE, type CommandTable } from '../scenario/commandTable';
import type { CommandTemplate, ScenarioPlan } from '../scenario/plan';
import { CLASS_WORDS, commandsOf, runRefusal, scenarioActions, type RefusalOptions } from './safety';

export interface ServerCheck {
  /** Where the scenario is, for `file:line` in messages. */
  file: string;
  connection: ConnectionOptions;
  /** The target as shown: `redis://10.0.0.5:6379`, `throwaway redis-server`. */
  display: string;
  refusal: RefusalOptions;
  /** The classes the consent question listed; absent when no question was asked (the throwaway server, a read on your own target). */
  consented?: ReadonlySet<CommandClass>;
  log(line: string): void;
}

export type ServerCheckResult = { ok: true; plan: ScenarioPlan; table: CommandTable } | { ok: false; message: string };

/** `file:line` of a command. */
function placeOf(file: string, command: CommandTemplate): string {
  return command.source ? `${file}:${command.source.start.line + 1}` : file;
}

/** The plan with each command's key positions as `table` reads them (the engine routes a cluster's requests by them). */
export function withKeyPositions(plan: ScenarioPlan, table: CommandTable): ScenarioPlan {
  return {
    ...plan,
    points: plan.points.map((point) => ({
      ...point,
      phases: point.phases.map((phase) => ({
        ...phase,
        tests: phase.tests.map((test) => ({
          ...test,
          commands: test.commands.map((weighted) => {
            const keys = keyPositions(weighted.command.name, weighted.command.args, table);
            return keys ? { ...weighted, command: { ...weighted.command, keys } } : weighted;
          }),
        })),
      })),
    })),
  };
}

/** Reads the server's table of the scenario's commands and checks the scenario against it. Never throws. */
/** `INFO server`'s redis_mode (`standalone`, `cluster`, `sentinel`); empty when the server will not say. */
async function serverMode(redis: ControlLink): Promise<string> {
  try {
    return parseInfo(String(await redis.call('INFO', 'server'))).server?.redis_mode ?? '';
  } catch {
    return '';
  }
}

export async function checkAgainstServer(plan: ScenarioPlan, check: ServerCheck): Promise<ServerCheckResult> {
  const commands = commandsOf(plan);
  const names = [...new Set(commands.map((command) => command.name.toLowerCase()))];
  let table: CommandTable = BUILT_IN_TABLE;
  try {
    const redis = await openRawControl(check.connection);
    try {
      // A sentinel's table holds the sentinel's own commands only: say what the target is, not that it lacks SET.
      const sentinel = sentinelAsDataNode(check.connection, await serverMode(redis));
      if (sentinel) return { ok: false, message: `${check.file}: "${plan.name}": ${sentinel}` };
      const read = await readCommandTable(redis, { names, display: check.display });
      if (read.ok) table = read.table;
      else check.log(`! ${check.file}: "${plan.name}": ${read.warning}`);
    } finally {
      await redis.close();
    }
  } catch (error) {
    // The run's own connection reports a server that cannot be reached; here it only means no table.
    check.log(
      `! ${check.file}: "${plan.name}": could not read the command table of ${check.display} (${(error as Error).message}): checking commands against the built-in table instead`,
    );
  }
  const seen = new Set<string>();
  for (const command of commands) {
    const place = placeOf(check.file, command);
    if (seen.has(`${place} ${command.name}`)) continue;
    seen.add(`${place} ${command.name}`);
    if (table.source === 'server' && !table.spec(command.name)) {
      return {
        ok: false,
        message: `${place}: ${check.display} does not know the command ${command.name}: load the module that provides it (\`rbench run --module PATH\` loads one into the throwaway server), or run against a server that has it`,
      };
    }
    const arity = table.source === 'server' ? arityProblem(command, table) : undefined;
    if (arity) return { ok: false, message: `${place}: ${arity} (by the command table of ${check.display})` };
  }
  const actions = scenarioActions(plan, table);
  const refusal = runRefusal(plan, actions, check.refusal);
  if (refusal) return { ok: false, message: `${check.file}: ${refusal}` };
  if (check.consented) {
    const missing = [...actions.classes].filter((kind) => kind !== 'blocking' && kind !== 'read' && !check.consented!.has(kind));
    if (missing.length > 0) {
      const what = missing.map((kind) => `${CLASS_WORDS[kind]} (${actions.examples[kind]})`).join(', ');
      return {
        ok: false,
        message: `${check.file}: "${plan.name}": ${check.display}'s command table says the scenario also ${what}, which the question you answered did not list: nothing was sent; the run stops here`,
      };
    }
  }
  const keyed = withKeyPositions(plan, table);
  // A module's multi-key command keeps its keys in one slot too, now that the server said where they are.
  const crossSlot = check.connection.cluster && table.source === 'server' ? crossSlotRefusal(keyed, `the target ${check.display}`) : undefined;
  if (crossSlot) return { ok: false, message: `${check.file}: ${crossSlot}` };
  return { ok: true, plan: keyed, table };
}

// A replay file's commands as the engine's one test "replay": each command a literal template (its keys
// moved into `--prefix`'s namespace where the command table's key specs say they are), in the recorded order
// or shuffled by a seed, run in sequence (TestPlan.sequence: N requests send each command once). The
// commands are then what any scenario's are: the effects gate (runner/safety.ts) classes them, and
// `replayBlame` names the first line that makes a run refused.
import { classifyCommand, isContainer, keyPositions, literalOf } from '../scenario/commands';
import { BUILT_IN_TABLE } from '../scenario/commandTable';
import type { ClientGroupPlan, CommandTemplate, PhasePlan, ScenarioPlan, TestPlan } from '../scenario/plan';
import { runRefusal, scenarioActions, type RefusalOptions } from '../runner/safety';
import type { ReplayCommand } from './replayFile';

export const REPLAY_TEST = 'replay';

export interface ReplayPlanOptions {
  order: 'recorded' | 'shuffled';
  /** `--timing recorded`: the captured gaps between commands (MONITOR times) go with the test. */
  timing?: boolean;
  /** Every key rewritten `prefix` + key. */
  prefix?: string;
  /** The shuffle's seed. */
  seed: number;
}

export class ReplayPlanError extends Error {}

/** A command's template: name upper-cased, arguments literal, keys prefixed; `source` is its line (0-based, as plans count). */
export function replayTemplate(command: ReplayCommand, prefix: string | undefined, shown: string): CommandTemplate {
  const [word, ...rest] = command.args;
  const name = word.toUpperCase();
  const args = rest.map((arg) => [arg]);
  if (prefix !== undefined) {
    const keys = keyPositions(name, args);
    if (keys === undefined)
      throw new ReplayPlanError(
        `${shown}:${command.line}: --prefix cannot tell which arguments of ${name} are keys (the command table does not say) — remove the line, or replay without --prefix`,
      );
    for (const at of keys) args[at] = [prefix + rest[at]];
  }
  const label = isContainer(name) && literalOf(args[0]) !== undefined ? `${name} ${literalOf(args[0])!.toUpperCase()}` : name;
  const position = { line: command.line - 1, character: 0 };
  return { name, label, args, source: { start: position, end: position } };
}

/** Fisher–Yates with a small seeded generator (mulberry32): the same seed, the same order. */
function shuffled<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The one test of a replay: every command, in sequence. */
export function replayTest(commands: readonly ReplayCommand[], options: ReplayPlanOptions, shown: string): TestPlan {
  const templates = commands.map((command) => replayTemplate(command, options.prefix, shown));
  const ordered = options.order === 'shuffled' ? shuffled(templates, options.seed) : templates;
  const test: TestPlan = { name: REPLAY_TEST, commands: ordered.map((command) => ({ weight: 1, command })), sequence: true };
  if (options.timing) test.gapsMs = recordedGaps(commands, shown);
  return test;
}

/** The ms from each command to the next as MONITOR stamped them; after the last (the file wrapping around), their mean. */
function recordedGaps(commands: readonly ReplayCommand[], shown: string): number[] {
  const gaps: number[] = [];
  for (let j = 0; j + 1 < commands.length; j++) {
    const [time, next] = [commands[j].time, commands[j + 1].time];
    if (time === undefined || next === undefined)
      throw new ReplayPlanError(`${shown}: --timing recorded needs a MONITOR output (its lines carry the times): replay closed loop, or at a --rate N/s`);
    gaps.push(Math.max(0, (next - time) * 1000));
  }
  if (commands.length > 0 && commands[0].time === undefined)
    throw new ReplayPlanError(`${shown}: --timing recorded needs a MONITOR output (its lines carry the times): replay closed loop, or at a --rate N/s`);
  gaps.push(gaps.length > 0 ? gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length : 0);
  return gaps;
}

/** Commands a second over the recorded span (at least 1): the open-loop rate a `--timing recorded` load is planned at. */
export function recordedRate(commands: readonly ReplayCommand[]): number {
  const times = commands.map((command) => command.time ?? 0);
  const span = Math.max(...times) - Math.min(...times);
  return Math.max(1, Math.ceil(span > 0 ? commands.length / span : commands.length));
}

/** Connections `--per-connection recorded` opens at most: each is a client group, a load of its own. */
export const REPLAY_MAX_CONNECTIONS = 32;

/** A recorded client's commands, in its order: one connection of `--per-connection recorded`. */
export interface ReplayConnection {
  source: string;
  test: TestPlan;
}

/** The file's commands by the client MONITOR names (`127.0.0.1:5000`), each client's in its order. */
export function replayConnections(commands: readonly ReplayCommand[], prefix: string | undefined, shown: string, timing = false): ReplayConnection[] {
  const bySource = new Map<string, ReplayCommand[]>();
  for (const command of commands) {
    if (command.source === undefined)
      throw new ReplayPlanError(
        `${shown}: --per-connection recorded needs a MONITOR output (it names each command's client): spread a command file over --clients N`,
      );
    const list = bySource.get(command.source) ?? [];
    list.push(command);
    bySource.set(command.source, list);
  }
  if (bySource.size > REPLAY_MAX_CONNECTIONS)
    throw new ReplayPlanError(
      `${shown}: ${bySource.size} recorded clients, more than the ${REPLAY_MAX_CONNECTIONS} connections --per-connection recorded opens (each is a load of its own) — spread the commands over --clients N`,
    );
  return [...bySource].map(([source, list]) => ({
    source,
    test: { ...replayTest(list, { order: 'recorded', prefix, seed: 1, timing }, shown), name: `${REPLAY_TEST} ${source}` },
  }));
}

/**
 * `plan` with a client group per recorded connection: one client each, its commands in its order, sent `repeat`
 * times; an open-loop `rate` shared by their counts. The groups start together and run at the same time.
 */
export function withReplayConnections(plan: ScenarioPlan, connections: readonly ReplayConnection[], repeat: number): ScenarioPlan {
  const total = connections.reduce((sum, c) => sum + c.test.commands.length, 0);
  const phase = (p: PhasePlan): PhasePlan => {
    const groups: ClientGroupPlan[] = connections.map(({ test }) => {
      const count = test.commands.length;
      const load = { ...p.load, clients: 1, requests: count * repeat, ...(p.load.rate ? { rate: (p.load.rate * count) / total } : {}) };
      return { name: test.name, kind: 'requests', background: false, phase: { ...p, load, tests: [test] } };
    });
    return { ...p, tests: groups.map((group) => group.phase.tests[0]), groups };
  };
  const commands = connections.flatMap((c) => c.test.commands);
  const writes = commands.some(({ command }) => classifyCommand(command.name, literalOf(command.args[0])).has('write'));
  return { ...plan, writes, points: plan.points.map((point) => ({ ...point, phases: point.phases.map(phase) })) };
}

/** `plan` (a scenario of one phase written for the replay's settings) with `test` as its only test. */
export function withReplayTest(plan: ScenarioPlan, test: TestPlan): ScenarioPlan {
  const phase = (p: PhasePlan): PhasePlan => ({ ...p, tests: [test] });
  const writes = test.commands.some(({ command }) => classifyCommand(command.name, literalOf(command.args[0])).has('write'));
  return { ...plan, writes, points: plan.points.map((point) => ({ ...point, phases: point.phases.map(phase) })) };
}

/**
 * When the effects gate refuses `plan`: the first line that brings the refusal (an admin command, or one whose
 * reach beyond the run's own keys is among the plan's), as `FILE:LINE: COMMAND`; undefined when it runs.
 */
export function replayBlame(plan: ScenarioPlan, test: TestPlan, rules: RefusalOptions, shown: string): { refusal: string; line?: string } | undefined {
  const refusal = runRefusal(plan, scenarioActions(plan, BUILT_IN_TABLE, { skipUnknown: true }), rules);
  if (!refusal) return undefined;
  const whole = new Set(scenarioActions(plan).destructive);
  const seen = new Set<string>();
  const byLine = [...test.commands].map(({ command }) => command).sort((a, b) => (a.source?.start.line ?? 0) - (b.source?.start.line ?? 0));
  for (const command of byLine) {
    const key = JSON.stringify([command.name, command.args]);
    if (seen.has(key)) continue;
    seen.add(key);
    const alone = scenarioActions(withReplayTest(plan, { ...test, commands: [{ weight: 1, command }] }));
    const admin = !rules.allowAdmin && alone.classes.has('admin');
    const reaches = !rules.throwaway && !rules.allowDestructive && alone.destructive.some((phrase) => whole.has(phrase));
    const readOnly = rules.readOnly === true && [...alone.classes].some((kind) => kind !== 'read' && kind !== 'blocking');
    if (admin || reaches || readOnly) {
      const words = [command.name, ...command.args.map((arg) => literalOf(arg) ?? '')].join(' ');
      return { refusal, line: `${shown}:${(command.source?.start.line ?? 0) + 1}: ${words.length > 120 ? `${words.slice(0, 117)}...` : words}` };
    }
  }
  return { refusal };
}

// The safety decisions of a run, once for the CLI and the editor: what a scenario will do to the server
// (classes of its commands), which commands need the user's own opt-in, what a read-only target refuses,
// and when a remote target must be confirmed first. Plain data, no `vscode`.
import { isLoopback } from '../redis/target';
import { classifyCommand, isReadOnlyCommand, type CommandClass } from '../scenario/commands';
import type { CommandTemplate, ScenarioPlan } from '../scenario/plan';

export interface ScenarioActions {
  /** Every class of command the scenario sends, `cleanup` counting as a write. */
  classes: Set<CommandClass>;
  /** The first command of each class, as written (`SET`, `CONFIG SET`, `cleanup bench:*`). */
  examples: Partial<Record<CommandClass, string>>;
}

function firstLiteral(command: CommandTemplate): string | undefined {
  const [first] = command.args;
  return first && first.every((part) => typeof part === 'string') ? first.join('') : undefined;
}

function commandsOf(plan: ScenarioPlan): CommandTemplate[] {
  return plan.points.flatMap((point) => point.phases.flatMap((phase) => phase.tests.flatMap((test) => test.commands.map(({ command }) => command))));
}

/** What the scenario will do to the server, by class, with an example of each. */
export function scenarioActions(plan: ScenarioPlan): ScenarioActions {
  const actions: ScenarioActions = { classes: new Set(), examples: {} };
  const add = (kind: CommandClass, example: string) => {
    actions.classes.add(kind);
    actions.examples[kind] ??= example;
  };
  for (const command of commandsOf(plan)) {
    const sub = firstLiteral(command);
    const classes = classifyCommand(command.name, sub);
    const shown = sub && /^[a-z-]+$/i.test(sub) && !classes.has('read') ? `${command.name} ${sub.toUpperCase()}` : command.name;
    for (const kind of classes) add(kind, kind === 'admin' || kind === 'scripting' ? shown : command.name);
  }
  if (plan.cleanup !== undefined) add('write', `cleanup ${plan.cleanup}`);
  return actions;
}

const CLASS_WORDS: Record<CommandClass, string> = {
  read: 'reads',
  write: 'writes',
  admin: 'administers the server',
  dangerous: 'wipes data',
  scripting: 'runs scripts',
  blocking: 'blocks',
};

/** `reads, writes (SET), runs scripts (EVAL)`: what the confirmation shows. */
export function describeActions(actions: ScenarioActions): string {
  const order: CommandClass[] = ['read', 'write', 'dangerous', 'scripting', 'admin', 'blocking'];
  return order
    .filter((kind) => actions.classes.has(kind))
    .map((kind) => (kind === 'read' ? CLASS_WORDS[kind] : `${CLASS_WORDS[kind]} (${actions.examples[kind]})`))
    .join(', ');
}

/** Why the scenario may not run because it administers the server and the user has not allowed that; or undefined. */
export function adminRefusal(plan: ScenarioPlan, actions: ScenarioActions, allowAdmin: boolean): string | undefined {
  if (allowAdmin || !actions.classes.has('admin')) return undefined;
  return (
    `"${plan.name}" sends ${actions.examples.admin}, an admin command (CONFIG, MODULE, DEBUG, SHUTDOWN, ACL, REPLICAOF…), which a scenario file cannot send on its own: ` +
    'if you mean it, allow admin commands yourself with `rbench run --allow-admin` or the setting rbench.allowAdminCommands'
  );
}

/** Why a read-only target refuses the scenario (it does more than read), or undefined. */
export function readOnlyRefusal(plan: ScenarioPlan, actions: ScenarioActions, profileName: string | undefined, readOnly: boolean | undefined): string | undefined {
  if (!profileName || !readOnly) return undefined;
  if (isReadOnlyCommand(actions.classes)) return undefined;
  return `connection profile "${profileName}" is read-only, but "${plan.name}" ${describeActions({ ...actions, classes: new Set([...actions.classes].filter((kind) => kind !== 'read' && kind !== 'blocking')) })}: run it against another target, or remove "readOnly" from the profile`;
}

export interface RemoteQuestion {
  /** The scenario file as shown to people. */
  file: string;
  scenario: string;
  /** The target without password: `redis://10.0.0.5:6379`. */
  target: string;
  host: string;
  /** The file names the target itself (not the user's selection or --url). */
  namedByFile: boolean;
  actions: ScenarioActions;
  /** Remembers the answer: per file and target. */
  key: string;
}

/**
 * The question to ask before the run, or undefined when none is needed: a server on another machine that the
 * file names itself, or one the scenario would change (write, wipe, script, administer).
 */
export function remoteQuestion(
  plan: ScenarioPlan,
  actions: ScenarioActions,
  where: { file: string; target: string; host: string; namedByFile: boolean },
): RemoteQuestion | undefined {
  if (isLoopback(where.host)) return undefined;
  const changes = !isReadOnlyCommand(actions.classes);
  if (!where.namedByFile && !changes) return undefined;
  return { ...where, scenario: plan.name, actions, key: confirmationKey(where.file, where.target) };
}

export const CONFIRMATION_PREFIX = 'rbench.remoteConfirmed.';

/** The key an answer is remembered under: the file and the target (display URL, no password). */
export function confirmationKey(file: string, target: string): string {
  return `${CONFIRMATION_PREFIX}${file}\u0000${target}`;
}

export function remoteQuestionText(question: RemoteQuestion): string {
  const who = question.namedByFile ? `${question.file} names ${question.target}` : `"${question.scenario}" runs against ${question.target}`;
  return `${who}, a server on another machine (${question.host}). "${question.scenario}" ${describeActions(question.actions)}. Run it there?`;
}

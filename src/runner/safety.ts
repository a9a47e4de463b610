// The safety decisions of a run, once for the CLI and the editor: what a scenario will do to the server
// (classes of its commands), which commands need the user's own opt-in and what a read-only target refuses;
// the consent that follows is src/runner/consent.ts. Plain data, no `vscode`.
import { classifyCommand, isReadOnlyCommand, type CommandClass } from '../scenario/commands';
import type { CommandTemplate, ScenarioPlan } from '../scenario/plan';

export interface ScenarioActions {
  /** Every class of command the scenario sends, `cleanup` counting as a write. */
  classes: Set<CommandClass>;
  /** The first command of each class, as written (`SET`, `CONFIG SET`, `cleanup bench:*`). */
  examples: Partial<Record<CommandClass, string>>;
  // g-consent interim (the contract g-commands fills in properly; the lead reconciles):
  /** Every command of each class, as shown (`SET`, `CLIENT KILL`, `cleanup bench:*`), each once. */
  commands: Partial<Record<CommandClass, string[]>>;
  /** Key patterns the run deletes or rewrites beyond its own keys (`cleanup bench:*`). */
  writePatterns: string[];
  /** What can destroy or rewrite keys the run did not create (FLUSHALL, SWAPDB, a broad cleanup…). */
  destructive: string[];
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
  const actions: ScenarioActions = { classes: new Set(), examples: {}, commands: {}, writePatterns: [], destructive: [] };
  const add = (kind: CommandClass, example: string) => {
    actions.classes.add(kind);
    actions.examples[kind] ??= example;
    // g-consent interim: every command per class, and the dangerous ones as destructive (g-commands refines).
    const list = (actions.commands[kind] ??= []);
    if (!list.includes(example)) list.push(example);
    if (kind === 'dangerous' && !actions.destructive.includes(example)) actions.destructive.push(example);
  };
  for (const command of commandsOf(plan)) {
    const sub = firstLiteral(command);
    const classes = classifyCommand(command.name, sub);
    const shown = sub && /^[a-z-]+$/i.test(sub) && !classes.has('read') ? `${command.name} ${sub.toUpperCase()}` : command.name;
    for (const kind of classes) add(kind, kind === 'admin' || kind === 'scripting' ? shown : command.name);
  }
  if (plan.cleanup !== undefined) {
    add('write', `cleanup ${plan.cleanup}`);
    actions.writePatterns.push(plan.cleanup); // g-consent interim
  }
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

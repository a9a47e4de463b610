// The safety decisions of a run, once for the CLI and the editor: what a scenario will do to the server
// (classes of its commands), which commands need the user's own opt-in and what a read-only target refuses;
// the consent that follows is src/runner/consent.ts. Plain data, no `vscode`.
import { partsEndedWrite } from './partsCleanup';
import {
  carriesCredentials,
  classifyCommand,
  COMMAND_CLASSES,
  isContainer,
  isReadOnlyCommand,
  keyPositions,
  literalOf,
  type CommandClass,
} from '../scenario/commands';
import { keyEffects } from '../scenario/keyEffects';
import { BUILT_IN_TABLE, type CommandTable } from '../scenario/commandTable';
import type { CommandTemplate, PhasePlan, ScenarioPlan } from '../scenario/plan';
import { keyShape, shapeCovers, type KeyShape } from './ownKeys';
import { covers, hasLiteral, keyGlob, matchPattern, showGlob, STAR, type GlobToken } from './keyGlobs';

export interface ScenarioActions {
  /** Every class of command the scenario sends, `cleanup` counting as a write. */
  classes: Set<CommandClass>;
  /** The first command of each class, as shown (`SET`, `CONFIG SET`, `cleanup bench:*`). */
  examples: Partial<Record<CommandClass, string>>;
  /** Every distinct command of each class, as shown: `SET`, `CONFIG SET`, `CLIENT <computed subcommand>`, `cleanup user:*`. */
  commands: Partial<Record<CommandClass, string[]>>;
  /** Key globs the scenario writes (deletes included): `bench:*`, `counter`. */
  writePatterns: string[];
  /** What can destroy or rewrite keys beyond the scenario's own, one plain phrase each; empty when nothing can. */
  destructive: string[];
  /** The keys the scenario creates, exactly (src/runner/ownKeys.ts): all a `cleanup` deletes on a user's server. */
  ownKeys?: KeyShape[];
}

/** Every command of the plan with its phase (whose keys and clients decide the keys `__key__` and `__client__` name). */
function commandsByPhase(plan: ScenarioPlan): { command: CommandTemplate; phase: PhasePlan }[] {
  return plan.points.flatMap((point) =>
    point.phases.flatMap((phase) => phase.tests.flatMap((test) => test.commands.map(({ command }) => ({ command, phase })))),
  );
}

export function commandsOf(plan: ScenarioPlan): CommandTemplate[] {
  return plan.points.flatMap((point) => point.phases.flatMap((phase) => phase.tests.flatMap((test) => test.commands.map(({ command }) => command))));
}

/** A command as people read it: `SET`, `CONFIG SET`, `CLIENT <computed subcommand>`. */
function shownName(command: CommandTemplate, table: CommandTable): string {
  const name = command.name.toUpperCase();
  if (!isContainer(name, table)) return name;
  const sub = literalOf(command.args[0]);
  return sub === undefined ? `${name} <computed subcommand>` : `${name} ${sub.toUpperCase()}`;
}

/** What the commands that reach beyond their keys do, by command. */
const REACH: Record<string, string> = {
  flushall: 'wipes every key of every database',
  flushdb: 'wipes every key of the database',
  swapdb: 'swaps whole databases',
  select: 'switches to another database than the one the target names',
  move: 'moves keys into another database',
  migrate: 'moves keys to another server',
  debug: 'can reload, change or wipe the whole dataset',
};

/** Why a command can touch keys beyond those it names, or undefined. */
function reachPhrase(command: CommandTemplate, shown: string, classes: ReadonlySet<CommandClass>, keys: number[] | undefined): string | undefined {
  const name = command.name.toLowerCase();
  if (REACH[name]) return `${shown} ${REACH[name]}`;
  if (classes.has('scripting')) return `${shown} runs or installs server-side code that may touch any key`;
  if (classes.has('dangerous')) return `${shown} can destroy data beyond the scenario's own keys`;
  if (classes.has('write') && keys === undefined) return `${shown} writes keys the command table cannot tell`;
  return undefined;
}

/** COPY … DB / REPLACE and RESTORE … REPLACE, written or possibly computed (a placeholder may expand to the word). */
function optionAfter(command: CommandTemplate, from: number, word: string): boolean {
  return command.args.slice(from).some((arg) => {
    const text = literalOf(arg);
    return text === undefined || text.toLowerCase() === word;
  });
}

/** A glob's tokens exactly, as one string: two globs with the same key are the same glob. */
function globKey(glob: readonly GlobToken[]): string {
  return JSON.stringify(glob.map((token) => (typeof token === 'string' ? token : token === STAR ? 0 : 1)));
}

/** A key a command removes, replaces or rewrites data of: it must be one the scenario creates. */
interface Removal {
  shown: string;
  glob: GlobToken[];
  /** The keys exactly, under the phase's key plan; undefined when a placeholder could be any text. */
  shape: KeyShape | undefined;
  /** `removes or replaces`, `removes data from`, `rewrites data of`. */
  does: string;
}

export interface ActionOptions {
  /**
   * Leave out the commands `table` does not know: before a run has read the target's own table, what a
   * module's command does is not known yet, and the refusals wait for the server's description of it.
   */
  skipUnknown?: boolean;
}

/**
 * What the scenario will do to the server, as `table` describes its commands: classes and commands, the keys
 * it writes, what reaches beyond its own keys. A command the table does not know counts as admin, dangerous
 * and write, and writes keys the table cannot tell.
 */
export function scenarioActions(plan: ScenarioPlan, table: CommandTable = BUILT_IN_TABLE, options: ActionOptions = {}): ScenarioActions {
  const actions: ScenarioActions = { classes: new Set(), examples: {}, commands: {}, writePatterns: [], destructive: [], ownKeys: [] };
  const add = (kind: CommandClass, shown: string) => {
    actions.classes.add(kind);
    actions.examples[kind] ??= shown;
    const list = (actions.commands[kind] ??= []);
    if (!list.includes(shown)) list.push(shown);
  };
  const note = (list: string[], text: string) => {
    if (!list.includes(text)) list.push(text);
  };
  // Each sweep point sends the same commands again: every glob, shape and removal once, in the order first seen.
  const own = new Map<string, GlobToken[]>();
  const ownShapes = new Map<string, KeyShape>();
  const removals = new Map<string, Removal>();
  const keep = (glob: GlobToken[], shape: KeyShape | undefined) => {
    const key = globKey(glob);
    if (!own.has(key)) own.set(key, glob);
    if (shape) ownShapes.set(JSON.stringify(shape), shape);
  };
  const remove = (removal: Removal) => {
    const key = `${removal.shown}\n${removal.does}\n${JSON.stringify(removal.shape) ?? globKey(removal.glob)}`;
    if (!removals.has(key)) removals.set(key, removal);
  };
  for (const { command, phase } of commandsByPhase(plan)) {
    if (options.skipUnknown && !table.spec(command.name)) continue;
    const shown = shownName(command, table);
    const classes = classifyCommand(command.name, literalOf(command.args[0]), table);
    // Credentials written in a file (AUTH user pw__key__) could try passwords against the server: as an admin command, the user's own opt-in.
    const credentials = carriesCredentials(command.name, command.args, table);
    if (credentials) classes.add('admin');
    for (const kind of classes) add(kind, kind === 'admin' && credentials ? `${shown} ${CREDENTIALS}` : shown);
    const keys = keyPositions(command.name, command.args, table);
    const reach = reachPhrase(command, shown, classes, keys);
    if (reach) note(actions.destructive, reach);
    if (!classes.has('write') || keys === undefined) continue;
    for (const i of keys) note(actions.writePatterns, showGlob(keyGlob(command.args[i])));
    const name = command.name.toLowerCase();
    const replaces =
      (name === 'copy' && optionAfter(command, 2, 'replace')) || ((name === 'restore' || name === 'restore-asking') && optionAfter(command, 3, 'replace'));
    if (name === 'copy' && optionAfter(command, 2, 'db')) note(actions.destructive, 'COPY … DB writes into another database');
    const effects = keyEffects(command.name, command.args, table);
    for (const [position, { effect, does }] of effects ?? []) {
      const arg = command.args[position];
      const glob = keyGlob(arg);
      const shape = keyShape(arg, phase.keys, phase.load);
      // The REPLACE option (COPY's destination, RESTORE's key) overwrites whatever is there: flags are silent about options.
      if (replaces && position === keys[keys.length - 1]) remove({ shown: `${shown} … REPLACE`, glob, shape, does: 'removes or replaces' });
      else if (effect === 'destroys') remove({ shown, glob, shape, does: does ?? 'removes or replaces' });
      // A key of placeholders alone (`__key__`) looks like anybody's: only a key with a literal part is the run's own.
      else if (effect === 'creates' && hasLiteral(glob)) keep(glob, shape);
    }
  }
  const ownGlobs = [...own.values()];
  const shapes = (actions.ownKeys = [...ownShapes.values()]);
  const ownKeys = [...new Set(ownGlobs.map(showGlob))];
  const beyond = ownKeys.length > 0 ? `beyond the scenario's own ${ownKeys.join(', ')}` : 'and the scenario creates no keys of its own';
  for (const removal of removals.values()) {
    if (!removal.shape || !shapes.some((shape) => shapeCovers(shape, removal.shape!)))
      note(actions.destructive, `${removal.shown} ${removal.does} ${showGlob(removal.glob)}, keys the scenario does not create`);
  }
  if (plan.cleanup !== undefined) {
    add('write', `cleanup ${plan.cleanup}`);
    note(actions.writePatterns, plan.cleanup);
    const pattern = matchPattern(plan.cleanup);
    if (!ownGlobs.some((glob) => covers(glob, pattern))) note(actions.destructive, `\`cleanup ${plan.cleanup}\` deletes keys ${beyond}`);
    // A part of a sharded run cleans up only as the last part to end: the parts count their ends on the server.
    if (plan.shard?.runId && plan.shard.count > 1) add('write', partsEndedWrite(plan.shard.runId));
  }
  return actions;
}

/** What each class of command does, in words: `reads`, `wipes data` (the confirmation's; the consent capitalises them). */
export const CLASS_WORDS: Record<CommandClass, string> = {
  read: 'reads',
  write: 'writes',
  admin: 'administers the server',
  dangerous: 'wipes data',
  scripting: 'runs scripts',
  blocking: 'blocks',
};

/** `reads, writes (SET), runs scripts (EVAL)`: what the confirmation shows. */
export function describeActions(actions: ScenarioActions): string {
  return COMMAND_CLASSES.filter((kind) => actions.classes.has(kind))
    .map((kind) => (kind === 'read' ? CLASS_WORDS[kind] : `${CLASS_WORDS[kind]} (${actions.examples[kind]})`))
    .join(', ');
}

/** How a command that sends credentials is shown: `AUTH with credentials`. */
const CREDENTIALS = 'with credentials';

/** Why the scenario may not run because it administers the server and the user has not allowed that; or undefined. */
export function adminRefusal(plan: ScenarioPlan, actions: ScenarioActions, allowAdmin: boolean): string | undefined {
  if (allowAdmin || !actions.classes.has('admin')) return undefined;
  if (actions.examples.admin?.endsWith(CREDENTIALS))
    return (
      `"${plan.name}" sends ${actions.examples.admin} written in the file: a file could try passwords against the server that way, so it cannot send them on its own: ` +
      'if you mean it, allow it yourself with `rbench run --allow-admin` or the setting rbench.allowAdminCommands (a password of your own goes in the target or a connection profile)'
    );
  return (
    `"${plan.name}" sends ${actions.examples.admin}, an admin command (CONFIG, MODULE, DEBUG, SHUTDOWN, ACL, REPLICAOF…), which a scenario file cannot send on its own: ` +
    'if you mean it, allow admin commands yourself with `rbench run --allow-admin` or the setting rbench.allowAdminCommands'
  );
}

/**
 * Why the scenario may not run because it can destroy or rewrite keys it does not own and the user has not
 * allowed that; or undefined. The throwaway local server holds nothing but the run's own keys.
 */
export function destructiveRefusal(
  plan: ScenarioPlan,
  actions: ScenarioActions,
  options: { allowDestructive: boolean; throwaway: boolean },
): string | undefined {
  if (options.throwaway || options.allowDestructive || actions.destructive.length === 0) return undefined;
  return (
    `"${plan.name}" can destroy or rewrite keys that are not its own: ${actions.destructive.join('; ')}. A scenario file cannot do that on its own: ` +
    'if you mean it, allow it yourself with `rbench run --allow-destructive` or the user setting rbench.allowDestructiveCommands'
  );
}

/** Why a read-only target refuses the scenario (it does more than read), or undefined. */
export function readOnlyRefusal(
  plan: ScenarioPlan,
  actions: ScenarioActions,
  profileName: string | undefined,
  readOnly: boolean | undefined,
): string | undefined {
  if (!profileName || !readOnly) return undefined;
  if (isReadOnlyCommand(actions.classes)) return undefined;
  return `connection profile "${profileName}" is read-only, but "${plan.name}" ${describeActions({ ...actions, classes: new Set([...actions.classes].filter((kind) => kind !== 'read' && kind !== 'blocking')) })}: run it against another target, or remove "readOnly" from the profile`;
}

export interface RefusalOptions {
  allowAdmin: boolean;
  allowDestructive: boolean;
  /** The throwaway local server: it holds nothing but the run's own keys. */
  throwaway: boolean;
  /** The connection profile the target is, and whether it is marked read-only. */
  profileName?: string;
  readOnly?: boolean;
}

/** Why the scenario may not run as `actions` describe it (admin without opt-in, more than reads on a read-only profile, destruction without opt-in), or undefined. */
export function runRefusal(plan: ScenarioPlan, actions: ScenarioActions, options: RefusalOptions): string | undefined {
  return (
    adminRefusal(plan, actions, options.allowAdmin) ??
    readOnlyRefusal(plan, actions, options.profileName, options.readOnly) ??
    destructiveRefusal(plan, actions, { allowDestructive: options.allowDestructive, throwaway: options.throwaway })
  );
}

// Which words are commands, what each command (and each subcommand of a container such as CONFIG or CLIENT)
// can do to a server, and which arguments are keys: asked of a command table (src/scenario/commandTable.ts),
// the built-in one unless a server's own is given. Classification fails closed: only what the table marks
// read-only, or a short list of harmless commands, counts as a read; a subcommand that is computed or unknown
// counts as the most dangerous one its container has; a command the table does not know, as the most dangerous of all.
import { BUILT_IN_TABLE, subcommandSpec, type CommandSpec, type CommandTable } from './commandTable';
import type { ArgTemplate } from './plan';

/** Upper-case command names of the built-in table, for did-you-mean suggestions. */
export const COMMAND_NAMES: readonly string[] = BUILT_IN_TABLE.names().map((name) => name.toUpperCase());

/** True when `table` (the built-in one by default) knows the command; own names only (`constructor` is no command). */
export function isRedisCommand(word: string, table: CommandTable = BUILT_IN_TABLE): boolean {
  return table.spec(word) !== undefined;
}

/**
 * A module's command (`FT.SEARCH`, `JSON.SET`: a dot in the name) or an upper-case word that is no setting
 * (`VADD`, a fork's command): written as a command, though the built-in table may not know it. The checker
 * warns about it; a run asks the server.
 */
const MODULE_SHAPED = /^[A-Za-z][A-Za-z0-9_-]*\.[A-Za-z0-9._-]+$/;
const UPPER_SHAPED = /^[A-Z][A-Z0-9_-]*$/;

/** True for a word that starts a command line: a known command, or one shaped like a command that `isSetting` does not claim. */
export function isCommandWord(word: string, isSetting: (lower: string) => boolean): boolean {
  if (isRedisCommand(word)) return true;
  if (word.length > 64) return false;
  return MODULE_SHAPED.test(word) || (UPPER_SHAPED.test(word) && word.length > 1 && !isSetting(word.toLowerCase()));
}

/** True when the command modifies data (the `write` flag, or the `write` ACL category). */
export function isWriteCommand(name: string, table: CommandTable = BUILT_IN_TABLE): boolean {
  const spec = table.spec(name);
  return spec !== undefined && (spec.flags.includes('write') || spec.categories.includes('write'));
}

/**
 * What a command can do to a server.
 * read: reads data or the server's state only; write: changes data (or reaches other clients, as PUBLISH);
 * admin: changes or stops the server, its users, its replication or other clients' connections, or installs
 * code that outlives the run; dangerous: reaches beyond the keys it names (wipes, swaps or moves databases
 * or keys, switches the database); scripting: runs server-side code that may touch any key; blocking: may
 * wait for data.
 */
export type CommandClass = 'read' | 'write' | 'admin' | 'dangerous' | 'scripting' | 'blocking';

export const COMMAND_CLASSES: readonly CommandClass[] = ['read', 'write', 'dangerous', 'scripting', 'admin', 'blocking'];

/**
 * Commands with neither the `readonly` nor the `write` flag that still only read or touch the client's own
 * connection: replies (PING, ECHO), server facts (TIME, LASTSAVE, ROLE, INFO), the connection's protocol, user
 * and mode (HELLO, AUTH, READONLY, READWRITE, ASKING, RESET, QUIT), and transaction framing (MULTI, EXEC,
 * DISCARD, WATCH, UNWATCH), whose member commands are classified on their own. Everything else without a flag
 * (PUBLISH, SELECT, WAIT, SUBSCRIBE…) is not a read.
 */
const HARMLESS = new Set([
  'ping',
  'echo',
  'time',
  'lastsave',
  'role',
  'info',
  'hello',
  'auth',
  'readonly',
  'readwrite',
  'asking',
  'reset',
  'quit',
  'multi',
  'exec',
  'discard',
  'watch',
  'unwatch',
]);

/** Subcommands without flags that only read or set the client's own connection, or describe the server. */
const HARMLESS_SUBCOMMANDS: Record<string, ReadonlySet<string>> = {
  acl: new Set(['cat', 'genpass', 'whoami']),
  client: new Set(['caching', 'getname', 'getredir', 'id', 'info', 'no-touch', 'reply', 'setinfo', 'setname', 'tracking', 'trackinginfo']),
  cluster: new Set(['countkeysinslot', 'getkeysinslot', 'info', 'keyslot', 'links', 'myid', 'myshardid', 'nodes', 'shards', 'slot-stats', 'slots']),
  command: new Set(['count', 'docs', 'getkeys', 'getkeysandflags', 'info', 'list']),
  function: new Set(['dump', 'list', 'stats']),
  memory: new Set(['doctor', 'malloc-stats', 'stats']),
  pubsub: new Set(['channels', 'numpat', 'numsub', 'shardchannels', 'shardnumsub']),
  script: new Set(['exists']),
};

/**
 * Subcommands whose flags say less than they do: they stop other clients' work, drop what other clients
 * rely on, or install code that outlives the run. These replace the classes the flags give.
 */
const SUBCOMMAND_CLASSES: Record<string, Record<string, readonly CommandClass[]>> = {
  function: {
    delete: ['admin', 'write'],
    flush: ['admin', 'write', 'dangerous'],
    kill: ['admin'],
    load: ['admin', 'scripting', 'write'],
    restore: ['admin', 'scripting', 'write', 'dangerous'],
  },
  script: { debug: ['admin'], flush: ['admin'], kill: ['admin'], load: ['scripting'] },
  memory: { purge: ['admin'] },
  module: { load: ['admin', 'scripting', 'dangerous'], loadex: ['admin', 'scripting', 'dangerous'] },
  cluster: { reset: ['admin', 'dangerous'], flushslots: ['admin', 'dangerous'] },
};

/** Commands that reach beyond the keys they name. */
const DANGEROUS = new Set(['flushall', 'flushdb', 'swapdb', 'migrate', 'move', 'select']);

/** The most dangerous a command can be: what a command unknown to the table (a module's) is taken for. */
const UNKNOWN_CLASSES: readonly CommandClass[] = ['admin', 'dangerous', 'write'];

/**
 * Classes from a table entry's flags and ACL categories; a command without read, write, admin or script marks
 * counts as a write unless harmless. (Servers mark scripts by the `scripting` category, the built-in table by
 * the `script_runner` flag.)
 */
function classesFromSpec(spec: CommandSpec, harmless: boolean): Set<CommandClass> {
  const { flags, categories } = spec;
  const classes = new Set<CommandClass>();
  if (flags.includes('admin') || categories.includes('admin')) classes.add('admin');
  if (flags.includes('write') || categories.includes('write')) classes.add('write');
  if (flags.includes('blocking') || categories.includes('blocking')) classes.add('blocking');
  // EVAL_RO and FCALL_RO carry `readonly`: the server refuses any write from their scripts.
  if ((flags.includes('script_runner') || categories.includes('scripting')) && !flags.includes('readonly')) classes.add('scripting');
  if (flags.includes('readonly')) classes.add('read');
  // (A write stays a write: no harmless command has the write flag, and a read beside it would not make it read-only.)
  if (!classes.has('read') && !classes.has('admin') && !classes.has('scripting')) classes.add(harmless ? 'read' : 'write');
  return classes;
}

/** A subcommand's own word: servers name them `config|get`, the built-in table `get`. */
function subName(command: string, sub: string): string {
  return sub.startsWith(`${command}|`) ? sub.slice(command.length + 1) : sub;
}

/** The classes of each known subcommand of a container, by lower-case name. */
function subcommandClasses(command: string, subcommands: readonly CommandSpec[]): Map<string, Set<CommandClass>> {
  const result = new Map<string, Set<CommandClass>>();
  for (const entry of subcommands) {
    const sub = subName(command, entry.name);
    const fixed = SUBCOMMAND_CLASSES[command]?.[sub];
    const harmless = sub === 'help' || HARMLESS_SUBCOMMANDS[command]?.has(sub) === true;
    result.set(sub, fixed ? new Set(fixed) : classesFromSpec(entry, harmless));
  }
  return result;
}

/** Per spec object (a table's specs are fixed once built): each container's subcommand classes, worked out once. */
const CONTAINER_CACHE = new WeakMap<CommandSpec, Map<string, Set<CommandClass>>>();

/**
 * The subcommands of `command` by class, when it is a container: from `table`, or from the built-in table when
 * the table lists none (servers before 7.0 describe CONFIG without its subcommands).
 */
function containerOf(command: string, table: CommandTable): Map<string, Set<CommandClass>> | undefined {
  const spec = table.spec(command);
  const withSubs = spec?.subcommands?.length ? spec : BUILT_IN_TABLE.spec(command)?.subcommands?.length ? BUILT_IN_TABLE.spec(command) : undefined;
  if (!withSubs || !spec) return undefined;
  let classes = CONTAINER_CACHE.get(withSubs);
  if (!classes) CONTAINER_CACHE.set(withSubs, (classes = subcommandClasses(command, withSubs.subcommands!)));
  return classes;
}

/** True for a command whose first argument names a subcommand (CONFIG, CLIENT, XGROUP…; DEBUG, which the table lists without them). */
export function isContainer(name: string, table: CommandTable = BUILT_IN_TABLE): boolean {
  const command = name.toLowerCase();
  return containerOf(command, table) !== undefined || command === 'debug';
}

/** The known subcommands of a container, lower-case; empty for other commands. */
export function subcommandsOf(name: string, table: CommandTable = BUILT_IN_TABLE): string[] {
  return [...(containerOf(name.toLowerCase(), table)?.keys() ?? [])];
}

/**
 * The classes of `name` called with `subcommand` (its first argument as written, for a container), as `table`
 * describes it. An undefined subcommand is one that is computed (a placeholder) or absent: for a container it
 * counts, like an unknown one, as the union of all its subcommands' classes. A command the table does not know
 * is admin, dangerous and write.
 */
export function classifyCommand(name: string, subcommand?: string, table: CommandTable = BUILT_IN_TABLE): Set<CommandClass> {
  const command = name.toLowerCase();
  const entry = table.spec(command);
  if (!entry) return new Set(UNKNOWN_CLASSES);
  // DEBUG's subcommands (RELOAD, SET-ACTIVE-EXPIRE, CHANGE-REPL-ID…) are not in the table: all count alike.
  if (command === 'debug') return new Set(UNKNOWN_CLASSES);
  const subcommands = containerOf(command, table);
  if (subcommands) {
    const known = subcommand === undefined ? undefined : subcommands.get(subcommand.toLowerCase());
    if (known) return new Set(known);
    const union = new Set<CommandClass>();
    for (const classes of subcommands.values()) for (const kind of classes) union.add(kind);
    // A read-only container's unknown subcommand is still no proof of a read.
    union.delete('read');
    if (union.size === 0) union.add('write');
    return union;
  }
  const classes = classesFromSpec(entry, HARMLESS.has(command));
  if (DANGEROUS.has(command)) classes.add('dangerous');
  return classes;
}

/** Options after which a command's arguments are credentials (the flags do not say which argument): HELLO … AUTH, MIGRATE … AUTH / AUTH2. */
const CREDENTIAL_OPTIONS: Record<string, readonly string[]> = { hello: ['auth'], migrate: ['auth', 'auth2'] };

/**
 * True when the command, so written, sends credentials: a command the server runs before authentication
 * (`no_auth`: AUTH, HELLO, QUIT, RESET) is the one that logs in, so any argument it is given may be a user and
 * password (AUTH); where credentials follow an option (HELLO … AUTH, MIGRATE … AUTH2), when that option is
 * written or may be computed. A file that sends them could try passwords against the server: the user's own
 * opt-in, as for admin commands.
 */
export function carriesCredentials(name: string, args: readonly ArgTemplate[], table: CommandTable = BUILT_IN_TABLE): boolean {
  const command = name.toLowerCase();
  const options = CREDENTIAL_OPTIONS[command];
  if (options) return args.some((arg) => (literalOf(arg) === undefined ? true : options.includes(literalOf(arg)!.toLowerCase())));
  const noAuth = table.spec(command)?.flags.includes('no_auth') || BUILT_IN_TABLE.spec(command)?.flags.includes('no_auth');
  return noAuth === true && args.length > 0;
}

/** True when a read-only target may run it: it reads, and nothing else but perhaps blocks. */
export function isReadOnlyCommand(classes: ReadonlySet<CommandClass>): boolean {
  return [...classes].every((kind) => kind === 'read' || kind === 'blocking');
}

/** The literal text of an argument, or undefined when part of it is computed (a placeholder). */
export function literalOf(arg: ArgTemplate | undefined): string | undefined {
  return arg && arg.every((part) => typeof part === 'string') ? arg.join('') : undefined;
}

/**
 * The positions (0-based, among `args`) of the command's key arguments, from `table`'s key specs and the
 * known special cases (SORT … STORE, MIGRATE, numkeys, STREAMS…); undefined when the table cannot tell: an
 * unknown command, or a command whose keys move with its arguments (`movablekeys`) given a computed argument
 * that is not itself a key (a computed numkeys could make any later argument a key).
 */
export function keyPositions(name: string, args: readonly ArgTemplate[], table: CommandTable = BUILT_IN_TABLE): number[] | undefined {
  const command = name.toLowerCase();
  if (!table.spec(command)) return undefined;
  // A container's keys depend on its subcommand (XGROUP CREATE key…, OBJECT ENCODING key): a computed or unknown one hides them.
  const sub = literalOf(args[0]);
  const container = containerOf(command, table);
  if ((container || command === 'debug') && (sub === undefined || !container?.has(sub.toLowerCase()))) return undefined;
  return table.keyIndexes(command, args.map(literalOf));
}

/** The spec of `name` (and of its subcommand `sub`, for a container) in `table`: the arity to check a line against. */
export function aritySpec(name: string, sub: string | undefined, table: CommandTable = BUILT_IN_TABLE): CommandSpec | undefined {
  const spec = table.spec(name);
  if (!spec?.subcommands?.length) return spec;
  return subcommandSpec(spec, sub);
}

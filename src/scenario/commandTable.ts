// The command table: one interface for what RBench knows about Redis commands (arity, flags, ACL
// categories, key positions, docs), whoever describes them: the built-in table (@ioredis/commands) or a
// server's own (`COMMAND INFO`, read by src/redis/commandTable.ts). The checker, the editor's hints, the
// safety classes, the cluster slot rule and the result table all ask one of these.
import { getKeyIndexes, list } from '@ioredis/commands';
import builtInJson from '@ioredis/commands/built/commands.json';
import { keySpecPositions, type KeySpec } from './keySpecs';

export type { KeySpec } from './keySpecs';

/** One command (or one subcommand of a container such as CONFIG), as plain data: a table can be cached, sent to a worker, compared. */
export interface CommandSpec {
  /** Lower case: `get`, `ft.search`; a subcommand's own word (`get` of CONFIG GET). */
  name: string;
  /** Redis arity: counts the command name (and a subcommand's container); negative means "at least". */
  arity: number;
  /** Lower case: `readonly`, `write`, `admin`, `movablekeys`, `module`… */
  flags: readonly string[];
  /** ACL categories without the `@`, lower case (`read`, `scripting`); empty when the table does not say (the built-in table). */
  categories: readonly string[];
  /** The legacy key range: first key (1-based, the name is 0; 0 for none), last key (negative counts from the end), step. */
  firstKey: number;
  lastKey: number;
  step: number;
  /** Redis 7's key specs, when the server gave them. */
  keySpecs?: readonly KeySpec[];
  subcommands?: readonly CommandSpec[];
  /** From `COMMAND DOCS`, when read. */
  summary?: string;
  since?: string;
  group?: string;
}

export interface CommandTable {
  /** `built-in` (@ioredis/commands), or the server's own description. */
  readonly source: 'built-in' | 'server';
  /** Who described it, for messages: `the built-in table`, `the server redis://10.0.0.5:6379`. */
  readonly origin: string;
  /** The command by name in any case; undefined when this table does not know it. */
  spec(name: string): CommandSpec | undefined;
  /** Every command the table holds, lower case. */
  names(): readonly string[];
  /**
   * The 0-based positions among `args` (undefined for a computed argument) of the command's keys; undefined when
   * the table cannot tell (an unknown command, keys that move with a computed argument).
   */
  keyIndexes(name: string, args: readonly (string | undefined)[]): number[] | undefined;
}

/** The raw rows of @ioredis/commands. */
interface BuiltInRow {
  arity: number;
  flags: string[];
  keyStart: number;
  keyStop: number;
  step: number;
  subcommands?: Record<string, BuiltInRow>;
}
const ROWS = builtInJson as unknown as Record<string, BuiltInRow>;

function builtInSpec(name: string, row: BuiltInRow): CommandSpec {
  const spec: CommandSpec = { name, arity: row.arity, flags: row.flags, categories: [], firstKey: row.keyStart, lastKey: row.keyStop, step: row.step };
  if (row.subcommands) spec.subcommands = Object.entries(row.subcommands).map(([sub, subRow]) => builtInSpec(sub, subRow));
  return spec;
}

/** A table over specs, by lower-case name. */
class SpecTable implements CommandTable {
  private readonly byName: ReadonlyMap<string, CommandSpec>;
  private readonly sorted: readonly string[];

  constructor(
    readonly source: 'built-in' | 'server',
    readonly origin: string,
    specs: Iterable<CommandSpec>,
    private readonly positions: (spec: CommandSpec, name: string, args: readonly (string | undefined)[]) => number[] | undefined,
  ) {
    const byName = new Map<string, CommandSpec>();
    for (const spec of specs) byName.set(spec.name, spec);
    this.byName = byName;
    this.sorted = [...byName.keys()];
  }

  spec(name: string): CommandSpec | undefined {
    return this.byName.get(name.toLowerCase());
  }

  names(): readonly string[] {
    return this.sorted;
  }

  keyIndexes(name: string, args: readonly (string | undefined)[]): number[] | undefined {
    const spec = this.spec(name);
    return spec ? this.positions(spec, name.toLowerCase(), args) : undefined;
  }
}

/**
 * Key positions from @ioredis/commands, which also knows the special cases (SORT … STORE, MIGRATE, numkeys,
 * STREAMS). A computed argument stands in as `1`; a movable-keys command with a computed argument that is not
 * itself a key cannot be told (a computed numkeys could make any later argument a key).
 */
function builtInPositions(spec: CommandSpec, name: string, args: readonly (string | undefined)[]): number[] | undefined {
  const sample = args.map((arg) => arg ?? '1');
  let keys: number[];
  try {
    keys = getKeyIndexes(name, sample);
  } catch {
    return undefined;
  }
  if (spec.flags.includes('movablekeys') && args.some((arg, i) => arg === undefined && !keys.includes(i))) return undefined;
  return keys.filter((i) => i < args.length);
}

/** The table bundled with RBench: what `check` and the editor use without a server. */
export const BUILT_IN_TABLE: CommandTable = new SpecTable(
  'built-in',
  'the built-in table',
  list.map((name) => builtInSpec(name, ROWS[name])),
  builtInPositions,
);

/** The subcommand of a container named by `word`, or undefined. */
export function subcommandSpec(spec: CommandSpec, word: string | undefined): CommandSpec | undefined {
  if (word === undefined || !spec.subcommands) return undefined;
  const lower = word.toLowerCase();
  // Servers name subcommands `config|get`; the built-in table `get`.
  return spec.subcommands.find((sub) => sub.name === lower || sub.name === `${spec.name}|${lower}`);
}

/** Key positions from a spec's legacy range (servers before 7.0 and specs without key specs). */
function rangePositions(spec: CommandSpec, argc: number): number[] {
  if (spec.firstKey <= 0) return [];
  const last = spec.lastKey < 0 ? argc + spec.lastKey : spec.lastKey;
  const keys: number[] = [];
  for (let i = spec.firstKey; i <= last && i < argc; i += Math.max(1, spec.step)) keys.push(i - 1);
  return keys;
}

/**
 * Key positions from a server's description: its key specs (numkeys and keywords included), else its legacy
 * range. A container's keys come from its subcommand's specs. For a command the built-in table also knows,
 * specs the server marks incomplete (SORT … STORE, MIGRATE) are completed by the built-in rules.
 */
function serverPositions(spec: CommandSpec, name: string, args: readonly (string | undefined)[]): number[] | undefined {
  let described = spec;
  if (spec.subcommands && spec.subcommands.length > 0) {
    // A subcommand's key specs count the container as argument 0, as the command's do.
    const sub = subcommandSpec(spec, args[0]);
    if (!sub) return undefined;
    described = sub;
  }
  const argv = [name, ...args];
  if (described.keySpecs && described.keySpecs.length > 0) {
    const keys = keySpecPositions(described.keySpecs, argv);
    if (keys === 'incomplete') return BUILT_IN_TABLE.spec(name) ? BUILT_IN_TABLE.keyIndexes(name, args) : undefined;
    if (keys === undefined) return undefined;
    return keys.map((i) => i - 1).filter((i) => i >= 0 && i < args.length);
  }
  if (described.flags.includes('movablekeys')) return BUILT_IN_TABLE.spec(name) ? BUILT_IN_TABLE.keyIndexes(name, args) : undefined;
  return rangePositions(described, argv.length);
}

/** A table read from a server: it knows exactly the commands the server described. */
export function serverCommandTable(origin: string, specs: Iterable<CommandSpec>): CommandTable {
  return new SpecTable('server', origin, specs, serverPositions);
}

/** A server's table as plain data: what the editor caches per target and hands to its check worker. */
export interface CommandTableData {
  origin: string;
  specs: readonly CommandSpec[];
}

/** The last table built from data, by identity: a check per keystroke must not rebuild it. */
let lastBuilt: { data: CommandTableData; table: CommandTable } | undefined;

/** The table `data` describes, or the built-in one without data. */
export function commandTableOf(data: CommandTableData | undefined): CommandTable {
  if (!data) return BUILT_IN_TABLE;
  if (lastBuilt?.data !== data) lastBuilt = { data, table: serverCommandTable(data.origin, data.specs) };
  return lastBuilt.table;
}

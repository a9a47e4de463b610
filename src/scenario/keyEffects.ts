// What a command does to each of its keys, from the server's own description of it: Redis 7's key specs
// (RO/RW/OW/RM, ACCESS/UPDATE/INSERT/DELETE) and the command's `denyoom` flag, which Redis sets on every write
// that may use more memory (the server refuses it when out of memory). RM and DELETE take data away; OW replaces
// the value whole; INSERT only adds; UPDATE may change what is there. A key spec does not say whether the command
// can bring an absent key into being: a write that cannot use more memory cannot (EXPIRE, XACK, HPERSIST, JSON.DEL),
// so on a key the run does not create it only rewrites or takes away someone's data. The built-in table carries
// redis 7.0's key specs; a server's table its own, and a server may only make a command more dangerous.
import { keyPositions, literalOf } from './commands';
import { BUILT_IN_TABLE, subcommandSpec, type CommandSpec, type CommandTable } from './commandTable';
import { keySpecPositions } from './keySpecs';
import type { ArgTemplate } from './plan';

/** reads: only reads the key; creates: writes it and may bring it into being; destroys: may remove, replace or rewrite data it finds there. */
export type KeyEffect = 'reads' | 'creates' | 'destroys';

export interface KeyEffectOf {
  effect: KeyEffect;
  /** For a key it destroys: `removes or replaces`, `removes data from`, `rewrites data of`. */
  does?: string;
}

/**
 * Commands whose key specs say VARIABLE_FLAGS, whose every variant is still told by the flags listed: SET (OW UPDATE,
 * or RW ACCESS UPDATE with GET) and BITFIELD (RO ACCESS with GET only), by redis's setGetKeys and bitfieldGetKeys.
 * Any other command with variable flags may do what its spec does not say: it counts as destroying.
 */
const VARIABLE_FLAGS_TOLD = new Set(['set', 'bitfield']);

/**
 * Where the flags mislead: writes marked `denyoom` (hash-field expiry needs memory of its own) that still only change
 * fields already there. Redis 7.4 marks these so; without this list they would count as creating their key.
 */
const CHANGE_ONLY_WHAT_EXISTS = new Set(['hexpire', 'hpexpire', 'hexpireat', 'hpexpireat']);

const RANK: Record<KeyEffect, number> = { reads: 0, creates: 1, destroys: 2 };

function isWrite(spec: CommandSpec): boolean {
  return spec.flags.includes('write') || spec.categories.includes('write');
}

/** The spec that describes a call: the command's, or its subcommand's for a container (undefined for an unknown one). */
function describedSpec(spec: CommandSpec, sub: string | undefined): CommandSpec | undefined {
  return spec.subcommands?.length ? subcommandSpec(spec, sub) : spec;
}

/** Each key position's flags by the spec's key specs: undefined where no spec finds the key (the specs are silent there). */
function flagsByPosition(spec: CommandSpec, name: string, args: readonly ArgTemplate[], keys: readonly number[]): Map<number, Set<string>> {
  const argv = [name, ...args.map(literalOf)];
  const found = new Map<number, Set<string>>();
  const unplaced = new Set<string>();
  const addAll = (target: Set<string>, flags: readonly string[]) => flags.forEach((flag) => target.add(flag));
  for (const keySpec of spec.keySpecs ?? []) {
    const positions = keySpecPositions([keySpec], argv);
    // A spec that cannot place its keys (INCOMPLETE, SORT … STORE) or whose place is computed: its flags go to every key no other spec places.
    if (positions === 'incomplete' || positions === undefined) addAll(unplaced, keySpec.flags);
    else for (const position of positions) addAll(found.get(position - 1) ?? found.set(position - 1, new Set()).get(position - 1)!, keySpec.flags);
  }
  if (unplaced.size > 0) for (const key of keys) if (!found.has(key)) found.set(key, new Set(unplaced));
  return found;
}

/**
 * The effect on a key of a write command (`spec`, named `name`) whose key specs give the key `flags` (undefined:
 * no key spec finds it). `denyoom` says the write may add data: only such a write can bring a key into being.
 */
export function effectOfKeyFlags(flags: ReadonlySet<string> | undefined, spec: CommandSpec, name: string): KeyEffectOf {
  const grows = spec.flags.includes('denyoom') && !CHANGE_ONLY_WHAT_EXISTS.has(name);
  // Silent specs (a command newer than 7.0 in the built-in table, a module's without key specs): the command's flags alone.
  if (!flags) return grows ? { effect: 'creates' } : { effect: 'destroys', does: 'rewrites or removes data of' };
  if (flags.has('variable_flags') && !VARIABLE_FLAGS_TOLD.has(name))
    return { effect: 'destroys', does: 'may remove or rewrite (its key specs vary with its arguments)' };
  if (flags.has('rm')) return { effect: 'destroys', does: 'removes or replaces' };
  if (flags.has('delete')) return { effect: 'destroys', does: 'removes data from' };
  if (flags.has('ow')) return grows ? { effect: 'creates' } : { effect: 'destroys', does: 'removes or replaces' };
  if (flags.has('insert') && !flags.has('update')) return { effect: 'creates' };
  if (flags.has('ro')) return { effect: 'reads' };
  // RW, UPDATE: a write that may add data also creates (HSET, INCR, ZADD); one that cannot only rewrites what is there (EXPIRE, HEXPIRE, XACK).
  return grows ? { effect: 'creates' } : { effect: 'destroys', does: 'rewrites data of' };
}

/** Effects by key position in one table's description; undefined when the table cannot tell the keys. */
function effectsIn(table: CommandTable, name: string, args: readonly ArgTemplate[], keys: readonly number[]): Map<number, KeyEffectOf> | undefined {
  const command = name.toLowerCase();
  const entry = table.spec(command);
  const spec = entry && describedSpec(entry, literalOf(args[0]));
  if (!spec) return undefined;
  const effects = new Map<number, KeyEffectOf>();
  if (!isWrite(spec)) {
    for (const key of keys) effects.set(key, { effect: 'reads' });
    return effects;
  }
  const flags = flagsByPosition(spec, command, args, keys);
  for (const key of keys) effects.set(key, effectOfKeyFlags(flags.get(key), spec, command));
  return effects;
}

/**
 * What the command does to each of its keys (0-based positions among `args`), as `table` describes it, and never
 * less than the built-in table says of a command it knows too; undefined when the keys cannot be told.
 */
export function keyEffects(name: string, args: readonly ArgTemplate[], table: CommandTable = BUILT_IN_TABLE): Map<number, KeyEffectOf> | undefined {
  const keys = keyPositions(name, args, table);
  if (keys === undefined) return undefined;
  const own = effectsIn(table, name, args, keys);
  if (!own) return undefined;
  if (table === BUILT_IN_TABLE || !BUILT_IN_TABLE.spec(name)) return own;
  const builtIn = effectsIn(BUILT_IN_TABLE, name, args, keys);
  for (const [key, theirs] of builtIn ?? []) {
    const ours = own.get(key);
    if (ours && RANK[theirs.effect] > RANK[ours.effect]) own.set(key, theirs);
  }
  return own;
}

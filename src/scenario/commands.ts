// The Redis command table (@ioredis/commands): which words are commands, and which commands write.
import { hasFlag, list } from '@ioredis/commands';

/** Upper-case command names, for did-you-mean suggestions. */
export const COMMAND_NAMES: readonly string[] = list.map((name) => name.toUpperCase());

/** Lower-case command names. `exists` of @ioredis/commands looks names up on a plain object, so it also says yes to `constructor` and `toString`. */
const KNOWN = new Set(list);

export function isRedisCommand(word: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_|-]*$/.test(word) && KNOWN.has(word.toLowerCase());
}

/** True when the command modifies data (the `write` flag). */
export function isWriteCommand(name: string): boolean {
  return isRedisCommand(name) && hasFlag(name.toLowerCase(), 'write');
}

/**
 * What a command can do to a server, from the command table's flags plus the subcommands of container
 * commands (CONFIG, SCRIPT, CLIENT…), which the table lists without flags.
 * read: reads data only; write: changes data; admin: changes or stops the server, its users or its
 * replication; dangerous: wipes or moves the whole dataset; scripting: runs server-side code that may
 * do anything; blocking: may wait for data.
 */
export type CommandClass = 'read' | 'write' | 'admin' | 'dangerous' | 'scripting' | 'blocking';

const DANGEROUS = new Set(['flushall', 'flushdb', 'swapdb', 'migrate', 'restore', 'restore-asking']);
/** Container commands whose every subcommand administers the server. */
const ADMIN_CONTAINERS = new Set(['config', 'module', 'acl', 'debug', 'cluster']);
/** Subcommands that administer the server, for containers that also have harmless ones. */
const ADMIN_SUBCOMMANDS: Record<string, ReadonlySet<string>> = {
  client: new Set(['kill', 'pause', 'unpause', 'no-evict', 'no-touch', 'list']),
  script: new Set(['flush', 'kill']),
  function: new Set(['flush', 'delete', 'kill', 'restore']),
  latency: new Set(['reset']),
  slowlog: new Set(['reset']),
  memory: new Set(['purge']),
};
const SCRIPTING_SUBCOMMANDS: Record<string, ReadonlySet<string>> = {
  script: new Set(['load']),
  function: new Set(['load']),
};

/** The classes of `name` called with `firstArg` (its subcommand, for container commands). */
export function classifyCommand(name: string, firstArg?: string): Set<CommandClass> {
  const command = name.toLowerCase();
  const sub = firstArg?.toLowerCase() ?? '';
  const classes = new Set<CommandClass>();
  if (!isRedisCommand(command)) {
    // Unknown to the table (a module's command): it may do anything.
    classes.add('admin');
    return classes;
  }
  if (hasFlag(command, 'admin') || ADMIN_CONTAINERS.has(command) || ADMIN_SUBCOMMANDS[command]?.has(sub)) classes.add('admin');
  if (DANGEROUS.has(command)) classes.add('dangerous');
  if (hasFlag(command, 'script_runner') || SCRIPTING_SUBCOMMANDS[command]?.has(sub)) {
    // EVAL_RO and FCALL_RO are refused by the server if the script writes.
    classes.add(hasFlag(command, 'readonly') ? 'read' : 'scripting');
  }
  if (hasFlag(command, 'write')) classes.add('write');
  if (hasFlag(command, 'blocking')) classes.add('blocking');
  if (classes.size === 0 || (classes.size === 1 && classes.has('blocking'))) classes.add('read');
  return classes;
}

/** True when a read-only target may run it: it reads, and nothing else but perhaps blocks. */
export function isReadOnlyCommand(classes: ReadonlySet<CommandClass>): boolean {
  return [...classes].every((kind) => kind === 'read' || kind === 'blocking');
}

// A `COMMAND INFO` reply (RESP2, as a fake server sends it) describing commands redis-server 7.0 lacks, with
// the key specs their sources give: redis/redis src/commands/{hexpire,hpexpire,hexpireat,hpexpireat,hpersist,xack}.json
// (7.4), hgetex, xdelex, xackdel (8.0, 8.2), VREM as the vector-set module registers it (legacy key range: the
// server gives it RW ACCESS UPDATE), a JSON.DEL-like and JSON.SET-like module command, a module command that finds
// its own keys (getkeys-api: VARIABLE_FLAGS), and SET as 7.0 describes it.
import type { FakeReply } from './fakeRedis';

const indexRange = (flags: string[], index = 1): FakeReply => [
  'notes',
  '',
  'flags',
  flags,
  'begin_search',
  ['type', 'index', 'spec', ['index', index]],
  'find_keys',
  ['type', 'range', 'spec', ['lastkey', 0, 'keystep', 1, 'limit', 0]],
];

/** `[name, arity, flags, first key, last key, step, ACL categories, tips, key specs, subcommands]`. */
const entry = (name: string, arity: number, flags: string[], categories: string[], keyFlags: string[]): FakeReply => [
  name,
  arity,
  flags,
  1,
  1,
  1,
  categories,
  [],
  [indexRange(keyFlags)],
  [],
];

export const NEWER_COMMANDS: FakeReply[] = [
  entry('hexpire', -6, ['write', 'denyoom', 'fast'], ['@write', '@hash', '@fast'], ['RW', 'UPDATE']),
  entry('hpexpire', -6, ['write', 'denyoom', 'fast'], ['@write', '@hash', '@fast'], ['RW', 'UPDATE']),
  entry('hexpireat', -6, ['write', 'denyoom', 'fast'], ['@write', '@hash', '@fast'], ['RW', 'UPDATE']),
  entry('hpexpireat', -6, ['write', 'denyoom', 'fast'], ['@write', '@hash', '@fast'], ['RW', 'UPDATE']),
  entry('hpersist', -5, ['write', 'fast'], ['@write', '@hash', '@fast'], ['RW', 'UPDATE']),
  entry('hgetex', -5, ['write', 'fast'], ['@write', '@hash', '@fast'], ['RW', 'ACCESS', 'UPDATE']),
  entry('xdelex', -5, ['write', 'fast'], ['@write', '@stream', '@fast'], ['RW', 'DELETE']),
  entry('xackdel', -6, ['write', 'fast'], ['@write', '@stream', '@fast'], ['RW', 'DELETE']),
  entry('xack', -4, ['write', 'fast'], ['@write', '@stream', '@fast'], ['RW', 'UPDATE']),
  entry('vrem', 3, ['write', 'module'], ['@write'], ['RW', 'ACCESS', 'UPDATE']),
  entry('json.del', -2, ['write', 'module'], ['@write', '@module'], ['RW', 'ACCESS', 'UPDATE']),
  entry('json.set', -4, ['write', 'denyoom', 'module'], ['@write', '@module'], ['RW', 'ACCESS', 'UPDATE']),
  entry('mod.any', -2, ['write', 'denyoom', 'module', 'movablekeys'], ['@write', '@module'], ['RW', 'ACCESS', 'UPDATE', 'VARIABLE_FLAGS']),
  entry('set', -3, ['write', 'denyoom'], ['@write', '@string', '@slow'], ['RW', 'ACCESS', 'UPDATE', 'VARIABLE_FLAGS']),
];

/** The entry of each name asked, nil for one this list lacks: what `COMMAND INFO a b …` answers. */
export function newerCommandInfo(names: readonly string[]): FakeReply[] {
  return names.map((name) => NEWER_COMMANDS.find((entry) => (entry as FakeReply[])[0] === name.toLowerCase()) ?? null);
}

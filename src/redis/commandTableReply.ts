// A server's `COMMAND INFO` / `COMMAND` and `COMMAND DOCS` replies → command specs. The reply is a
// stranger's: every list and string is bounded, every map is a Map (src/gates/plainData.ts's rule), and
// anything not shaped as Redis describes it throws CommandTableError, on which callers fall back to the
// built-in table.
import { isPrototypeName } from '../gates/plainData';
import type { CommandSpec, KeySpec } from '../scenario/commandTable';
import type { KeySpecBegin, KeySpecFind } from '../scenario/keySpecs';

export class CommandTableError extends Error {}

/** What a reply may hold: Redis 7 has about 240 commands and 400 subcommands; a module adds tens. */
export const COMMAND_TABLE_LIMITS = { commands: 5000, subcommands: 500, flags: 64, keySpecs: 64, name: 128, text: 1000 };

type Reply = unknown;

function fail(what: string): never {
  throw new CommandTableError(`the COMMAND reply is malformed (${what})`);
}

function text(value: Reply, what: string, max = COMMAND_TABLE_LIMITS.name): string {
  if (typeof value !== 'string' && !Buffer.isBuffer(value)) fail(`${what} is not text`);
  const string = value.toString();
  if (string.length > max) fail(`${what} is longer than ${max} characters`);
  return string;
}

function integer(value: Reply, what: string): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(number) || Math.abs(number) > 1e9) fail(`${what} is not a whole number`);
  return number;
}

function list(value: Reply, what: string, max: number): Reply[] {
  if (!Array.isArray(value)) fail(`${what} is not a list`);
  if (value.length > max) fail(`${what} has more than ${max} entries`);
  return value;
}

/** A flat `[name, value, name, value…]` list (a RESP2 map) as a Map by lower-case name. */
function pairs(value: Reply, what: string, max = 64): Map<string, Reply> {
  const items = list(value, what, max * 2);
  if (items.length % 2 !== 0) fail(`${what} is not a list of name-value pairs`);
  const map = new Map<string, Reply>();
  for (let i = 0; i < items.length; i += 2) map.set(text(items[i], `a name in ${what}`).toLowerCase(), items[i + 1]);
  return map;
}

function words(value: Reply, what: string): string[] {
  return list(value ?? [], what, COMMAND_TABLE_LIMITS.flags).map((item) => text(item, `a word of ${what}`).toLowerCase());
}

function keySpec(value: Reply, command: string): KeySpec {
  const spec = pairs(value, `a key spec of ${command}`);
  const flags = words(spec.get('flags'), `the key spec flags of ${command}`);
  const begin = pairs(spec.get('begin_search') ?? [], `the begin_search of ${command}`);
  const find = pairs(spec.get('find_keys') ?? [], `the find_keys of ${command}`);
  const beginArgs = pairs(begin.get('spec') ?? [], `the begin_search spec of ${command}`);
  const findArgs = pairs(find.get('spec') ?? [], `the find_keys spec of ${command}`);
  const beginType = begin.has('type') ? text(begin.get('type'), 'a begin_search type') : '';
  const findType = find.has('type') ? text(find.get('type'), 'a find_keys type') : '';
  let parsedBegin: KeySpecBegin = { kind: 'unknown' };
  if (beginType === 'index') parsedBegin = { kind: 'index', index: integer(beginArgs.get('index'), 'a key spec index') };
  else if (beginType === 'keyword')
    parsedBegin = {
      kind: 'keyword',
      keyword: text(beginArgs.get('keyword'), 'a key spec keyword'),
      startFrom: integer(beginArgs.get('startfrom'), 'a key spec startfrom'),
    };
  let parsedFind: KeySpecFind = { kind: 'unknown' };
  if (findType === 'range')
    parsedFind = {
      kind: 'range',
      lastKey: integer(findArgs.get('lastkey'), 'a key spec lastkey'),
      keyStep: integer(findArgs.get('keystep'), 'a key spec keystep'),
      limit: integer(findArgs.get('limit') ?? 0, 'a key spec limit'),
    };
  else if (findType === 'keynum')
    parsedFind = {
      kind: 'keynum',
      keyNumIndex: integer(findArgs.get('keynumidx'), 'a key spec keynumidx'),
      firstKey: integer(findArgs.get('firstkey'), 'a key spec firstkey'),
      keyStep: integer(findArgs.get('keystep'), 'a key spec keystep'),
    };
  if ((parsedFind.kind === 'range' || parsedFind.kind === 'keynum') && parsedFind.keyStep < 1) fail(`a key spec of ${command} has a step below 1`);
  return { flags, begin: parsedBegin, find: parsedFind };
}

/** One entry of `COMMAND INFO`: `[name, arity, flags, first, last, step, categories?, tips?, key specs?, subcommands?]`. */
export function commandSpec(entry: Reply, depth = 0): CommandSpec {
  const items = list(entry, 'a command entry', 10);
  if (items.length < 6) fail('a command entry has fewer than 6 fields');
  const fullName = text(items[0], 'a command name').toLowerCase();
  // A subcommand is named `container|sub`: its spec holds its own word.
  const name = depth > 0 && fullName.includes('|') ? fullName.slice(fullName.indexOf('|') + 1) : fullName;
  if (name === '' || isPrototypeName(name)) fail(`a command is named "${name}"`);
  const spec: CommandSpec = {
    name,
    arity: integer(items[1], `the arity of ${name}`),
    flags: words(items[2], `the flags of ${name}`),
    categories: words(items[6], `the ACL categories of ${name}`).map((category) => category.replace(/^@/, '')),
    firstKey: integer(items[3], `the first key of ${name}`),
    lastKey: integer(items[4], `the last key of ${name}`),
    step: integer(items[5], `the key step of ${name}`),
  };
  if (items[8] !== undefined && items[8] !== null)
    spec.keySpecs = list(items[8], `the key specs of ${name}`, COMMAND_TABLE_LIMITS.keySpecs).map((item) => keySpec(item, name));
  if (items[9] !== undefined && items[9] !== null && depth === 0) {
    const subs = list(items[9], `the subcommands of ${name}`, COMMAND_TABLE_LIMITS.subcommands).map((item) => commandSpec(item, 1));
    if (subs.length > 0) spec.subcommands = subs;
  }
  return spec;
}

/** A whole `COMMAND` / `COMMAND INFO …` reply; a nil entry (a name the server does not know) is left out. */
export function commandSpecs(reply: Reply): CommandSpec[] {
  return list(reply, 'the COMMAND reply', COMMAND_TABLE_LIMITS.commands)
    .filter((entry) => entry !== null)
    .map((entry) => commandSpec(entry));
}

export interface CommandDoc {
  summary?: string;
  since?: string;
  group?: string;
}

/** `COMMAND DOCS` (RESP2: `[name, [field, value…], …]`): summary, since and group by lower-case name. */
export function commandDocs(reply: Reply): Map<string, CommandDoc> {
  const docs = new Map<string, CommandDoc>();
  const items = list(reply, 'the COMMAND DOCS reply', COMMAND_TABLE_LIMITS.commands * 2);
  for (let i = 0; i + 1 < items.length; i += 2) {
    const name = text(items[i], 'a documented command').toLowerCase();
    const fields = pairs(items[i + 1], `the docs of ${name}`);
    const field = (key: string) =>
      typeof fields.get(key) === 'string' ? text(fields.get(key), `the ${key} of ${name}`, COMMAND_TABLE_LIMITS.text) : undefined;
    const doc: CommandDoc = {};
    const summary = field('summary');
    const since = field('since');
    const group = field('group');
    if (summary) doc.summary = summary;
    if (since) doc.since = since;
    if (group) doc.group = group;
    docs.set(name, doc);
  }
  return docs;
}

/** The specs with their docs. */
export function withDocs(specs: readonly CommandSpec[], docs: ReadonlyMap<string, CommandDoc>): CommandSpec[] {
  return specs.map((spec) => ({ ...spec, ...docs.get(spec.name) }));
}

// Hits and misses: which replies of a command say "nothing there". The one table of it, read by both client
// paths (the fast path's reply scanner, the ioredis path's whole replies) and by the docs.
//
// Only reads count: a command the command table flags `readonly` (and nothing more dangerous) that names keys
// by its key specs. Of those, a nil reply (`$-1`, `*-1`, RESP3 `_`) is always a miss: GET, HGET, LINDEX, ZSCORE
// answer nil for an absent key or field. Where the command's documented reply is the key's contents as a
// collection (HGETALL, LRANGE, SMEMBERS, ZRANGE…), an absent key answers an empty array (`*0`, RESP3 `~0` /
// `%0`): a miss too. Integer replies are answers, never misses: EXISTS, HEXISTS, SISMEMBER answer 0 to the
// question they ask, and STRLEN/LLEN/SCARD say 0 of what they count (a test that wants "found" counts in
// them reads the reply, which a benchmark does not). A read of several keys or fields at once (MGET, HMGET,
// ZMSCORE) answers an array with a nil for each one not found: its misses are counted per key, its miss rate is the
// nil keys over the keys asked (`lookups`).
//
// Inside a `MULTI … EXEC` group the queued commands answer QUEUED and their replies come as the elements of
// EXEC's array: each element counts for its command's row by that command's rule.
import { classifyCommand, isReadOnlyCommand, keyPositions, literalOf } from './commands';
import type { CommandTemplate, TestPlan } from './plan';
import { MISS_NIL, MISS_NIL_ELEMENTS, MISS_NIL_OR_EMPTY, MISS_NONE, type MissRule } from './missRules';

export { MISS_NIL, MISS_NIL_ELEMENTS, MISS_NIL_OR_EMPTY, MISS_NONE, isMissReply, type MissRule } from './missRules';

/**
 * Reads whose documented reply is the key's contents (or a range of them) as an array, set or map: an absent
 * key answers an empty one. (The server's command table does not describe replies, so this is the one list.)
 */
const EMPTY_COLLECTION_IS_MISS = new Set([
  'hgetall',
  'hkeys',
  'hvals',
  'hrandfield',
  'smembers',
  'srandmember',
  'sinter',
  'sunion',
  'sdiff',
  'lrange',
  'zrange',
  'zrangebyscore',
  'zrangebylex',
  'zrevrange',
  'zrevrangebyscore',
  'zrevrangebylex',
  'zrandmember',
  'zinter',
  'zunion',
  'zdiff',
  'xrange',
  'xrevrange',
  'sort_ro',
  'geosearch',
  'georadius_ro',
  'georadiusbymember_ro',
]);

/**
 * Reads of several keys or fields at once, answering an array with one element per key or field asked (nil where
 * none): name → how many arguments come before the ones asked (HMGET's key, ZMSCORE's key).
 */
const NIL_PER_ELEMENT = new Map([
  ['mget', 0],
  ['hmget', 1],
  ['zmscore', 1],
]);

/** Keys or fields a request of a per-key read asks for (MGET k1 k2 k3: 3); undefined for any other command. */
export function keysAskedOf(command: Pick<CommandTemplate, 'name' | 'args'>): number | undefined {
  const before = NIL_PER_ELEMENT.get(command.name.toLowerCase());
  return before === undefined ? undefined : Math.max(0, command.args.length - before);
}

/** The miss rule of a command as written: from the command table's flags and key specs, and the list above. */
export function missRuleOf(command: Pick<CommandTemplate, 'name' | 'args' | 'keys' | 'inline'>): MissRule {
  const name = command.name.toLowerCase();
  const classes = classifyCommand(name, literalOf(command.args[0]));
  if (!classes.has('read') || !isReadOnlyCommand(classes)) return MISS_NONE;
  // A read of the server's state (PING, INFO, TIME, DBSIZE) has no key to miss.
  const keys = command.keys ?? (command.inline ? undefined : keyPositions(name, command.args));
  if (!keys || keys.length === 0) return MISS_NONE;
  if (NIL_PER_ELEMENT.has(name)) return MISS_NIL_ELEMENTS;
  return EMPTY_COLLECTION_IS_MISS.has(name) ? MISS_NIL_OR_EMPTY : MISS_NIL;
}

/**
 * The rule of each row of a test (`labels`, as the engine's testLabels gives them): a group's first row is its
 * unit, no command; a transaction's commands by their own rule (read from EXEC's elements).
 */
export function missRulesOf(test: TestPlan, labels: readonly string[]): MissRule[] {
  return labels.map((label, i) => {
    if (test.group && i === 0) return MISS_NONE;
    const command = test.commands.find((c) => c.command.label === label)?.command;
    return command ? missRuleOf(command) : MISS_NONE;
  });
}

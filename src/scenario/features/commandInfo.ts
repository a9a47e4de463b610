// What a command table (src/scenario/commandTable.ts: the built-in one, or the selected target's) says about a
// command, as short hints for completion and hover: the arity, the flags, where the keys are, and the
// summary and since-version when the server's `COMMAND DOCS` gave them.
import { BUILT_IN_TABLE, type CommandSpec, type CommandTable } from '../commandTable';

export interface CommandInfo {
  /** Upper case, as written in the plan. */
  name: string;
  arity: number;
  flags: readonly string[];
  /** `1 key`, `keys at every 2nd argument from argument 1`, `no keys`, … */
  keys: string;
  /** `at least 2 arguments`, `exactly 1 argument`. */
  args: string;
  url: string;
  /** From the server's `COMMAND DOCS`. */
  summary?: string;
  since?: string;
  /** Whose description this is: `the built-in table`, `the server redis://…`. */
  origin: string;
}

export function commandInfo(word: string, table: CommandTable = BUILT_IN_TABLE): CommandInfo | undefined {
  const spec = table.spec(word);
  if (!spec) return undefined;
  const name = spec.name;
  return {
    name: name.toUpperCase(),
    arity: spec.arity,
    flags: spec.flags,
    keys: describeKeys(spec),
    args: describeArity(spec.arity),
    // Module commands have no page on redis.io.
    url: spec.flags.includes('module') && name.includes('.') ? '' : `https://redis.io/commands/${name}/`,
    ...(spec.summary ? { summary: spec.summary } : {}),
    ...(spec.since ? { since: spec.since } : {}),
    origin: table.origin,
  };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Arguments after the command name, from Redis's arity (which counts the name). */
export function describeArity(arity: number): string {
  const args = Math.abs(arity) - 1;
  if (arity < 0) return args === 0 ? 'any number of arguments' : `at least ${plural(args, 'argument')}`;
  return args === 0 ? 'no arguments' : `exactly ${plural(args, 'argument')}`;
}

function describeKeys(spec: CommandSpec): string {
  if (spec.flags.includes('movablekeys')) return 'keys vary with the arguments';
  if (spec.firstKey <= 0) return 'no keys';
  if (spec.lastKey === spec.firstKey) return '1 key';
  if (spec.lastKey > 0) return plural(Math.floor((spec.lastKey - spec.firstKey) / Math.max(1, spec.step)) + 1, 'key');
  // A negative stop counts from the end: -1 is the last argument, -2 the one before it.
  const allBut = spec.lastKey < -1 ? `, all but the last ${plural(-spec.lastKey - 1, 'argument')}` : '';
  const every = spec.step > 1 ? `, every ${ordinal(spec.step)}` : '';
  return `keys from argument ${spec.firstKey}${every}${allBut}`;
}

function ordinal(n: number): string {
  return n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`;
}

/** The access flag that matters for a benchmark: does it write, only read, or neither. */
function accessFlag(flags: readonly string[]): string | undefined {
  return ['write', 'readonly', 'admin', 'pubsub', 'blocking'].find((flag) => flags.includes(flag));
}

/** One line for a completion item: `arity -3 · write · 1 key`. */
export function commandHint(info: CommandInfo): string {
  return [`arity ${info.arity}`, accessFlag(info.flags), info.keys].filter(Boolean).join(' · ');
}

/** The data commands benchmarks use most: completion ranks them first. */
const COMMON_COMMANDS = new Set(
  (
    'GET SET MGET MSET SETEX SETNX GETSET GETEX GETDEL INCR INCRBY DECR DECRBY APPEND STRLEN GETRANGE SETRANGE DEL UNLINK EXISTS EXPIRE TTL ' +
    'HSET HGET HMGET HGETALL HDEL HINCRBY HEXISTS HLEN LPUSH RPUSH LPOP RPOP LRANGE LLEN LINDEX LTRIM BLPOP BRPOP ' +
    'SADD SREM SMEMBERS SISMEMBER SCARD SPOP SRANDMEMBER ZADD ZREM ZRANGE ZRANGEBYSCORE ZSCORE ZINCRBY ZCARD ZRANK ZREVRANGE ZPOPMIN ' +
    'XADD XRANGE XREAD XLEN XACK XREADGROUP PFADD PFCOUNT GEOADD GEOSEARCH PUBLISH PING EVALSHA EVAL'
  ).split(' '),
);

/**
 * Commands in the table that stock Redis does not have: module commands (flagged `module`) and the
 * set-member-expiry and array families of forks or unreleased versions. Accepted when written (the
 * server decides), but not offered: a scenario written from completion should run on any Redis.
 */
const NOT_OFFERED = /^(?:SADDEX|S(?:P?EXPIRE(?:AT|TIME)?|PERSIST|P?TTL)|AR[A-Z]+)$/;

export function isCommonCommand(name: string): boolean {
  return COMMON_COMMANDS.has(name.toUpperCase());
}

/** Whether completion offers the command: from the built-in table, stock Redis's only; from a server's table, everything it has. */
export function isOfferedCommand(name: string, table: CommandTable = BUILT_IN_TABLE): boolean {
  const info = commandInfo(name, table);
  if (!info) return false;
  return table.source === 'server' || (!info.flags.includes('module') && !NOT_OFFERED.test(info.name));
}

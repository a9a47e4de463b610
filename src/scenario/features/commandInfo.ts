// What the Redis command table (@ioredis/commands) says about a command, as short hints for
// completion and hover. The package exposes no argument docs, only the arity, the flags and where
// the keys are; the hints are derived from those.
import commandTable from '@ioredis/commands/built/commands.json';
import { isRedisCommand } from '../commands';

interface CommandSpec {
  /** Redis arity: counts the command name; negative means "at least". */
  arity: number;
  flags: string[];
  /** 1-based position of the first key argument (counting the name as 0); 0 for none. */
  keyStart: number;
  /** Position of the last key; -1 for "to the end". */
  keyStop: number;
  /** Distance between keys (2 for MSET's key/value pairs). */
  step: number;
}

const SPECS = commandTable as unknown as Record<string, CommandSpec>;

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
}

export function commandInfo(word: string): CommandInfo | undefined {
  if (!isRedisCommand(word)) return undefined;
  const name = word.toLowerCase();
  const spec = SPECS[name];
  if (!spec) return undefined;
  return {
    name: name.toUpperCase(),
    arity: spec.arity,
    flags: spec.flags,
    keys: describeKeys(spec),
    args: describeArity(spec.arity),
    url: `https://redis.io/commands/${name}/`,
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
  if (spec.keyStart <= 0) return 'no keys';
  if (spec.keyStop === spec.keyStart) return '1 key';
  if (spec.keyStop > 0) return plural(Math.floor((spec.keyStop - spec.keyStart) / spec.step) + 1, 'key');
  // A negative stop counts from the end: -1 is the last argument, -2 the one before it.
  const allBut = spec.keyStop < -1 ? `, all but the last ${plural(-spec.keyStop - 1, 'argument')}` : '';
  const every = spec.step > 1 ? `, every ${ordinal(spec.step)}` : '';
  return `keys from argument ${spec.keyStart}${every}${allBut}`;
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

export function isOfferedCommand(name: string): boolean {
  const info = commandInfo(name);
  return info !== undefined && !info.flags.includes('module') && !NOT_OFFERED.test(info.name);
}

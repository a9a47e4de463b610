// A bounded sample of the keyspace: SCAN (at most `maxKeys` keys and `maxMs`, so 100M keys cost what 10k
// do), then for each key TYPE, TTL, MEMORY USAGE and its length (STRLEN, HLEN, LLEN, SCARD, ZCARD, XLEN),
// pipelined per SCAN batch. Keys are read as bytes and kept only as their shape. A refused command
// (NOPERM) ends the sample with what it has and says which.
import type Redis from 'ioredis';
import { isReplyError } from '../redis/info';
import { keyShape } from './keyShape';
import { Reservoir } from './reservoir';
import { groupDigits } from '../scenario/numberText';

export interface KeyspaceLimits {
  maxKeys: number;
  maxMs: number;
}

export interface PatternSample {
  pattern: string;
  keys: number;
  types: Map<string, number>;
  /** Keys with a time to live, and a sample of their TTLs in seconds. */
  withTtl: number;
  ttls: Reservoir;
  /** String lengths, or a collection's element count. */
  lengths: Reservoir;
  memory: Reservoir;
  keySizes: Reservoir;
  /** Id lengths of the keys sampled (for key-size). */
  idLengths: Reservoir;
}

export interface KeyspaceSample {
  /** DBSIZE of the selected database; absent when refused. */
  dbsize?: number;
  scanned: number;
  patterns: Map<string, PatternSample>;
  /** Keys of a module's type (TYPE names the module): counted, not reproduced. */
  moduleTypes: Map<string, number>;
  /** What stopped the sample early or what the server refused. */
  notes: string[];
  /** SCAN itself was refused: no keyspace sample. */
  refused?: string;
  complete: boolean;
}

const LENGTH_COMMANDS: Record<string, string> = { string: 'strlen', hash: 'hlen', list: 'llen', set: 'scard', zset: 'zcard', stream: 'xlen' };
const RESERVOIR = 5_000;
const MAX_PATTERNS = 200;

function patternSample(pattern: string): PatternSample {
  return {
    pattern,
    keys: 0,
    types: new Map(),
    withTtl: 0,
    ttls: new Reservoir(RESERVOIR),
    lengths: new Reservoir(RESERVOIR),
    memory: new Reservoir(RESERVOIR),
    keySizes: new Reservoir(RESERVOIR),
    idLengths: new Reservoir(RESERVOIR),
  };
}

/** Replies of a pipeline: each [error, value]; a refused command is reported once by name. */
type Replies = [Error | null, unknown][];

export async function sampleKeyspace(redis: Redis, limits: KeyspaceLimits, keepNames: boolean, signal?: AbortSignal): Promise<KeyspaceSample> {
  const sample: KeyspaceSample = { scanned: 0, patterns: new Map(), moduleTypes: new Map(), notes: [], complete: false };
  try {
    sample.dbsize = Number(await redis.dbsize());
  } catch (error) {
    if (!isReplyError(error)) throw error;
    sample.notes.push(`DBSIZE refused (${error.message}): the keyspace size is estimated from the scan`);
  }
  const deadline = Date.now() + limits.maxMs;
  const refused = new Set<string>();
  let cursor = '0';
  do {
    let reply: [Buffer, Buffer[]];
    try {
      reply = (await redis.scanBuffer(cursor, 'COUNT', 500)) as unknown as [Buffer, Buffer[]];
    } catch (error) {
      if (!isReplyError(error)) throw error;
      sample.refused = error.message;
      return sample;
    }
    cursor = reply[0].toString('latin1');
    const keys = reply[1].slice(0, limits.maxKeys - sample.scanned);
    await describeKeys(redis, keys, sample, refused, keepNames);
    sample.scanned += keys.length;
    if (sample.scanned >= limits.maxKeys) sample.notes.push(`the scan stopped at ${groupDigits(limits.maxKeys)} keys (its limit)`);
    else if (Date.now() >= deadline && cursor !== '0') sample.notes.push(`the scan stopped after ${limits.maxMs / 1000} s (its limit)`);
    else if (signal?.aborted) sample.notes.push('the scan was cancelled');
    else continue;
    break;
  } while (cursor !== '0');
  sample.complete = cursor === '0';
  for (const name of refused) sample.notes.push(`${name.toUpperCase()} refused: the sample lacks what it reads`);
  return sample;
}

async function describeKeys(redis: Redis, keys: Buffer[], sample: KeyspaceSample, refused: Set<string>, keepNames: boolean): Promise<void> {
  if (keys.length === 0) return;
  const first = redis.pipeline();
  for (const key of keys) {
    first.type(key);
    first.ttl(key);
    first.call('MEMORY', 'USAGE', key);
  }
  const replies = ((await first.exec()) ?? []) as Replies;
  const value = (index: number, name: string): unknown => {
    const [error, result] = replies[index] ?? [null, undefined];
    if (error) {
      if (/NOPERM|unknown command/i.test(error.message)) refused.add(name);
      return undefined;
    }
    return result;
  };
  const lengths = redis.pipeline();
  const lengthOf: (PatternSample | undefined)[] = [];
  keys.forEach((key, i) => {
    const type = String(value(i * 3, 'type') ?? 'none');
    if (type === 'none') return;
    const text = key.toString('latin1');
    if (!(type in LENGTH_COMMANDS)) {
      sample.moduleTypes.set(type.slice(0, 64), (sample.moduleTypes.get(type.slice(0, 64)) ?? 0) + 1);
      return;
    }
    const shape = keyShape(text, keepNames);
    let pattern = sample.patterns.get(shape.pattern);
    if (!pattern && sample.patterns.size < MAX_PATTERNS) sample.patterns.set(shape.pattern, (pattern = patternSample(shape.pattern)));
    if (!pattern) return;
    pattern.keys++;
    pattern.types.set(type, (pattern.types.get(type) ?? 0) + 1);
    pattern.keySizes.add(key.length);
    if (shape.id !== undefined) pattern.idLengths.add(shape.id.length);
    const ttl = Number(value(i * 3 + 1, 'ttl'));
    if (ttl > 0) {
      pattern.withTtl++;
      pattern.ttls.add(ttl);
    }
    const memory = Number(value(i * 3 + 2, 'memory usage'));
    if (memory > 0) pattern.memory.add(memory);
    lengths.call(LENGTH_COMMANDS[type], key);
    lengthOf.push(pattern);
  });
  if (lengthOf.length === 0) return;
  const counted = ((await lengths.exec()) ?? []) as Replies;
  counted.forEach(([error, result], i) => {
    if (error) refused.add('length');
    else lengthOf[i]?.lengths.add(Number(result));
  });
}

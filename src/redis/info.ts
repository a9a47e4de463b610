// Reading INFO and CONFIG: server facts before a run and the per-second samples during it.
import type { BatchReply, ControlLink } from './controlLink';
import { dictionary, isPrototypeName, ownValue, PROTO_KEY, recordFromMap } from '../gates/plainData';
import type { CommandCounters, ServerFacts, ServerSample } from './types';

/**
 * INFO output by lower-case section name (`server`, `keyspace`, `errorstats`) → field → raw value. The records
 * have no prototype, and a section or field named like prototype machinery (`# __proto__`, `constructor:…`) is
 * dropped: the server chooses these names, and no real INFO uses them.
 */
export type InfoSections = Record<string, Record<string, string>>;

/** The INFO sections a ServerSample is built from: one INFO call a second (Redis 7 takes several sections at once). */
export const SAMPLE_SECTIONS = ['memory', 'clients', 'stats', 'persistence', 'keyspace', 'errorstats', 'commandstats', 'cpu'] as const;

/**
 * A switch for bench/sampling-overhead.mjs only: `RBENCH_BENCH_NO_SERVER_COUNTERS=1` leaves out the server-counter
 * reads (commandstats and cpu in the per-second INFO, the per-test reads), so their cost can be measured.
 */
export function serverCountersOff(): boolean {
  return process.env.RBENCH_BENCH_NO_SERVER_COUNTERS === '1';
}

const BASE_SAMPLE_SECTIONS = SAMPLE_SECTIONS.filter((section) => section !== 'commandstats' && section !== 'cpu');

/** The settings that decide how a benchmark behaves under memory pressure and persistence. */
export const FACT_CONFIG_KEYS = ['save', 'appendonly', 'appendfsync', 'maxmemory', 'maxmemory-policy'] as const;

export function parseInfo(text: string): InfoSections {
  const sections = dictionary<Record<string, string>>();
  let current: Record<string, string> = (sections[''] = dictionary());
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const name = line.slice(1).trim().toLowerCase();
      // A dropped section's fields go into a record nobody keeps.
      current = isPrototypeName(name) ? dictionary() : (sections[name] ??= dictionary());
      continue;
    }
    // Values may contain ':' (paths, `errorstat_ERR:count=1`): split at the first one only.
    const colon = line.indexOf(':');
    if (colon > 0) setField(current, line.slice(0, colon), line.slice(colon + 1));
  }
  if (Object.keys(sections['']).length === 0) delete sections[''];
  return sections;
}

/** `keys=10,expires=2,avg_ttl=0` → { keys: '10', expires: '2', avg_ttl: '0' } (no prototype; prototype names dropped). */
export function parseInfoFields(value: string): Record<string, string> {
  const fields = dictionary<string>();
  for (const pair of value.split(',')) {
    const equals = pair.indexOf('=');
    if (equals > 0) setField(fields, pair.slice(0, equals), pair.slice(equals + 1));
  }
  return fields;
}

function setField(fields: Record<string, string>, name: string, value: string): void {
  if (!isPrototypeName(name)) fields[name] = value;
}

/** One sample from parsed INFO; fields a server version does not report read as 0 (counters) or are left out. */
export function sampleFromInfo(info: InfoSections, t: number): ServerSample {
  // Own properties only: a caller's plain object must not answer from its prototype either.
  const field = (section: string, name: string): string | undefined => ownValue(ownValue(info, section), name);
  const num = (section: string, name: string): number => Number(field(section, name) ?? 0) || 0;
  const flag = (section: string, name: string): boolean => field(section, name) === '1';

  let keys = 0;
  for (const value of Object.values(ownValue(info, 'keyspace') ?? {})) keys += Number(parseInfoFields(value).keys ?? 0) || 0;
  // Error kinds are the server's words (`errorstat_constructor` is the kind `constructor`): counted in a Map.
  const errorstats = new Map<string, number>();
  for (const [name, value] of Object.entries(ownValue(info, 'errorstats') ?? {})) {
    const kind = name.replace(/^errorstat_/, '');
    errorstats.set(kind, Number(parseInfoFields(value).count ?? 0) || 0);
  }

  const sample: ServerSample = {
    t,
    usedMemory: num('memory', 'used_memory'),
    usedMemoryRss: num('memory', 'used_memory_rss'),
    connectedClients: num('clients', 'connected_clients'),
    instantaneousOps: num('stats', 'instantaneous_ops_per_sec'),
    totalCommandsProcessed: num('stats', 'total_commands_processed'),
    rdbBgsaveInProgress: flag('persistence', 'rdb_bgsave_in_progress'),
    rdbLastBgsaveStatus: field('persistence', 'rdb_last_bgsave_status') ?? 'ok',
    rdbChangesSinceLastSave: num('persistence', 'rdb_changes_since_last_save'),
    aofEnabled: flag('persistence', 'aof_enabled'),
    aofRewriteInProgress: flag('persistence', 'aof_rewrite_in_progress'),
    aofLastBgrewriteStatus: field('persistence', 'aof_last_bgrewrite_status') ?? 'ok',
    latestForkUsec: num('stats', 'latest_fork_usec'),
    evictedKeys: num('stats', 'evicted_keys'),
    expiredKeys: num('stats', 'expired_keys'),
    keys,
    errorstats: recordFromMap(errorstats),
  };
  if (field('persistence', 'rdb_saves') !== undefined) sample.rdbSaves = num('persistence', 'rdb_saves');
  if (field('persistence', 'aof_rewrites') !== undefined) sample.aofRewrites = num('persistence', 'aof_rewrites');
  const commands = commandCountersFromInfo(info);
  if (commands) {
    let calls = 0;
    let usec = 0;
    for (const counters of commands.values()) {
      calls += counters.calls;
      usec += counters.usec;
    }
    sample.commandCalls = calls;
    sample.commandUsec = usec;
  }
  const cpu = cpuFromInfo(info);
  if (cpu) {
    sample.cpuUser = cpu.user;
    sample.cpuSys = cpu.sys;
    if (cpu.mainThreadUser !== undefined && cpu.mainThreadSys !== undefined) sample.cpuMainThread = cpu.mainThreadUser + cpu.mainThreadSys;
  }
  if (field('stats', 'total_forks') !== undefined) sample.totalForks = num('stats', 'total_forks');
  return sample;
}

/** A counter INFO gave as text: a finite number ≥ 0, or undefined for anything else (never a made-up 0). */
function counterValue(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * `INFO commandstats` by command name (`get`, Redis 7 subcommands as `config|get`), or undefined when the
 * section is absent. The names are the server's words: kept in a Map, `__proto__` dropped (the gate's rule).
 */
export function commandCountersFromInfo(info: InfoSections): Map<string, CommandCounters> | undefined {
  const section = ownValue(info, 'commandstats');
  if (section === undefined) return undefined;
  const commands = new Map<string, CommandCounters>();
  for (const [name, parts] of namedFields(section, 'cmdstat_')) {
    const calls = counterValue(ownValue(parts, 'calls'));
    const usec = counterValue(ownValue(parts, 'usec'));
    if (calls === undefined || usec === undefined) continue;
    const counters: CommandCounters = { calls, usec };
    const rejected = counterValue(ownValue(parts, 'rejected_calls'));
    const failed = counterValue(ownValue(parts, 'failed_calls'));
    if (rejected !== undefined) counters.rejected = rejected;
    if (failed !== undefined) counters.failed = failed;
    commands.set(name, counters);
  }
  return commands;
}

/**
 * The fields of a section named `PREFIX<name>` (`cmdstat_get`), as [lower-case name, its sub-fields]. The names
 * are the server's words: `__proto__` is dropped (the gate's rule), any other name is data.
 */
const MAX_COMMAND_NAME = 100;

function namedFields(section: Record<string, string>, prefix: string): [string, Record<string, string>][] {
  const named: [string, Record<string, string>][] = [];
  for (const [field, value] of Object.entries(section)) {
    if (!field.startsWith(prefix)) continue;
    const name = field.slice(prefix.length).toLowerCase();
    // No real command name is that long: a talkative server's would only bloat the run file.
    if (name !== '' && name !== PROTO_KEY && name.length <= MAX_COMMAND_NAME) named.push([name, parseInfoFields(value)]);
  }
  return named;
}

/** `INFO cpu` in seconds; undefined when the section or its process figures are absent. */
export function cpuFromInfo(info: InfoSections): { user: number; sys: number; mainThreadUser?: number; mainThreadSys?: number } | undefined {
  const section = ownValue(info, 'cpu');
  const user = counterValue(ownValue(section, 'used_cpu_user'));
  const sys = counterValue(ownValue(section, 'used_cpu_sys'));
  if (user === undefined || sys === undefined) return undefined;
  const cpu: { user: number; sys: number; mainThreadUser?: number; mainThreadSys?: number } = { user, sys };
  const mainUser = counterValue(ownValue(section, 'used_cpu_user_main_thread'));
  const mainSys = counterValue(ownValue(section, 'used_cpu_sys_main_thread'));
  if (mainUser !== undefined && mainSys !== undefined) {
    cpu.mainThreadUser = mainUser;
    cpu.mainThreadSys = mainSys;
  }
  return cpu;
}

/** One of `INFO stats`' counters, or undefined when the server does not give it. */
export function statsCounter(info: InfoSections, name: string, section = 'stats'): number | undefined {
  return counterValue(ownValue(ownValue(info, section), name));
}

/**
 * Redis 7+ `INFO latencystats` (`latency_percentiles_usec_get:p50=1.003,p99=2.007,p99.9=3.007`) by command
 * name, or undefined when the section is absent; names as in commandCountersFromInfo.
 */
export function latencyStatsFromInfo(info: InfoSections): Map<string, { p50: number; p99: number; p999: number }> | undefined {
  const section = ownValue(info, 'latencystats');
  if (section === undefined) return undefined;
  const stats = new Map<string, { p50: number; p99: number; p999: number }>();
  for (const [name, parts] of namedFields(section, 'latency_percentiles_usec_')) {
    const p50 = counterValue(ownValue(parts, 'p50'));
    const p99 = counterValue(ownValue(parts, 'p99'));
    const p999 = counterValue(ownValue(parts, 'p99.9'));
    if (p50 !== undefined && p99 !== undefined && p999 !== undefined) stats.set(name, { p50, p99, p999 });
  }
  return stats;
}

/** INFO with the sections a sample needs, parsed. */
export async function readSampleInfo(redis: ControlLink): Promise<InfoSections> {
  return readInfoSections(redis, serverCountersOff() ? BASE_SAMPLE_SECTIONS : SAMPLE_SECTIONS);
}

/** INFO with several sections in one call, parsed; a server before Redis 7 answers INFO all instead. */
async function readInfoSections(redis: ControlLink, sections: readonly string[]): Promise<InfoSections> {
  try {
    return parseInfo(String(await redis.call('INFO', ...sections)));
  } catch (error) {
    // Before Redis 7 INFO takes a single section; `all` holds every one a sample needs.
    if (isReplyError(error) && /syntax error|wrong number of arguments/i.test(error.message)) return parseInfo(String(await redis.call('INFO', 'all')));
    throw error;
  }
}

/**
 * Version, mode, OS, persistence/memory settings and key count, read in one round trip (INFO server, a CONFIG GET
 * per key: several keys in one only since Redis 7, DBSIZE). Restricted ACL users and managed services (CONFIG
 * renamed or denied, even INFO denied) still get the facts the server lets them read.
 */
export async function readServerFacts(redis: ControlLink, extraConfigKeys: readonly string[] = []): Promise<ServerFacts> {
  const configKeys = [...new Set([...FACT_CONFIG_KEYS, ...extraConfigKeys])];
  const replies = await redis.batch([['INFO', 'server'], ...configKeys.map((key) => ['CONFIG', 'GET', key]), ['DBSIZE']]);
  const [info, ...rest] = replies.map(unlessRefusedReply);
  const keys = rest.pop();
  const facts: ServerFacts = { ...(await readIdentity(redis, info)), config: configFrom(rest) };
  if (keys !== undefined) facts.keys = Number(keys);
  return facts;
}

async function readIdentity(redis: ControlLink, info: unknown): Promise<Pick<ServerFacts, 'version' | 'mode' | 'os' | 'buildId' | 'product'>> {
  if (info !== undefined) {
    const server = parseInfo(String(info)).server ?? dictionary<string>();
    const identity: Pick<ServerFacts, 'version' | 'mode' | 'os' | 'buildId' | 'product'> = {
      version: server.redis_version ?? 'unknown',
      mode: server.redis_mode ?? server.server_mode ?? 'standalone',
    };
    if (server.os) identity.os = server.os;
    if (server.redis_build_id && /^[0-9a-f]{1,40}$/i.test(server.redis_build_id)) identity.buildId = server.redis_build_id;
    const productVersion = server.valkey_version;
    if (productVersion && /^[0-9][0-9A-Za-z.-]{0,30}$/.test(productVersion)) identity.product = `valkey ${productVersion}`;
    return identity;
  }
  // INFO is in the @dangerous ACL category; HELLO (Redis 6+) tells version and mode to anyone logged in.
  const hello = await unlessRefused(redis.call('HELLO', '2'));
  const fields = Array.isArray(hello) ? hello : [];
  const valueOf = (name: string): string | undefined => {
    const index = fields.indexOf(name);
    return index >= 0 && index + 1 < fields.length ? String(fields[index + 1]) : undefined;
  };
  return { version: valueOf('version') ?? 'unknown', mode: valueOf('mode') ?? 'unknown' };
}

/** The CONFIG GET replies' pairs; a refused key (CONFIG denied or renamed) is left out. */
function configFrom(replies: readonly unknown[]): Record<string, string> {
  const config = new Map<string, string>();
  for (const reply of replies) {
    const pairs = Array.isArray(reply) ? reply : [];
    for (let i = 0; i + 1 < pairs.length; i += 2) if (!isPrototypeName(String(pairs[i]))) config.set(String(pairs[i]), String(pairs[i + 1]));
  }
  return recordFromMap(config);
}

/** A batched reply, or undefined when the server answered with an error; a connection failure throws. */
function unlessRefusedReply([error, reply]: BatchReply): unknown {
  if (error === null) return reply;
  if (isReplyError(error)) return undefined;
  throw error;
}

/** The reply, or undefined when the server answered with an error (NOPERM, unknown command); connection failures still throw. */
async function unlessRefused<T>(reply: Promise<T>): Promise<T | undefined> {
  try {
    return await reply;
  } catch (error) {
    if (isReplyError(error)) return undefined;
    throw error;
  }
}

/** An error reply from the server, as opposed to a failed connection (ioredis names them ReplyError). */
export function isReplyError(error: unknown): error is Error {
  return error instanceof Error && error.name === 'ReplyError';
}

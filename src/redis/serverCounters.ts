// The server's exact counters at one moment, for per-test deltas (src/results/serverDelta.ts): INFO
// commandstats/cpu/stats/latencystats, SLOWLOG and LATENCY LATEST, all in one write to the server. A part the
// server refuses (NOPERM, an unknown command, an old server) is absent with the reason, never a zero.
import type { BatchReply, ControlLink } from './controlLink';
import { ownValue, PROTO_KEY, recordFromMap } from '../gates/plainData';
import { commandCountersFromInfo, cpuFromInfo, isReplyError, latencyStatsFromInfo, parseInfo, statsCounter, type InfoSections } from './info';
import type { ServerSchedule } from './serverSchedule';
import type { ServerCounters } from './types';

/** The INFO sections a counter read asks for, in one call. */
export const COUNTER_SECTIONS = ['commandstats', 'cpu', 'stats', 'latencystats', 'persistence'] as const;

/** SLOWLOG entries read after a test: enough to name the slowest new one, bounded whatever the log's length. */
export const SLOWLOG_AFTER_ENTRIES = 32;

/** One SLOWLOG entry: its id, the command's first word (lower-case) and how long it ran. */
export interface SlowlogEntry {
  id: number;
  command: string;
  usec: number;
}

/** One node's counters and when they were read (Date.now() ms); `slowlog` holds the newest entries read. */
export interface NodeCounters {
  /** `host:port` of the node. */
  node: string;
  at: number;
  counters: ServerCounters;
  slowlog?: SlowlogEntry[];
  /** SLOWLOG LEN. */
  slowlogLength?: number;
  /** A local server's threads as the scheduler saw them (src/redis/monitor.ts reads them beside the counters). */
  schedule?: ServerSchedule;
}

/**
 * Reads the counters in one round trip: INFO with the counter sections, SLOWLOG GET `slowlogEntries`,
 * SLOWLOG LEN and LATENCY LATEST pipelined in one write. A server before Redis 7 refuses INFO with several
 * sections: it is asked INFO all once more. Throws only when the connection fails.
 */
export async function readServerCounters(redis: ControlLink, node: string, options: { slowlogEntries?: number } = {}): Promise<NodeCounters> {
  const replies: BatchReply[] = await redis.batch([
    ['INFO', ...COUNTER_SECTIONS],
    ['SLOWLOG', 'GET', options.slowlogEntries ?? 1],
    ['SLOWLOG', 'LEN'],
    ['LATENCY', 'LATEST'],
  ]);
  const at = Date.now();
  const failure = replies.find(([error]) => error !== null && !isReplyError(error));
  if (failure) throw failure[0];
  const [infoReply, slowlogReply, lengthReply, latencyReply] = replies;
  const absent = new Map<string, string>();

  let info: InfoSections | undefined;
  if (infoReply?.[0] === null) info = parseInfo(String(infoReply[1]));
  else if (infoReply && /syntax error|wrong number of arguments/i.test(infoReply[0]!.message)) {
    // Before Redis 7 INFO takes a single section: `all` holds every one (a second round trip, on old servers only).
    const all = await redis.call('INFO', 'all').catch((error: unknown) => (isReplyError(error) ? error : Promise.reject(error)));
    if (typeof all === 'string') info = parseInfo(all);
    else absent.set('info', `INFO refused: ${refusal(all as Error)}`);
  } else absent.set('info', `INFO refused: ${refusal(infoReply?.[0])}`);

  const counters: ServerCounters = { commands: recordFromMap(new Map()) };
  if (info) fromInfo(info, counters, absent);
  else for (const part of ['commands', 'cpu', 'stats', 'latencyStats']) absent.set(part, absent.get('info')!);
  absent.delete('info');

  const result: NodeCounters = { node, at, counters };
  if (slowlogReply?.[0] === null && lengthReply?.[0] === null) {
    result.slowlog = slowlogEntries(slowlogReply[1]);
    result.slowlogLength = Number(lengthReply[1]) || 0;
    // An empty log: no entry yet, so every entry written later is new.
    counters.slowlogLastId = result.slowlog[0]?.id ?? -1;
  } else absent.set('slowlog', `SLOWLOG refused: ${refusal(slowlogReply?.[0] ?? lengthReply?.[0])}`);

  if (latencyReply?.[0] === null) counters.latencyEvents = latencyEvents(latencyReply[1]);
  else absent.set('latencyEvents', `LATENCY LATEST refused: ${refusal(latencyReply?.[0])}`);

  if (absent.size > 0) counters.absent = recordFromMap(absent);
  return result;
}

function fromInfo(info: InfoSections, counters: ServerCounters, absent: Map<string, string>): void {
  const commands = commandCountersFromInfo(info);
  if (commands) counters.commands = recordFromMap(commands);
  else absent.set('commands', 'INFO commandstats not given by this server');
  const cpu = cpuFromInfo(info);
  if (cpu) counters.cpu = cpu;
  else absent.set('cpu', 'INFO cpu not given by this server');
  if (cpu && cpu.mainThreadUser === undefined) absent.set('mainThreadCpu', 'INFO cpu has no used_cpu_*_main_thread on this server (Redis 7+ has them)');
  const stats: [
    keyof ServerCounters & ('totalForks' | 'latestForkUsec' | 'evictedKeys' | 'expiredKeys' | 'rejectedConnections' | 'netInputBytes' | 'netOutputBytes'),
    string,
  ][] = [
    ['totalForks', 'total_forks'],
    ['latestForkUsec', 'latest_fork_usec'],
    ['evictedKeys', 'evicted_keys'],
    ['expiredKeys', 'expired_keys'],
    ['rejectedConnections', 'rejected_connections'],
    ['netInputBytes', 'total_net_input_bytes'],
    ['netOutputBytes', 'total_net_output_bytes'],
  ];
  for (const [field, name] of stats) {
    const value = statsCounter(info, name);
    if (value !== undefined) counters[field] = value;
    else absent.set(field, `INFO stats has no ${name} on this server`);
  }
  const aof = ownValue(ownValue(info, 'persistence'), 'aof_enabled');
  if (aof !== undefined) counters.aofEnabled = aof === '1';
  const delayed = statsCounter(info, 'aof_delayed_fsync', 'persistence');
  if (delayed !== undefined) counters.aofDelayedFsync = delayed;
  const latency = latencyStatsFromInfo(info);
  if (latency) counters.latencyStats = recordFromMap(latency);
  else absent.set('latencyStats', 'INFO latencystats not given by this server (Redis 7+ has it)');
}

function refusal(error: Error | null | undefined): string {
  return (error?.message ?? 'no reply').split('\n')[0].slice(0, 200);
}

/** SLOWLOG GET's reply: `[[id, time, usec, [command, args…], …], …]`, newest first; malformed entries skipped. */
export function slowlogEntries(reply: unknown): SlowlogEntry[] {
  if (!Array.isArray(reply)) return [];
  const entries: SlowlogEntry[] = [];
  for (const entry of reply) {
    if (!Array.isArray(entry) || entry.length < 4) continue;
    const id = Number(entry[0]);
    const usec = Number(entry[2]);
    const argv: unknown = entry[3];
    if (!Number.isFinite(id) || !Number.isFinite(usec)) continue;
    const command = Array.isArray(argv) && argv.length > 0 ? String(argv[0]).toLowerCase().slice(0, 64) : '?';
    entries.push({ id, command, usec });
  }
  return entries;
}

/** LATENCY LATEST's reply: `[[event, time, latest ms, max ms, …], …]`; event names are the server's words (a Map, `__proto__` dropped). */
export function latencyEvents(reply: unknown): Record<string, { time: number; latestMs: number; maxMs: number }> {
  const events = new Map<string, { time: number; latestMs: number; maxMs: number }>();
  if (Array.isArray(reply)) {
    for (const entry of reply) {
      if (!Array.isArray(entry) || entry.length < 4) continue;
      const event = String(entry[0]).slice(0, 64);
      const [time, latestMs, maxMs] = [Number(entry[1]), Number(entry[2]), Number(entry[3])];
      if (event === PROTO_KEY || ![time, latestMs, maxMs].every(Number.isFinite)) continue;
      events.set(event, { time, latestMs, maxMs });
    }
  }
  return recordFromMap(events);
}

/** CONFIG RESETSTAT: only ever on a throwaway server RBench started (per-test latencystats). */
export async function resetServerStats(redis: ControlLink): Promise<void> {
  await redis.call('CONFIG', 'RESETSTAT');
}

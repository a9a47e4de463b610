// `rbench capture` and the editor's "Capture Workload from Server…": watches a server's traffic for a
// bounded time and returns what it sampled. It only reads: INFO before and after the window (the command
// mix and rate from commandstats), a MONITOR sample (bounded in lines, bytes and time; off by default past a
// request rate, since MONITOR costs the server throughput), then a SCAN sample of the keyspace. A server
// that goes away mid-capture leaves a partial result; a refused MONITOR or SCAN leaves a result from what
// was allowed, with notes saying what was not sampled. The consent (./consentEffects.ts) is the caller's.
import type Redis from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { ownValue } from '../gates/plainData';
import { closeControlConnection, openControlConnection, RedisConnectionError } from '../redis/control';
import { describeConnectionError, errorPlace } from '../redis/errors';
import { commandCountersFromInfo, isReplyError, parseInfo, type InfoSections } from '../redis/info';
import type { ConnectionOptions } from '../redis/types';
import { sampleKeyspace } from './keyspace';
import { readMonitor, type MonitorOutcome } from './monitorReader';
import type { MonitorLine } from './monitorLine';
import { TrafficTally } from './traffic';
import type { CaptureOptions, CaptureResult, CommandCounts, SourceFacts } from './types';
import { groupDigits } from '../scenario/numberText';

export class CaptureError extends Error {
  override name = 'CaptureError';
}

const INFO_SECTIONS = ['server', 'clients', 'stats', 'replication', 'commandstats'];

async function readInfo(redis: Redis): Promise<InfoSections | undefined> {
  try {
    return parseInfo(await redis.info(...INFO_SECTIONS));
  } catch (error) {
    if (!isReplyError(error)) throw error;
    // Before Redis 7 INFO takes one section; NOPERM: no INFO at all.
    if (/syntax error|wrong number of arguments/i.test(error.message)) return parseInfo(await redis.info('all'));
    return undefined;
  }
}

function field(info: InfoSections | undefined, section: string, name: string): string | undefined {
  return ownValue(ownValue(info, section), name);
}

/** `config|get` → `CONFIG GET`. */
function commandName(name: string): string {
  return name.replace('|', ' ').toUpperCase();
}

/** Calls per command between two INFO readings, less the capture's own (INFO, MONITOR and its AUTH). */
function countsBetween(before: InfoSections, after: InfoSections, own: Map<string, number>, windowMs: number): CommandCounts | undefined {
  const first = commandCountersFromInfo(before);
  const second = commandCountersFromInfo(after);
  if (!first || !second) return undefined;
  const calls = new Map<string, number>();
  for (const [name, counters] of second) {
    const delta = counters.calls - (first.get(name)?.calls ?? 0) - (own.get(name) ?? 0);
    if (delta > 0) calls.set(commandName(name), delta);
  }
  return { calls, windowMs };
}

function sourceFacts(info: InfoSections | undefined, display: string, db: number, notes: string[]): SourceFacts {
  if (!info) notes.push('INFO was refused: no version, command counters or rate from the server (the mix comes from MONITOR alone)');
  const number = (section: string, name: string) => {
    const text = field(info, section, name);
    return text === undefined || !Number.isFinite(Number(text)) ? undefined : Number(text);
  };
  return {
    display,
    version: field(info, 'server', 'redis_version') ?? 'unknown',
    mode: field(info, 'server', 'redis_mode') ?? 'unknown',
    role: field(info, 'replication', 'role') ?? 'unknown',
    opsPerSec: number('stats', 'instantaneous_ops_per_sec'),
    connectedClients: number('clients', 'connected_clients'),
    db,
  };
}

/** The capture's own client as MONITOR names it (`127.0.0.1:51234`), so its INFO is not counted as traffic. */
function ownSource(redis: Redis): string | undefined {
  const stream = (redis as unknown as { stream?: { localAddress?: string; localPort?: number } }).stream;
  return stream?.localAddress && stream.localPort ? `${stream.localAddress.replace(/^::ffff:/, '')}:${stream.localPort}` : undefined;
}

export async function captureWorkload(connection: ConnectionOptions, display: string, options: CaptureOptions): Promise<CaptureResult> {
  const notes: string[] = [];
  const startedAt = new Date().toISOString();
  const progress = options.onProgress ?? (() => undefined);
  progress(0, `connecting to ${display}`);
  let redis: Redis;
  try {
    redis = await openControlConnection(connection);
  } catch (error) {
    throw new CaptureError(error instanceof RedisConnectionError ? error.message : describeConnectionError(error, errorPlace(connection)));
  }
  try {
    const before = await readInfo(redis);
    const source = sourceFacts(before, display, connection.db ?? 0, notes);
    if (source.role === 'slave' && field(before, 'replication', 'master_link_status') === 'down') {
      throw new CaptureError(
        `${display} is a replica whose link to its primary is down: it serves nothing to capture — capture the primary, or wait for the replica to catch up`,
      );
    }
    if (source.role === 'slave')
      notes.push('the target is a replica: it sees the reads sent to it, and the primary writes arrive as replication (not in MONITOR)');
    const result: CaptureResult = { source, startedAt, windowMs: options.durationMs, keepNames: options.keepNames, notes };
    const useMonitor = decideMonitor(options, source, notes);
    // MONITOR costs the server throughput: its rate before MONITOR starts is the one to replay.
    let windowBefore = before;
    if (useMonitor && before) {
      const unperturbed = await unperturbedCounters(redis, before, options.signal);
      if (unperturbed) ({ info: windowBefore, counts: result.unperturbed } = unperturbed);
    }
    const windowStart = Date.now();
    // The window ends at its time, on cancel, or when the server goes away (the poller or MONITOR sees it).
    const window = new AbortController();
    const cancel = () => window.abort();
    options.signal?.addEventListener('abort', cancel);
    if (options.signal?.aborted) window.abort();
    let last = { info: windowBefore, at: windowStart };
    let infoCalls = 1;
    let gone: string | undefined;
    // INFO once a second: progress, and the counters up to the last second a server that dies had.
    const poller = (async () => {
      while (!window.signal.aborted) {
        await sleep(1000, undefined, { signal: window.signal }).catch(() => undefined);
        if (window.signal.aborted) break;
        const elapsed = Date.now() - windowStart;
        progress(
          Math.min(1, elapsed / options.durationMs),
          `watching the traffic: ${(elapsed / 1000).toFixed(0)} of ${(options.durationMs / 1000).toFixed(0)} s`,
        );
        if (!before) continue;
        try {
          infoCalls++;
          const info = await readInfo(redis);
          if (info) last = { info, at: Date.now() };
        } catch (error) {
          gone = `the server went away after ${((Date.now() - windowStart) / 1000).toFixed(1)} s (${describeConnectionError(error, { ...errorPlace(connection), wasConnected: true })})`;
          window.abort();
        }
      }
    })();
    let outcome: MonitorOutcome | undefined;
    if (useMonitor) {
      const own = ownSource(redis);
      const traffic = new TrafficTally(options.keepNames, new Set(own ? [own] : []));
      result.traffic = traffic;
      const raw = options.raw?.(new Set(own ? [own] : []));
      result.raw = raw;
      const onLine = raw
        ? (line: MonitorLine, text: string) => {
            traffic.add(line);
            raw.add(line, text);
          }
        : (line: MonitorLine) => traffic.add(line);
      outcome = await readMonitor(connection, { ...options.monitorLimits, maxMs: options.durationMs }, onLine, window.signal);
      result.monitor = outcome;
      if (outcome.end === 'refused') {
        result.traffic = undefined;
        result.raw = undefined;
        notes.push(
          `MONITOR was refused (${outcome.error}): no argument shapes, key frequencies or write sizes — the mix and rate come from the counters, keys and sizes from the SCAN sample`,
        );
      } else if (outcome.end === 'lines' || outcome.end === 'bytes') {
        notes.push(`the MONITOR sample stopped at its ${outcome.end === 'lines' ? 'line' : 'byte'} limit after ${(outcome.elapsedMs / 1000).toFixed(1)} s`);
      } else if (outcome.end === 'closed') {
        gone ??= `the server went away after ${(outcome.elapsedMs / 1000).toFixed(1)} s (${outcome.error})`;
      }
    }
    if (!useMonitor || outcome?.end === 'refused') {
      const left = options.durationMs - (Date.now() - windowStart);
      if (left > 0) await sleep(left, undefined, { signal: window.signal }).catch(() => undefined);
    }
    window.abort();
    options.signal?.removeEventListener('abort', cancel);
    await poller;
    const windowMs = Date.now() - windowStart;
    result.windowMs = windowMs;
    if (gone) result.partial = gone;
    else if (options.signal?.aborted) result.partial = `cancelled after ${(windowMs / 1000).toFixed(1)} s`;
    if (before && !gone) {
      try {
        infoCalls++;
        const info = await readInfo(redis);
        if (info) last = { info, at: Date.now() };
      } catch (error) {
        result.partial = `the server went away at the end of the window (${describeConnectionError(error, { ...errorPlace(connection), wasConnected: true })})`;
      }
    }
    if (windowBefore && last.info !== windowBefore && last.info) {
      // INFO counts itself after it runs: the readings before the last one are the capture's own.
      const own = new Map([['info', infoCalls - 1]]);
      if (outcome && outcome.end !== 'refused') own.set('monitor', 1).set('auth', connection.password !== undefined ? 1 : 0);
      result.counters = countsBetween(windowBefore, last.info, own, last.at - windowStart);
      if (!result.counters) notes.push('INFO has no commandstats section: the mix comes from MONITOR alone');
    }
    if (!result.partial) {
      progress(1, 'sampling the keyspace (SCAN)');
      result.keyspace = await sampleKeyspace(redis, options.keyspaceLimits, options.keepNames, options.signal).catch((error: Error) => {
        result.partial = `the server went away during the keyspace sample (${error.message})`;
        return undefined;
      });
      if (result.keyspace?.refused) notes.push(`SCAN was refused (${result.keyspace.refused}): no keyspace sample — no prefill, key sizes from MONITOR only`);
    }
    return result;
  } finally {
    await closeControlConnection(redis);
  }
}

/** How long the counters are read before MONITOR starts: a second, as INFO's own instantaneous rate is measured. */
export const UNPERTURBED_MS = 1000;

/** The counters over UNPERTURBED_MS before MONITOR: the reading that ends them (the window's start) and the calls between; undefined when cancelled or unreadable. */
async function unperturbedCounters(
  redis: Redis,
  before: InfoSections,
  signal: AbortSignal | undefined,
): Promise<{ info: InfoSections; counts: CommandCounts } | undefined> {
  const from = Date.now();
  const waited = await sleep(UNPERTURBED_MS, true, { signal }).catch(() => false);
  if (!waited) return undefined;
  const info = await readInfo(redis);
  const at = Date.now();
  // The reading at `from` is the capture's own INFO call.
  const counts = info && countsBetween(before, info, new Map([['info', 1]]), at - from);
  return info && counts ? { info, counts } : undefined;
}

/** MONITOR or not: `--no-monitor`, or `auto` past the rate limit (MONITOR halves a busy server's throughput). */
function decideMonitor(options: CaptureOptions, source: SourceFacts, notes: string[]): boolean {
  if (options.monitor === 'off') {
    notes.push('MONITOR was off (--no-monitor): no argument shapes, key frequencies or write sizes — the mix and rate come from the counters');
    return false;
  }
  if (options.monitor === 'auto' && source.opsPerSec !== undefined && source.opsPerSec > options.monitorRateLimit) {
    notes.push(
      `MONITOR was off: the server ran ${groupDigits(source.opsPerSec)} commands/s, above the ${groupDigits(options.monitorRateLimit)}/s limit ` +
        '(MONITOR costs a busy server much of its throughput); pass --monitor to sample anyway',
    );
    return false;
  }
  return true;
}

// The server's side of one load (ServerDelta): its counters read before and after the load (src/redis/
// serverCounters.ts), subtracted node by node and added over a cluster's masters, and the load the server ran
// that RBench did not send. Pure: no I/O.
import type { LoadResult } from '../engine';
import { dictionary, ownValue, recordFromMap } from '../gates/plainData';
import type { NodeCounters } from '../redis/serverCounters';
import type { CommandCounters, ServerDelta } from '../redis/types';
import { isContainer } from '../scenario/commands';
import type { CommandTemplate, TestPlan } from '../scenario/plan';

/** Commands that run other commands the server counts as its own (a script's redis.call('SET')): foreign load cannot be told apart. */
const SCRIPT_COMMANDS: ReadonlySet<string> = new Set(['eval', 'evalsha', 'eval_ro', 'evalsha_ro', 'fcall', 'fcall_ro']);

/** Commands kept per record of a delta (`commands`, `latencyStats`, `foreign`): the ones the test sent, then the busiest. */
export const MAX_DELTA_COMMANDS = 100;
/**
 * Handshake commands a connection of a path whose handshakes are not counted exactly (ioredis, cluster) may
 * send: AUTH/HELLO, SELECT, CLIENT SETNAME/SETINFO ×2, READONLY, the cluster's discovery, PING, with room.
 */
const UNCOUNTED_HANDSHAKE = 8;

/** What RBench itself sent during a load: the test's commands, and its own besides them, by the server's command names. */
export interface Accounting {
  /** The test's commands (every request written, warm-up included). */
  sent: Record<string, number>;
  /** Why `sent` is not exact (the warm-up's requests are not counted): no foreign load is judged then. */
  inexact?: string;
  /**
   * RBench's own commands over the window, counted as they were sent: the sampling and control connections'
   * (INFO, SLOWLOG, LATENCY, CLIENT LIST, CONFIG…) and the load's handshakes.
   */
  own: Record<string, number>;
  /**
   * Calls the server may have counted that `sent` and `own` cannot place: commands in flight at the window's
   * edges, and the handshakes of a path that does not count its own. Foreign load is what exceeds it.
   */
  uncertain: number;
  /** Commands the test's commands run inside the server (a module's RM_Call, learned by a probe): the test's own. */
  nested?: Record<string, string>;
  /** Why only the test's own commands can be accounted (a merge: the other parts' set-up and clean-up were not counted in this window). */
  sentOnly?: string;
  /**
   * A part of a sharded run whose sibling parts ran meanwhile: they send what this part sends — the scenario's
   * commands, RBench's own at any stage of theirs (handshakes, sampling, their count of ended parts, their
   * clean-up and key count) — and how many only their run files say. No foreign load is judged here (absent,
   * with that reason); `rbench merge` judges it against all parts' sends. `parts` is how many were seen
   * (CLIENT LIST polls around the load); 0 for a part of `of` that saw none: a sibling's whole load can fall between
   * two polls (its connections open and closed in between), so not seeing one is no proof it did not send.
   */
  siblings?: { parts: number; of?: number };
}

/** RBench's own commands over a window (src/redis/commandTally.ts) and the calls in flight at its edges. */
export interface OwnCommands {
  sent: Record<string, number>;
  uncertain: number;
}

/** The name the server counts a plan command under: the first word lower-case, `config|get` for a container's literal subcommand (Redis 7). */
export function serverCommandName(command: CommandTemplate): string {
  const name = command.name.toLowerCase();
  const first = command.args[0];
  if (isContainer(name) && first?.length === 1 && typeof first[0] === 'string') return `${name}|${first[0].toLowerCase()}`;
  return name;
}

/**
 * What the load sent, by server command name: `sent.byLabel` (every request written, warm-up included) where
 * the engine counted it, else the measured requests per command, which leave out the warm-up.
 */
export function accountingFor(
  test: TestPlan,
  load: LoadResult,
  warmupMs: number,
  own: OwnCommands = { sent: {}, uncertain: 0 },
  nested?: Record<string, string>,
): Accounting {
  const names = new Map(test.commands.map((c) => [c.command.label, serverCommandName(c.command)]));
  const counts = new Map<string, number>();
  const add = (label: string, n: number) => {
    const name = names.get(label) ?? label.toLowerCase();
    counts.set(name, (counts.get(name) ?? 0) + n);
  };
  if (load.sent) for (const [label, n] of Object.entries(load.sent.byLabel)) add(label, n);
  else for (const command of load.commands) add(command.command, command.requests);
  const handshakes = load.sent?.handshakes;
  const ownCounts = new Map(Object.entries(own.sent));
  for (const [name, n] of Object.entries(handshakes ?? {})) ownCounts.set(name, (ownCounts.get(name) ?? 0) + n);
  const uncounted = handshakes
    ? 0
    : UNCOUNTED_HANDSHAKE * (load.connections.opened + load.connections.reconnects + (load.connections.cycles ?? 0) + (load.connections.idle ?? 0));
  const accounting: Accounting = { sent: recordFromMap(counts), own: recordFromMap(ownCounts), uncertain: own.uncertain + uncounted };
  if (nested && Object.keys(nested).length > 0) accounting.nested = nested;
  if (!load.sent && warmupMs > 0) accounting.inexact = 'the warm-up sent requests this version does not count';
  return accounting;
}

/**
 * A client group's accounting with its sibling groups' (run at the same time, src/runner/clientGroups.ts): what
 * they sent is the run's own load, never foreign. Each sibling's accounting is made without the run's tally
 * (accountingFor's `own` default), so the control connection's commands are counted once.
 */
export function withSiblingGroups(accounting: Accounting, siblings: readonly Accounting[]): Accounting {
  const own = new Map(Object.entries(accounting.own));
  let uncertain = accounting.uncertain;
  for (const sibling of siblings) {
    for (const counts of [sibling.sent, sibling.own]) for (const [name, n] of Object.entries(counts)) own.set(name, (own.get(name) ?? 0) + n);
    uncertain += sibling.uncertain;
  }
  const joined: Accounting = { ...accounting, own: recordFromMap(own), uncertain };
  const inexact = accounting.inexact ?? siblings.find((sibling) => sibling.inexact)?.inexact;
  if (inexact) joined.inexact = inexact;
  return joined;
}

type NodeDelta = ServerDelta & { node: string };

/**
 * The delta between two reads of the same nodes (matched by name). `scope`: `per-test` when the server's
 * statistics were reset just before the `before` read (a throwaway server), `cumulative` otherwise.
 */
/** The load's bytes per second from the clients' side (the server's input is what they sent), where the server counted them. */
export function bytesPerSecond(delta: ServerDelta | undefined): LoadResult['bytesPerSec'] {
  if (!delta || delta.netInputBytes === undefined || delta.netOutputBytes === undefined || delta.windowMs <= 0) return undefined;
  const seconds = delta.windowMs / 1000;
  return { sent: delta.netInputBytes / seconds, received: delta.netOutputBytes / seconds };
}

export function serverDelta(before: NodeCounters[], after: NodeCounters[], accounting: Accounting, scope: 'per-test' | 'cumulative'): ServerDelta {
  const deltas: NodeDelta[] = [];
  const unmatched: string[] = [];
  for (const read of after) {
    const earlier = before.find((b) => b.node === read.node);
    if (earlier) deltas.push(nodeDelta(earlier, read, scope));
    else unmatched.push(read.node);
  }
  const delta = deltas.length === 1 ? withoutNode(deltas[0]) : addNodes(deltas);
  if (unmatched.length > 0) {
    delta.absent = recordFromMap(new Map([...Object.entries(delta.absent ?? {}), ['nodes', `not read before the test: ${unmatched.join(', ')}`]]));
  }
  return withAccounting(delta, accounting);
}

function withoutNode(delta: NodeDelta): ServerDelta {
  const { node: _node, ...rest } = delta;
  return rest;
}

/** The server's usec per call for the commands the test sent, and the foreign load against what RBench sent. */
export function withAccounting(delta: ServerDelta, accounting: Accounting): ServerDelta {
  const result: ServerDelta = { ...delta, sent: accounting.sent, own: { sent: accounting.own, uncertain: accounting.uncertain } };
  if (accounting.nested) result.nested = accounting.nested;
  delete result.foreign;
  delete result.usecPerCall;
  const absent = new Map(Object.entries(delta.absent ?? {}));
  absent.delete('foreign');
  absent.delete('foreignOther');
  absent.delete('usecPerCall');
  if (absent.has('commands')) {
    absent.set('usecPerCall', absent.get('commands')!);
    absent.set('foreign', absent.get('commands')!);
  } else {
    const sent = resolvedNames(accounting.sent, delta.commands);
    let calls = 0;
    let usec = 0;
    for (const name of sent.keys()) {
      const counters = ownValue(delta.commands, name);
      if (counters) {
        calls += counters.calls;
        usec += counters.usec;
      }
    }
    if (calls > 0) result.usecPerCall = usec / calls;
    const why =
      accounting.inexact ??
      (accounting.siblings ? siblingsText(accounting.siblings) : undefined) ??
      (Object.keys(accounting.sent).some((name) => SCRIPT_COMMANDS.has(baseName(name))) ? SCRIPTS : undefined);
    if (why) absent.set('foreign', why);
    else {
      const expected = new Map(sent);
      for (const [name, n] of resolvedNames(accounting.own, delta.commands)) expected.set(name, (expected.get(name) ?? 0) + n);
      const placed = (name: string) => !accounting.sentOnly || sent.has(name);
      const commands = recordFromMap(new Map(Object.entries(delta.commands).filter(([name]) => placed(name))));
      if (accounting.sentOnly) absent.set('foreignOther', accounting.sentOnly);
      const foreign = foreignLoad(commands, expected, accounting.uncertain, new Set(Object.keys(accounting.nested ?? {})));
      if (foreign) result.foreign = foreign;
    }
  }
  const kept = new Set(Object.keys(accounting.sent));
  const omitted = capCommands(result, kept);
  if (omitted > 0) absent.set('moreCommands', `${omitted} more commands ran with fewer calls: left out (the run file keeps ${MAX_DELTA_COMMANDS})`);
  if (absent.size > 0) result.absent = recordFromMap(absent);
  else delete result.absent;
  return result;
}

/** Bounds the per-command records (a server may count thousands of module commands); returns how many commands were left out. */
function capCommands(delta: ServerDelta, kept: ReadonlySet<string>): number {
  const names = Object.keys(delta.commands);
  if (names.length <= MAX_DELTA_COMMANDS && Object.keys(delta.latencyStats?.commands ?? {}).length <= MAX_DELTA_COMMANDS) return 0;
  const rank = names.sort((a, b) => Number(kept.has(b)) - Number(kept.has(a)) || delta.commands[b].calls - delta.commands[a].calls);
  const keep = new Set(rank.slice(0, MAX_DELTA_COMMANDS));
  const only = <T>(record: Record<string, T>): Record<string, T> => recordFromMap(new Map(Object.entries(record).filter(([name]) => keep.has(name))));
  delta.commands = only(delta.commands);
  if (delta.latencyStats) delta.latencyStats = { ...delta.latencyStats, commands: only(delta.latencyStats.commands) };
  if (delta.foreign) delta.foreign = { ...delta.foreign, commands: only(delta.foreign.commands) };
  return Math.max(0, names.length - MAX_DELTA_COMMANDS);
}

/** Why a sharded part judges no foreign load while its siblings run: only their run files say what they sent. */
function siblingsText({ parts, of }: { parts: number; of?: number }): string {
  const who =
    parts > 0
      ? `${parts} sibling part${parts === 1 ? '' : 's'} of this sharded run ran meanwhile`
      : `this is a part of a sharded run of ${of ?? 'several'} parts, whose siblings may have sent meanwhile (a load can start and end between two looks at CLIENT LIST)`;
  return `${who}, and only their run files say what they sent: rbench merge judges foreign load against all parts' sends`;
}

const SCRIPTS = 'the test runs scripts: the server counts the commands they call as its own, so foreign load cannot be told apart';

function baseName(name: string): string {
  const bar = name.indexOf('|');
  return bar < 0 ? name : name.slice(0, bar);
}

/** Sent names as the server counts them: a server before Redis 7 counts `config|get` as `config`. */
function resolvedNames(sent: Record<string, number>, commands: ServerDelta['commands']): Map<string, number> {
  const resolved = new Map<string, number>();
  for (const [name, n] of Object.entries(sent)) {
    const server = resolvedName(name, commands);
    resolved.set(server, (resolved.get(server) ?? 0) + n);
  }
  return resolved;
}

function resolvedName(name: string, commands: ServerDelta['commands']): string {
  return ownValue(commands, name) === undefined && ownValue(commands, baseName(name)) !== undefined ? baseName(name) : name;
}

/**
 * Calls beyond what RBench sent, per command: the server's count (calls and rejected calls) minus the test's
 * requests and RBench's own commands, counted as sent. Nothing is left out by name: another client's PINGs
 * and INFO polls are foreign too. Only `notForeign` is not: the commands the test's own commands run inside the
 * server (`nested`). Undefined when the surplus is within the
 * calls the accounting cannot place (`uncertain`).
 */
export function foreignLoad(
  commands: ServerDelta['commands'],
  expected: ReadonlyMap<string, number>,
  uncertain: number,
  notForeign: ReadonlySet<string> = new Set(),
): ServerDelta['foreign'] {
  const extra = new Map<string, number>();
  let total = 0;
  for (const [name, counters] of Object.entries(commands)) {
    if (notForeign.has(name)) continue;
    const surplus = counters.calls + (counters.rejected ?? 0) - (expected.get(name) ?? 0);
    if (surplus > 0) {
      extra.set(name, surplus);
      total += surplus;
    }
  }
  if (total <= uncertain) return undefined;
  return { calls: total, commands: recordFromMap(extra) };
}

const BACKWARDS = 'went backwards during the test: the server was reset (CONFIG RESETSTAT) or restarted';

function nodeDelta(before: NodeCounters, after: NodeCounters, scope: 'per-test' | 'cumulative'): NodeDelta {
  const [b, a] = [before.counters, after.counters];
  const absent = new Map<string, string>([...Object.entries(b.absent ?? {}), ...Object.entries(a.absent ?? {})]);
  const windowMs = Math.max(0, after.at - before.at);
  const delta: NodeDelta = { node: after.node, nodes: 1, windowMs, calls: 0, usec: 0, commands: dictionary() };

  if (!absent.has('commands')) {
    const commands = commandDeltas(b.commands, a.commands);
    if (commands) {
      delta.commands = recordFromMap(commands);
      for (const counters of commands.values()) {
        delta.calls += counters.calls;
        delta.usec += counters.usec;
      }
    } else absent.set('commands', `the command counters ${BACKWARDS}`);
  }

  const seconds = windowMs / 1000;
  if (b.cpu && a.cpu && seconds > 0) {
    const used = a.cpu.user + a.cpu.sys - b.cpu.user - b.cpu.sys;
    if (used >= 0) delta.cpuPercent = (used / seconds) * 100;
    else absent.set('cpu', `the server's CPU time ${BACKWARDS}`);
    const [bm, am] = [b.cpu, a.cpu];
    if (bm.mainThreadUser !== undefined && bm.mainThreadSys !== undefined && am.mainThreadUser !== undefined && am.mainThreadSys !== undefined) {
      const main = am.mainThreadUser + am.mainThreadSys - bm.mainThreadUser - bm.mainThreadSys;
      if (main >= 0) delta.mainThreadCpuPercent = (main / seconds) * 100;
    }
  }

  const schedule = scheduleDelta(before, after);
  if (schedule) delta.schedule = schedule;

  const counter = (field: 'totalForks' | 'evictedKeys' | 'expiredKeys' | 'netInputBytes' | 'netOutputBytes', name: string): number | undefined => {
    const [x, y] = [b[field], a[field]];
    if (x === undefined || y === undefined) return undefined;
    if (y < x) absent.set(name, `${field} ${BACKWARDS}`);
    return y >= x ? y - x : undefined;
  };
  const forks = counter('totalForks', 'forks');
  if (forks !== undefined) {
    delta.forks = forks;
    if (forks > 0 && a.latestForkUsec !== undefined) delta.forkUsec = a.latestForkUsec;
  }
  const evicted = counter('evictedKeys', 'evictedKeys');
  if (evicted !== undefined) delta.evictedKeys = evicted;
  const expired = counter('expiredKeys', 'expiredKeys');
  if (expired !== undefined) delta.expiredKeys = expired;
  const netIn = counter('netInputBytes', 'netInputBytes');
  if (netIn !== undefined) delta.netInputBytes = netIn;
  const netOut = counter('netOutputBytes', 'netOutputBytes');
  if (netOut !== undefined) delta.netOutputBytes = netOut;

  if (a.aofEnabled) {
    delta.aof = {};
    if (b.aofDelayedFsync !== undefined && a.aofDelayedFsync !== undefined && a.aofDelayedFsync >= b.aofDelayedFsync) {
      delta.aof.delayedFsyncs = a.aofDelayedFsync - b.aofDelayedFsync;
    }
  }

  if (b.slowlogLastId !== undefined && a.slowlogLastId !== undefined) {
    if (a.slowlogLastId >= b.slowlogLastId) {
      const fresh = (after.slowlog ?? []).filter((entry) => entry.id > b.slowlogLastId!);
      const slowest = fresh.reduce<(typeof fresh)[number] | undefined>((top, entry) => (top === undefined || entry.usec > top.usec ? entry : top), undefined);
      delta.slowlog = { entries: a.slowlogLastId - b.slowlogLastId, ...(slowest ? { slowest: { command: slowest.command, usec: slowest.usec } } : {}) };
    } else absent.set('slowlog', `the SLOWLOG ids ${BACKWARDS}`);
  }

  if (b.latencyEvents && a.latencyEvents) {
    delta.latencyEvents = Object.entries(a.latencyEvents)
      .filter(([event, spike]) => spike.time > (ownValue(b.latencyEvents, event)?.time ?? -Infinity))
      .map(([event, spike]) => ({ event, latestMs: spike.latestMs, maxMs: spike.maxMs }));
  }

  if (a.latencyStats) delta.latencyStats = { scope, commands: a.latencyStats };
  if (absent.size > 0) delta.absent = recordFromMap(absent);
  return delta;
}

/** Per command: after − before for those that ran in the window; undefined when any counter went backwards. */
function commandDeltas(
  before: Record<string, CommandCounters>,
  after: Record<string, CommandCounters>,
): Map<string, CommandCounters & { usecPerCall: number }> | undefined {
  const deltas = new Map<string, CommandCounters & { usecPerCall: number }>();
  for (const [name, now] of Object.entries(after)) {
    const then = ownValue(before, name) ?? { calls: 0, usec: 0 };
    const calls = now.calls - then.calls;
    const usec = now.usec - then.usec;
    const rejected = now.rejected !== undefined ? now.rejected - (then.rejected ?? 0) : undefined;
    const failed = now.failed !== undefined ? now.failed - (then.failed ?? 0) : undefined;
    if (calls < 0 || usec < 0 || (rejected ?? 0) < 0 || (failed ?? 0) < 0) return undefined;
    if (calls === 0 && !rejected) continue;
    const counters: CommandCounters & { usecPerCall: number } = { calls, usec, usecPerCall: calls > 0 ? usec / calls : 0 };
    if (rejected !== undefined) counters.rejected = rejected;
    if (failed !== undefined) counters.failed = failed;
    deltas.set(name, counters);
  }
  // A command counted before but not after: the counters were reset.
  for (const name of Object.keys(before)) if (ownValue(after, name) === undefined && before[name].calls > 0) return undefined;
  return deltas;
}

/**
 * A cluster's masters added up: counts summed; CPU the busiest master's (a verdict asks whether one core is
 * saturated, and byNode keeps every master's); latency percentiles per command the highest of the masters'
 * (an upper bound: percentiles do not add). A figure a master lacks is absent for the sum, with that master named.
 */
/** The server's threads between the two reads (a restarted server's counters go backwards: then none). */
function scheduleDelta(before: NodeCounters, after: NodeCounters): ServerDelta['schedule'] {
  const [b, a] = [before.schedule, after.schedule];
  if (!b || !a || a.runMs < b.runMs || a.runnableWaitMs < b.runnableWaitMs) return undefined;
  const schedule: NonNullable<ServerDelta['schedule']> = { runMs: a.runMs - b.runMs, runnableWaitMs: a.runnableWaitMs - b.runnableWaitMs };
  const [bi, ai] = [b.ioThreads, a.ioThreads];
  if (bi && ai && ai.count === bi.count && ai.runMs >= bi.runMs && ai.runnableWaitMs >= bi.runnableWaitMs) {
    schedule.ioThreads = { count: ai.count, runMs: ai.runMs - bi.runMs, runnableWaitMs: ai.runnableWaitMs - bi.runnableWaitMs };
  }
  // A child read live (ns) before and reaped (10 ms ticks) after may read a little less: never below 0.
  if (b.childrenRunMs !== undefined && a.childrenRunMs !== undefined && b.machineBusyMs !== undefined && a.machineBusyMs !== undefined) {
    schedule.childrenRunMs = Math.max(0, a.childrenRunMs - b.childrenRunMs);
    schedule.machineBusyMs = Math.max(0, a.machineBusyMs - b.machineBusyMs);
  }
  return schedule;
}

function addNodes(deltas: NodeDelta[]): ServerDelta {
  const sum: ServerDelta = {
    nodes: deltas.length,
    windowMs: Math.max(0, ...deltas.map((d) => d.windowMs)),
    calls: 0,
    usec: 0,
    commands: dictionary(),
  };
  const absent = new Map<string, string>();
  for (const d of deltas) for (const [field, why] of Object.entries(d.absent ?? {})) if (!absent.has(field)) absent.set(field, `${d.node}: ${why}`);
  const commands = new Map<string, CommandCounters & { usecPerCall: number }>();
  if (!absent.has('commands')) {
    for (const d of deltas) {
      sum.calls += d.calls;
      sum.usec += d.usec;
      for (const [name, c] of Object.entries(d.commands)) {
        const into = commands.get(name) ?? { calls: 0, usec: 0, usecPerCall: 0 };
        into.calls += c.calls;
        into.usec += c.usec;
        if (c.rejected !== undefined) into.rejected = (into.rejected ?? 0) + c.rejected;
        if (c.failed !== undefined) into.failed = (into.failed ?? 0) + c.failed;
        into.usecPerCall = into.calls > 0 ? into.usec / into.calls : 0;
        commands.set(name, into);
      }
    }
  }
  sum.commands = recordFromMap(commands);
  const all = <T>(pick: (d: NodeDelta) => T | undefined): T[] | undefined => {
    const values = deltas.map(pick);
    return values.every((v) => v !== undefined) ? (values as T[]) : undefined;
  };
  const total = (values: number[]) => values.reduce((s, v) => s + v, 0);
  const cpu = all((d) => d.cpuPercent);
  if (cpu) sum.cpuPercent = Math.max(...cpu);
  const main = all((d) => d.mainThreadCpuPercent);
  if (main) sum.mainThreadCpuPercent = Math.max(...main);
  const forks = all((d) => d.forks);
  if (forks) {
    sum.forks = total(forks);
    const forkUsec = deltas.flatMap((d) => (d.forkUsec !== undefined ? [d.forkUsec] : []));
    if (forkUsec.length > 0) sum.forkUsec = Math.max(...forkUsec);
  }
  const evicted = all((d) => d.evictedKeys);
  if (evicted) sum.evictedKeys = total(evicted);
  const expired = all((d) => d.expiredKeys);
  if (expired) sum.expiredKeys = total(expired);
  const netIn = all((d) => d.netInputBytes);
  if (netIn) sum.netInputBytes = total(netIn);
  const netOut = all((d) => d.netOutputBytes);
  if (netOut) sum.netOutputBytes = total(netOut);
  const aofs = deltas.flatMap((d) => (d.aof ? [d.aof] : []));
  if (aofs.length > 0) {
    const delayed = aofs.every((aof) => aof.delayedFsyncs !== undefined) ? total(aofs.map((aof) => aof.delayedFsyncs!)) : undefined;
    sum.aof = delayed !== undefined ? { delayedFsyncs: delayed } : {};
  }
  const slowlogs = all((d) => d.slowlog);
  if (slowlogs) {
    const slowest = slowlogs.flatMap((s) => (s.slowest ? [s.slowest] : [])).sort((x, y) => y.usec - x.usec)[0];
    sum.slowlog = { entries: total(slowlogs.map((s) => s.entries)), ...(slowest ? { slowest } : {}) };
  }
  const events = all((d) => d.latencyEvents?.map((e) => ({ ...e, event: `${d.node} ${e.event}` })));
  if (events) sum.latencyEvents = events.flat();
  const stats = all((d) => d.latencyStats);
  if (stats) {
    const highest = new Map<string, { p50: number; p99: number; p999: number }>();
    for (const s of stats) {
      for (const [name, p] of Object.entries(s.commands)) {
        const seen = highest.get(name);
        highest.set(name, seen ? { p50: Math.max(seen.p50, p.p50), p99: Math.max(seen.p99, p.p99), p999: Math.max(seen.p999, p.p999) } : { ...p });
      }
    }
    sum.latencyStats = { scope: stats.some((s) => s.scope === 'cumulative') ? 'cumulative' : 'per-test', commands: recordFromMap(highest) };
  }
  sum.byNode = deltas.map((d) => ({ node: d.node, calls: d.calls, usec: d.usec, ...(d.cpuPercent !== undefined ? { cpuPercent: d.cpuPercent } : {}) }));
  if (absent.size > 0) sum.absent = recordFromMap(absent);
  return sum;
}

const MERGED_OTHERS =
  "the parts' own set-up and clean-up commands outside their windows are not counted in the widest one: foreign load is judged on the test's commands only";

/**
 * `rbench merge`: the parts ran at the same time against the same server, so each part's delta already holds
 * every part's load. The merged delta is the part with the widest window (nothing added twice), and foreign
 * load is judged again against the sum of what all parts sent.
 */
export function mergeServerDeltas(loads: readonly LoadResult[]): ServerDelta | undefined {
  const withServer = loads.filter((load) => load.server !== undefined);
  if (withServer.length === 0) return undefined;
  const widest = withServer.reduce((best, load) => (load.server!.windowMs > best.server!.windowMs ? load : best));
  const sent = new Map<string, number>();
  const own = new Map<string, number>();
  let uncertain = 0;
  let inexact: string | undefined;
  for (const load of loads) {
    if (!load.server?.sent) inexact ??= 'a part has no record of what it sent';
    if (!load.server?.own) inexact ??= 'a part has no record of the commands RBench itself sent (a run file before RBench counted them)';
    for (const [name, n] of Object.entries(load.server?.sent ?? {})) sent.set(name, (sent.get(name) ?? 0) + n);
    for (const [name, n] of Object.entries(load.server?.own?.sent ?? {})) own.set(name, (own.get(name) ?? 0) + n);
    uncertain += load.server?.own?.uncertain ?? 0;
    const why = load.server?.absent?.foreign;
    if (why) inexact ??= why;
  }
  const nested = widest.server!.nested;
  const accounting: Accounting = {
    sent: recordFromMap(sent),
    own: recordFromMap(own),
    uncertain,
    ...(nested ? { nested } : {}),
    ...(loads.length > 1 ? { sentOnly: MERGED_OTHERS } : {}),
  };
  if (inexact) accounting.inexact = inexact;
  return withAccounting(widest.server!, accounting);
}

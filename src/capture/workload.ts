// From what a capture sampled to what a scenario says: the weighted command lines (shares from the
// counters when INFO gave them, split over the argument shapes MONITOR saw), the commands left out with
// their share, the key space and its distribution, value sizes, rate, clients, pipelining, and the
// keyspace to prefill. Privacy is applied here: fixed keys and field names become `fixed:N` and `fN`
// unless the user kept names.
import { KEY_PLACEHOLDER } from './keyShape';
import { unreproducible, type UnreproducibleKind } from './commandKinds';
import { fitKeys, fitSizes, sizeQuantiles, type KeyFit, type SizeFit } from './fit';
import type { ShapeTally } from './traffic';
import type { CaptureResult } from './types';
import type { PatternSample } from './keyspace';
import { groupDigits } from '../scenario/numberText';
import { planQueues, type QueuePlan } from './jobQueues';
import type { WorkloadLine } from './workloadLine';

/**
 * The lines whose first key has one pattern, with that pattern's own key space: its distinct keys in the source
 * (the SCAN sample's estimate or the identifiers MONITOR saw, whichever is more) and the spread of its hits. The
 * language has one key space per phase, so each group is a measured phase of its own (scenarioText.ts).
 */
export interface KeyGroup {
  /** The written pattern (`stats:__key__`); undefined for lines whose keys carry no identifier (and no lines at all). */
  pattern?: string;
  keys: number;
  fit: KeyFit;
  /** Share of all the commands captured: its lines' shares summed. */
  share: number;
  lines: WorkloadLine[];
}

export interface PrefillPlan {
  pattern: string;
  type: string;
  keys: number;
  /** Elements of a collection (its median length, at most MAX_ELEMENTS), or 1. */
  length: number;
  /** The median length sampled, before the cap. */
  sampledLength: number;
  value?: SizeFit;
  ttlShare: number;
  ttlSeconds: number;
}

export interface Workload {
  lines: WorkloadLine[];
  left: { kind: UnreproducibleKind; share: number; commands: { name: string; share: number; reason?: string }[] }[];
  keySpace: number;
  keyFit: KeyFit;
  /** The lines by key pattern, each with its own key space, the commonest first (at most MAX_GROUPS); without the queues' producers. */
  groups: KeyGroup[];
  /** Blocking pops with the pushes that feed them: a producer and a consumer group each (./jobQueues.ts). */
  queues: QueuePlan[];
  keySize: number;
  value?: SizeFit;
  ratePerSec?: number;
  clients: number;
  pipeline: number;
  prefill: PrefillPlan[];
  /** Memory the prefill was scaled to fit in (bytes), when it was. */
  scaledPrefill?: { from: number; to: number };
  notes: string[];
}

/** The server memory a written scenario may ask for: under the checker's 4 GiB default, with room. */
const MEMORY_BUDGET = 2 * 1024 ** 3;
const PER_KEY = 96;
const MAX_LINES = 40;
const MAX_PREFILL = 8;
/** Key groups written at most (a measured phase each); rarer patterns' lines join the commonest group. */
export const MAX_GROUPS = 8;
/** Elements written per collection in a prefill, at most (one command per key). */
export const MAX_ELEMENTS = 100;

/** Command templates for commands the counters saw but MONITOR did not show (off or refused), by their key's type. */
const TEMPLATES: Record<string, { type: string; args: string[] }> = {
  GET: { type: 'string', args: ['K'] },
  SET: { type: 'string', args: ['K', '__value__'] },
  SETEX: { type: 'string', args: ['K', '3600', '__value__'] },
  INCR: { type: 'string', args: ['K'] },
  INCRBY: { type: 'string', args: ['K', '1'] },
  DECR: { type: 'string', args: ['K'] },
  APPEND: { type: 'string', args: ['K', '__value__'] },
  STRLEN: { type: 'string', args: ['K'] },
  MGET: { type: 'string', args: ['K'] },
  EXISTS: { type: 'string', args: ['K'] },
  EXPIRE: { type: 'string', args: ['K', '3600'] },
  TTL: { type: 'string', args: ['K'] },
  DEL: { type: 'string', args: ['K'] },
  HGET: { type: 'hash', args: ['K', 'f1'] },
  HSET: { type: 'hash', args: ['K', 'f1', '__value__'] },
  HGETALL: { type: 'hash', args: ['K'] },
  HMGET: { type: 'hash', args: ['K', 'f1'] },
  HINCRBY: { type: 'hash', args: ['K', 'f1', '1'] },
  HDEL: { type: 'hash', args: ['K', 'f1'] },
  HLEN: { type: 'hash', args: ['K'] },
  LPUSH: { type: 'list', args: ['K', '__value__'] },
  RPUSH: { type: 'list', args: ['K', '__value__'] },
  LPOP: { type: 'list', args: ['K'] },
  RPOP: { type: 'list', args: ['K'] },
  LRANGE: { type: 'list', args: ['K', '0', '9'] },
  LLEN: { type: 'list', args: ['K'] },
  SADD: { type: 'set', args: ['K', '__value__'] },
  SISMEMBER: { type: 'set', args: ['K', '__value__'] },
  SMEMBERS: { type: 'set', args: ['K'] },
  SCARD: { type: 'set', args: ['K'] },
  ZADD: { type: 'zset', args: ['K', '__rand_int__', '__value__'] },
  ZRANGE: { type: 'zset', args: ['K', '0', '9'] },
  ZSCORE: { type: 'zset', args: ['K', '__value__'] },
  ZINCRBY: { type: 'zset', args: ['K', '1', '__value__'] },
  ZCARD: { type: 'zset', args: ['K'] },
  XADD: { type: 'stream', args: ['K', '*', 'f1', '__value__'] },
  XLEN: { type: 'stream', args: ['K'] },
  PING: { type: '', args: [] },
};

/** Renames what would copy the source verbatim: keys without identifiers (`fixed:N`) and plain field names (`fN`). Patterns stay plain text: the scenario writer quotes them. */
class Renamer {
  private readonly fixed = new Map<string, string>();
  private readonly fields = new Map<string, string>();
  constructor(private readonly keepNames: boolean) {}

  key(pattern: string): string {
    if (this.keepNames || pattern.includes(KEY_PLACEHOLDER)) return pattern;
    if (!this.fixed.has(pattern)) this.fixed.set(pattern, `fixed:${this.fixed.size + 1}`);
    return this.fixed.get(pattern) as string;
  }

  field(pattern: string): string {
    if (this.keepNames || pattern.includes(KEY_PLACEHOLDER)) return pattern;
    if (!this.fields.has(pattern)) this.fields.set(pattern, `f${this.fields.size + 1}`);
    return this.fields.get(pattern) as string;
  }
}

/** The pattern of a shape's first key, when it holds an identifier (its draws are the command's key numbers). */
function firstKeyPattern(tally: ShapeTally): string | undefined {
  const key = tally.shapes.find((shape) => shape.kind === 'key');
  return key && key.kind === 'key' && key.pattern.includes(KEY_PLACEHOLDER) ? key.pattern : undefined;
}

function shapeArgs(tally: ShapeTally, rename: Renamer): string[] {
  return tally.shapes.map((shape, index) => {
    switch (shape.kind) {
      case 'key':
        return rename.key(shape.pattern);
      case 'value':
        return '__value__';
      case 'number': {
        const mean = tally.numberSums[index] / tally.count;
        return String(Math.abs(mean) >= 1 ? Math.round(mean) : Math.round(mean * 100) / 100);
      }
      case 'word':
        return shape.text;
      case 'field':
        return rename.field(shape.pattern);
    }
  });
}

const sum = (values: Iterable<number>) => [...values].reduce((total, value) => total + value, 0);

export function buildWorkload(capture: CaptureResult): Workload {
  const notes: string[] = [];
  const rename = new Renamer(capture.keepNames);
  const traffic = capture.traffic;
  const keyspace = capture.keyspace;
  // Calls per command: the counters see every command; MONITOR only its sample. With the counters read before
  // MONITOR started, each command's rate is theirs (MONITOR's cost is not the workload's); a command only the
  // window saw keeps the window's rate.
  const unperturbedCalls = capture.unperturbed && sum(capture.unperturbed.calls.values()) > 0 ? capture.unperturbed : undefined;
  const windowCalls = capture.counters && sum(capture.counters.calls.values()) > 0 ? capture.counters.calls : (traffic?.commands ?? new Map<string, number>());
  const calls = unperturbedCalls ? perSecondBlend(unperturbedCalls, capture.counters) : windowCalls;
  const total = sum(calls.values());
  const shapesByCommand = new Map<string, ShapeTally[]>();
  for (const tally of traffic?.shapes.values() ?? []) {
    const list = shapesByCommand.get(tally.command) ?? [];
    list.push(tally);
    shapesByCommand.set(tally.command, list);
  }
  const lines: WorkloadLine[] = [];
  const left = new Map<UnreproducibleKind, Map<string, { count: number; reason?: string }>>();
  const leave = (kind: UnreproducibleKind, name: string, count: number, reason?: string) => {
    const byName = left.get(kind) ?? new Map<string, { count: number; reason?: string }>();
    const before = byName.get(name);
    byName.set(name, { count: (before?.count ?? 0) + count, reason: before?.reason ?? reason });
    left.set(kind, byName);
  };
  // Blocking commands MONITOR shaped: a job queue's consumers when their pushes are among the lines (below).
  const blockingCalls = new Map<string, number>();
  const patterns = [...(keyspace?.patterns.values() ?? [])].sort((a, b) => b.keys - a.keys);
  for (const [name, count] of calls) {
    const share = total > 0 ? count / total : 0;
    const shapes = shapesByCommand.get(name);
    if (shapes && shapes.length > 0) {
      const seen = sum(shapes.map((tally) => tally.count));
      // The commonest shapes, each with its part of the command's share.
      for (const tally of [...shapes].sort((a, b) => b.count - a.count).slice(0, 4)) {
        lines.push({
          share: (share * tally.count) / seen,
          command: name,
          args: shapeArgs(tally, rename),
          pattern: firstKeyPattern(tally),
          clients: tally.sources.size,
        });
      }
      continue;
    }
    const seenLeft = [...(traffic?.unreproducible ?? [])].find(([, byName]) => byName.has(name));
    if (seenLeft?.[0] === 'blocking' && [...(traffic?.blocking.values() ?? [])].some((tally) => tally.command === name)) {
      blockingCalls.set(name, count);
      continue;
    }
    if (seenLeft) {
      leave(seenLeft[0], name, count);
      continue;
    }
    const why = unreproducible(name.split(' ')[0], TEMPLATES[name] !== undefined && name !== 'PING');
    const template = TEMPLATES[name];
    if (why || !template) {
      leave(why ?? 'unknown', name, count, why === 'blocking' ? 'MONITOR did not show its keys, nor the pushes that feed them' : undefined);
      continue;
    }
    const pattern = patterns.find((p) => p.types.has(template.type)) ?? patterns[0];
    const key = pattern ? rename.key(pattern.pattern) : `key:${KEY_PLACEHOLDER}`;
    lines.push({
      share,
      command: name,
      args: template.args.map((arg) => (arg === 'K' ? key : arg)),
      pattern: template.args.includes('K') && pattern?.pattern.includes(KEY_PLACEHOLDER) ? pattern.pattern : undefined,
    });
  }
  lines.sort((a, b) => b.share - a.share);
  if (lines.length > MAX_LINES)
    notes.push(
      `${lines.length - MAX_LINES} rarer command shapes were left out (${(sum(lines.slice(MAX_LINES).map((l) => l.share)) * 100).toFixed(1)}% of the commands)`,
    );
  const { queues, left: unqueued } = planQueues(traffic?.blocking.values() ?? [], blockingCalls, 1 / Math.max(1, total), lines.slice(0, MAX_LINES), (tally) =>
    shapeArgs(tally, rename),
  );
  for (const pop of unqueued) leave('blocking', pop.command, pop.count, pop.reason);
  // The consumers' own commands (a stream queue's XACKs) are sent by the consumer groups: not lines of the workload.
  const absorbed = new Set(queues.flatMap((queue) => queue.absorbed));
  const kept = lines.slice(0, MAX_LINES).filter((line) => !absorbed.has(line));
  const produced = new Set(queues.flatMap((queue) => queue.producers));

  const scanned = keyspace?.scanned ?? 0;
  const estimate = (pattern: PatternSample) =>
    keyspace?.dbsize !== undefined && scanned > 0 ? Math.round((keyspace.dbsize * pattern.keys) / scanned) : pattern.keys;
  const idsSeen = traffic ? traffic.ids.size : 0;
  let keySpace = Math.max(
    idsSeen,
    patterns.filter((p) => p.pattern.includes(KEY_PLACEHOLDER)).reduce((most, p) => Math.max(most, estimate(p)), 0),
  );
  if (keySpace === 0) {
    keySpace = 1000;
    notes.push('no key numbers were seen: the key space (1,000) is a guess');
  }
  const keyFit: KeyFit = traffic ? fitKeys(traffic.ids.values()) : { kind: 'uniform', reason: 'MONITOR was not sampled, so key frequencies are unknown' };
  const value = fitSizes(traffic?.valueSizes.values ?? []) ?? stringLengths(patterns);
  const idLengths = [...(traffic?.idLengths.values ?? []), ...patterns.flatMap((p) => p.idLengths.values)];

  const windowSeconds = (capture.counters?.windowMs ?? capture.windowMs) / 1000;
  const keptShare = sum(kept.map((l) => l.share));
  const observed = capture.counters ? sum(windowCalls.values()) / windowSeconds : traffic && traffic.lines > 0 ? traffic.lines / windowSeconds : undefined;
  // The server's rate before MONITOR started, where read: MONITOR's own cost is not the workload's (`calls` is per second then).
  const unperturbed = unperturbedCalls ? total : undefined;
  const base = unperturbed ?? observed;
  const ratePerSec = base === undefined ? undefined : keptShare * base;
  if (unperturbed !== undefined && observed !== undefined) {
    notes.push(
      `the rate is the server's over ${(capture.unperturbed!.windowMs / 1000).toFixed(1)} s before MONITOR started (${groupDigits(Math.round(unperturbed))}/s); under MONITOR it ran ${groupDigits(Math.round(observed))}/s (${Math.round((observed / unperturbed) * 100)}%): MONITOR's cost is not replayed`,
    );
  }
  const clients = Math.min(200, Math.max(1, traffic?.sources.size || (capture.source.connectedClients ?? 2) - 1));
  const pipeline = Math.min(100, Math.max(1, Math.round(traffic?.batchSize() ?? 1)));

  const groups = keyGroups(
    kept.filter((line) => !produced.has(line)),
    {
      estimate: (pattern) => {
        const sample = keyspace?.patterns.get(pattern);
        return sample ? estimate(sample) : 0;
      },
      ids: (pattern) => traffic?.idsByPattern.get(pattern),
      rename,
      fallback: { keys: keySpace, fit: keyFit },
      monitored: traffic !== undefined,
    },
  );
  keySpace = Math.max(keySpace, ...groups.map((group) => group.keys));
  const keySize = Math.min(64, Math.max(String(Math.max(0, keySpace - 1)).length, Math.round(sizeQuantiles(idLengths, [0.5])[0])));

  const prefill = prefillPlans(patterns, estimate, rename);
  const budget = prefill.reduce((bytes, p) => bytes + p.keys * (PER_KEY + p.length * (sizeOf(p.value) + 8)), 0);
  let scaledPrefill: Workload['scaledPrefill'];
  if (budget > MEMORY_BUDGET) {
    const factor = MEMORY_BUDGET / budget;
    for (const plan of prefill) plan.keys = Math.max(1, Math.floor(plan.keys * factor));
    scaledPrefill = { from: budget, to: MEMORY_BUDGET };
    keySpace = Math.max(1, Math.floor(keySpace * factor));
    for (const group of groups) group.keys = Math.max(1, Math.floor(group.keys * factor));
  }
  return {
    lines: kept,
    left: [...left].map(([kind, byName]) => {
      const count = sum([...byName.values()].map((entry) => entry.count));
      return {
        kind,
        share: count / Math.max(1, total),
        commands: [...byName]
          .map(([name, { count: n, reason }]) => ({ name, share: n / Math.max(1, total), ...(reason ? { reason } : {}) }))
          .sort((a, b) => b.share - a.share),
      };
    }),
    keySpace,
    keyFit,
    groups,
    queues,
    keySize,
    value,
    ratePerSec,
    clients,
    pipeline,
    prefill,
    scaledPrefill,
    notes,
  };
}

function sizeOf(fit: SizeFit | undefined): number {
  if (!fit) return 16;
  if (fit.kind === 'fixed') return fit.size;
  if (fit.kind === 'range') return (fit.min + fit.max) / 2;
  return sum(fit.choices.map((c) => c.size * c.weight)) / Math.max(1, sum(fit.choices.map((c) => c.weight)));
}

function stringLengths(patterns: readonly PatternSample[]): SizeFit | undefined {
  return fitSizes(patterns.filter((p) => p.types.has('string')).flatMap((p) => p.lengths.values));
}

function prefillPlans(patterns: readonly PatternSample[], estimate: (p: PatternSample) => number, rename: Renamer): PrefillPlan[] {
  return patterns.slice(0, MAX_PREFILL).map((sample) => {
    const type = [...sample.types].sort((a, b) => b[1] - a[1])[0][0];
    const lengths = sample.lengths.values;
    const fixedKey = !sample.pattern.includes(KEY_PLACEHOLDER);
    const median = Math.round(sizeQuantiles(lengths, [0.5])[0]);
    return {
      pattern: rename.key(sample.pattern),
      type,
      keys: fixedKey ? 1 : Math.max(1, estimate(sample)),
      length: type === 'string' ? 1 : Math.max(1, Math.min(MAX_ELEMENTS, median)),
      sampledLength: median,
      value: type === 'string' ? fitSizes(lengths) : undefined,
      ttlShare: sample.keys > 0 ? sample.withTtl / sample.keys : 0,
      ttlSeconds: Math.max(1, Math.round(sizeQuantiles(sample.ttls.values, [0.5])[0])),
    };
  });
}

/** Calls per second by command: the counters before MONITOR for the commands they saw, the window's for the others. */
function perSecondBlend(
  before: { calls: Map<string, number>; windowMs: number },
  window: { calls: Map<string, number>; windowMs: number } | undefined,
): Map<string, number> {
  const rates = new Map<string, number>();
  for (const [name, n] of before.calls) if (n > 0) rates.set(name, (n * 1000) / before.windowMs);
  for (const [name, n] of window?.calls ?? []) if (n > 0 && !rates.has(name)) rates.set(name, (n * 1000) / Math.max(1, window!.windowMs));
  return rates;
}

/**
 * The lines by the pattern of their first key, each pattern with its own key space: the more of the SCAN
 * sample's estimate and the identifiers MONITOR saw, and the spread of those hits. Lines with no identifier in
 * their keys, and patterns past MAX_GROUPS, join the commonest group.
 */
function keyGroups(
  lines: readonly WorkloadLine[],
  source: {
    estimate: (pattern: string) => number;
    ids: (pattern: string) => Map<string, number> | undefined;
    rename: Renamer;
    fallback: { keys: number; fit: KeyFit };
    monitored: boolean;
  },
): KeyGroup[] {
  const byPattern = new Map<string | undefined, WorkloadLine[]>();
  for (const line of lines) byPattern.set(line.pattern, [...(byPattern.get(line.pattern) ?? []), line]);
  const groups: KeyGroup[] = [...byPattern]
    .filter(([pattern]) => pattern !== undefined)
    .map(([pattern, members]) => {
      const ids = source.ids(pattern!);
      const keys = Math.max(ids?.size ?? 0, source.estimate(pattern!));
      const fit: KeyFit =
        ids && ids.size > 0
          ? fitKeys(ids.values())
          : { kind: 'uniform', reason: source.monitored ? 'MONITOR saw no key of this pattern' : 'MONITOR was not sampled, so key frequencies are unknown' };
      return {
        pattern: source.rename.key(pattern!),
        keys: keys > 0 ? keys : source.fallback.keys,
        fit,
        share: sum(members.map((line) => line.share)),
        lines: members,
      };
    })
    .sort((a, b) => b.share - a.share);
  const rest = [...(byPattern.get(undefined) ?? []), ...groups.slice(MAX_GROUPS).flatMap((group) => group.lines)];
  const kept = groups.slice(0, MAX_GROUPS);
  if (rest.length > 0) {
    if (kept.length === 0) kept.push({ keys: source.fallback.keys, fit: source.fallback.fit, share: 0, lines: [] });
    kept[0].lines.push(...rest);
    kept[0].share += sum(rest.map((line) => line.share));
  }
  for (const group of kept) group.lines.sort((a, b) => b.share - a.share);
  return kept;
}

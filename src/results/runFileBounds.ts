// Keeps run files small whatever the run's length or the server's replies: a multi-hour run would otherwise
// store one timeline entry per second per load and one INFO sample per second, and a server may send a
// 30 MB INFO field or 300k errorstats a second. Past the caps, timelines are merged into wider buckets,
// samples thinned, texts cut and rare error kinds dropped, and the file says so (`timelineDownsampled`,
// `server.samplesThinned`, `errorstatsOmitted`, `errorKindsOmitted`, `… (n more characters)`), so a
// reader never mistakes a bucket for a second. Documented in docs/run-file.md.
import type { LoadResult, TimelineSecond } from '../engine';
import type { RunFile } from './runFile';

/** One hour of 1-second entries; a longer load is stored in buckets of several seconds. */
export const MAX_TIMELINE_POINTS = 3600;
/** INFO samples kept per run (one a second is taken): one hour's worth, then every k-th. */
export const MAX_SERVER_SAMPLES = 3600;

/** How much of a long run a run file keeps: timeline entries per load, INFO samples per run. */
export interface RunFileLimits {
  timelinePoints: number;
  serverSamples: number;
}

/** The caps of every run file written (docs/run-file.md); a caller may pass lower ones. */
export const RUN_FILE_LIMITS: Readonly<RunFileLimits> = { timelinePoints: MAX_TIMELINE_POINTS, serverSamples: MAX_SERVER_SAMPLES };

export interface TimelineDownsampled {
  /** Entries of the measured timeline merged into each stored one. */
  entriesPerPoint: number;
  /** Entries before merging. */
  originalPoints: number;
}

/**
 * Merges consecutive entries, `per` at a time. Nothing is flattered: `ops` is the time-weighted mean
 * rate, `errors` (and cluster `moved`/`ask`) the bucket's total, `p99Us` and `maxUs` the worst of the bucket, `p50Us` the mean.
 */
export function downsampleTimeline(timeline: readonly TimelineSecond[], per: number): TimelineSecond[] {
  const out: TimelineSecond[] = [];
  for (let at = 0; at < timeline.length; at += per) {
    const bucket = timeline.slice(at, at + per);
    let seconds = 0;
    let ops = 0;
    let errors = 0;
    let p50 = 0;
    let p99 = 0;
    let max = 0;
    for (const entry of bucket) {
      const length = (entry.partialMs ?? 1000) / 1000;
      seconds += length;
      ops += entry.ops * length;
      errors += entry.errors;
      p50 += entry.p50Us;
      p99 = Math.max(p99, entry.p99Us);
      max = Math.max(max, entry.maxUs);
    }
    const merged: TimelineSecond = {
      t: bucket[0].t,
      ops: seconds > 0 ? ops / seconds : 0,
      errors,
      p50Us: Math.round(p50 / bucket.length),
      p99Us: p99,
      maxUs: max,
    };
    // Cluster redirections are counts: the bucket's total.
    if (bucket.some((entry) => entry.moved !== undefined || entry.ask !== undefined)) {
      merged.moved = bucket.reduce((sum, entry) => sum + (entry.moved ?? 0), 0);
      merged.ask = bucket.reduce((sum, entry) => sum + (entry.ask ?? 0), 0);
    }
    out.push(merged);
  }
  return out;
}

/** A string from a server (INFO fields, CONFIG values, error texts) kept in a run file: at most this many characters. */
export const MAX_SERVER_TEXT = 1024;
/** Names of error kinds and errorstats (`ERR`, `WRONGTYPE`): at most this many characters. */
export const MAX_KIND_NAME = 64;
/** errorstats kinds kept per INFO sample, and error kinds kept per command: the largest counts. */
export const MAX_ERROR_KINDS = 50;
/** CONFIG values kept in the server facts (RBench asks for four). */
export const MAX_CONFIG_ENTRIES = 32;

/** `text` cut to `max` characters, saying how much was cut. */
export function capText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/**
 * Counts by kind with at most MAX_ERROR_KINDS kinds (the largest counts) and names cut to MAX_KIND_NAME
 * (names cut to the same text add up); `omitted` is how many kinds were dropped.
 */
export function capCounts(counts: Readonly<Record<string, number>>): { counts: Record<string, number>; omitted: number; changed: boolean } {
  let entries = Object.entries(counts);
  const longName = entries.some(([kind]) => kind.length > MAX_KIND_NAME);
  if (!longName && entries.length <= MAX_ERROR_KINDS) return { counts: counts as Record<string, number>, omitted: 0, changed: false };
  if (longName) {
    const merged = new Map<string, number>();
    for (const [kind, count] of entries) {
      const name = capText(kind, MAX_KIND_NAME);
      merged.set(name, (merged.get(name) ?? 0) + count);
    }
    entries = [...merged];
  }
  const omitted = Math.max(0, entries.length - MAX_ERROR_KINDS);
  if (omitted > 0) {
    // The MAX_ERROR_KINDS largest, in the order received (ties: the first ones): a numeric sort of the counts
    // only (300k kinds a sample in ~20 ms) gives the smallest count kept.
    const sorted = Float64Array.from(entries, ([, count]) => count).sort();
    const threshold = sorted[sorted.length - MAX_ERROR_KINDS];
    let above = 0;
    for (const [, count] of entries) if (count > threshold) above++;
    let ties = MAX_ERROR_KINDS - above;
    entries = entries.filter(([, count]) => count > threshold || (count === threshold && ties-- > 0));
  }
  // Object.fromEntries defines even `__proto__` as a plain data property.
  return { counts: Object.fromEntries(entries), omitted, changed: true };
}

type Sample = RunFile['server']['samples'][number];

/** An INFO sample within the caps: errorstats and status texts. */
export function boundSample(sample: Sample): Sample {
  const errorstats = capCounts(sample.errorstats ?? {});
  const rdb = capText(String(sample.rdbLastBgsaveStatus ?? ''), MAX_KIND_NAME);
  const aof = capText(String(sample.aofLastBgrewriteStatus ?? ''), MAX_KIND_NAME);
  if (!errorstats.changed && rdb === sample.rdbLastBgsaveStatus && aof === sample.aofLastBgrewriteStatus) return sample;
  const bounded: Sample & { errorstatsOmitted?: number } = { ...sample, rdbLastBgsaveStatus: rdb, aofLastBgrewriteStatus: aof, errorstats: errorstats.counts };
  if (errorstats.omitted > 0) bounded.errorstatsOmitted = errorstats.omitted;
  return bounded;
}

type Facts = NonNullable<RunFile['target']['server']>;

/** The server facts within the caps: version, mode, os and CONFIG values. */
export function boundServerFacts(facts: Facts): Facts {
  const config = Object.entries(facts.config ?? {});
  let changed = config.length > MAX_CONFIG_ENTRIES;
  const kept = config.slice(0, MAX_CONFIG_ENTRIES).map(([key, value]) => {
    const entry = [capText(key, MAX_KIND_NAME), capText(String(value), MAX_SERVER_TEXT)] as const;
    if (entry[0] !== key || entry[1] !== value) changed = true;
    return entry;
  });
  const bounded: Facts = { ...facts, config: Object.fromEntries(kept) };
  for (const field of ['version', 'mode', 'os'] as const) {
    const text = facts[field];
    if (typeof text === 'string' && text.length > MAX_SERVER_TEXT) {
      bounded[field] = capText(text, MAX_SERVER_TEXT);
      changed = true;
    }
  }
  return changed ? bounded : facts;
}

type Command = LoadResult['total'];

/** A command's result within the caps: error kinds and their example texts (server replies). */
export function boundCommand(result: Command): Command {
  const kinds = capCounts(result.errorsByKind ?? {});
  const examples = Object.entries(result.errorExamples ?? {});
  const longExample = examples.some(([kind, text]) => kind.length > MAX_KIND_NAME || String(text).length > MAX_SERVER_TEXT);
  if (!kinds.changed && !longExample) return result;
  const kept = new Map<string, string>();
  for (const [kind, text] of examples) {
    const name = capText(kind, MAX_KIND_NAME);
    if (Object.prototype.hasOwnProperty.call(kinds.counts, name) && !kept.has(name)) kept.set(name, capText(String(text), MAX_SERVER_TEXT));
  }
  const bounded: Command & { errorKindsOmitted?: number } = { ...result, errorsByKind: kinds.counts, errorExamples: Object.fromEntries(kept) };
  if (kinds.omitted > 0) bounded.errorKindsOmitted = kinds.omitted;
  return bounded;
}

function boundLoad(load: LoadResult, maxTimelinePoints: number): LoadResult {
  let bounded = load;
  if (load.timeline.length > maxTimelinePoints) {
    const per = Math.ceil(load.timeline.length / maxTimelinePoints);
    const timelineDownsampled: TimelineDownsampled = { entriesPerPoint: per, originalPoints: load.timeline.length };
    bounded = { ...bounded, timeline: downsampleTimeline(load.timeline, per), timelineDownsampled } as LoadResult;
  }
  const total = boundCommand(load.total);
  const commands = load.commands.map(boundCommand);
  if (total !== load.total || commands.some((command, i) => command !== load.commands[i])) bounded = { ...bounded, total, commands };
  if (load.cluster) {
    const nodes = load.cluster.nodes.map((node) => {
      const nodeTotal = boundCommand(node.total);
      return nodeTotal === node.total ? node : { ...node, total: nodeTotal };
    });
    if (nodes.some((node, i) => node !== load.cluster!.nodes[i])) bounded = { ...bounded, cluster: { ...load.cluster, nodes } };
  }
  for (const field of ['error', 'errorStatusReason'] as const) {
    const text = load[field];
    if (typeof text === 'string' && text.length > MAX_SERVER_TEXT * 4) bounded = { ...bounded, [field]: capText(text, MAX_SERVER_TEXT * 4) };
  }
  return bounded;
}

function boundServer(server: RunFile['server'], maxSamples: number): RunFile['server'] {
  let bounded = server;
  if (server.samples.length > maxSamples) {
    const every = Math.ceil(server.samples.length / maxSamples);
    const samples = server.samples.filter((_, i) => i % every === 0);
    // The last sample closes the run: keep it.
    if (samples[samples.length - 1] !== server.samples[server.samples.length - 1]) samples.push(server.samples[server.samples.length - 1]);
    bounded = { ...server, samples, samplesThinned: { keptEvery: every, originalSamples: server.samples.length } } as RunFile['server'];
  }
  const samples = bounded.samples.map(boundSample);
  if (samples.some((sample, i) => sample !== bounded.samples[i])) bounded = { ...bounded, samples };
  for (const field of ['before', 'after'] as const) {
    const sample = bounded[field];
    const boundedSample = sample && boundSample(sample);
    if (boundedSample !== sample) bounded = { ...bounded, [field]: boundedSample };
  }
  if (typeof server.error === 'string' && server.error.length > MAX_SERVER_TEXT * 4)
    bounded = { ...bounded, error: capText(server.error, MAX_SERVER_TEXT * 4) };
  return bounded;
}

/**
 * `run` within the caps (a copy where something changed): timelines and INFO samples (`limits`), the
 * server's facts, errorstats and error kinds. Every run file written goes through this (runFileWriter.ts).
 */
export function boundRunFile(run: RunFile, limits: Readonly<RunFileLimits> = RUN_FILE_LIMITS): RunFile {
  let changed = false;
  const points = run.points.map((point) => {
    const repeats = point.repeats.map((loads) => loads.map((load) => boundLoad(load, limits.timelinePoints)));
    if (repeats.some((loads, r) => loads.some((load, i) => load !== point.repeats[r][i]))) {
      changed = true;
      return { ...point, repeats };
    }
    return point;
  });
  const server = boundServer(run.server, limits.serverSamples);
  const facts = run.target.server ? boundServerFacts(run.target.server) : undefined;
  if (server !== run.server || facts !== run.target.server) changed = true;
  if (!changed) return run;
  return { ...run, points, server, target: facts === run.target.server ? run.target : { ...run.target, server: facts } };
}

// `rbench run --memtier-json FILE`: each measured test as memtier_benchmark's `--json-out-file` JSON, so the
// exporters that read memtier's file by exact paths (`"ALL STATS".Totals."Percentile Latencies"."p99.00"`)
// read RBench's. The shape follows memtier's source (RedisLabs/memtier_benchmark run_stats.cpp:
// result_print_to_json and print_json; memtier_benchmark.cpp: config_print_to_json); the importer
// (import/memtierJson.ts) reads it back to the same figures. The mapping is in docs/exports.md.
import type { CommandResult, LoadResult, TimelineSecond } from '../engine';
import type { KeyDistribution, PhasePlan } from '../scenario/plan';
import { DEFAULT_PERCENTILES, latencyAtPercentiles } from './chosenPercentiles';
import type { RunFile } from './runFile';
import { representativeLoad } from './summary';
import { bucketMs, bucketReplies, fullSeconds } from './timelineSeconds';
import { lookupsOf } from './missRate';

type Json = Record<string, unknown>;

/** One memtier-shaped file: the test it describes and its JSON object. */
export interface MemtierOut {
  run: RunFile;
  load: LoadResult;
  json: Json;
}

/** memtier's percentile key in `Percentile Latencies`: `p%.3f` into 7 bytes, so 6 characters (`p99.90`, `p99.99`). */
export const memtierPercentileKey = (p: number): string => `p${p.toFixed(3)}`.slice(0, 6);
/** memtier's percentile key in a `Time-Serie` second: `p%.2f` (`p50.00`, `p99.00`). */
const secondPercentileKey = (p: number): string => `p${p.toFixed(2)}`.slice(0, 6);

/** memtier's name of a command's section: `Sets`, `Gets`, `Lpushs` (lower case, first letter up, `s` appended). */
export function memtierSectionName(label: string): string {
  const lower = label.toLowerCase();
  return `${lower.charAt(0).toUpperCase()}${lower.slice(1)}s`;
}

/** Hits and misses of a result (results/hitsMisses.ts): 0 and 0 for a row that is no read; an MGET's counted per key. */
export function hitsAndMisses(result: CommandResult): { hits: number; misses: number } {
  const misses = result.misses;
  if (typeof misses !== 'number') return { hits: 0, misses: 0 };
  return { hits: Math.max(0, lookupsOf(result) - misses), misses };
}

const fixed = (value: number, digits: number) => Number(value.toFixed(digits));
const ms = (us: number) => fixed(us / 1000, 3);

/** KB per second received and sent (the server's count over the test, LoadResult.bytesPerSec), 0 where not read: memtier's fields stay present. */
function kbPerSecond(load: LoadResult): { rx: number; tx: number } {
  const bytes = load.bytesPerSec;
  return { rx: fixed((bytes?.received ?? 0) / 1024, 2), tx: fixed((bytes?.sent ?? 0) / 1024, 2) };
}

/** memtier's per-second `Time-Serie`: whole seconds of the timeline (fine 100 ms buckets added up into their second). */
function timeSerie(timeline: TimelineSecond[], withPercentiles: boolean): Json {
  const length = bucketMs(timeline);
  const seconds = new Map<number, TimelineSecond[]>();
  for (const bucket of timeline) {
    const second = Math.floor(bucket.t + 1e-6);
    seconds.set(second, [...(seconds.get(second) ?? []), bucket]);
  }
  const whole = new Set(fullSeconds(timeline));
  const serie: Json = {};
  for (const [second, buckets] of [...seconds].sort((a, b) => a[0] - b[0])) {
    const count = buckets.reduce((sum, bucket) => sum + bucketReplies(bucket, length), 0);
    const entry: Json = { 'Bytes RX': 0, 'Bytes TX': 0, Count: count };
    if (count > 0) {
      entry['Max Latency'] = ms(Math.max(...buckets.map((b) => b.maxUs)));
      // A second's percentiles only where its bucket is the whole second: fine buckets' cannot be added up.
      if (withPercentiles && buckets.length === 1 && whole.has(buckets[0])) {
        entry[secondPercentileKey(50)] = ms(buckets[0].p50Us);
        entry[secondPercentileKey(99)] = ms(buckets[0].p99Us);
      }
    }
    serie[String(second)] = entry;
  }
  return serie;
}

/** One section (`Totals`, `Sets`, …) as result_print_to_json writes it. */
function section(result: CommandResult, load: LoadResult, percentiles: readonly number[], timeline: TimelineSecond[], totals: boolean): Json {
  const seconds = load.durationMs / 1000;
  const perSecond = (count: number) => (seconds > 0 ? fixed(count / seconds, 2) : 0);
  const { hits, misses } = hitsAndMisses(result);
  // Bytes are counted per test, not per command: a command's section has 0.
  const kb = totals ? kbPerSecond(load) : { rx: 0, tx: 0 };
  const latency = result.latency;
  const values = latencyAtPercentiles(result, percentiles);
  return {
    Count: result.requests,
    'Ops/sec': fixed(result.opsPerSec, 2),
    'Hits/sec': perSecond(hits),
    'Misses/sec': perSecond(misses),
    // memtier has no count of error replies: RBench's errors (error replies and timeouts) go where its consumers look for failures.
    'Connection Errors/sec': perSecond(result.errors),
    'Connection Errors': result.errors,
    Latency: ms(latency.meanUs),
    'Average Latency': ms(latency.meanUs),
    'Accumulated Latency': Math.round((latency.meanUs * latency.count) / 1000),
    'Min Latency': ms(latency.minUs),
    'Max Latency': ms(latency.maxUs),
    'KB/sec': fixed(kb.rx + kb.tx, 2),
    'KB/sec RX/TX': fixed(kb.rx + kb.tx, 2),
    'KB/sec RX': kb.rx,
    'KB/sec TX': kb.tx,
    'Time-Serie': timeSerie(timeline, totals),
    'Percentile Latencies': {
      ...Object.fromEntries(percentiles.map((p, i) => [memtierPercentileKey(p), ms(values[i])])),
      'Histogram log format': { 'Compressed Histogram': result.histogram },
    },
  };
}

const KEY_PATTERNS: Record<KeyDistribution, string> = { uniform: 'R:R', sequential: 'S:S', gaussian: 'G:G', zipf: 'Z:Z' };

/** memtier's `configuration` of a load: what its importer and its readers need to know how it ran. */
function configuration(run: RunFile, phase: PhasePlan, load: LoadResult): Json {
  const test = phase.tests.find((t) => t.name === load.test);
  const weightOf = (name: string) => test?.commands.filter((c) => c.command.name.toUpperCase() === name).reduce((sum, c) => sum + c.weight, 0) ?? 0;
  const sets = weightOf('SET');
  const gets = weightOf('GET');
  const clients = phase.load.clients;
  const threads = typeof phase.load.threads === 'number' && clients % phase.load.threads === 0 ? phase.load.threads : 1;
  const url = /^rediss?:\/\/(?:[^@/]*@)?\[?([^\]/:]+)\]?(?::(\d+))?/.exec(run.target.display);
  const value = phase.value;
  const dataSize = value.kind === 'fixed' ? value.size : value.kind === 'range' ? value.max : Math.max(...value.choices.map((c) => c.size));
  return {
    server: url?.[1] ?? '',
    port: Number(url?.[2] ?? 6379),
    uri: run.target.display,
    protocol: run.plan.target.resp === 3 ? 'resp3' : 'resp2',
    requests: phase.load.requests !== undefined ? Math.round(phase.load.requests / clients) : 0,
    rate_limit: phase.load.rate ?? 0,
    clients: clients / threads,
    threads,
    test_time: phase.load.durationMs !== undefined ? Math.round(phase.load.durationMs / 1000) : 0,
    // A test without SET or GET keeps memtier's default ratio: its commands are its sections.
    ratio: sets + gets > 0 ? `${Math.round((sets / (sets + gets)) * 100)}:${Math.round((gets / (sets + gets)) * 100)}` : '1:10',
    pipeline: phase.load.pipeline,
    data_size: dataSize,
    key_prefix: '',
    key_minimum: 0,
    key_maximum: phase.keys.space - 1,
    key_pattern: KEY_PATTERNS[phase.keys.distribution],
  };
}

/** The memtier JSON of each measured test of each run (its representative repeat at each point). */
export function memtierJsonOf(runs: readonly RunFile[]): MemtierOut[] {
  const out: MemtierOut[] = [];
  for (const run of runs) {
    const percentiles = run.plan.percentiles ?? DEFAULT_PERCENTILES;
    for (const [pointIndex, point] of run.points.entries()) {
      for (const summary of point.summary) {
        const load = representativeLoad(point.repeats, summary);
        const phase = run.plan.points[pointIndex]?.phases.find((p) => p.name === load?.phase);
        if (!load || !phase) continue;
        const start = Date.parse(load.measuredFrom ?? load.startedAt);
        const all: Json = {
          Runtime: {
            'Start time': start,
            'Finish time': start + Math.round(load.durationMs),
            'Total duration': Math.round(load.durationMs),
            'Time unit': 'MILLISECONDS',
            Interrupted: load.status === 'cancelled' ? 'true' : 'false',
          },
        };
        for (const command of load.commands) all[memtierSectionName(command.command)] = section(command, load, percentiles, [], false);
        if (load.commands.length === 0 && load.test !== 'total') all[memtierSectionName(load.test)] = section(load.total, load, percentiles, [], false);
        all.Totals = section(load.total, load, percentiles, load.timeline, true);
        out.push({ run, load, json: { configuration: configuration(run, phase, load), 'ALL STATS': all } });
      }
    }
  }
  return out;
}

/** Where each file goes: FILE for a single test, else FILE's name with `-N-TEST` before its extension (N from 1). */
export function memtierJsonPaths(file: string, outs: readonly MemtierOut[]): string[] {
  if (outs.length === 1) return [file];
  const dot = file.lastIndexOf('.');
  const slash = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
  const [stem, extension] = dot > slash + 1 ? [file.slice(0, dot), file.slice(dot)] : [file, ''];
  return outs.map(({ load }, i) => `${stem}-${i + 1}-${load.test.replace(/[^A-Za-z0-9_.-]+/g, '_')}${extension}`);
}

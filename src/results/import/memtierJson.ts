// memtier_benchmark's `--json-out-file` output, from its source (RedisLabs/memtier_benchmark:
// memtier_benchmark.cpp writes `configuration` and `run information`; run_stats.cpp's print_json writes
// `ALL STATS` → `Runtime`, then `Sets`, `Gets`, `Waits` and `Totals`, each with `Count`, `Ops/sec`,
// `Average Latency`, `Min Latency`, `Max Latency` (ms), `Connection Errors`, `Percentile Latencies`
// (`p50.00`, `p99.00`, `p99.90` by default: `p%.3f` cut to 6 characters) and `Time-Serie` (per second:
// `Count`, `Max Latency`, the same percentiles)). The plan comes from its recorded configuration.
import type { TimelineSecond } from '../../engine';
import type { ScenarioPlan } from '../../scenario';
import { ScenarioWriteError, scenarioToken, writeScenario, type WrittenLine } from '../../scenario/writer';
import type { ImportedFigures, ImportedRun, ImportedTest } from './buildRun';
import { importError } from './imported';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** True when the parsed JSON is memtier's (it has `ALL STATS` with `Totals`). */
export function looksLikeMemtier(value: unknown): boolean {
  return isObject(value) && isObject(value['ALL STATS']) && isObject((value['ALL STATS'] as Json).Totals);
}

function number(object: Json, key: string, file: string, where: string): number {
  const value = object[key];
  const parsed = typeof value === 'string' ? Number(value) : value;
  if (typeof parsed !== 'number' || !Number.isFinite(parsed) || parsed < 0)
    throw importError(file, undefined, `${where}.${key} is ${JSON.stringify(value) ?? 'missing'}, not a number`);
  return parsed;
}

const optionalMs = (object: Json | undefined, key: string) => {
  const value = object?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 1000) : undefined;
};

/** A memtier percentile key: `p50.00`, `p99.90` (6 characters, as its snprintf leaves them). */
const percentileKey = (p: number) => `p${p.toFixed(3)}`.slice(0, 6);

function figures(stats: Json, command: string, file: string, where: string): ImportedFigures {
  const percentiles = isObject(stats['Percentile Latencies']) ? stats['Percentile Latencies'] : undefined;
  return {
    command,
    requests: number(stats, 'Count', file, where),
    errors: typeof stats['Connection Errors'] === 'number' ? (stats['Connection Errors'] as number) : 0,
    opsPerSec: number(stats, 'Ops/sec', file, where),
    latency: {
      meanUs: optionalMs(stats, 'Average Latency') ?? optionalMs(stats, 'Latency'),
      minUs: optionalMs(stats, 'Min Latency'),
      maxUs: optionalMs(stats, 'Max Latency'),
      p50Us: optionalMs(percentiles, percentileKey(50)),
      p90Us: optionalMs(percentiles, percentileKey(90)),
      p95Us: optionalMs(percentiles, percentileKey(95)),
      p99Us: optionalMs(percentiles, percentileKey(99)),
      p999Us: optionalMs(percentiles, percentileKey(99.9)),
    },
  };
}

/** memtier's per-second `Time-Serie` as timeline buckets (1 s each); none when it lacks the percentiles. */
function timeline(stats: Json): TimelineSecond[] {
  const series = stats['Time-Serie'];
  if (!isObject(series)) return [];
  const seconds = Object.keys(series)
    .map(Number)
    .filter(Number.isInteger)
    .sort((a, b) => a - b);
  const buckets: TimelineSecond[] = [];
  for (const t of seconds) {
    const second = series[String(t)];
    if (!isObject(second) || typeof second.Count !== 'number') return [];
    buckets.push({
      t,
      ops: second.Count,
      errors: 0,
      p50Us: optionalMs(second, 'p50.00') ?? 0,
      p99Us: optionalMs(second, 'p99.00') ?? 0,
      maxUs: optionalMs(second, 'Max Latency') ?? 0,
    });
  }
  return buckets;
}

/** The `.rbench` lines of memtier's configuration; a message for a configuration this does not model. */
function scenarioOf(config: Json, file: string): string {
  const get = (key: string) => config[key];
  const num = (key: string) => number(config, key, file, 'configuration');
  const protocol = String(get('protocol') ?? 'redis');
  if (!/^(redis|resp2|resp3)$/.test(protocol)) throw importError(file, undefined, `configuration.protocol is "${protocol}": only Redis protocols import`);
  const pattern = String(get('key_pattern') ?? 'R:R');
  const distribution: Record<string, string> = { 'R:R': 'uniform', 'S:S': 'sequential', 'G:G': 'gaussian' };
  if (!distribution[pattern])
    throw importError(file, undefined, `configuration.key_pattern "${pattern}" mixes patterns for SET and GET: not modelled by rbench import`);
  const [sets, gets] = String(get('ratio') ?? '1:10')
    .split(':')
    .map(Number);
  if (!Number.isFinite(sets) || !Number.isFinite(gets) || sets + gets === 0)
    throw importError(file, undefined, `configuration.ratio "${String(get('ratio'))}" is not SET:GET`);
  const clients = num('clients') * num('threads');
  const requests = num('requests');
  const keys = num('key_maximum') - num('key_minimum') + 1;
  const prefix = String(get('key_prefix') ?? 'memtier-');
  const setting = (name: string, value: string): WrittenLine => ({ kind: 'setting', name, args: value.split(' ') });
  const lines: WrittenLine[] = [
    { kind: 'header', title: 'memtier_benchmark' },
    setting('clients', String(clients)),
    setting('threads', String(num('threads'))),
    setting('pipeline', String(num('pipeline'))),
    requests > 0 ? setting('requests', String(requests * clients)) : setting('duration', `${num('test_time')}s`),
    setting('value', `${num('data_size')}b`),
    setting('keys', `${keys} ${distribution[pattern]}`),
  ];
  const weight = (share: number) => (sets > 0 && gets > 0 ? Math.round((share / (sets + gets)) * 100) : undefined);
  if (sets > 0) lines.push({ kind: 'command', weight: weight(sets), name: 'SET', args: [`${prefix}__key__`, '__value__'] });
  if (gets > 0) lines.push({ kind: 'command', weight: weight(gets), name: 'GET', args: [`${prefix}__key__`] });
  try {
    // The prefix first, so that a refusal names it.
    scenarioToken(prefix, 'configuration.key_prefix');
    return writeScenario(lines);
  } catch (error) {
    if (!(error instanceof ScenarioWriteError)) throw error;
    throw importError(file, undefined, `${error.message} (the plan is written as a scenario)`);
  }
}

export function memtierRun(value: Json, file: string): ImportedRun {
  const config = value.configuration;
  if (!isObject(config)) throw importError(file, undefined, 'memtier JSON without its `configuration`: the file is cut short or not --json-out-file output');
  const all = value['ALL STATS'] as Json;
  const runtime = isObject(all.Runtime) ? all.Runtime : undefined;
  const start = runtime && typeof runtime['Start time'] === 'number' ? new Date(runtime['Start time']) : undefined;
  const duration = runtime && typeof runtime['Total duration'] === 'number' ? runtime['Total duration'] : undefined;
  if (!start || duration === undefined) throw importError(file, undefined, '`ALL STATS.Runtime` lacks `Start time` or `Total duration`: the file is cut short');
  const host = String(config.server ?? '127.0.0.1');
  const port = String(config.port ?? 6379);
  const tests = (plan: ScenarioPlan): ImportedTest[] => {
    const test = plan.points[0].phases[0].tests[0];
    const total = figures(all.Totals as Json, test.name, file, 'ALL STATS.Totals');
    const parts: ImportedFigures[] = [];
    const byLabel: Record<string, string> = { SET: 'Sets', GET: 'Gets' };
    if (test.commands.length > 1)
      for (const { command } of test.commands) {
        const stats = all[byLabel[command.label]];
        if (isObject(stats)) parts.push(figures(stats, command.label, file, `ALL STATS.${byLabel[command.label]}`));
      }
    return [{ test: test.name, total, commands: parts, durationMs: duration, timeline: timeline(all.Totals as Json) }];
  };
  return {
    scenario: scenarioOf(config, file),
    target: typeof config.uri === 'string' && config.uri ? config.uri.replace(/\/\/[^@/]*@/, '//') : `redis://${host}:${port}`,
    startedAt: start,
    tests,
    imported: {
      tool: 'memtier_benchmark',
      format: 'memtier-json',
      file,
      absent: {
        'timeline errors': "memtier's Time-Serie has no errors per second: 0 there means not recorded",
        'key names': `memtier's keys are ${String(config.key_prefix ?? 'memtier-')}N without padding; the plan's __key__ is padded`,
        client: "memtier_benchmark's own client: the run file's client field holds a placeholder",
      },
    },
  };
}

// What the comparison's statistics resample, read from a run file: a row's value in each repeat, and for a
// test's total the load's timeline buckets (throughput, p50 and p99 per bucket); and whether a row's loads
// are comparable at all (foreign load on the server, or the client was the bottleneck: the figures then
// measure the client or someone else, not the setup).
import type { Bottleneck, CommandResult, LoadResult, TimelineSecond } from '../engine';
import type { ExpectMetric } from '../scenario/plan';
import { bottleneckOf, KIND_LABELS } from './bottleneck';
import type { Samples } from './statistics';
import { metricValue } from './thresholds';

/** One repeat's measurement of a row: the load it came from and the row's result in it. */
export interface RepeatMeasurement {
  load: LoadResult;
  result: CommandResult;
}

/** The timeline's figure for a metric, where it holds one per bucket. */
const TIMELINE_FIELD: Partial<Record<ExpectMetric, keyof Pick<TimelineSecond, 'ops' | 'p50Us' | 'p99Us'>>> = { ops: 'ops', p50: 'p50Us', p99: 'p99Us' };

/** Buckets of the full length: a last bucket cut short (its `partialMs` below the others') is left out. */
function fullBuckets(timeline: TimelineSecond[]): TimelineSecond[] {
  const length = (bucket: TimelineSecond) => bucket.partialMs ?? 1000;
  const usual = timeline.length > 0 ? length(timeline[0]) : 0;
  return timeline.filter((bucket) => length(bucket) >= usual);
}

/** The samples of `metric` for a row measured by `measurements` (one per repeat); `total` rows also get the timeline. */
export function rowSamples(measurements: RepeatMeasurement[], metric: ExpectMetric, total: boolean): Samples {
  const samples: Samples = { repeats: measurements.map(({ result }) => metricValue(result, metric)) };
  const field = TIMELINE_FIELD[metric];
  if (total && field) samples.timeline = measurements.flatMap(({ load }) => fullBuckets(load.timeline).map((bucket) => bucket[field]));
  return samples;
}

/** Verdict kinds whose figures say nothing about the setup: the client set the pace, or another client shared the server. */
const NOT_COMPARABLE_KINDS = new Set<Bottleneck['kind']>(['client-cpu', 'client-starved', 'machine-cpu', 'foreign-load']);

function kindsOf(bottleneck: Bottleneck): Bottleneck['kind'][] {
  return bottleneck.kind === 'mixed' ? (bottleneck.parts ?? []).map((part) => part.kind) : [bottleneck.kind];
}

/** Why a row's figures are not comparable (`client CPU in repeat 2`), or undefined when they are. */
export function notComparableReason(measurements: RepeatMeasurement[]): string | undefined {
  const reasons = new Set<string>();
  for (const { load } of measurements) {
    // The saved verdict; a run file from before verdicts is judged from what it holds.
    const verdict = load.bottleneck ?? bottleneckOf(load);
    for (const kind of kindsOf(verdict)) if (NOT_COMPARABLE_KINDS.has(kind)) reasons.add(KIND_LABELS[kind]);
  }
  if (reasons.size === 0) return undefined;
  return `${[...reasons].join(' and ')} set the pace${measurements.length > 1 ? ' in some repeat' : ''}: the figures measure ${reasons.has(KIND_LABELS['foreign-load']) ? 'more than this run' : 'the client'}, not the setup`;
}

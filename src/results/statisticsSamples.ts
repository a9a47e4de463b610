// What the comparison's statistics test, read from a run file: a row's figure in each repeat (a run's
// seconds are not independent samples, statistics.ts); and whether a row's loads are comparable at all (foreign load on the server, or the client was the bottleneck: the figures then
// measure the client or someone else, not the setup).
import type { Bottleneck, CommandResult, LoadResult } from '../engine';
import type { ExpectMetric } from '../scenario/plan';
import { bottleneckOf, KIND_LABELS } from './bottleneck';
import type { Samples } from './statistics';
import { metricValue } from './thresholds';

/** One repeat's measurement of a row: the load it came from and the row's result in it. */
export interface RepeatMeasurement {
  load: LoadResult;
  result: CommandResult;
}

/** The samples of `metric` for a row measured by `measurements` (one per repeat). */
export function rowSamples(measurements: RepeatMeasurement[], metric: ExpectMetric): Samples {
  return { repeats: measurements.map(({ result }) => metricValue(result, metric)) };
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

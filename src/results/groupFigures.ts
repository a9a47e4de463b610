// The figures a consumer group or a subscriber group is read by, beside its row's ops/s and latencies: compare shows
// them under the group's total (a line each in the text and Markdown tables, a metric in the CSV) where runs have them.
import type { LoadResult } from '../engine';
import { formatMs, formatOps } from './format';
import { groupDigits } from '../scenario/numberText';

export type GroupFigure = 'jobs/s' | 'wake-up p99' | 'delivered/s' | 'lost';

interface GroupFigureInfo {
  /** The line's label in the tables. */
  label: string;
  /** The metric's name in the CSV (plain units: per second, µs, count). */
  csv: string;
  format: (value: number) => string;
  /** The figure of one load, or undefined where the load has none (not a consumer or subscriber group). */
  of: (load: LoadResult) => number | undefined;
}

/** One table: which figure, how it is labelled, and where a load keeps it. */
export const GROUP_FIGURES: Record<GroupFigure, GroupFigureInfo> = {
  // A consumer group's total counts jobs (engine ConsumerResult): its ops/s are jobs/s.
  'jobs/s': { label: 'jobs/s', csv: 'jobs_per_sec', format: formatOps, of: (load) => (load.consumer ? load.total.opsPerSec : undefined) },
  'wake-up p99': {
    label: 'wake-up p99 ms',
    csv: 'wakeup_p99_us',
    format: formatMs,
    of: (load) => (load.consumer && load.consumer.wakeUp.latency.count > 0 ? load.consumer.wakeUp.latency.p99Us : undefined),
  },
  // A subscriber group's total counts deliveries: its ops/s are delivered/s.
  'delivered/s': {
    label: 'delivered/s',
    csv: 'delivered_per_sec',
    format: formatOps,
    of: (load) => (load.pubsub?.role === 'subscriber' ? load.total.opsPerSec : undefined),
  },
  lost: { label: 'lost', csv: 'lost', format: groupDigits, of: (load) => (load.pubsub?.role === 'subscriber' ? load.pubsub.lost : undefined) },
};

export type GroupFigures = Partial<Record<GroupFigure, number>>;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** The group figures of a row's loads (one per repeat: their median), or undefined when none has any. */
export function groupFiguresOf(loads: readonly LoadResult[]): GroupFigures | undefined {
  const figures: GroupFigures = {};
  for (const figure of Object.keys(GROUP_FIGURES) as GroupFigure[]) {
    const values = loads.map(GROUP_FIGURES[figure].of).filter((value) => value !== undefined);
    if (values.length > 0) figures[figure] = median(values);
  }
  return Object.keys(figures).length > 0 ? figures : undefined;
}

/** The change of a figure against the reference's: `+3.1%`, or the absolute change when the reference is 0 (`+12`); empty where either lacks it. */
export function figureChange(
  figure: GroupFigure,
  value: number | undefined,
  reference: number | undefined,
): { absolute?: number; percent?: number; text: string } {
  if (value === undefined || reference === undefined) return { text: '' };
  const absolute = value - reference;
  if (reference === 0) return { absolute, text: absolute === 0 ? '+0.0%' : `${absolute > 0 ? '+' : '-'}${GROUP_FIGURES[figure].format(Math.abs(absolute))}` };
  const percent = (absolute / Math.abs(reference)) * 100;
  return { absolute, percent, text: `${percent >= 0 ? '+' : ''}${percent.toFixed(1)}%` };
}

// Chosen percentiles (`percentiles 50,99,99.9,99.99`, `--percentiles`): any percentile of a result, read from
// its HDR histogram by RBench's one rule (engine/percentile.ts), so p99.99 is as exact as the fixed p99.
import type { JsHistogram } from 'hdr-histogram-js';
import type { CommandResult, LoadResult } from '../engine';
import { valuesAtPercentiles } from '../engine/measure/percentile';

/** The percentiles shown when neither the file nor the command line chooses: the table's fixed columns. */
export const DEFAULT_PERCENTILES: readonly number[] = [50, 99, 99.9];

/** The name a percentile is written and shown by: `p50`, `p99.9`, `p99.99` (as `expect` reads it). */
export function percentileName(percentile: number): string {
  return `p${String(percentile)}`;
}

/** A result's latency (µs) at a chosen percentile: the run file's figure when it kept one, else read from the histogram. */
export function latencyAtChosen(result: CommandResult, percentile: number): number {
  return result.latency.percentiles?.[percentileName(percentile)] ?? latencyAtPercentiles(result, [percentile])[0];
}

/** hdr-histogram-js's decoder, loaded on first use: a run that never asks for a chosen percentile never evaluates it. */
function decode(base64: string): JsHistogram {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { decodeFromCompressedBase64 } = require('hdr-histogram-js/dist/encoding') as typeof import('hdr-histogram-js/dist/encoding');
  return decodeFromCompressedBase64(base64, 64, false) as JsHistogram;
}

interface Slots {
  counts: number[];
  lows: number[];
  highs: number[];
  total: number;
}

const decoded = new Map<string, Slots>();

/** The non-empty slots of a compressed base64 histogram (cached: a run's histograms never change). */
function slotsOf(base64: string): Slots {
  const cached = decoded.get(base64);
  if (cached) return cached;
  const slots: Slots = { counts: [], lows: [], highs: [], total: 0 };
  if (base64) {
    const histogram = decode(base64);
    for (let index = 0; index < histogram.countsArrayLength; index++) {
      const count = histogram.getCountAtIndex(index);
      if (count === 0) continue;
      const low = histogram.valueFromIndex(index);
      slots.counts.push(count);
      slots.lows.push(histogram.lowestEquivalentValue(low));
      slots.highs.push(histogram.highestEquivalentValue(low));
      slots.total += count;
    }
  }
  if (decoded.size > 200) decoded.clear();
  decoded.set(base64, slots);
  return slots;
}

/** The latency (µs) at each of `percentiles`, in their order; 0 for a result without replies. */
export function latencyAtPercentiles(result: Pick<CommandResult, 'histogram'>, percentiles: readonly number[]): number[] {
  const slots = slotsOf(result.histogram);
  const ascending = [...new Set(percentiles)].sort((a, b) => a - b);
  const values = valuesAtPercentiles(slots, slots.total, ascending);
  return percentiles.map((p) => values[ascending.indexOf(p)]);
}

/** `{ p50: µs, p99.99: µs }` for the run file and the tables. */
export function percentileRecord(result: Pick<CommandResult, 'histogram'>, percentiles: readonly number[]): Record<string, number> {
  const values = latencyAtPercentiles(result, percentiles);
  return Object.fromEntries(percentiles.map((p, i) => [percentileName(p), values[i]]));
}

/** Adds the chosen percentiles to a load's total and per-command latency (the run file keeps them). */
export function addChosenPercentiles(load: LoadResult, percentiles: readonly number[] | undefined): void {
  if (!percentiles) return;
  for (const result of [load.total, ...load.commands]) result.latency.percentiles = percentileRecord(result, percentiles);
}

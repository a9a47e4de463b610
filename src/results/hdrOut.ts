// `rbench run --hdr-prefix PREFIX`: the run's latency histograms in HdrHistogram's own files, as memtier's
// `--hdr-file-prefix` writes them, for HdrHistogram's plotters and log tools: a `.hgrm` percentile
// distribution (HistogramLogProcessor's text, hdr-histogram-js outputPercentileDistribution) per test and
// per command of a mix, and one interval log (hdr-histogram-js HistogramLogWriter) with an interval per
// test and command, tagged. Values are recorded in µs and written in ms, as memtier's are.
import type { JsHistogram } from 'hdr-histogram-js';
import type { CommandResult, LoadResult } from '../engine';
import type { RunFile } from './runFile';
import { representativeLoad } from './summary';

/** µs recorded, ms written. */
const MS = 1000;
/** HistogramLogProcessor's default: 5 percentile ticks per half distance. */
const TICKS_PER_HALF_DISTANCE = 5;

export interface HdrFile {
  path: string;
  text: string;
}

interface Measured {
  run: RunFile;
  load: LoadResult;
  /** The load's results: its total (`command` undefined) and each command of a mix. */
  results: { command?: string; result: CommandResult }[];
}

function measuredLoads(runs: readonly RunFile[]): Measured[] {
  const out: Measured[] = [];
  for (const run of runs)
    for (const point of run.points)
      for (const summary of point.summary) {
        const load = representativeLoad(point.repeats, summary);
        if (load) out.push({ run, load, results: [{ result: load.total }, ...load.commands.map((result) => ({ command: result.command, result }))] });
      }
  return out;
}

const fileWord = (text: string) => text.replace(/[^A-Za-z0-9_.-]+/g, '_');
/** An interval log tag: no commas or spaces (they end the tag). */
const tagOf = (test: string, command: string | undefined) => fileWord(command ? `${test}.${command}` : test);

/** hdr-histogram-js's decoder, loaded on first use: only a run asked for HDR files evaluates it. */
function decode(base64: string): JsHistogram {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { decodeFromCompressedBase64 } = require('hdr-histogram-js/dist/encoding') as typeof import('hdr-histogram-js/dist/encoding');
  return decodeFromCompressedBase64(base64, 64, false) as JsHistogram;
}

function decoded(result: CommandResult): JsHistogram {
  return decode(result.histogram);
}

/** The `.hgrm` percentile distribution of one result (its histogram's, in ms). */
export function percentileDistribution(result: CommandResult): string {
  return decoded(result).outputPercentileDistribution(TICKS_PER_HALF_DISTANCE, MS);
}

/** The interval log of the runs: one interval per test (tag TEST) and per command of a mix (tag TEST.COMMAND), timed from the first run's start. */
export function intervalLog(runs: readonly RunFile[]): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { default: HistogramLogWriter } = require('hdr-histogram-js/dist/HistogramLogWriter') as typeof import('hdr-histogram-js/dist/HistogramLogWriter');
  let text = '';
  const writer = new HistogramLogWriter((line) => (text += line));
  const measured = measuredLoads(runs);
  const base = runs.length > 0 ? Date.parse(runs[0].startedAt) : 0;
  writer.outputLogFormatVersion();
  writer.outputStartTime(base);
  writer.outputComment('[rbench: an interval per test (Tag=TEST) and per command of a mix (Tag=TEST.COMMAND); values in ms]');
  writer.outputLegend();
  for (const { load, results } of measured) {
    const from = (Date.parse(load.measuredFrom ?? load.startedAt) - base) / 1000;
    for (const { command, result } of results) {
      const histogram = decoded(result);
      histogram.tag = tagOf(load.test, command);
      writer.outputIntervalHistogram(histogram, from, from + load.durationMs / 1000, MS);
    }
  }
  return text;
}

/** The files of `--hdr-prefix PREFIX`: PREFIX-N-TEST.hgrm (and PREFIX-N-TEST-COMMAND.hgrm for a mix's commands), PREFIX.hlog. */
export function hdrFiles(prefix: string, runs: readonly RunFile[]): HdrFile[] {
  const files: HdrFile[] = [];
  for (const [i, { load, results }] of measuredLoads(runs).entries()) {
    for (const { command, result } of results) {
      const name = command ? `${prefix}-${i + 1}-${fileWord(load.test)}-${fileWord(command)}` : `${prefix}-${i + 1}-${fileWord(load.test)}`;
      files.push({ path: `${name}.hgrm`, text: percentileDistribution(result) });
    }
  }
  files.push({ path: `${prefix}.hlog`, text: intervalLog(runs) });
  return files;
}

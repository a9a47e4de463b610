// `rbench merge`: joins the run files of several load machines (`rbench run --shard I/N`) into one run file,
// prints its table with a row per machine under each test, and exits like `rbench run` on its thresholds.
import { dirname } from 'node:path';
import { toTextTable } from '../results/export';
import { formatDuration } from '../results/format';
import { MergeError, mergeRuns } from '../results/merge';
import { rowsWithParts } from '../results/partRows';
import { clusterLine } from '../results/clusterSummary';
import { readRunFiles } from '../results/baselines';
import { RunFileError, type RunFile } from '../results/runFile';
import { saveRun, writeRunFileAt } from '../results/runFileWriter';
import { FileGateError } from '../gates/files';
import { thresholdLine } from '../results/thresholds';
import { runWarnings } from '../results/warnings';
import { bottleneckLines } from '../results/headlines';
import { ExitCode, type Output } from './output';

export interface MergeOptions {
  files: string[];
  /** A folder for the merged run files (default .rbench/runs), or a file path ending in .json (one scenario). */
  out: string;
  /** True when the user named `out` (--out): it may be anywhere; the default .rbench/runs stays inside the working folder. */
  outNamed?: boolean;
}

export function mergeCommand(options: MergeOptions, output: Output): ExitCode {
  if (options.files.length === 0) {
    output.error('rbench merge: name the run files to merge (one or more per load machine), e.g. rbench merge parts/*/*.rbench-run.json');
    return ExitCode.ScenarioError;
  }
  let runs: RunFile[];
  const names: string[] = [];
  try {
    runs = options.files.flatMap((file) => {
      const read = readRunFiles(file);
      names.push(...read.map((_, i) => (read.length > 1 ? `${file}[${i}]` : file)));
      return read;
    });
  } catch (error) {
    if (!(error instanceof RunFileError)) throw error;
    output.error(`rbench merge: ${error.message}`);
    return ExitCode.ScenarioError;
  }
  // Several scenarios' parts (a file with several scenarios): one merged run per scenario.
  const groups = new Map<string, { runs: RunFile[]; names: string[] }>();
  runs.forEach((run, i) => {
    // By name: machines started from different folders record different relative file paths.
    const key = run.scenario.name;
    const group = groups.get(key) ?? { runs: [], names: [] };
    group.runs.push(run);
    group.names.push(names[i]);
    groups.set(key, group);
  });
  let exitCode = ExitCode.Ok;
  for (const group of groups.values()) {
    let merged;
    try {
      merged = mergeRuns(group.runs, group.names);
    } catch (error) {
      if (!(error instanceof MergeError)) throw error;
      output.error(`rbench merge: ${groups.size > 1 ? `scenario "${group.runs[0].scenario.name}": ` : ''}${error.message}`);
      return ExitCode.ScenarioError;
    }
    exitCode = Math.max(exitCode, report(merged.run, merged.warnings, options, groups.size > 1, output));
  }
  return exitCode;
}

/** Writes the merged run with the one run-file writer (bounded, atomic, through the file gate): its path, or why not. */
function saveMerged(run: RunFile, options: MergeOptions, several: boolean): { path: string } | { saveError: string } {
  const { out } = options;
  if (out.endsWith('.json') && !several) {
    try {
      return { path: writeRunFileAt(out, run) };
    } catch (error) {
      if (!(error instanceof FileGateError)) throw error;
      return { saveError: `the merged run file could not be saved: ${error.message}` };
    }
  }
  return saveRun(out.endsWith('.json') ? dirname(out) : out, run, { root: options.outNamed ? undefined : process.cwd() });
}

function report(run: RunFile, warnings: string[], options: MergeOptions, several: boolean, output: Output): ExitCode {
  const saved = saveMerged(run, options, several);
  output.info(`\n${run.scenario.name}: ${run.merged!.parts.length} parts merged`);
  output.result(toTextTable(rowsWithParts(run)));
  const cluster = clusterLine(run);
  if (cluster) output.info(cluster);
  for (const line of bottleneckLines(run)) output.info(line);
  for (const warning of [...warnings, ...runWarnings(run)]) output.info(`! ${warning}`);
  for (const outcome of run.thresholds) {
    if (outcome.passed) output.info(thresholdLine(outcome));
    else output.error(thresholdLine(outcome));
  }
  if ('saveError' in saved) {
    output.error(`error: ${saved.saveError}`);
    return ExitCode.SaveError;
  }
  output.info(`Merged run saved: ${saved.path}  (${formatDuration(run.durationMs)} from the first start to the last end)`);
  if (run.status === 'failed') return ExitCode.ConnectionError;
  if (run.status === 'cancelled') return ExitCode.Cancelled;
  return run.thresholds.some((outcome) => !outcome.passed) ? ExitCode.ThresholdFailed : ExitCode.Ok;
}

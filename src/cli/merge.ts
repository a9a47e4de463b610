// `rbench merge`: joins the run files of several load machines (`rbench run --shard I/N`) into one run file,
// prints its table with a row per machine under each test, and exits like `rbench run` on its thresholds.
import { dirname } from 'node:path';
import { toTextTable } from '../results/export';
import { formatDuration } from '../results/format';
import { MergeError, mergeRuns } from '../results/merge';
import { rowsWithParts } from '../results/partRows';
import { clusterLine } from '../results/clusterSummary';
import { readRunFiles } from '../results/baselines';
import { RunFileError, writeJsonAtomically, writeRunFile, type RunFile } from '../results/runFile';
import { thresholdLine } from '../results/thresholds';
import { runWarnings } from '../results/warnings';
import { ExitCode, type Output } from './output';

export interface MergeOptions {
  files: string[];
  /** A folder for the merged run files (default .rbench/runs), or a file path ending in .json (one scenario). */
  out: string;
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
    exitCode = Math.max(exitCode, report(merged.run, merged.warnings, options.out, groups.size > 1, output));
  }
  return exitCode;
}

function report(run: RunFile, warnings: string[], out: string, several: boolean, output: Output): ExitCode {
  let path: string;
  if (out.endsWith('.json') && !several) {
    writeJsonAtomically(out, run);
    path = out;
  } else {
    path = writeRunFile(out.endsWith('.json') ? dirname(out) : out, run);
  }
  output.info(`\n${run.scenario.name}: ${run.merged!.parts.length} parts merged`);
  output.result(toTextTable(rowsWithParts(run)));
  const cluster = clusterLine(run);
  if (cluster) output.info(cluster);
  for (const warning of [...warnings, ...runWarnings(run)]) output.info(`! ${warning}`);
  for (const outcome of run.thresholds) {
    if (outcome.passed) output.info(thresholdLine(outcome));
    else output.error(thresholdLine(outcome));
  }
  output.info(`Merged run saved: ${path}  (${formatDuration(run.durationMs)} from the first start to the last end)`);
  if (run.status === 'failed') return ExitCode.ConnectionError;
  if (run.status === 'cancelled') return ExitCode.Cancelled;
  return run.thresholds.some((outcome) => !outcome.passed) ? ExitCode.ThresholdFailed : ExitCode.Ok;
}

// `rbench import FILE [--command "redis-benchmark …"] [--out DIR]`: another tool's results as a run file, so
// history, compare and the regression gate work across tools. Written by the one run-file writer.
import { ImportError, importRun } from '../results/import';
import { saveRun } from '../results/runFileWriter';
import { ExitCode, type Output } from './output';

export interface ImportCommandOptions {
  files: string[];
  command?: string;
  out: string;
  /** --out was given: the user's own folder, anywhere; otherwise .rbench/runs inside the current folder. */
  outNamed: boolean;
  root: string;
}

export function importCommand(options: ImportCommandOptions, output: Output): ExitCode {
  if (options.files.length === 0) {
    output.error('rbench import: name the file to import (redis-benchmark --csv output, or memtier_benchmark --json-out-file output)');
    return ExitCode.ScenarioError;
  }
  for (const file of options.files) {
    let run;
    try {
      run = importRun(file, { command: options.command });
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      output.error(`rbench import: ${error.message}`);
      return ExitCode.ScenarioError;
    }
    const saved = saveRun(options.out, run, options.outNamed ? {} : { root: options.root });
    if ('saveError' in saved) {
      output.error(`rbench import: ${saved.saveError}`);
      return ExitCode.SaveError;
    }
    output.info(`${file} → ${saved.path} (${run.points[0].repeats[0].length} test${run.points[0].repeats[0].length === 1 ? '' : 's'})`);
  }
  return ExitCode.Ok;
}

// `rbench import FILE [--command "redis-benchmark …"] [--out DIR]`: another tool's results as a run file, so
// history, compare and the regression gate work across tools. Written by the one run-file writer.
// `rbench import SPEC.yml|FOLDER [--out DIR]`: redis-benchmarks-specification tests as scenario files.
import { ImportError, importRun } from '../results/import';
import { isUserNamedFolder } from '../gates/files';
import { saveRun } from '../results/runFileWriter';
import { ExitCode, type Output } from './output';
import type { ImportCommandOptions } from './importOptions';

export type { ImportCommandOptions } from './importOptions';

/** True for a benchmark-spec path: a `.yml`/`.yaml` file, or a folder. */
function isSpecPath(path: string): boolean {
  return /\.ya?ml$/i.test(path) || isUserNamedFolder(path);
}

/** The spec import, loaded on first use: dist/cli.js keeps it (and yaml) in files of their own (esbuild.mjs). */
function specImport(): typeof import('./importSpec') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./importSpec') as typeof import('./importSpec');
}

export function importCommand(options: ImportCommandOptions, output: Output): ExitCode {
  if (options.files.length === 0) {
    output.error(
      'rbench import: name the file to import (redis-benchmark --csv output, memtier_benchmark --json-out-file output, or benchmark-spec YAML tests: a .yml file or a folder)',
    );
    return ExitCode.ScenarioError;
  }
  if (options.files.every(isSpecPath)) return specImport().importSpecCommand(options, output);
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

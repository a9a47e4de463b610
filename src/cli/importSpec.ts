// `rbench import SPEC.yml|FOLDER [--out DIR]`: redis-benchmarks-specification tests as `.rbench` scenario
// files, one per test, then the summary line. Loaded by import.ts only for such paths (a file of its own in
// dist, esbuild.mjs): no other command parses the importer or the YAML library.
import { importSpec, specFiles, SpecImportError, specSummary } from '../results/import/spec';
import type { ImportCommandOptions } from './importOptions';
import { ExitCode, type Output } from './output';

/** Without --out, the scenarios go into this folder of the current one. */
export const SPEC_FOLDER = 'benchmark-spec';

/** Benchmark-spec YAML tests as `.rbench` files: one per test, then the summary line. */
export function importSpecCommand(options: ImportCommandOptions, output: Output): ExitCode {
  if (options.command !== undefined) {
    output.error('rbench import: --command is for a redis-benchmark CSV; a benchmark-spec test carries its own command line');
    return ExitCode.ScenarioError;
  }
  let files: string[];
  try {
    files = options.files.flatMap(specFiles);
  } catch (error) {
    if (!(error instanceof SpecImportError)) throw error;
    output.error(`rbench import: ${error.message}`);
    return ExitCode.ScenarioError;
  }
  const results = options.outNamed ? importSpec(files, options.out, { userNamed: true }) : importSpec(files, SPEC_FOLDER, { root: options.root });
  for (const { file, scenario, written } of results) {
    if (written)
      output.info(`${file} → ${written}${scenario.notes.length > 0 ? ` (${scenario.notes.length} note${scenario.notes.length === 1 ? '' : 's'})` : ''}`);
    else output.error(`${file}: ${scenario.name} not importable: ${scenario.refused}`);
  }
  const imported = results.filter((result) => result.written).length;
  output.result(specSummary(results));
  return imported > 0 ? ExitCode.Ok : ExitCode.ScenarioError;
}

// `rbench compare`: prints what differs between runs, then their numbers side by side (text, Markdown,
// JSON or CSV). Also where `rbench run --baseline` finds each scenario's baseline.
import { writeFileSafely } from '../gates/files';
import { baselineFor, matchBaseline, readRunFiles } from '../results/baselines';
import { compareServerSetups } from '../runner/serverSetups';
import { compareRuns, type Comparison } from '../results/compare';
import { compareLabels } from '../results/compareLabels';
import { comparisonToCsv, comparisonToMarkdown, comparisonToText } from '../results/compareFormat';
import { RunFileError, readRunFile, type RunFile } from '../results/runFile';
import { parsePercent } from '../scenario/units';
import { ExitCode, type Output } from './output';

/** A percentage flag, `10%` or `10` → 10 (the scenario language's rule); a message when it is not one. */
export function percentOption(text: string, flag: string): number | string {
  const trimmed = text.trim();
  const parsed = parsePercent(trimmed.endsWith('%') ? trimmed : `${trimmed}%`);
  return parsed.ok ? parsed.value : `${flag} takes a percentage such as 10%, got "${text}"`;
}

/** What `--baseline` names: the run files of a file (one run, or the array `--json` writes), or the pinned ones. */
export type BaselineSource = { kind: 'pinned'; root: string } | { kind: 'file'; path: string; runs: RunFile[] };

/** Reads a `--baseline` value; throws RunFileError for an unreadable file. */
export function openBaselineSource(value: string, root: string): BaselineSource {
  return value === 'pinned' ? { kind: 'pinned', root } : { kind: 'file', path: value, runs: readRunFiles(value) };
}

export type BaselineLookup = { baseline: RunFile; path: string } | { warning: string };

/**
 * The baseline of a run. `scenariosRun` is how many scenarios are compared against the source: with
 * several, a file's runs are matched by scenario name. Throws RunFileError when a pinned run file is unreadable.
 */
export function findBaseline(source: BaselineSource, run: RunFile, scenariosRun: number): BaselineLookup {
  if (source.kind === 'file') {
    const baseline = matchBaseline(source.runs, run, scenariosRun);
    if (baseline) return { baseline, path: source.path };
    return { warning: `no baseline for scenario "${run.scenario.name}" in ${source.path}; not compared` };
  }
  const path = run.scenario.file ? baselineFor(source.root, run.scenario.file, run.scenario.name) : undefined;
  if (!path)
    return {
      warning: `no pinned baseline for "${run.scenario.file ?? '?'}#${run.scenario.name}" in .rbench/baselines.json; not compared (pin one with rbench run --pin)`,
    };
  // baselines.json is shared: its entries are read inside the root only, no link followed, regular files only.
  try {
    return { baseline: readRunFile(path, { root: source.root }), path };
  } catch (error) {
    if (!(error instanceof RunFileError)) throw error;
    throw new RunFileError(`the baseline pinned in .rbench/baselines.json: ${error.message}`);
  }
}

export interface CompareCommandOptions {
  files: string[];
  markdown: boolean;
  json: boolean;
  /** A file for the CSV, or `-` for stdout. */
  csv?: string;
  noisePercent?: number;
  /** Compare each run with its baseline (a run file or `pinned`) instead of all runs with the first. */
  baseline?: string;
  root: string;
}

export function compareCommand(options: CompareCommandOptions, output: Output): ExitCode {
  let runs: RunFile[];
  let source: BaselineSource | undefined;
  try {
    runs = options.files.flatMap((file) => readRunFiles(file));
    if (options.baseline) source = openBaselineSource(options.baseline, options.root);
  } catch (error) {
    if (!(error instanceof RunFileError)) throw error;
    output.error(`rbench compare: ${error.message}`);
    return ExitCode.ScenarioError;
  }

  const comparisons: Comparison[] = [];
  if (source) {
    for (const run of runs) {
      let found: BaselineLookup;
      try {
        found = findBaseline(source, run, runs.length);
      } catch (error) {
        if (!(error instanceof RunFileError)) throw error;
        output.error(`rbench compare: ${error.message}`);
        return ExitCode.ScenarioError;
      }
      if ('warning' in found) output.error(`warning: ${found.warning}`);
      else comparisons.push(compareRuns([found.baseline, run], { noisePercent: options.noisePercent, labels: ['baseline', 'this run'] }));
    }
  } else {
    // One `sweep server` run: its setups side by side (src/runner/serverSetups.ts).
    const setups = runs.length === 1 ? compareServerSetups(runs[0], { noisePercent: options.noisePercent }) : undefined;
    if (setups) comparisons.push(setups);
    else if (runs.length < 2) {
      output.error('rbench compare: name at least two runs (run files, or a --json file of several), or use --baseline');
      return ExitCode.ScenarioError;
    } else comparisons.push(compareRuns(runs, { noisePercent: options.noisePercent, labels: compareLabels(runs) }));
  }

  if (options.csv) {
    const csv = comparisons.map((c, i) => (i === 0 ? comparisonToCsv(c) : comparisonToCsv(c).replace(/^.*\n/, ''))).join('');
    if (options.csv === '-') output.result(csv);
    else writeFileSafely(options.csv, csv, { userNamed: true });
  }
  if (options.json) output.result(JSON.stringify(source ? comparisons : comparisons[0], null, 2));
  else if (options.markdown) output.result(comparisons.map(comparisonToMarkdown).join('\n'));
  else if (options.csv !== '-') output.result(comparisons.map(comparisonToText).join('\n'));
  return ExitCode.Ok;
}

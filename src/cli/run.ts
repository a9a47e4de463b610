// `rbench run`: resolves scenario files, runs the chosen scenarios against a target (or a throwaway local
// redis-server), prints the table, writes run files and exits with a code CI can gate on.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { startLocalServer, type LocalServer } from '../redis/localServer';
import { resolveConnection } from '../redis/target';
import { runScenario, type RunProgress } from '../runner/runScenario';
import { checkText, formatDiagnostic } from '../scenario';
import type { ScenarioPlan, TargetPlan } from '../scenario/plan';
import { pinBaseline } from '../results/baselines';
import { checkRegression, compareRuns, comparisonToText } from '../results/compare';
import { toRedisBenchmarkCsv, toTextTable } from '../results/export';
import { formatDuration, formatLatency, formatOps } from '../results/format';
import { resultRows } from '../results/rows';
import { RunFileError, writeJsonAtomically, writeRunFile, type RunFile } from '../results/runFile';
import { thresholdLine } from '../results/thresholds';
import { runWarnings } from '../results/warnings';
import { scenarioSource } from '../scenario/source';
import { findBaseline, openBaselineSource, type BaselineSource } from './compare';
import { errorStatusVerdict } from '../results/errorStatus';
import { ExitCode, type Output } from './output';

export interface RunOptions {
  files: string[];
  scenarios: string[];
  url?: string;
  out: string;
  json?: string;
  csv?: string;
  quiet: boolean;
  /** A run file (or a `--json` array of runs), or `pinned`: compare each run with its scenario's baseline. */
  baseline?: string;
  /** With a baseline: a throughput drop or p99 rise beyond this (in %) fails the run with exit code 1. */
  maxRegressionPercent?: number;
  /** Pin each complete run as its scenario's baseline in .rbench/baselines.json (relative to the cwd). */
  pin?: boolean;
  vars: Record<string, string>;
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
}

interface SelectedScenario {
  file: string;
  text: string;
  plan: ScenarioPlan;
  /** Every scenario of the file (the file-level lines end where the first starts). */
  filePlans: ScenarioPlan[];
}

/** Resolves every file and picks the scenarios to run; prints diagnostics. Returns undefined on a scenario error. */
function selectScenarios(options: RunOptions, output: Output): SelectedScenario[] | undefined {
  const selected: SelectedScenario[] = [];
  let failed = false;
  for (const file of options.files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      output.error(`${file}: cannot read the scenario file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      failed = true;
      continue;
    }
    const resolved = checkText(text, { env: options.env, vars: options.vars, baseDir: dirname(resolve(file)) });
    for (const diagnostic of resolved.diagnostics) {
      if (diagnostic.severity === 'error' || diagnostic.severity === 'warning') output.error(formatDiagnostic(file, diagnostic));
    }
    if (resolved.diagnostics.some((d) => d.severity === 'error')) {
      failed = true;
      continue;
    }
    let plans = resolved.scenarios;
    if (options.scenarios.length > 0) {
      const wanted = options.scenarios.map((name) => name.toLowerCase());
      plans = plans.filter((plan) => wanted.includes(plan.name.toLowerCase()) || wanted.includes(String(plan.index + 1)));
      if (plans.length === 0) {
        output.error(`${file}: no scenario named ${options.scenarios.map((n) => `"${n}"`).join(', ')}; it has: ${resolved.scenarios.map((p) => `"${p.name}"`).join(', ')}`);
        failed = true;
        continue;
      }
    }
    if (plans.length === 0) output.error(`${file}: no scenario with commands to run`);
    for (const plan of plans) selected.push({ file, text, plan, filePlans: resolved.scenarios });
  }
  return failed ? undefined : selected;
}

function targetWithUrl(target: TargetPlan, url: string | undefined): TargetPlan {
  return url ? { ...target, url, profile: undefined } : target;
}

function usesLocalServer(target: TargetPlan): boolean {
  return !target.url && !target.profile;
}

export async function runCommand(options: RunOptions, output: Output): Promise<ExitCode> {
  const selected = selectScenarios(options, output);
  if (!selected) return ExitCode.ScenarioError;
  if (selected.length === 0) return ExitCode.ScenarioError;
  let baselines: BaselineSource | undefined;
  try {
    if (options.baseline) baselines = openBaselineSource(options.baseline, process.cwd());
  } catch (error) {
    if (!(error instanceof RunFileError)) throw error;
    output.error(`--baseline: ${error.message}`);
    return ExitCode.ScenarioError;
  }

  const runs: RunFile[] = [];
  let exitCode = ExitCode.Ok;
  for (const { file, text, plan, filePlans } of selected) {
    if (options.signal?.aborted) break;
    const target = targetWithUrl(plan.target, options.url);
    let local: LocalServer | undefined;
    if (usesLocalServer(target)) {
      try {
        local = await startLocalServer({ config: plan.server });
      } catch (error) {
        output.error(`${file}: scenario "${plan.name}": cannot start a throwaway redis-server: ${(error as Error).message}`);
        return ExitCode.ConnectionError;
      }
    } else if (plan.server.length > 0) {
      output.error(`${file}: scenario "${plan.name}": warning: \`server\` lines apply only to a throwaway local redis-server; ignored for this target.`);
    }
    try {
      const connectionTarget = local ? { ...target, url: local.url } : target;
      const connection = resolveConnection(connectionTarget, {
        env: options.env,
        secret: options.env.RBENCH_PASSWORD,
        baseDir: dirname(resolve(file)),
      });
      if (!connection.options) {
        output.error(`${file}: scenario "${plan.name}": ${connection.error}`);
        exitCode = ExitCode.ConnectionError;
        continue;
      }
      output.info(`\n${plan.name}  →  ${local ? `throwaway redis-server (${connection.display})` : connection.display}`);
      const run = await runScenario(plan, {
        connection: connection.options,
        targetDisplay: connection.display,
        local: Boolean(local),
        source: scenarioSource(text, plan, filePlans),
        file: relative(process.cwd(), resolve(file)),
        signal: options.signal,
        onProgress: progressPrinter(output, options.quiet),
      });
      runs.push(run);
      const path = writeRunFile(options.out, run);
      exitCode = Math.max(exitCode, reportRun(run, path, output));
      const gate = baselines ? compareWithBaseline(run, baselines, selected.length, options, output) : ExitCode.Ok;
      exitCode = Math.max(exitCode, gate);
      if (options.pin) pinRun(run, path, gate, output);
    } finally {
      await local?.stop();
    }
  }

  if (options.json) writeJsonAtomically(options.json, runs);
  if (options.csv) {
    const csv = toRedisBenchmarkCsv(runs.flatMap((run) => resultRows(run)));
    if (options.csv === '-') output.result(csv);
    else writeFileSync(options.csv, csv);
  }
  if (options.signal?.aborted) return ExitCode.Cancelled;
  return exitCode;
}

function reportRun(run: RunFile, path: string, output: Output): ExitCode {
  output.clearProgress();
  const rows = resultRows(run);
  if (rows.length > 0) output.result(toTextTable(rows));
  for (const warning of runWarnings(run)) output.info(`! ${warning}`);
  for (const outcome of run.thresholds) {
    if (outcome.passed) output.info(thresholdLine(outcome));
    else output.error(thresholdLine(outcome));
  }
  const errorStatus = errorStatusVerdict(run);
  for (const reason of errorStatus.reasons) output.error(`${run.status}  ${reason}`);
  const saved = run.status === 'complete' || run.status === 'complete-with-errors' ? 'Run saved' : `Run ${run.status}, partial results saved`;
  output.info(`${saved}${run.status === 'complete-with-errors' ? ' (complete with errors)' : ''}: ${path}  (${formatDuration(run.durationMs)})`);
  if (run.status === 'failed') {
    output.error(`error: ${run.error ?? 'the run failed'}`);
    return ExitCode.ConnectionError;
  }
  if (run.status === 'cancelled') return ExitCode.Cancelled;
  return errorStatus.failed || run.thresholds.some((outcome) => !outcome.passed) ? ExitCode.ThresholdFailed : ExitCode.Ok;
}

/** Prints the comparison with the run's baseline and, with a limit, each regression; returns the gate's verdict. */
function compareWithBaseline(run: RunFile, source: BaselineSource, scenariosRun: number, options: RunOptions, output: Output): ExitCode {
  let found;
  try {
    found = findBaseline(source, run, scenariosRun);
  } catch (error) {
    if (!(error instanceof RunFileError)) throw error;
    output.error(`baseline: ${error.message}`);
    return ExitCode.ScenarioError;
  }
  if ('warning' in found) {
    output.error(`warning: ${found.warning}`);
    return ExitCode.Ok;
  }
  output.result(comparisonToText(compareRuns([found.baseline, run], { labels: ['baseline', 'this run'] })));
  if (options.maxRegressionPercent === undefined) return ExitCode.Ok;
  const regressions = checkRegression(found.baseline, run, { maxRegressionPercent: options.maxRegressionPercent });
  for (const regression of regressions) output.error(`REGRESSION  ${run.scenario.name}: ${regression.message}`);
  if (regressions.length > 0) return ExitCode.ThresholdFailed;
  output.info(`No regression beyond ${options.maxRegressionPercent}% against the baseline ${found.path}`);
  return ExitCode.Ok;
}

function pinRun(run: RunFile, path: string, gate: ExitCode, output: Output): void {
  if (run.status !== 'complete' || !run.scenario.file) {
    output.error(`not pinned: ${run.scenario.file ? `the run is ${run.status}; only complete runs become baselines` : 'the run names no scenario file'}`);
    return;
  }
  if (gate !== ExitCode.Ok) {
    output.error('not pinned: the run regressed against its baseline');
    return;
  }
  const pinned = pinBaseline(process.cwd(), { scenarioFile: run.scenario.file, scenarioName: run.scenario.name, runFile: path });
  output.info(`Pinned as the baseline of ${pinned.key} in .rbench/baselines.json`);
}

function progressPrinter(output: Output, quiet: boolean): (event: RunProgress) => void {
  return (event) => {
    if (quiet) return;
    if (event.kind === 'tick' && event.tick.lastSecond) {
      const second = event.tick.lastSecond;
      const { at } = event;
      const share = event.tick.fraction !== undefined ? ` ${Math.round(event.tick.fraction * 100)}%` : '';
      output.progress(
        `[${at.index + 1}/${at.total}] ${at.point ? at.point + ' ' : ''}${at.test}${at.measured ? '' : ' (prefill)'}${event.tick.warmingUp ? ' (warm-up)' : ''}` +
          `  ${formatOps(second.ops)} ops/s  p50 ${formatLatency(second.p50Us)}  p99 ${formatLatency(second.p99Us)}` +
          `  ${formatDuration(event.tick.elapsedMs)}${share}`,
      );
    } else if (event.kind === 'load-end') {
      const { at, result } = event;
      output.progressDone(
        `[${at.index + 1}/${at.total}] ${at.point ? at.point + ' ' : ''}${at.test}${at.measured ? '' : ' (prefill)'}: ` +
          `${formatOps(result.total.opsPerSec)} ops/s, p99 ${formatLatency(result.total.latency.p99Us)}` +
          (result.total.errors ? `, ${result.total.errors} errors` : '') +
          (result.status !== 'complete' ? ` (${result.status})` : ''),
      );
    }
  };
}

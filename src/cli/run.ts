// `rbench run`: resolves scenario files, runs the chosen scenarios against a target (or a throwaway local
// redis-server), prints the table, writes run files and exits with a code CI can gate on.
import { dirname, relative, resolve } from 'node:path';
import { formatLoadName, type RunProgress } from '../runner/runScenario';
import type { ConsentRequest } from '../runner/consent';
import type { ScenarioPlan } from '../scenario/plan';
import { SCENARIO_READ_LIMIT } from '../runner/budget';
import { startTogether, type ShardSpec } from '../runner/shard';
import { LOCAL_TARGET } from '../runner/targets';
import { RunSession, type FinishedRun, type NotRun, type PreparedRun, type ScenarioFile, type SessionOutcome, type SessionPorts } from '../runner/session';
import { compareTargets, interleaves, runOnTargets, sameServerRefusal, sameTargetRefusal, saveComparison, type TargetRun } from '../runner/multiTarget';
import { compareServerSetups } from '../runner/serverSetups';
import { redactUrl } from '../protocol/redisUrl';
import { formatDiagnostic } from '../scenario';
import { BaselinesError, pinBaseline } from '../results/baselines';
import { FileGateError, readBoundedText, writeFileSafely } from '../gates/files';
import { rateCurve, rateCurveText } from '../results/rateCurve';
import { compareRuns } from '../results/compare';
import { comparisonToText } from '../results/compareFormat';
import { gateComparison, runGate } from '../results/regression';
import { toRedisBenchmarkCsv, toTextTable } from '../results/export';
import { formatDuration, formatLatency, formatOps } from '../results/format';
import { breakdownRows } from '../results/breakdownRows';
import { RunFileError, type RunFile } from '../results/runFile';
import { writeRunListAt } from '../results/runFileWriter';
import { thresholdLine } from '../results/thresholds';
import { bottleneckLines, runEndLine, runHeadlines } from '../results/headlines';
import { briefLines } from '../results/briefLines';
import { foreignLoadLine } from '../results/bottleneck';
import { runWarnings } from '../results/warnings';
import { leftKeysLines } from '../results/leftKeys';
import { findBaseline, openBaselineSource, type BaselineSource } from './compare';
import { errorStatusVerdict } from '../results/errorStatus';
import { ExitCode, type Output } from './output';
import { DEFAULT_METRICS_LINGER_MS, openMetrics, type CliMetrics } from './metrics';
import type { ListenAddress } from '../gates/listen';

export interface RunOptions {
  files: string[];
  scenarios: string[];
  /** `--tag`: only the scenarios whose `tags` line holds one of these. */
  tags?: string[];
  url?: string;
  /** `--url A --url B`: every scenario runs on each, and their runs are compared (src/runner/multiTarget.ts). */
  targets?: string[];
  out: string;
  /** True when the user named `out` (--out): it may be anywhere. The default .rbench/runs stays inside the working folder, no link followed. */
  outNamed?: boolean;
  json?: string;
  csv?: string;
  /** `--memtier-json FILE`: each measured test as memtier_benchmark JSON (src/results/memtierJsonOut.ts). */
  memtierJson?: string;
  /** `--hdr-prefix PREFIX`: .hgrm percentile distributions and an interval log (src/results/hdrOut.ts). */
  hdrPrefix?: string;
  /** `--percentiles 50,99,99.9,99.99`: the chosen percentiles of every scenario (over the file's `percentiles`). */
  percentiles?: number[];
  quiet: boolean;
  /** `-q`/`--brief`: one line per test (src/results/briefLines.ts) and the run's few summary lines, as `redis-benchmark -q`. */
  brief?: boolean;
  /** A run file (or a `--json` array of runs), or `pinned`: compare each run with its scenario's baseline. */
  baseline?: string;
  /** With a baseline: a throughput drop or p99 rise beyond this (in %) fails the run with exit code 1. */
  maxRegressionPercent?: number;
  /** Pin each complete run as its scenario's baseline in .rbench/baselines.json (relative to the cwd). */
  pin?: boolean;
  vars: Record<string, string>;
  env: Record<string, string | undefined>;
  /** `--allow-env NAME`: environment variables the user lets into commands. */
  allowEnv?: string[];
  /** `--allow-admin`: scenarios may send CONFIG, MODULE, DEBUG, SHUTDOWN, ACL, REPLICAOF… */
  allowAdmin?: boolean;
  /** `--cluster`: the target is a Redis Cluster (its nodes on the target's host are reached). */
  cluster?: boolean;
  /** `--allow-host HOST`: hosts a cluster's nodes or a Sentinel's primary may be on besides the target's (the network gate). */
  allowHosts?: string[];
  /** `--allow-destructive`: scenarios may send commands that destroy or rewrite keys beyond their own (FLUSHALL, `cleanup *`, scripts…). */
  allowDestructive?: boolean;
  /** `--max-memory SIZE`: bytes a scenario may ask for on the server and in rbench (src/scenario/memory.ts). */
  maxMemory?: number;
  /** `--module PATH`: modules the throwaway server loads. */
  modules?: string[];
  /** `--server-binary PATH`: the throwaway server's binary; two or more: each scenario on each, compared as `--url A --url B` are. */
  serverBinaries?: string[];
  /** `--rdb PATH`: the dataset the throwaway server loads at start. */
  rdb?: string;
  /** `--server-binary NAME=PATH`: the machine's named binaries a file's `server binary NAME` picks from. */
  namedBinaries?: Record<string, string>;
  /** `--per-client`: print each test's throughput per client under the table. */
  perClient?: boolean;
  /** `--full`: the table with each test's per-second throughput percentiles (p5/p50/p95) and bytes sent and received per second. */
  full?: boolean;
  /** `--per-node`: a row per cluster node under each test, in the table and the CSV. */
  perNode?: boolean;
  /** `--yes`: consent to every run's effects as listed (any target but the throwaway server), without asking. */
  yes?: boolean;
  signal?: AbortSignal;
  /** `--shard I/N`: run part I of every scenario (src/runner/shard.ts). */
  shard?: ShardSpec;
  /** `--start-at`: epoch ms at which the first scenario starts, so that every part starts together. */
  startAt?: number;
  /** `--metrics ADDR`: serve OpenMetrics there while the runs go on (the listening gate passed it). */
  metrics?: ListenAddress;
  /** `--metrics-linger`: how long to wait after the last run for a final scrape. */
  metricsLingerMs?: number;
  /** Scenario files already read (rbench replay's own), run after `files`. */
  inline?: ScenarioFile[];
  /** Each selected plan as it runs (rbench replay puts its commands in): the plan, or why it cannot run. */
  planEdit?: (plan: ScenarioPlan) => ScenarioPlan | string;
}

/** The session's ports in a terminal: questions are answered by flags, never by a prompt (CI has none). */
function cliPorts(options: RunOptions, output: Output): SessionPorts {
  return {
    confirm: async (request) => {
      if (options.yes) return true;
      output.error(consentRefusal(request));
      return false;
    },
    // `password secret` in the CLI reads RBENCH_PASSWORD.
    secret: async (target) => (target.passwordSecret ? options.env.RBENCH_PASSWORD : undefined),
    // Brief: the run's header without the blank line that sets it apart from the previous table.
    log: (line) => output.info(options.brief ? line.replace(/^\n/, '') : line),
    progress: (() => {
      const print = progressPrinter(output, options.quiet, Boolean(options.brief));
      return (_run, event) => print(event);
    })(),
  };
}

/**
 * Why a run did not start without --yes: every effect, then the flags that consent to them (--allow-admin,
 * --allow-destructive and --allow-env were needed to get this far; --yes is the answer itself).
 */
export function consentRefusal(request: ConsentRequest): string {
  const { effects } = request;
  const flags = ['--yes'];
  if (effects.commands.admin?.length) flags.push('--allow-admin');
  if (effects.destructive.length > 0) flags.push('--allow-destructive');
  for (const item of effects.env) if (item.use === 'commands') flags.push(`--allow-env ${item.name}`);
  return [
    `${effects.file}: "${request.scenario}" was not run on ${effects.target.display}: rbench asks before any run on a server other than its throwaway one. What it would do:`,
    ...request.question.lines.map((line) => `  ${line}`),
    `To run it as listed, pass ${flags.join(' ')}.`,
  ].join('\n');
}

/**
 * Reads, resolves and selects every file's scenarios, printing diagnostics; then prepares each on every
 * target's session (safety rules, questions): one entry per scenario, its targets in order.
 */
async function prepareAll(sessions: RunSession[], options: RunOptions, output: Output): Promise<{ prepared: PreparedOn[][]; blocked: NotRun[] }> {
  const session = sessions[0];
  const prepared: PreparedOn[][] = [];
  const blocked: NotRun[] = [];
  let selected = 0;
  for (const path of [...options.files, ...(options.inline ?? [])]) {
    let file: ScenarioFile;
    if (typeof path === 'string') {
      let text: string;
      try {
        text = readBoundedText(path, { userNamed: true, maxBytes: SCENARIO_READ_LIMIT });
      } catch (error) {
        if (!(error instanceof FileGateError)) throw error;
        output.error(`cannot read the scenario file: ${error.message}`);
        blocked.push({ kind: 'not-run', reason: 'error', message: '', file: { display: path, text: '' } });
        continue;
      }
      file = { display: path, text, baseDir: dirname(resolve(path)), recorded: relative(process.cwd(), resolve(path)) };
    } else file = path;
    const resolved = await session.check(file);
    if ('kind' in resolved) {
      output.error(resolved.message);
      blocked.push(resolved);
      continue;
    }
    for (const diagnostic of resolved.diagnostics) {
      if (diagnostic.severity === 'error' || diagnostic.severity === 'warning') output.error(formatDiagnostic(file.display, diagnostic));
    }
    const plans = session.select(file, resolved, options.scenarios, options.tags);
    if (!Array.isArray(plans)) {
      output.error(plans.message);
      blocked.push(plans);
      continue;
    }
    selected += plans.length;
    for (const selectedPlan of plans) {
      const plan = options.planEdit ? options.planEdit(selectedPlan) : selectedPlan;
      if (typeof plan === 'string') {
        output.error(plan);
        blocked.push({ kind: 'not-run', reason: 'error', message: plan, file, plan: selectedPlan });
        continue;
      }
      if (options.percentiles) plan.percentiles = options.percentiles;
      const ready: PreparedOn[] = [];
      for (const [target, each] of sessions.entries()) {
        const outcome = await each.prepare(file, resolved, plan);
        if ('kind' in outcome) {
          // Declined: the question said why. Invalid: the diagnostics above say where (once, not per target).
          if (outcome.reason !== 'declined' && outcome.reason !== 'invalid') output.error(outcome.message);
          blocked.push(outcome);
          if (outcome.reason === 'invalid') break;
        } else {
          ready.push({ target, session: each, prepared: outcome });
        }
      }
      if (ready.length > 0) prepared.push(ready);
    }
  }
  const tags = options.tags ?? [];
  if (tags.length > 0 && selected === 0 && blocked.length === 0) {
    output.error(
      `rbench: no scenario of ${options.files.length === 1 ? 'the file' : `the ${options.files.length} files`} is tagged ${tags.map((t) => `"${t}"`).join(' or ')} (a \`tags\` line)`,
    );
    blocked.push({ kind: 'not-run', reason: 'error', message: '', file: { display: options.files[0] ?? '', text: '' } });
  }
  return { prepared, blocked };
}

/** A scenario prepared on one target's session (`target`: its index in --url's order). */
interface PreparedOn {
  target: number;
  session: RunSession;
  prepared: PreparedRun;
}

export async function runCommand(options: RunOptions, output: Output): Promise<ExitCode> {
  let metrics: CliMetrics | undefined;
  if (options.metrics) {
    const opened = await openMetrics(options.metrics, options.shard, output);
    if (typeof opened === 'string') {
      output.error(`error: ${opened}`);
      return ExitCode.ScenarioError;
    }
    metrics = opened;
  }
  try {
    return await runAll(options, output, metrics);
  } finally {
    await metrics?.finish(options.metricsLingerMs ?? DEFAULT_METRICS_LINGER_MS, options.signal);
  }
}

async function runAll(options: RunOptions, output: Output, metrics: CliMetrics | undefined): Promise<ExitCode> {
  const binaries = options.serverBinaries?.length ? options.serverBinaries : undefined;
  if (binaries && options.targets?.length) {
    output.error('rbench: --server-binary starts throwaway servers: it cannot be combined with --url (drop one of them)');
    return ExitCode.ScenarioError;
  }
  const twice = binaries?.find((binary, i) => binaries.findIndex((other) => resolve(other) === resolve(binary)) !== i);
  if (twice) {
    output.error(
      `rbench: --server-binary ${twice} is named twice: comparing a build with itself measures nothing — name each binary once (a copy of it is another binary)`,
    );
    return ExitCode.ScenarioError;
  }
  const targets = binaries && binaries.length > 1 ? binaries : options.targets && options.targets.length > 1 ? options.targets : undefined;
  const sameTarget = !binaries && targets && sameTargetRefusal(targets, {});
  if (sameTarget) {
    output.error(`rbench: ${sameTarget}`);
    return ExitCode.ScenarioError;
  }
  let baselines: BaselineSource | undefined;
  try {
    if (options.baseline) baselines = openBaselineSource(options.baseline, process.cwd());
  } catch (error) {
    if (!(error instanceof RunFileError)) throw error;
    output.error(`--baseline: ${error.message}`);
    return ExitCode.ScenarioError;
  }
  const sessionFor = (url: string | undefined, serverBinary?: string) =>
    new RunSession(
      {
        env: options.env,
        vars: options.vars,
        allowEnv: options.allowEnv,
        allowAdmin: options.allowAdmin,
        cluster: options.cluster,
        allowHosts: options.allowHosts,
        allowDestructive: options.allowDestructive,
        trusted: true,
        userTarget: url ? { value: url, override: true, supplier: 'user' } : undefined,
        secretEnv: 'RBENCH_PASSWORD',
        runsFolder: options.out,
        runsFolderRoot: options.outNamed ? undefined : process.cwd(),
        shard: options.shard,
        maxMemory: options.maxMemory,
        modules: options.modules,
        serverBinary,
        ...(options.namedBinaries ? { serverBinaries: options.namedBinaries } : {}),
        ...(options.rdb ? { rdb: options.rdb } : {}),
      },
      metrics ? metrics.ports(cliPorts(options, output)) : cliPorts(options, output),
    );
  // A binary runs on the throwaway server whatever target a file names (the user's word, as --url is).
  const sessions = binaries ? binaries.map((binary) => sessionFor(LOCAL_TARGET, binary)) : (targets ?? [options.url]).map((url) => sessionFor(url));
  const { prepared, blocked } = await prepareAll(sessions, options, output);
  let exitCode = ExitCode.Ok;
  for (const outcome of blocked) exitCode = Math.max(exitCode, outcome.connection ? ExitCode.ConnectionError : ExitCode.ScenarioError);
  if (prepared.length === 0) return exitCode === ExitCode.Ok ? ExitCode.ScenarioError : exitCode;

  if (options.startAt !== undefined && !(await startTogether(options.startAt, options.signal, output.info, output.error))) return ExitCode.Cancelled;
  const runs: RunFile[] = [];
  const scenariosRun = prepared.length;
  const report = (outcome: SessionOutcome, heading?: string): void => {
    if (outcome.kind === 'not-run') {
      output.error(outcome.message);
      exitCode = Math.max(exitCode, outcome.connection ? ExitCode.ConnectionError : ExitCode.ScenarioError);
      return;
    }
    const { run } = outcome;
    runs.push(run);
    const silent = options.quiet && options.csv !== '-';
    exitCode = Math.max(
      exitCode,
      reportRun(
        outcome,
        output,
        { perClient: Boolean(options.perClient), perNode: Boolean(options.perNode), full: Boolean(options.full) },
        { silent, brief: Boolean(options.brief), csvOnStdout: options.csv === '-', heading },
      ),
    );
    // A `sweep server` run: its setups side by side, as `rbench compare` shows runs.
    const setups = silent ? undefined : compareServerSetups(run);
    if (setups) showTable(output, options.csv === '-')(comparisonToText(setups));
    const gate = baselines ? compareWithBaseline(run, baselines, scenariosRun, options, output) : ExitCode.Ok;
    exitCode = Math.max(exitCode, gate);
    if (options.pin && outcome.path) pinRun(run, outcome.path, gate, output);
  };
  for (const group of prepared) {
    if (options.signal?.aborted) break;
    if (!targets) {
      report(await group[0].session.execute(group[0].prepared, options.signal));
      continue;
    }
    exitCode = Math.max(exitCode, await runOnSeveral(group, targets, options, output, report));
  }

  exitCode = Math.max(exitCode, writeExtraOutputs(runs, options, output));
  if (options.signal?.aborted) return ExitCode.Cancelled;
  return exitCode;
}

/** One scenario on each --url: the same server twice is refused; each run reported, then their comparison printed and saved. */
async function runOnSeveral(
  group: PreparedOn[],
  urls: readonly string[],
  options: RunOptions,
  output: Output,
  report: (outcome: SessionOutcome, heading?: string) => void,
): Promise<ExitCode> {
  const targets: TargetRun[] = group.map(({ target, session, prepared }) => ({ label: urls[target], session, prepared }));
  const same = await sameServerRefusal(targets);
  if (same) {
    output.error(`${group[0].prepared.file.display}: "${group[0].prepared.plan.name}" was not run: ${same}`);
    return ExitCode.ScenarioError;
  }
  if (interleaves(targets)) output.info(`Each repeat runs on every target in turn (${targets.map((t) => redactUrl(t.label)).join(', ')}, then again).`);
  const outcomes = await runOnTargets(targets, options.signal);
  // The runs went one after another, their results come together: each table under the target it measured.
  for (const [i, outcome] of outcomes.entries()) report(outcome, `\n${group[0].prepared.plan.name}  on  ${redactUrl(targets[i].label)}:`);
  const compared = compareTargets(targets, outcomes);
  if (!compared) return ExitCode.Ok;
  if (!(options.quiet && options.csv !== '-')) showTable(output, options.csv === '-')(comparisonToText(compared.comparison));
  const saved = saveComparison(compared.comparison, compared.runs[0], options.outNamed ? undefined : process.cwd());
  if ('path' in saved) output.info(`Comparison saved: ${saved.path}`);
  else {
    output.error(`error: ${saved.saveError}`);
    return ExitCode.SaveError;
  }
  return ExitCode.Ok;
}

/** `--json`, `--csv`, `--memtier-json` and `--hdr-prefix`: a failure to write them is reported like a failed run-file save. */
function writeExtraOutputs(runs: RunFile[], options: RunOptions, output: Output): ExitCode {
  let writing = '--json';
  try {
    if (options.json) writeRunListAt(options.json, runs);
    if (options.csv) {
      writing = '--csv';
      const csv = toRedisBenchmarkCsv(runs.flatMap((run) => breakdownRows(run, { nodes: options.perNode, steps: true })));
      if (options.csv === '-') output.result(csv);
      else writeFileSafely(options.csv, csv, { userNamed: true });
    }
    if (options.memtierJson) {
      writing = '--memtier-json';
      const { memtierJsonOf, memtierJsonPaths } = exportWriters();
      const outs = memtierJsonOf(runs);
      const paths = memtierJsonPaths(options.memtierJson, outs);
      for (const [i, out] of outs.entries()) writeFileSafely(paths[i], JSON.stringify(out.json, null, 2) + '\n', { userNamed: true });
      if (outs.length > 1) output.info(`memtier JSON: ${outs.length} files, ${paths[0]} …`);
    }
    if (options.hdrPrefix) {
      writing = '--hdr-prefix';
      for (const file of exportWriters().hdrFiles(options.hdrPrefix, runs)) writeFileSafely(file.path, file.text, { userNamed: true });
    }
    return ExitCode.Ok;
  } catch (error) {
    output.error(`error: could not write the ${writing} output: ${(error as Error).message}`);
    return ExitCode.SaveError;
  }
}

/** The writers of `--memtier-json` and `--hdr-prefix`: a file of their own in dist, required only by a run that asks (start-up parses none of it). */
function exportWriters(): typeof import('./exportWriters') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./exportWriters') as typeof import('./exportWriters');
}

/** Where a table goes: stdout, unless `--csv -` owns it; then with the notes (stderr, or nowhere with --quiet). */
function showTable(output: Output, csvOnStdout: boolean): (text: string) => void {
  return (text) => (csvOnStdout ? output.info(text.replace(/\n$/, '')) : output.result(text));
}

/**
 * `silent`: --quiet without `--csv -`, so the output drops tables and notes and they are not even built (formatting numbers starts ICU, ~12 ms of CPU).
 * `brief`: a line per test instead of the table and the verdict sentences (the `limit` label says the verdict).
 * `heading`: the line naming the target the table belongs to (several --url: the tables print after all the runs).
 * `csvOnStdout`: `--csv -` owns stdout, so the table goes with the notes (stderr, or nowhere with --quiet).
 */
function reportRun(
  outcome: FinishedRun,
  output: Output,
  rows: { perClient: boolean; perNode: boolean; full: boolean },
  { silent, brief, csvOnStdout, heading }: { silent: boolean; brief: boolean; csvOnStdout: boolean; heading?: string },
): ExitCode {
  const { run, path, saveError } = outcome;
  output.clearProgress();
  if (heading && !silent) output.info(brief ? heading.replace(/^\n/, '') : heading);
  // The results first: a run whose file cannot be saved still shows what it measured.
  if (!silent) {
    const show = showTable(output, csvOnStdout);
    if (brief) {
      const lines = briefLines(run);
      if (lines.length > 0) show(lines.join('\n'));
    } else {
      const table = breakdownRows(run, { nodes: rows.perNode, steps: true });
      if (table.length > 0) show(toTextTable(table, { full: rows.full }));
    }
    const curve = rateCurve(run);
    if (curve) show(rateCurveText(curve));
    for (const line of runHeadlines(run, { ...rows, valuesLines: !brief })) output.info(line);
    if (!brief) for (const line of bottleneckLines(run)) output.info(line);
    for (const warning of runWarnings(run)) output.info(`! ${warning}`);
  }
  for (const outcome of run.thresholds) {
    if (outcome.passed) output.info(thresholdLine(outcome));
    else output.error(thresholdLine(outcome));
  }
  const errorStatus = errorStatusVerdict(run);
  for (const reason of errorStatus.reasons) output.error(`${run.status}  ${reason}`);
  if (run.plan.shard && run.plan.expects.length > 0) output.info("Expectations are checked on the whole: rbench merge the parts' run files.");
  const endLine = runEndLine(run, path);
  if (endLine) output.info(endLine);
  // Last: what the run left on a server that is not a throwaway one.
  for (const line of leftKeysLines(run)) output.info(`! ${line}`);
  let code = ExitCode.Ok;
  if (run.status === 'failed') {
    output.error(`error: ${run.error ?? 'the run failed'}`);
    code = ExitCode.ConnectionError;
  } else if (run.status === 'cancelled') code = ExitCode.Cancelled;
  else if (errorStatus.failed || run.thresholds.some((outcome) => !outcome.passed)) code = ExitCode.ThresholdFailed;
  if (saveError) {
    output.error(`error: ${saveError}`);
    code = Math.max(code, ExitCode.SaveError);
  }
  return code;
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
  if (options.maxRegressionPercent === undefined) {
    showTable(output, options.csv === '-')(comparisonToText(compareRuns([found.baseline, run], { labels: ['baseline', 'this run'] })));
    return ExitCode.Ok;
  }
  // The table printed is the one the gate judges: one noise rule for both.
  const limits = { maxRegressionPercent: options.maxRegressionPercent };
  const comparison = gateComparison(found.baseline, run, limits);
  showTable(output, options.csv === '-')(comparisonToText(comparison));
  const { regressions, withinNoise } = runGate(found.baseline, run, limits, comparison);
  for (const note of withinNoise) output.info(`within noise  ${run.scenario.name}: ${note}`);
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
  const foreign = foreignLoadLine(run);
  if (foreign) {
    output.error(`not pinned: ${foreign}, so it is not a clean baseline; rerun with the server to itself`);
    return;
  }
  let pinned;
  try {
    pinned = pinBaseline(process.cwd(), { scenarioFile: run.scenario.file, scenarioName: run.scenario.name, runFile: path });
  } catch (error) {
    if (!(error instanceof BaselinesError)) throw error;
    output.error(`not pinned: ${error.message}`);
    return;
  }
  output.info(`Pinned as the baseline of ${pinned.key} in .rbench/baselines.json`);
}

/** `brief`: the live line only; each load's line is left to the brief line printed at the end. */
function progressPrinter(output: Output, quiet: boolean, brief: boolean): (event: RunProgress) => void {
  return (event) => {
    if (quiet) return;
    if (event.kind === 'tick' && event.tick.lastSecond) {
      const second = event.tick.lastSecond;
      const { at } = event;
      const share = event.tick.fraction !== undefined ? ` ${Math.round(event.tick.fraction * 100)}%` : '';
      output.progress(
        `${formatLoadName(at)}${event.tick.warmingUp ? ' (warm-up)' : ''}` +
          `  ${formatOps(second.ops)} ops/s  p50 ${formatLatency(second.p50Us)}  p99 ${formatLatency(second.p99Us)}` +
          (second.moved || second.ask ? `  MOVED ${second.moved ?? 0} ASK ${second.ask ?? 0}` : '') +
          `  ${formatDuration(event.tick.elapsedMs)}${share}`,
      );
    } else if (event.kind === 'load-end' && !brief) {
      const { at, result } = event;
      output.progressDone(
        `${formatLoadName(at)}: ` +
          `${formatOps(result.total.opsPerSec)} ops/s, p99 ${formatLatency(result.total.latency.p99Us)}` +
          (result.total.errors ? `, ${result.total.errors} errors` : '') +
          (result.cluster ? `, ${result.cluster.nodes.length} nodes, MOVED ${result.cluster.moved} ASK ${result.cluster.ask}` : '') +
          (result.status !== 'complete' ? ` (${result.status})` : ''),
      );
    }
  };
}

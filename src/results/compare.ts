// Comparing runs: aligns the result rows of several runs, computes each run's change against the first
// (the reference) and classifies it as better, worse or noise, and lists what differs between the runs
// (plan, server, client path, machine, status) so that a changed setup is never read as a regression.
// Plain data in, plain data out (no `vscode`): the CLI prints it, the editor's comparison view renders it.
import type { CommandResult, LoadStatus } from '../engine/types';
import type { ExpectMetric, PhasePlan, ScenarioPlan, ValuePlan, WeightedCommand } from '../scenario/plan';
import { csvField, renderMarkdownTable, renderTextTable } from './export';
import { formatDuration, formatMs, formatOps } from './format';
import { describeValueSize, resultRows, type ResultRow } from './rows';
import type { RunFile, Spread } from './runFile';
import { spreadOf } from './summary';
import { metricValue } from './thresholds';

/** The numbers compared for every row; named as `expect` lines name them. */
export type ComparedMetric = Extract<ExpectMetric, 'ops' | 'p50' | 'p90' | 'p99' | 'p99.9' | 'max' | 'errors'>;

export const COMPARED_METRICS: readonly ComparedMetric[] = ['ops', 'p50', 'p90', 'p99', 'p99.9', 'max', 'errors'];

interface MetricInfo {
  /** Column or line label. */
  label: string;
  /** Throughput: up is better. Latencies and errors: down is better. */
  higherIsBetter: boolean;
  /** Where the result table keeps the value. */
  field: 'opsPerSec' | 'p50Us' | 'p90Us' | 'p99Us' | 'p999Us' | 'maxUs' | 'errors';
  format: (value: number) => string;
}

const errorCount = (value: number) => value.toLocaleString('en-US');

export const METRIC_INFO: Record<ComparedMetric, MetricInfo> = {
  ops: { label: 'ops/s', higherIsBetter: true, field: 'opsPerSec', format: formatOps },
  p50: { label: 'p50 ms', higherIsBetter: false, field: 'p50Us', format: formatMs },
  p90: { label: 'p90 ms', higherIsBetter: false, field: 'p90Us', format: formatMs },
  p99: { label: 'p99 ms', higherIsBetter: false, field: 'p99Us', format: formatMs },
  'p99.9': { label: 'p99.9 ms', higherIsBetter: false, field: 'p999Us', format: formatMs },
  max: { label: 'max ms', higherIsBetter: false, field: 'maxUs', format: formatMs },
  errors: { label: 'errors', higherIsBetter: false, field: 'errors', format: errorCount },
};

export const DEFAULT_NOISE_PERCENT = 5;

export type Verdict = 'better' | 'worse' | 'noise';

export interface Delta {
  /** value − reference, in the metric's unit (ops/s, µs, count). */
  absolute: number;
  /** The change in % of the reference; null when the reference is 0 and the value is not. */
  percent: number | null;
  verdict: Verdict;
}

export interface MetricCell {
  /** The value the result table shows: ops/s (median over repeats for a test's total), latencies in µs, errors. */
  value: number;
  /** Over repeats (only when the point ran more than once). */
  spread?: Spread;
  /** Against the reference run (absent for the reference itself and when the reference lacks the row). */
  delta?: Delta;
}

export interface ComparisonCell {
  requests: number;
  /** How many repeats measured this row. */
  repeats: number;
  status: LoadStatus;
  metrics: Record<ComparedMetric, MetricCell>;
}

/** One aligned row: a test's total, or one command of a mix, at one point and phase. */
export interface ComparisonRow {
  point: string;
  phase: string;
  test: string;
  /** `total`, or the command label inside a mix. */
  command: string;
  /** One per run, in the order of `Comparison.runs`; null where that run has no such row (a gap). */
  cells: (ComparisonCell | null)[];
}

export interface ComparedRun {
  /** `#1`, `#2`, … (or the names the caller gave). */
  label: string;
  id: string;
  scenario: string;
  file?: string;
  startedAt: string;
  status: LoadStatus;
  error?: string;
  client: RunFile['client'];
  target: string;
  /** `redis 7.2.4 standalone`, or undefined when the server was not read. */
  server?: string;
  machine: string;
}

export type DifferenceKind =
  /** The resolved plan or the client path differ: the numbers measure different things. */
  | 'plan'
  /** Scenario name, target, server version/mode/config, machine: the numbers may not be comparable. */
  | 'setup'
  /** A run was cancelled or failed: it holds partial results. */
  | 'status';

export interface Difference {
  kind: DifferenceKind;
  /** `point clients=4, phase main`; empty for the whole run. */
  scope: string;
  field: string;
  /** One per run; null where the run has nothing there (a point or phase it did not run). */
  values: (string | null)[];
  /** `clients: 1 → 50`, with the scope first when there is one. */
  text: string;
}

export interface Comparison {
  noisePercent: number;
  /** The first run is the reference. */
  runs: ComparedRun[];
  /** What differs besides the numbers; read before the table. */
  differences: Difference[];
  rows: ComparisonRow[];
}

export interface CompareOptions {
  /** Changes smaller than this (in %) are noise. Default 5. */
  noisePercent?: number;
  /** Labels for the runs (e.g. file names); default `#1`, `#2`, … */
  labels?: string[];
}

// ---------------------------------------------------------------------------------------------------
// Rows and deltas

const rowKey = (row: Pick<ResultRow, 'point' | 'phase' | 'test' | 'command'>) => [row.point, row.phase, row.test, row.command].join('\u0000');

/** The results of one row in every repeat (for the spread), found again in the run's repeats. */
function repeatResults(run: RunFile, row: ResultRow): CommandResult[] {
  const point = run.points.find((p) => p.label === row.point);
  if (!point) return [];
  const results: CommandResult[] = [];
  for (const loads of point.repeats) {
    const load = loads.find((l) => l.phase === row.phase && l.test === row.test);
    const result = load && (row.command === 'total' ? load.total : load.commands.find((c) => c.command === row.command));
    if (result) results.push(result);
  }
  return results;
}

function cellOf(run: RunFile, row: ResultRow): ComparisonCell {
  const repeats = repeatResults(run, row);
  const metrics = {} as Record<ComparedMetric, MetricCell>;
  for (const metric of COMPARED_METRICS) {
    const cell: MetricCell = { value: row[METRIC_INFO[metric].field] };
    if (repeats.length > 1) cell.spread = spreadOf(repeats.map((result) => metricValue(result, metric)));
    metrics[metric] = cell;
  }
  return { requests: row.requests, repeats: Math.max(1, repeats.length), status: row.status, metrics };
}

/**
 * The change from `reference` to `cell` and whether it is better, worse or noise: a change below
 * `noisePercent`, or — when both sides ran repeats — one where their min–max ranges overlap or that is
 * smaller than twice their combined standard deviation, is noise.
 */
export function deltaOf(metric: ComparedMetric, reference: MetricCell, cell: MetricCell, noisePercent: number): Delta {
  const absolute = cell.value - reference.value;
  const percent = reference.value !== 0 ? (absolute / Math.abs(reference.value)) * 100 : absolute === 0 ? 0 : null;
  const improvement = METRIC_INFO[metric].higherIsBetter ? absolute : -absolute;
  let noise = absolute === 0 || (percent !== null && Math.abs(percent) < noisePercent);
  if (!noise && reference.spread && cell.spread) {
    const overlap = reference.spread.min <= cell.spread.max && cell.spread.min <= reference.spread.max;
    const combinedStddev = Math.sqrt(reference.spread.stddev ** 2 + cell.spread.stddev ** 2);
    noise = overlap || Math.abs(absolute) < 2 * combinedStddev;
  }
  return { absolute, percent, verdict: noise ? 'noise' : improvement > 0 ? 'better' : 'worse' };
}

function alignRows(runs: RunFile[], noisePercent: number): ComparisonRow[] {
  const rows = new Map<string, ComparisonRow>();
  runs.forEach((run, index) => {
    for (const result of resultRows(run)) {
      const key = rowKey(result);
      let row = rows.get(key);
      if (!row) {
        row = { point: result.point, phase: result.phase, test: result.test, command: result.command, cells: runs.map(() => null) };
        rows.set(key, row);
      }
      row.cells[index] = cellOf(run, result);
    }
  });
  for (const row of rows.values()) {
    const reference = row.cells[0];
    if (!reference) continue;
    for (const cell of row.cells.slice(1)) {
      if (!cell) continue;
      for (const metric of COMPARED_METRICS) {
        cell.metrics[metric].delta = deltaOf(metric, reference.metrics[metric], cell.metrics[metric], noisePercent);
      }
    }
  }
  return [...rows.values()];
}

// ---------------------------------------------------------------------------------------------------
// Differences

function describeValuePlan(value: ValuePlan): string {
  return value.kind === 'weighted' ? value.choices.map((c) => `${c.size} (weight ${c.weight})`).join(' / ') : describeValueSize(value);
}

function describeCommand({ weight, command }: WeightedCommand, weighted: boolean): string {
  const args = command.args.map((arg) => arg.map((part) => (typeof part === 'string' ? part : `__${part.placeholder}__`)).join(''));
  return [weighted ? `${weight}×` : '', command.name, ...args].filter(Boolean).join(' ');
}

/** The settings of a phase that shape its numbers, as `[field, value]` pairs for side-by-side comparison. */
export function phaseSettings(phase: PhasePlan): [string, string | null][] {
  const { load, keys } = phase;
  const distribution =
    keys.distribution === 'zipf' ? `zipf ${keys.zipfExponent}` : keys.distribution === 'gaussian' ? `gaussian σ ${keys.gaussianStddev}` : keys.distribution;
  return [
    ['measured', phase.measured ? 'yes' : 'no (prefill)'],
    ['clients', String(load.clients)],
    ['threads', String(load.threads)],
    ['pipeline', String(load.pipeline)],
    ['requests', load.requests !== undefined ? load.requests.toLocaleString('en-US') : null],
    ['duration', load.durationMs !== undefined ? formatDuration(load.durationMs) : null],
    ['warmup', formatDuration(load.warmupMs)],
    ['rate', load.rate !== undefined ? `${formatOps(load.rate)}/s` : 'closed loop'],
    ['keys', keys.space.toLocaleString('en-US')],
    ['key distribution', distribution],
    ['key size', String(keys.size)],
    ['seed', keys.seed !== undefined ? String(keys.seed) : 'random'],
    ['value', describeValuePlan(phase.value)],
    ['tests', phase.tests.map((test) => test.name).join(', ')],
    ['commands', phase.tests.map((test) => test.commands.map((c) => describeCommand(c, test.commands.length > 1)).join(' + ')).join('; ')],
  ];
}

function scenarioSettings(plan: ScenarioPlan, run: RunFile): [string, string][] {
  return [
    ['repeat', String(plan.repeat)],
    ['client', run.client],
    ['resp', String(plan.target.resp)],
    ['cluster', plan.target.cluster ? 'yes' : 'no'],
    ['db', String(plan.target.db ?? 0)],
  ];
}

function serverOf(run: RunFile): string | undefined {
  const server = run.target.server;
  return server ? `redis ${server.version} ${server.mode}` : undefined;
}

function machineOf(run: RunFile): string {
  return `${run.machine.cpuModel} (${run.machine.cores} cores)`;
}

const show = (value: string | null) => value ?? '—';

class DifferenceList {
  readonly items: Difference[] = [];

  /** Adds a difference when the values are not all equal. */
  add(kind: DifferenceKind, scope: string, field: string, values: (string | null)[]): void {
    if (values.every((value) => value === values[0])) return;
    const text = `${scope ? scope + ': ' : ''}${field}: ${values.map(show).join(' → ')}`;
    this.items.push({ kind, scope, field, values, text });
  }

  /** Adds an entry that some runs lack (a point or phase), worded as such. */
  addPresence(scope: string, field: string, labels: string[], present: boolean[]): void {
    if (present.every(Boolean)) return;
    const holders = labels.filter((_, i) => present[i]);
    const values = present.map((p) => (p ? 'yes' : null));
    this.items.push({ kind: 'plan', scope, field, values, text: `${scope}: only in ${holders.join(', ')}` });
  }
}

/** Union of keys over lists, in first-seen order. */
function unionOf<T>(lists: T[][], key: (item: T) => string): string[] {
  const seen = new Set<string>();
  for (const list of lists) for (const item of list) seen.add(key(item));
  return [...seen];
}

function planDifferences(runs: RunFile[], labels: string[], out: DifferenceList): void {
  const settings = runs.map((run) => scenarioSettings(run.plan, run));
  settings[0].forEach(([field], i) => out.add('plan', '', field, settings.map((s) => s[i][1])));

  const pointLabels = unionOf(runs.map((run) => run.plan.points), (p) => p.label);
  const severalPhases = runs.some((run) => run.plan.points.some((point) => point.phases.length > 1));
  for (const label of pointLabels) {
    const points = runs.map((run) => run.plan.points.find((p) => p.label === label));
    const pointScope = label ? `point ${label}` : '';
    if (points.some((p) => !p)) {
      out.addPresence(pointScope || 'point', 'point', labels, points.map(Boolean));
      continue;
    }
    const phaseNames = unionOf(points.map((p) => p!.phases), (phase) => phase.name);
    for (const name of phaseNames) {
      const phases = points.map((p) => p!.phases.find((phase) => phase.name === name));
      const scope = [pointScope, severalPhases || phases.some((p) => !p) ? `phase ${name}` : ''].filter(Boolean).join(', ');
      if (phases.some((p) => !p)) {
        out.addPresence(scope, 'phase', labels, phases.map(Boolean));
        continue;
      }
      const described = phases.map((phase) => phaseSettings(phase!));
      described[0].forEach(([field], i) => out.add('plan', scope, field, described.map((d) => d[i][1])));
    }
  }
}

function setupDifferences(runs: RunFile[], out: DifferenceList): void {
  out.add('setup', '', 'scenario', runs.map((run) => run.scenario.name));
  // Every throwaway server is the same setup (its free port differs run to run); version, config and machine still count.
  out.add('setup', '', 'target', runs.map((run) => (run.target.local ? 'throwaway redis-server' : run.target.display)));
  out.add('setup', '', 'server version', runs.map((run) => run.target.server?.version ?? null));
  out.add('setup', '', 'server mode', runs.map((run) => run.target.server?.mode ?? null));
  const configKeys = unionOf(runs.map((run) => Object.keys(run.target.server?.config ?? {})), (key) => key);
  for (const key of configKeys) out.add('setup', '', `server ${key}`, runs.map((run) => run.target.server?.config[key] ?? null));
  out.add('setup', '', 'machine', runs.map(machineOf));
}

function statusDifferences(runs: RunFile[], labels: string[], out: DifferenceList): void {
  runs.forEach((run, i) => {
    if (run.status === 'complete') return;
    const values = runs.map((r) => (r === run ? run.status : null));
    const text = `${labels[i]} ${run.status === 'failed' ? 'failed' : 'was cancelled'}: partial results${run.error ? ` (${run.error})` : ''}`;
    out.items.push({ kind: 'status', scope: labels[i], field: 'status', values, text });
  });
}

// ---------------------------------------------------------------------------------------------------
// The comparison

export function compareRuns(runs: RunFile[], options: CompareOptions = {}): Comparison {
  if (runs.length === 0) throw new Error('compareRuns needs at least one run');
  const noisePercent = options.noisePercent ?? DEFAULT_NOISE_PERCENT;
  const labels = runs.map((_, i) => options.labels?.[i] ?? `#${i + 1}`);
  const differences = new DifferenceList();
  statusDifferences(runs, labels, differences);
  planDifferences(runs, labels, differences);
  setupDifferences(runs, differences);
  return {
    noisePercent,
    runs: runs.map((run, i) => {
      const compared: ComparedRun = {
        label: labels[i],
        id: run.id,
        scenario: run.scenario.name,
        startedAt: run.startedAt,
        status: run.status,
        client: run.client,
        target: run.target.display,
        machine: machineOf(run),
      };
      // Only keys with values: the comparison survives a JSON round trip unchanged.
      if (run.scenario.file !== undefined) compared.file = run.scenario.file;
      if (run.error !== undefined) compared.error = run.error;
      const server = serverOf(run);
      if (server !== undefined) compared.server = server;
      return compared;
    }),
    differences: differences.items,
    rows: alignRows(runs, noisePercent),
  };
}

/** False when the runs' plans (or client paths) differ: their numbers measure different things. */
export function plansMatch(comparison: Comparison): boolean {
  return !comparison.differences.some((d) => d.kind === 'plan');
}

// ---------------------------------------------------------------------------------------------------
// The regression gate

export interface RegressionLimits {
  /** A throughput drop or p99 rise larger than this (in %) fails. */
  maxRegressionPercent: number;
}

export interface Regression {
  kind: 'throughput' | 'p99' | 'missing' | 'not-comparable';
  point: string;
  phase: string;
  test: string;
  /** Baseline and new values (ops/s or µs) and the change in %, for throughput and p99. */
  baseline?: number;
  actual?: number;
  percent?: number;
  message: string;
}

function rowName(row: Pick<ComparisonRow, 'point' | 'phase' | 'test'>, severalPhases: boolean): string {
  return [row.test, severalPhases ? `(phase ${row.phase})` : '', row.point ? `[${row.point}]` : ''].filter(Boolean).join(' ');
}

/**
 * Compares a run with its baseline, test by test (each test's total at each point and phase): a throughput
 * drop or p99 rise beyond the limit is a regression. Runs whose plans differ are not comparable: that is
 * reported as a failure too (pin a new baseline after changing a scenario). An empty list passes.
 */
export function checkRegression(baseline: RunFile, run: RunFile, limits: RegressionLimits): Regression[] {
  const comparison = compareRuns([baseline, run], { labels: ['baseline', 'this run'] });
  const regressions: Regression[] = [];
  const planChanges = comparison.differences.filter((d) => d.kind === 'plan');
  if (planChanges.length > 0) {
    regressions.push({
      kind: 'not-comparable',
      point: '',
      phase: '',
      test: '',
      message: `not comparable with the baseline: the plans differ (${planChanges.map((d) => d.text).join('; ')}). Pin a new baseline after changing the scenario.`,
    });
    return regressions;
  }
  if (baseline.status !== 'complete') {
    regressions.push({
      kind: 'not-comparable',
      point: '',
      phase: '',
      test: '',
      message: `not comparable with the baseline: the baseline run ${baseline.id} is ${baseline.status} (partial results). Pin a complete run.`,
    });
  }
  const limit = limits.maxRegressionPercent;
  const severalPhases = new Set(comparison.rows.map((row) => row.phase)).size > 1;
  for (const row of comparison.rows) {
    if (row.command !== 'total') continue;
    const [before, after] = row.cells;
    const where = { point: row.point, phase: row.phase, test: row.test };
    const name = rowName(row, severalPhases);
    if (!before) continue;
    if (!after) {
      regressions.push({ kind: 'missing', ...where, message: `${name}: measured in the baseline but not in this run` });
      continue;
    }
    const ops = after.metrics.ops.delta!;
    const drop = ops.percent === null ? 0 : -ops.percent;
    if (drop > limit) {
      regressions.push({
        kind: 'throughput',
        ...where,
        baseline: before.metrics.ops.value,
        actual: after.metrics.ops.value,
        percent: -drop,
        message: `${name}: throughput dropped ${drop.toFixed(1)}% (${formatOps(before.metrics.ops.value)} → ${formatOps(after.metrics.ops.value)} ops/s), more than the ${limit}% allowed`,
      });
    }
    const p99 = after.metrics.p99.delta!;
    const rise = p99.percent ?? (p99.absolute > 0 ? Infinity : 0);
    if (rise > limit) {
      regressions.push({
        kind: 'p99',
        ...where,
        baseline: before.metrics.p99.value,
        actual: after.metrics.p99.value,
        percent: rise,
        message: `${name}: p99 rose ${Number.isFinite(rise) ? `${rise.toFixed(1)}%` : 'from 0'} (${formatMs(before.metrics.p99.value)} → ${formatMs(after.metrics.p99.value)} ms), more than the ${limit}% allowed`,
      });
    }
  }
  return regressions;
}

// ---------------------------------------------------------------------------------------------------
// Output

type Style = 'emoji' | 'words';

const VERDICT_MARK: Record<Style, Record<Verdict, string>> = {
  emoji: { better: '✅', worse: '❌', noise: '~' },
  words: { better: 'better', worse: 'worse', noise: 'noise' },
};

/** `+3.1%`, `-12.0%`, or the absolute change when the reference is 0 (`+5`). */
export function formatChange(metric: ComparedMetric, delta: Delta): string {
  if (delta.percent !== null) return `${delta.percent >= 0 ? '+' : ''}${delta.percent.toFixed(1)}%`;
  return `${delta.absolute >= 0 ? '+' : '-'}${METRIC_INFO[metric].format(Math.abs(delta.absolute))}`;
}

/** `412,345 (+3.1% ✅)`; `—` for a gap. */
export function formatCell(metric: ComparedMetric, cell: ComparisonCell | null, style: Style = 'emoji'): string {
  if (!cell) return '—';
  const { value, delta } = cell.metrics[metric];
  const text = METRIC_INFO[metric].format(value);
  return delta ? `${text} (${formatChange(metric, delta)} ${VERDICT_MARK[style][delta.verdict]})` : text;
}

function describeRun(run: ComparedRun, reference: boolean): string {
  const facts = [
    run.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'),
    run.scenario,
    run.status,
    run.server ?? 'server not read',
    `${run.client} client`,
    run.target,
    run.machine,
  ];
  return `${run.label}${reference ? ' (reference)' : ''}: ${run.id} — ${facts.join(', ')}`;
}

/** The metrics worth a line for a row: errors only when some run had any. */
export function metricsShown(row: ComparisonRow): ComparedMetric[] {
  return COMPARED_METRICS.filter((metric) => metric !== 'errors' || row.cells.some((cell) => cell && cell.metrics.errors.value > 0));
}

interface Grid {
  columns: { header: string; align: 'left' | 'right' }[];
  cells: string[][];
}

/**
 * The table: a line per row × metric, a column per run. In Markdown a cell holds the value and its change
 * (`412,345 (+3.1% ✅)`); in text the change and the verdict get columns of their own so that numbers align.
 */
function grid(comparison: Comparison, style: Style): Grid {
  const rows = comparison.rows;
  const withPoint = rows.some((row) => row.point);
  const withPhase = new Set(rows.map((row) => row.phase)).size > 1;
  const split = style === 'words';
  const columns: Grid['columns'] = [];
  if (withPoint) columns.push({ header: 'point', align: 'left' });
  if (withPhase) columns.push({ header: 'phase', align: 'left' });
  columns.push({ header: 'command', align: 'left' }, { header: 'metric', align: 'left' });
  comparison.runs.forEach((run, i) => {
    columns.push({ header: run.label, align: 'right' });
    if (split && i > 0) columns.push({ header: 'change', align: 'right' }, { header: '', align: 'left' });
  });
  const cells: string[][] = [];
  for (const row of rows) {
    metricsShown(row).forEach((metric, i) => {
      const first = i === 0;
      const line: string[] = [];
      if (withPoint) line.push(first ? row.point : '');
      if (withPhase) line.push(first ? row.phase : '');
      line.push(first ? (row.command === 'total' ? row.test : `${row.test} › ${row.command}`) : '', METRIC_INFO[metric].label);
      row.cells.forEach((cell, run) => {
        if (!split) return line.push(formatCell(metric, cell, style));
        const measured = cell?.metrics[metric];
        line.push(measured ? METRIC_INFO[metric].format(measured.value) : '—');
        if (run > 0) line.push(measured?.delta ? formatChange(metric, measured.delta) : '', measured?.delta ? VERDICT_MARK.words[measured.delta.verdict] : '');
      });
      cells.push(line);
    });
  }
  return { columns, cells };
}

/** How many changes of each verdict the comparison holds, over the metrics shown. */
export function verdictCounts(comparison: Comparison): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { better: 0, worse: 0, noise: 0 };
  for (const row of comparison.rows) {
    for (const cell of row.cells) {
      if (!cell) continue;
      for (const metric of metricsShown(row)) {
        const verdict = cell.metrics[metric].delta?.verdict;
        if (verdict) counts[verdict]++;
      }
    }
  }
  return counts;
}

function summaryLine(comparison: Comparison): string {
  const counts = verdictCounts(comparison);
  const gaps = comparison.rows.filter((row) => row.cells.some((cell) => !cell)).length;
  return (
    `Against ${comparison.runs[0].label}: ${counts.better} better, ${counts.worse} worse, ${counts.noise} within noise (±${comparison.noisePercent}%)` +
    (gaps ? `; ${gaps} row${gaps === 1 ? '' : 's'} missing in some run` : '') +
    '.'
  );
}

function title(comparison: Comparison): string {
  const scenarios = [...new Set(comparison.runs.map((run) => run.scenario))];
  const runs = comparison.runs.length === 2 ? `${comparison.runs[1].label} vs ${comparison.runs[0].label}` : `${comparison.runs.length} runs`;
  return `${scenarios.map((s) => `"${s}"`).join(' / ')}: ${runs}`;
}

const NO_DIFFERENCES = 'No differences in plan, server, client path, machine or status.';

/** For a pull-request comment: the runs, what differs between them, then the numbers. */
export function comparisonToMarkdown(comparison: Comparison): string {
  const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;
  const lines = [`### RBench comparison: ${title(comparison)}`, ''];
  comparison.runs.forEach((run, i) => lines.push(`- ${describeRun(run, i === 0).replace(run.id, code(run.id))}`));
  lines.push('');
  if (comparison.differences.length > 0) {
    lines.push(`**⚠️ Differences — read these before the numbers:**`, '');
    for (const difference of comparison.differences) lines.push(`- ${difference.text}`);
  } else {
    lines.push(NO_DIFFERENCES);
  }
  lines.push('');
  const { columns, cells } = grid(comparison, 'emoji');
  lines.push(renderMarkdownTable(columns, cells));
  lines.push(`${summaryLine(comparison)} ✅ better, ❌ worse, ~ within noise.`);
  return lines.join('\n') + '\n';
}

/** For a terminal: the same as the Markdown, aligned in plain text. */
export function comparisonToText(comparison: Comparison): string {
  const lines = [`Comparison: ${title(comparison)}`];
  comparison.runs.forEach((run, i) => lines.push(`  ${describeRun(run, i === 0)}`));
  lines.push('');
  if (comparison.differences.length > 0) {
    lines.push('Differences (read these before the numbers):');
    for (const difference of comparison.differences) lines.push(`  ! ${difference.text}`);
  } else {
    lines.push(NO_DIFFERENCES);
  }
  lines.push('');
  const { columns, cells } = grid(comparison, 'words');
  lines.push(renderTextTable(columns, cells) + summaryLine(comparison));
  return lines.join('\n') + '\n';
}

/** One line per row × metric × run, in plain units (ops/s, µs, count), for spreadsheets and scripts. */
export function comparisonToCsv(comparison: Comparison): string {
  const header = ['point', 'phase', 'test', 'command', 'metric', 'run', 'run_id', 'value', 'min', 'max', 'change', 'change_percent', 'verdict'];
  const lines = [header.map(csvField).join(',')];
  const number = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(Math.round(value * 1000) / 1000));
  for (const row of comparison.rows) {
    for (const metric of COMPARED_METRICS) {
      row.cells.forEach((cell, i) => {
        const run = comparison.runs[i];
        const measured = cell?.metrics[metric];
        const fields = [
          row.point,
          row.phase,
          row.test,
          row.command,
          metric,
          run.label,
          run.id,
          number(measured?.value),
          number(measured?.spread?.min),
          number(measured?.spread?.max),
          number(measured?.delta?.absolute),
          number(measured?.delta?.percent),
          measured?.delta?.verdict ?? '',
        ];
        lines.push(fields.map(csvField).join(','));
      });
    }
  }
  return lines.join('\n') + '\n';
}

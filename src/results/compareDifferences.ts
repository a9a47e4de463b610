// What differs between compared runs besides the numbers — plan, server, client path, machine, status —
// so that a changed setup is never read as a regression.
import type { PhasePlan, ScenarioPlan, ValuePlan, WeightedCommand } from '../scenario/plan';
import { clusterTopology } from './clusterSummary';
import { formatDuration, formatOps } from './format';
import { searchCondition } from './rateCurve';
import { describeValueSize } from './rows';
import { planDifference } from './planIdentity';
import type { RunFile } from './runFile';
import { foreignCalls, foreignLoadLine } from './bottleneck';
import { importedOf } from './import/imported';
import { groupDigits } from '../scenario/numberText';
import { settingText } from './settingText';
import { partText } from '../scenario/draws';

export type DifferenceKind =
  /** The resolved plan or the client path differ: the numbers measure different things. */
  | 'plan'
  /** Scenario name, target, server version/mode/config, machine: the numbers may not be comparable. */
  | 'setup'
  /** A run was cancelled or failed (partial results), or ended with errors past the threshold. */
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

function describeValuePlan(value: ValuePlan): string {
  return value.kind === 'weighted' ? value.choices.map((c) => `${c.size} (weight ${c.weight})`).join(' / ') : describeValueSize(value);
}

function describeCommand({ weight, command }: WeightedCommand, weighted: boolean): string {
  // A range's two arguments are the one placeholder written.
  const args = command.args.filter((arg) => !arg.some((part) => typeof part === 'object' && part.side === 'max')).map((arg) => arg.map(partText).join(''));
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
    ['ramp', load.ramp ? `${load.ramp.from}..${load.ramp.to} step ${load.ramp.step} every ${formatDuration(load.ramp.everyMs)}` : null],
    ['threads', String(load.threads)],
    ['pipeline', String(load.pipeline)],
    ['requests', load.requests !== undefined ? groupDigits(load.requests) : null],
    ['duration', load.durationMs !== undefined ? formatDuration(load.durationMs) : null],
    ['warmup', formatDuration(load.warmupMs)],
    ['rate', load.rate !== undefined ? `${formatOps(load.rate)}/s` : 'closed loop'],
    ['keys', groupDigits(keys.space)],
    ['key distribution', distribution],
    ['key size', String(keys.size)],
    ['seed', keys.seed !== undefined ? String(keys.seed) : 'random'],
    ['value', describeValuePlan(phase.value)],
    ['tests', phase.tests.map((test) => test.name).join(', ')],
    ['commands', phase.tests.map((test) => test.commands.map((c) => describeCommand(c, test.commands.length > 1)).join(' + ')).join('; ')],
  ];
}

/** The tool that measured a run: RBench, or the tool an imported run came from (`rbench import`). */
function toolOf(run: RunFile): string {
  return importedOf(run)?.tool ?? 'rbench';
}

function scenarioSettings(plan: ScenarioPlan, run: RunFile, imported: boolean): [string, string][] {
  return [
    ['repeat', String(plan.repeat)],
    // Another tool's client is no RBench client path: the tool difference is listed as setup instead.
    ['client', imported ? 'n/a' : run.client],
    ['resp', String(plan.target.resp)],
    ['cluster', plan.target.cluster ? 'yes' : 'no'],
    ['db', String(plan.target.db ?? 0)],
    // A search's probes all sit at one template point: its condition and range are the plan too.
    [
      'find rate',
      plan.rateSearch ? `${searchCondition(plan.rateSearch)} from ${formatOps(plan.rateSearch.fromRate)}/s to ${formatOps(plan.rateSearch.toRate)}/s` : 'no',
    ],
  ];
}

export function serverOf(run: RunFile): string | undefined {
  const server = run.target.server;
  return server ? `${server.product ?? `redis ${server.version}`} ${server.mode}` : undefined;
}

export function machineOf(run: RunFile): string {
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
  const imported = runs.some((run) => importedOf(run));
  const settings = runs.map((run) => scenarioSettings(run.plan, run, imported));
  settings[0].forEach(([field], i) =>
    out.add(
      'plan',
      '',
      field,
      settings.map((s) => s[i][1]),
    ),
  );

  const pointLabels = unionOf(
    runs.map((run) => run.plan.points),
    (p) => p.label,
  );
  const severalPhases = runs.some((run) => run.plan.points.some((point) => point.phases.length > 1));
  for (const label of pointLabels) {
    const points = runs.map((run) => run.plan.points.find((p) => p.label === label));
    const pointScope = label ? `point ${label}` : '';
    if (points.some((p) => !p)) {
      out.addPresence(pointScope || 'point', 'point', labels, points.map(Boolean));
      continue;
    }
    const phaseNames = unionOf(
      points.map((p) => p!.phases),
      (phase) => phase.name,
    );
    for (const name of phaseNames) {
      const phases = points.map((p) => p!.phases.find((phase) => phase.name === name));
      const scope = [pointScope, severalPhases || phases.some((p) => !p) ? `phase ${name}` : ''].filter(Boolean).join(', ');
      if (phases.some((p) => !p)) {
        out.addPresence(scope, 'phase', labels, phases.map(Boolean));
        continue;
      }
      addPhaseSettings(phases as PhasePlan[], scope, out);
      groupDifferences(phases as PhasePlan[], scope, labels, out);
    }
  }
}

/**
 * A phase's client groups, by name: one that some runs lack is listed as such (`group scans: only in #2`), and
 * the settings of one they share are compared as a phase's are.
 */
function groupDifferences(phases: PhasePlan[], phaseScope: string, labels: string[], out: DifferenceList): void {
  if (!phases.some((phase) => phase.groups)) return;
  const names = unionOf(
    phases.map((phase) => phase.groups ?? []),
    (group) => group.name,
  );
  for (const name of names) {
    const groups = phases.map((phase) => phase.groups?.find((group) => group.name === name));
    const scope = [phaseScope, `group ${name}`].filter(Boolean).join(', ');
    if (groups.some((group) => !group)) {
      out.addPresence(scope, 'group', labels, groups.map(Boolean));
      continue;
    }
    out.add(
      'plan',
      scope,
      'background',
      groups.map((group) => (group!.background ? 'yes' : 'no')),
    );
    addPhaseSettings(
      groups.map((group) => group!.phase),
      scope,
      out,
    );
  }
}

/** The settings of one phase (or one group's phase) in each run, compared field by field under `scope`. */
function addPhaseSettings(phases: readonly PhasePlan[], scope: string, out: DifferenceList): void {
  const described = phases.map((phase) => phaseSettings(phase));
  described[0].forEach(([field], i) =>
    out.add(
      'plan',
      scope,
      field,
      described.map((d) => d[i][1]),
    ),
  );
}

function setupDifferences(runs: RunFile[], out: DifferenceList): void {
  out.add(
    'setup',
    '',
    'scenario',
    runs.map((run) => run.scenario.name),
  );
  // Every throwaway server is the same setup (its free port differs run to run); version, config and machine still count.
  out.add(
    'setup',
    '',
    'target',
    runs.map((run) => (run.target.local ? 'throwaway redis-server' : run.target.display)),
  );
  out.add(
    'setup',
    '',
    'server version',
    runs.map((run) => run.target.server?.version ?? null),
  );
  out.add(
    'setup',
    '',
    'server build',
    runs.map((run) =>
      run.target.server
        ? [run.target.server.product, run.target.server.buildId && `build ${run.target.server.buildId}`].filter(Boolean).join(' ') || null
        : null,
    ),
  );
  out.add(
    'setup',
    '',
    'server mode',
    runs.map((run) => run.target.server?.mode ?? null),
  );
  out.add(
    'setup',
    '',
    'cluster nodes',
    runs.map((run) => clusterTopology(run) ?? null),
  );
  const configKeys = unionOf(
    runs.map((run) => Object.keys(run.target.server?.config ?? {})),
    (key) => key,
  );
  for (const key of configKeys)
    out.add(
      'setup',
      '',
      `server ${key}`,
      runs.map((run) => {
        const value = run.target.server?.config[key];
        return value === undefined ? null : settingText(key, value);
      }),
    );
  out.add('setup', '', 'machine', runs.map(machineOf));
  out.add('setup', '', 'tool', runs.map(toolOf));
}

/** What a status means for the figures, named as it was: a complete-with-errors run measured everything, failures included. */
const STATUS_TEXT: Record<Exclude<RunFile['status'], 'complete'>, string> = {
  failed: 'failed: partial results',
  cancelled: 'was cancelled: partial results',
  'complete-with-errors': 'ended complete-with-errors: its figures include the failures',
};

function statusDifferences(runs: RunFile[], labels: string[], out: DifferenceList): void {
  runs.forEach((run, i) => {
    if (run.status === 'complete') return;
    const values = runs.map((r) => (r === run ? run.status : null));
    const text = `${labels[i]} ${STATUS_TEXT[run.status]}${run.error ? ` (${run.error})` : ''}`;
    out.items.push({ kind: 'status', scope: labels[i], field: 'status', values, text });
  });
}

/** A run whose server ran commands it did not send: its figures are not its own alone (src/results/bottleneck/foreignLoad.ts). */
function foreignLoadDifferences(runs: RunFile[], labels: string[], out: DifferenceList): void {
  runs.forEach((run, i) => {
    const line = foreignLoadLine(run);
    if (!line) return;
    const values = runs.map((r) => (r === run ? String(foreignCalls(run)) : null));
    out.items.push({ kind: 'setup', scope: labels[i], field: 'foreign load', values, text: `${labels[i]}: ${line}` });
  });
}

/** Everything that differs between the runs besides the numbers: status first, then the plan, then the setup. */
export function runDifferences(runs: RunFile[], labels: string[]): Difference[] {
  const differences = new DifferenceList();
  statusDifferences(runs, labels, differences);
  planDifferences(runs, labels, differences);
  // One plan-equality rule with merge (results/planIdentity.ts): a setting the list above does not show still makes the plans differ.
  const unlisted = runs.map((run) => planDifference(runs[0].plan, run.plan) ?? null);
  const other = unlisted.findIndex((difference) => difference !== null);
  if (other > 0 && !differences.items.some((d) => d.kind === 'plan'))
    differences.items.push({ kind: 'plan', scope: '', field: 'settings', values: unlisted, text: `settings of ${labels[other]}: ${unlisted[other]}` });
  setupDifferences(runs, differences);
  foreignLoadDifferences(runs, labels, differences);
  return differences.items;
}

// Column names of a comparison, by what differs between the runs (`clients 10`, `clients 50`; the target or the
// server version when the plans agree), else by start time: one rule for the comparison panel, the history's
// Compare and `rbench compare`.
import { runDifferences, type Difference, type DifferenceKind } from './compareDifferences';
import type { RunFile } from './runFile';

/** The settings a column may be named by, in the order they name it (the plan's first, then the setup's). */
const LABEL_FIELDS = [
  'clients',
  'ramp',
  'threads',
  'pipeline',
  'rate',
  'requests',
  'duration',
  'value',
  'keys',
  'key size',
  'key distribution',
  'client',
  'resp',
  'cluster',
  'db',
  'target',
  'server version',
  'server build',
  'server mode',
];
/** A value longer than this names no column (a command list, a machine's CPU model): the differences list shows it. */
const MAX_LABEL_VALUE = 32;
const MAX_LABEL_PARTS = 2;

/** A label field's place: the listed ones in their order, then server directives. */
function labelRank(field: string): number {
  const at = LABEL_FIELDS.indexOf(field);
  return at >= 0 ? at : LABEL_FIELDS.length;
}

function labelPart(field: string, value: string): string {
  if (field === 'target' || field === 'scenario') return value;
  if (field === 'server version') return `redis ${value}`;
  if (field === 'server build') return value;
  // A server directive that differs (`sweep server`, or two throwaway servers configured apart): `appendfsync always`.
  if (field.startsWith('server ')) return `${field.slice('server '.length)} ${value}`;
  if (field === 'client') return `${value} client`;
  return `${field} ${value}`;
}

/** `12-01 09:50:26`: when a run started, the second line of its column. */
export function startTime(run: Pick<RunFile, 'startedAt'>): string {
  return run.startedAt.slice(5, 19).replace('T', ' ');
}

/**
 * Column labels named by what differs between the runs (`clients 10`, `clients 50`; the target or the
 * server version when the plans agree), else by start time; `#n` is added where two would read the same.
 */
export function compareLabels(
  runs: readonly RunFile[],
  differences: readonly Difference[] = runDifferences(
    [...runs],
    runs.map((_, i) => `#${i + 1}`),
  ),
): string[] {
  const named = (kind: DifferenceKind) =>
    differences
      .filter(
        (d) =>
          d.kind === kind &&
          d.field !== 'scenario' &&
          (LABEL_FIELDS.includes(d.field) || d.field.startsWith('server ')) &&
          d.values.every((v) => v !== null && v.length <= MAX_LABEL_VALUE),
      )
      .sort((a, b) => labelRank(a.field) - labelRank(b.field))
      .filter((d, i, all) => all.findIndex((other) => other.field === d.field) === i)
      .slice(0, MAX_LABEL_PARTS);
  const plan = named('plan');
  // Runs of different scenarios are named by the scenario first.
  const scenario = differences.filter((d) => d.field === 'scenario' && d.values.every((v) => v !== null && v.length <= MAX_LABEL_VALUE));
  const chosen = [...scenario, ...(plan.length > 0 ? plan : named('setup'))].slice(0, MAX_LABEL_PARTS);
  const base = runs.map((run, i) => (chosen.length > 0 ? chosen.map((d) => labelPart(d.field, d.values[i] as string)).join(' · ') : startTime(run)));
  const timed = base.map((label, i) => (base.filter((other) => other === label).length > 1 && chosen.length > 0 ? `${label} · ${startTime(runs[i])}` : label));
  return timed.map((label, i) => (timed.filter((other) => other === label).length > 1 ? `${label} #${i + 1}` : label));
}

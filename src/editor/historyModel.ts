// The "Benchmark Runs" history as plain data: run files grouped by scenario file → scenario, newest
// first, each with its headline, age, tooltip and whether it is the scenario's pinned baseline. No
// `vscode` here: history.ts turns these into tree items, and the unit tests check them directly.
import { resolve } from 'node:path';
import { baselineKey, type Baselines } from '../results/baselines';
import type { VerdictKind } from '../results/verdict';
import type { RunEntry } from './runsIndex';
import { formatAge } from './runSummary';

/** Shown for runs whose run file names no scenario file. */
export const NO_FILE_LABEL = '(no scenario file)';

/** The baseline pin, else the run's verdict (the same as the Test Explorer's). */
export type RunIcon = 'baseline' | VerdictKind;

export interface HistoryRun {
  entry: RunEntry;
  /** The headline: `412k ops/s · p99 1.9 ms` (with the status first when not complete). */
  label: string;
  /** `baseline · 2 min ago`. */
  description: string;
  tooltip: string;
  isBaseline: boolean;
  icon: RunIcon;
}

export interface HistoryScenario {
  /** The scenario file as recorded, or undefined. */
  file?: string;
  name: string;
  /** Newest first. */
  runs: HistoryRun[];
  /** The pinned baseline's run file (absolute), when one is pinned for this scenario. */
  baselinePath?: string;
  /** Failed attempts that measured nothing, left out of `runs` (GroupOptions.showUnmeasured shows them). */
  hidden: number;
}

export interface HistoryFile {
  /** As recorded in the run files (relative to the workspace folder, `/`), or undefined. */
  file?: string;
  label: string;
  scenarios: HistoryScenario[];
}

export interface GroupOptions {
  now: number;
  /** Where baselines.json lives and relative paths start; without one nothing is marked as baseline. */
  root?: string;
  baselines?: Baselines;
  /** Show failed attempts that measured nothing (a refused connection) too; hidden by default. */
  showUnmeasured?: boolean;
}

/** A failed or cancelled attempt with no figures: noise in a list of runs unless asked for. */
export function measuredNothing(entry: RunEntry): boolean {
  return entry.measured === false && entry.status !== 'complete' && entry.status !== 'complete-with-errors';
}

/** A setting's value longer than this does not lead a row (a command list): the tooltip has it. */
const MAX_LEADING_VALUE = 24;
const MAX_LEADING_SETTINGS = 2;

/** `clients 50`, `target redis://…`: the settings in which a run differs from the scenario's previous one, in their order. */
export function changedSettings(entry: RunEntry, previous: RunEntry | undefined): string[] {
  if (!previous?.settings || !entry.settings) return [];
  const before = new Map(previous.settings);
  return entry.settings
    .filter(([field, value]) => before.has(field) && before.get(field) !== value && value.length <= MAX_LEADING_VALUE)
    .slice(0, MAX_LEADING_SETTINGS)
    .map(([field, value]) => `${field} ${value}`);
}

/** A recorded scenario file with `/` and without a leading `./`, so CLI and editor runs group together. */
export function normaliseScenarioFile(file: string | undefined): string | undefined {
  return file === undefined ? undefined : file.replace(/\\/g, '/').replace(/^\.\//, '');
}

/** The pinned baseline of a scenario as an absolute path, or undefined. */
export function pinnedBaseline(root: string | undefined, baselines: Baselines | undefined, file: string | undefined, scenario: string): string | undefined {
  if (!root || !baselines || file === undefined) return undefined;
  const pinned = baselines[baselineKey(root, file, scenario)];
  return pinned === undefined ? undefined : resolve(root, pinned);
}

/** Newest first: run ids start with the start time, so they sort by it. */
const newestFirst = (a: RunEntry, b: RunEntry) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** The runs of one scenario of one file, newest first. */
export function scenarioRuns(entries: readonly RunEntry[], file: string | undefined, scenario: string): RunEntry[] {
  const wanted = normaliseScenarioFile(file);
  return entries.filter((entry) => entry.scenario === scenario && normaliseScenarioFile(entry.file) === wanted).sort(newestFirst);
}

function iconOf(entry: RunEntry, isBaseline: boolean): RunIcon {
  if (isBaseline) return 'baseline';
  return entry.verdict;
}

/** `2026-11-30 11:58:00 UTC`, for the tooltip. */
const finishedText = (iso: string) =>
  new Date(iso)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');

/**
 * A history row. The label leads with what tells this run from its neighbours — the settings that changed
 * since the scenario's previous run, then the figures by test; the description starts with the age (a
 * narrow view cuts its end); the tooltip holds every setting.
 */
export function historyRun(entry: RunEntry, options: { now: number; isBaseline: boolean; previous?: RunEntry }): HistoryRun {
  const age = formatAge(options.now - Date.parse(entry.finishedAt));
  const changed = changedSettings(entry, options.previous);
  const settings = entry.settings ?? [];
  const tooltip = [
    `${entry.scenario}${entry.file ? ` — ${entry.file}` : ''}`,
    entry.named ?? entry.headline,
    ...(entry.verdictText ? [entry.verdictText] : []),
    `${entry.status}, finished ${finishedText(entry.finishedAt)} (${age})`,
    ...(changed.length > 0 ? [`Changed since the previous run: ${changed.join(', ')}`] : []),
    ...(settings.length > 0 ? ['', ...settings.map(([field, value]) => `${field}: ${value}`), ''] : []),
    ...(options.isBaseline ? ['Pinned as this scenario’s baseline (.rbench/baselines.json)'] : []),
    entry.path,
  ].join('\n');
  return {
    entry,
    label: [...changed, entry.named ?? entry.headline].join(' · '),
    description: [age, options.isBaseline ? 'baseline' : '', entry.verdictText].filter(Boolean).join(' · '),
    tooltip,
    isBaseline: options.isBaseline,
    icon: iconOf(entry, options.isBaseline),
  };
}

/** The rows of one scenario, newest first, each against the previous run that measured something. */
function scenarioRows(runs: readonly RunEntry[], options: GroupOptions, baselinePath: string | undefined): { rows: HistoryRun[]; hidden: number } {
  const sorted = [...runs].sort(newestFirst);
  const shown = options.showUnmeasured ? sorted : sorted.filter((entry) => !measuredNothing(entry));
  const rows = shown.map((entry) => {
    const previous = sorted.slice(sorted.indexOf(entry) + 1).find((older) => !measuredNothing(older));
    return historyRun(entry, { now: options.now, isBaseline: baselinePath !== undefined && resolve(entry.path) === baselinePath, previous });
  });
  return { rows, hidden: sorted.length - shown.length };
}

/** Groups runs by scenario file (by path), then scenario (by name); runs newest first. */
export function groupRuns(entries: readonly RunEntry[], options: GroupOptions): HistoryFile[] {
  const files = new Map<string, { file?: string; scenarios: Map<string, RunEntry[]> }>();
  for (const entry of entries) {
    const file = normaliseScenarioFile(entry.file);
    const key = file ?? '\u0000';
    let group = files.get(key);
    if (!group) files.set(key, (group = { file, scenarios: new Map() }));
    const runs = group.scenarios.get(entry.scenario) ?? [];
    runs.push(entry);
    group.scenarios.set(entry.scenario, runs);
  }
  const byName = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
  return [...files.values()]
    .sort((a, b) => (a.file === undefined ? 1 : b.file === undefined ? -1 : byName(a.file, b.file)))
    .map(({ file, scenarios }) => ({
      file,
      label: file ?? NO_FILE_LABEL,
      scenarios: [...scenarios.entries()]
        .sort(([a], [b]) => byName(a, b))
        .map(([name, runs]) => {
          const baselinePath = pinnedBaseline(options.root, options.baselines, file, name);
          const { rows, hidden } = scenarioRows(runs, options, baselinePath);
          return { file, name, baselinePath, runs: rows, hidden };
        }),
    }));
}

/** The order a comparison takes its runs in: oldest first, so the first (the reference) is the "before". */
export function oldestFirst<T extends { id: string }>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

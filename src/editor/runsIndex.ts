// The runs folder as the editor sees it: which run files exist, and the newest one per scenario file +
// scenario name (for the summary CodeLens). Run files never change once written, so each is read once.
import { SERVER_AXIS } from '../scenario/serverSweep';
import { readdir } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isInside } from '../gates/files';
import { parseRunFile, parseRunFileJson, readRunFileTextAsync, RUN_FILE_SUFFIX, RunFileError, type RunFile, type RunStatus } from '../results/runFile';
import { measuredAnything, runVerdict, verdictSummary, type VerdictKind } from '../results/verdict';
import { phaseSettings } from '../results/compareDifferences';
import { formatLatency, formatOpsShort } from '../results/format';
import { resultRows } from '../results/rows';
import { runHeadline } from './runSummary';

export interface RunEntry {
  path: string;
  /** The file name without its suffix (the run id): a timestamp first, so names sort by time. */
  id: string;
  /** The scenario file as recorded (relative to the workspace folder or the CLI's working folder). */
  file?: string;
  scenario: string;
  status: RunStatus;
  /** The run's verdict, as the Test Explorer gives it (expect lines and status). */
  verdict: VerdictKind;
  /** `1 of 2 expectations failed`; empty for a pass. */
  verdictText: string;
  finishedAt: string;
  headline: string;
  /** The history row's headline, naming the tests (`SET 27k · GET 16k ops/s · p99 ≤ 13.8 ms`); absent: `headline`. */
  named?: string;
  /** False for an attempt that measured nothing (a connection refused): the history hides those by default. */
  measured?: boolean;
  /** The settings that shape the numbers (`clients` → `50`, `target` → …), for the row's tooltip and what differs from the previous run. */
  settings?: [string, string][];
  /** A `sweep server` run: Compare on it alone sets its server setups side by side. */
  serverSweep?: boolean;
}

/** Settings that name nothing a row needs (the test list is in the headline). */
const UNSHOWN_SETTINGS = new Set(['measured', 'tests']);

/** The settings of a run as `[field, value]` pairs: the target, server and client, then each phase's (prefixed by the phase when there are several). */
export function runSettings(run: RunFile): [string, string][] {
  const settings: [string, string][] = [
    ['target', run.target.local ? 'throwaway redis-server' : run.target.display],
    ...(run.target.server ? ([['server', `redis ${run.target.server.version}`]] as [string, string][]) : []),
    ['client', run.client],
  ];
  if (run.plan.sweepAxes.length > 0) settings.push(['sweep', `${run.plan.sweepAxes.join(', ')} (${run.plan.points.length} points)`]);
  const phases = run.plan.points[0]?.phases ?? [];
  for (const phase of phases) {
    for (const [field, value] of phaseSettings(phase)) {
      if (value === null || UNSHOWN_SETTINGS.has(field)) continue;
      settings.push([phases.length > 1 ? `${phase.name} ${field}` : field, value]);
    }
  }
  return settings;
}

/** Up to this many tests are named in a history row; more are counted. */
const NAMED_TESTS = 3;

/** `SET 27k · GET 16k ops/s · p99 ≤ 13.8 ms`: the run's tests by name, not `2 results · …`; the plain headline when one test or none. */
export function namedHeadline(run: RunFile): string {
  const rows = resultRows(run, { commands: false });
  if (rows.length < 2) return runHeadline(run);
  const prefix = run.status === 'complete' ? '' : `${run.status} · `;
  const worstP99 = formatLatency(Math.max(...rows.map((row) => row.p99Us)));
  if (rows.length > NAMED_TESTS) {
    const ops = rows.map((row) => row.opsPerSec);
    return `${prefix}${rows.length} tests · ${formatOpsShort(Math.min(...ops))}–${formatOpsShort(Math.max(...ops))} ops/s · p99 ≤ ${worstP99}`;
  }
  const name = (row: (typeof rows)[number]) => [row.point, row.test].filter(Boolean).join(' ');
  return `${prefix}${rows.map((row) => `${name(row)} ${formatOpsShort(row.opsPerSec)}`).join(' · ')} ops/s · p99 ≤ ${worstP99}`;
}

/** `rbench.runsFolder` made absolute: relative to the first workspace folder, else to the scenario's folder. */
export function resolveRunsFolder(setting: string | undefined, workspaceRoot: string | undefined, scenarioDir: string): string {
  const folder = (setting ?? '').trim() || '.rbench/runs';
  if (isAbsolute(folder)) return folder;
  return resolve(workspaceRoot ?? scenarioDir, folder);
}

/** Where run files go, and the folder they must stay inside (no link followed below it; unset: the user's own folder). */
export interface RunsFolderPlace {
  folder: string;
  root?: string;
  /** Why a workspace's `rbench.runsFolder` was not used (it points outside the workspace folder). */
  problem?: string;
}

/**
 * `rbench.runsFolder` as a place to write. A workspace's settings came with the repository: the folder they
 * name must lie inside the workspace folder (else the default is used, with a problem to show). The user's
 * own setting may point anywhere; a relative one inside the workspace stays under the same rules as the default.
 */
export function runsFolderPlace(
  setting: string | undefined,
  scope: 'user' | 'workspace' | undefined,
  workspaceRoot: string | undefined,
  scenarioDir: string,
): RunsFolderPlace {
  const base = resolve(workspaceRoot ?? scenarioDir);
  const folder = resolveRunsFolder(setting, workspaceRoot, scenarioDir);
  if (isInside(base, folder)) return { folder, root: base };
  if (scope !== 'workspace') return { folder };
  return {
    folder: resolveRunsFolder(undefined, workspaceRoot, scenarioDir),
    root: base,
    problem:
      `rbench.runsFolder in this workspace's settings (${setting}) points outside the workspace folder, so run files go to .rbench/runs: ` +
      "a repository's settings may not choose where RBench writes — set rbench.runsFolder in your user settings instead",
  };
}

/** How a scenario file is recorded in run files: relative to the workspace folder, with `/`. */
export function recordedScenarioFile(fsPath: string, workspaceRoot: string | undefined): string {
  const path = workspaceRoot && !relative(workspaceRoot, fsPath).startsWith('..') ? relative(workspaceRoot, fsPath) : fsPath;
  return normaliseFile(path);
}

function normaliseFile(path: string): string {
  return path.split(sep).join('/').replace(/\\/g, '/').replace(/^\.\//, '');
}

/** The newest run of `scenario` in `file` (by file name, which starts with the time), or undefined. */
export function newestRun(entries: readonly RunEntry[], file: string, scenario: string): RunEntry | undefined {
  const wanted = normaliseFile(file);
  let newest: RunEntry | undefined;
  for (const entry of entries) {
    if (entry.scenario !== scenario || entry.file === undefined || normaliseFile(entry.file) !== wanted) continue;
    if (!newest || entry.id > newest.id) newest = entry;
  }
  return newest;
}

/** A file named like a run file that cannot be read as one (cut short, hand-edited, too large, another version). */
export interface UnreadableRun {
  path: string;
  message: string;
}

export class RunsIndex {
  /** Path → entry, or why the file is not a readable run file (not retried until it changes). */
  private readonly cache = new Map<string, RunEntry | UnreadableRun>();
  /** The unreadable files met by the last `entries()` call, for the history view's message. */
  unreadable: UnreadableRun[] = [];

  /** Every run file in `folder` (none when it does not exist yet); read inside `root` only, no link followed. */
  async entries(folder: string, root: string = folder): Promise<RunEntry[]> {
    let names: string[];
    try {
      names = await readdir(folder);
    } catch {
      return [];
    }
    const entries: RunEntry[] = [];
    const unreadable: UnreadableRun[] = [];
    for (const name of names) {
      if (!name.endsWith(RUN_FILE_SUFFIX) || name.startsWith('.')) continue;
      const path = join(folder, name);
      let entry = this.cache.get(path);
      if (entry === undefined) {
        entry = await readEntry(path, root);
        this.cache.set(path, entry);
      }
      if ('message' in entry) unreadable.push(entry);
      else entries.push(entry);
    }
    this.unreadable = unreadable;
    return entries;
  }

  /** Forget a file (it was deleted or rewritten). */
  forget(path: string): void {
    this.cache.delete(path);
  }

  /** Record a run just written, so the next lookup need not read it back. */
  remember(path: string, entry: RunEntry): void {
    this.cache.set(path, entry);
  }
}

export function runEntry(path: string, run: RunFile): RunEntry {
  const verdict = runVerdict(run);
  return {
    path,
    id: basename(path, RUN_FILE_SUFFIX),
    file: run.scenario.file,
    scenario: run.scenario.name,
    status: run.status,
    verdict: verdict.kind,
    verdictText: verdictSummary(verdict, run.thresholds.length),
    finishedAt: run.finishedAt,
    headline: runHeadline(run),
    named: namedHeadline(run),
    measured: measuredAnything(run),
    settings: runSettings(run),
    ...(run.plan.sweepAxes.includes(SERVER_AXIS) ? { serverSweep: true } : {}),
  };
}

/** A run file through the file gate: a regular file inside `root`, at most 64 MB, never blocking. */
async function readEntry(path: string, root: string): Promise<RunEntry | UnreadableRun> {
  try {
    const text = await readRunFileTextAsync(path, { root });
    return runEntry(path, parseRunFile(parseRunFileJson(text, path), path));
  } catch (error) {
    // Half-copied, hand-edited or foreign files are not runs: listed apart, with the reason.
    return { path, message: error instanceof RunFileError ? error.message : `${path}: not a readable run file (${(error as Error).message})` };
  }
}

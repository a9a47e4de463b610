// The runs folder as the editor sees it: which run files exist, and the newest one per scenario file +
// scenario name (for the summary CodeLens). Run files never change once written, so each is read once.
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseRunFile, parseRunFileJson, RUN_FILE_SUFFIX, RunFileError, type RunFile, type RunStatus } from '../results/runFile';
import { runFileSizeProblem } from '../results/runFileSchema';
import { runVerdict, verdictSummary, type VerdictKind } from '../results/verdict';
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
}

/** `rbench.runsFolder` made absolute: relative to the first workspace folder, else to the scenario's folder. */
export function resolveRunsFolder(setting: string | undefined, workspaceRoot: string | undefined, scenarioDir: string): string {
  const folder = (setting ?? '').trim() || '.rbench/runs';
  if (isAbsolute(folder)) return folder;
  return resolve(workspaceRoot ?? scenarioDir, folder);
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

  /** Every run file in `folder` (none when it does not exist yet). */
  async entries(folder: string): Promise<RunEntry[]> {
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
        entry = await readEntry(path);
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
  };
}

async function readEntry(path: string): Promise<RunEntry | UnreadableRun> {
  try {
    const tooLarge = runFileSizeProblem((await stat(path)).size, path);
    if (tooLarge) return { path, message: tooLarge };
    return runEntry(path, parseRunFile(parseRunFileJson(await readFile(path, 'utf8'), path), path));
  } catch (error) {
    // Half-copied, hand-edited or foreign files are not runs: listed apart, with the reason.
    return { path, message: error instanceof RunFileError ? error.message : `${path}: not a readable run file (${(error as Error).message})` };
  }
}

// THE run-file writer (every run through RunSession — the CLI and the editor —, `rbench merge`, the runs of
// `rbench run --json`): bounded (runFileBounds.ts: timelines, samples, INFO fields, errorstats), atomic
// (temp file + rename in the same real folder) and through the file gate. saveRun, the one used for runs
// and merges, turns a failure into a plain message naming the folder, the cause (a symbolic link,
// read-only, full disk) and the fix.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describeSystemError, FileGateError, writeFileSafely } from '../gates/files';
import { runFileName, type RunFile } from './runFile';
import { boundRunFile, RUN_FILE_LIMITS, type RunFileLimits } from './runFileBounds';

/**
 * Where a run file may be written: inside `root` (the workspace folder, or the folder `rbench` runs from:
 * no symbolic link followed, src/gates/files.ts), or, without one, anywhere in a folder the user named.
 */
export interface RunFileFolder {
  root?: string;
}

/** Writes the run into `folder` (inside `where.root` when given): the path written, or why it could not be. */
export function saveRun(
  folder: string,
  run: RunFile,
  where: RunFileFolder = {},
  limits: Readonly<RunFileLimits> = RUN_FILE_LIMITS,
): { path: string } | { saveError: string } {
  try {
    return { path: writeRunFile(folder, run, where, limits) };
  } catch (error) {
    if (!(error instanceof FileGateError)) throw error;
    const fix =
      error.problem === 'link' || error.problem === 'outside'
        ? 'replace the link with a real folder, or choose a runs folder yourself (--out, or rbench.runsFolder in your user settings)'
        : 'pick a writable runs folder (--out, or the setting rbench.runsFolder)';
    // A system error says its cause in words (`the disk is full (ENOSPC)`); a refusal names the link.
    const cause = error.problem === 'io' ? describeSystemError(error) : error.message;
    return { saveError: `the run file could not be saved in ${folder}: ${cause} — ${fix}` };
  }
}

/** As saveRun, throwing FileGateError instead of returning the message. Returns the path written. */
export function writeRunFile(folder: string, run: RunFile, where: RunFileFolder = {}, limits: Readonly<RunFileLimits> = RUN_FILE_LIMITS): string {
  // Shown as given (relative to the working folder); written by its absolute path.
  const path = join(folder, runFileName(run));
  if (where.root === undefined) {
    // The user's own folder (--out, a user setting): created as named, the file kept directly inside it.
    mkdirUserFolder(folder);
    writeFileSafely(resolve(path), runFileText(run, limits), { root: resolve(folder) });
  } else {
    writeFileSafely(resolve(path), runFileText(run, limits), { root: where.root });
  }
  return path;
}

/** A run file at a path the user named (`rbench merge --out FILE.json`). */
export function writeRunFileAt(path: string, run: RunFile): string {
  return writeFileSafely(path, runFileText(run), { userNamed: true });
}

/** A list of runs (`rbench run --json FILE`), each bounded like a run file, at a path the user named. */
export function writeRunListAt(path: string, runs: readonly RunFile[]): string {
  return writeFileSafely(
    path,
    JSON.stringify(
      runs.map((run) => boundRunFile(run)),
      null,
      1,
    ) + '\n',
    { userNamed: true },
  );
}

/** A run file's text: bounded, then JSON. */
export function runFileText(run: RunFile, limits: Readonly<RunFileLimits> = RUN_FILE_LIMITS): string {
  return JSON.stringify(boundRunFile(run, limits), null, 1) + '\n';
}

function mkdirUserFolder(folder: string): void {
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    throw new FileGateError(`${folder}: cannot create the folder (${describeSystemError(error)})`, folder, 'io', (error as NodeJS.ErrnoException).code);
  }
}

// Saving a run file from a run (the CLI, the editor) or a merge: the one writer (writeRunFile: bounded,
// atomic, through the file gate), with a failure turned into a plain message naming the folder, the cause
// (a symbolic link, read-only, full disk) and the fix.
import { describeSystemError, FileGateError } from '../gates/files';
import { writeRunFile, type RunFile, type RunFileFolder } from '../results/runFile';

/** Writes the run into `folder` (inside `where.root` when given): the path written, or why it could not be. */
export function saveRun(folder: string, run: RunFile, where: RunFileFolder = {}): { path: string } | { saveError: string } {
  try {
    return { path: writeRunFile(folder, run, where) };
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

// Writing a run file without ever leaving a broken one: a temp file renamed into place, removed if anything
// fails, and a failure turned into a plain message naming the folder and the cause (read-only, full disk).
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runFileName, type RunFile } from '../results/runFile';

const CAUSES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the folder is on a read-only file system',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOTDIR: 'a file stands where a folder is needed',
  EEXIST: 'a file stands where the folder should be',
};

/** Writes the run into `folder`: the path written, or why it could not be. */
export function saveRun(folder: string, run: RunFile): { path: string } | { saveError: string } {
  const path = join(folder, runFileName(run));
  const temp = join(folder, `.${runFileName(run)}.${process.pid}.tmp`);
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(temp, JSON.stringify(run, null, 1) + '\n');
    renameSync(temp, path);
    return { path };
  } catch (error) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // Nothing was written to remove.
    }
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const cause = CAUSES[code] ?? (error as Error).message;
    return { saveError: `the run file could not be saved in ${folder}: ${cause}${code && CAUSES[code] ? ` (${code})` : ''} — pick a writable runs folder (--out, or the setting rbench.runsFolder)` };
  }
}

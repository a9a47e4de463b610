// Which file a run file's `scenario.file` may open: a run file is written by a stranger, so only a `.rbench`
// file inside a workspace folder, never any path it names. Plain data, no `vscode`.
import { isAbsolute, relative, resolve } from 'node:path';

/** The paths `file` may mean, each a `.rbench` file inside one of `folders`; empty when it names anything else. */
export function scenarioCandidates(file: string, folders: readonly string[]): string[] {
  if (!file.toLowerCase().endsWith('.rbench')) return [];
  const candidates = isAbsolute(file) ? [resolve(file)] : folders.map((folder) => resolve(folder, file));
  return candidates.filter((candidate) => folders.some((folder) => isInside(candidate, folder)));
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(resolve(folder), path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

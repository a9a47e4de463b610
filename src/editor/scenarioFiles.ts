// Which paths the Test Explorer lists as scenario files. The `**/*.rbench` watcher and search also match
// folders (the runs folder `.rbench/` itself, or a folder named `x.rbench`): those are never items.
import { isInside } from '../gates/files';

export type FileKind = 'file' | 'directory' | 'other' | 'missing';

/** A regular `.rbench` file that is not inside (or the same as) one of the `excluded` folders (runs, `.rbench/`). */
export function isScenarioFile(fsPath: string, kind: FileKind, excluded: readonly string[]): boolean {
  if (kind !== 'file' || !fsPath.endsWith('.rbench')) return false;
  return !excluded.some((folder) => isInside(folder, fsPath));
}

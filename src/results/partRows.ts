// The rows of a merged run (`rbench merge`): each test's total, followed by each load machine's own figures.
import { breakdownRows } from './breakdownRows';
import type { ResultRow } from './rows';
import type { RunFile } from './runFile';

/** Each test's total row, then one row per part (`shard 2/3`) with the clients that part ran, then its cluster nodes. */
export function rowsWithParts(run: RunFile): ResultRow[] {
  return breakdownRows(run, { commands: false, parts: true, nodes: true });
}

// The rows of a merged run (`rbench merge`): each test's total, followed by each load machine's own figures.
import { resultRows, rowFrom, type ResultRow } from './rows';
import type { RunFile } from './runFile';
import { representativeLoad } from './summary';

/** Each test's total row, then one row per part (`shard 2/3`) with the clients that part ran. */
export function rowsWithParts(run: RunFile): ResultRow[] {
  const totals = resultRows(run, { commands: false });
  const rows: ResultRow[] = [];
  let at = 0;
  for (const point of run.points) {
    for (const summary of point.summary) {
      const load = representativeLoad(point.repeats, summary);
      if (!load) continue;
      rows.push(totals[at++]);
      for (const part of load.parts ?? []) {
        const row = rowFrom(run, point.label, summary, load, { ...part.total, command: part.part, histogram: '' }, false);
        rows.push({ ...row, clients: part.clients, status: part.status });
      }
    }
  }
  return rows;
}

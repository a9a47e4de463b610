// The cluster columns of the result table, present only when a row has them: each node's role and slots,
// and the MOVED/ASK redirections of a load and of each node.
import type { ResultRow, TableColumn } from './rows';
import { groupDigits } from '../scenario/numberText';

/** `12 / 0`: MOVED then ASK. */
export function redirectionsText(redirections: ResultRow['redirections']): string {
  return redirections ? `${groupDigits(redirections.moved)} / ${groupDigits(redirections.ask)}` : '';
}

export function clusterColumns(rows: readonly ResultRow[]): TableColumn[] {
  const columns: TableColumn[] = [];
  if (rows.some((row) => row.node)) {
    columns.push({ header: 'role', align: 'left', cell: (r) => r.node?.role ?? '' }, { header: 'slots', align: 'left', cell: (r) => r.node?.slots ?? '' });
  }
  if (rows.some((row) => row.redirections)) columns.push({ header: 'MOVED / ASK', align: 'right', cell: (r) => redirectionsText(r.redirections) });
  return columns;
}

// The results panel's table: rows from the run's result rows (plus the load running now), its columns,
// sorting, and the table exported in the order shown. Pure: bundled into the webview and unit-tested.
import type { LoadStatus } from '../engine';
import { toMarkdown, toRedisBenchmarkCsv } from '../results/export';
import { formatLatency, formatOps } from '../results/format';
import type { ResultRow } from '../results/rows';
import { formatMissRate, hitMissRates } from '../results/hitsMisses';
import type { LiveLoad } from './liveRun';
import { usText } from './serverTime';
import { groupDigits } from '../scenario/numberText';

export type PanelStatus = LoadStatus | 'running';

/** A table row: a test's total (or a command of a mix) at a point, or the load running now. */
export interface TableRow {
  /** Position in run order, for a stable "unsorted" order. */
  order: number;
  point: string;
  phase: string;
  test: string;
  /** `total`, or a command of a mix. */
  command: string;
  requests: number;
  opsPerSec: number;
  /** Min and max throughput over repeats. */
  opsRange?: [number, number];
  meanUs: number;
  p50Us: number;
  p90Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
  /** The scenario's chosen percentiles (`percentiles`), name (`p99.99`) → µs; absent when none were chosen. */
  percentiles?: Record<string, number>;
  errors: number;
  errorsByKind: Record<string, number>;
  status: PanelStatus;
  /** The result row behind it (absent for the running load): what the CSV and Markdown exports use. */
  source?: ResultRow;
  /** A cluster node's row or a merged run's machine row, under its test's total. */
  detail?: ResultRow['detail'];
  /** Cluster node rows: `master` or `replica`, and the slots served at the end. */
  role?: string;
  slots?: string;
  /** Cluster loads and nodes: MOVED + ASK (sorting), with both shown. */
  redirections?: number;
  moved?: number;
  ask?: number;
  /** A read's share of replies that found nothing (src/results/hitsMisses.ts); absent for other rows. */
  missRate?: number;
  /** A test's total: the server's µs per call of the commands it sent (LoadResult.server.usecPerCall). */
  serverUsPerCall?: number;
  /** A test's total: the bottleneck verdict's short label, and its line for a tooltip. */
  verdict?: string;
  verdictWhy?: string;
}

export type SortKey =
  | 'point'
  | 'phase'
  | 'test'
  | 'requests'
  | 'opsPerSec'
  | 'meanUs'
  | 'p50Us'
  | 'p90Us'
  | 'p99Us'
  | 'p999Us'
  | 'maxUs'
  | 'errors'
  | 'missRate'
  | 'role'
  | 'slots'
  | 'redirections'
  | 'serverUsPerCall'
  | 'verdict'
  | ChosenPercentileKey;

/** A chosen percentile's column (`p99.99`): sorted by the row's `percentiles` entry. */
export type ChosenPercentileKey = `p${number}`;

/** True for a chosen percentile's column key (`p99.99`), as the webview may send it back. */
export function isChosenPercentileKey(key: string): key is ChosenPercentileKey {
  return /^p\d{1,3}(?:\.\d{1,6})?$/.test(key);
}
export const SORT_KEYS: readonly SortKey[] = [
  'point',
  'phase',
  'test',
  'requests',
  'opsPerSec',
  'meanUs',
  'p50Us',
  'p90Us',
  'p99Us',
  'p999Us',
  'maxUs',
  'errors',
  'missRate',
  'role',
  'slots',
  'redirections',
  'serverUsPerCall',
  'verdict',
];
/** Columns sorted as text; the others as numbers. */
const TEXT_KEYS: ReadonlySet<SortKey> = new Set(['point', 'phase', 'test', 'role', 'slots', 'verdict']);

export interface SortSpec {
  key: SortKey;
  descending: boolean;
}

export interface ColumnDef {
  key: SortKey;
  header: string;
  numeric: boolean;
  cell: (row: TableRow) => string;
  /** A tooltip for the cell, where it has more to say than fits. */
  title?: (row: TableRow) => string | undefined;
}

export function tableRowFrom(row: ResultRow, order: number): TableRow {
  return {
    order,
    point: row.point,
    phase: row.phase,
    test: row.test,
    command: row.command,
    requests: row.requests,
    opsPerSec: row.opsPerSec,
    opsRange: row.opsRange,
    meanUs: row.meanUs,
    p50Us: row.p50Us,
    p90Us: row.p90Us,
    p99Us: row.p99Us,
    p999Us: row.p999Us,
    maxUs: row.maxUs,
    ...(row.percentiles ? { percentiles: row.percentiles } : {}),
    errors: row.errors,
    errorsByKind: row.errorsByKind,
    status: row.status,
    source: row,
    ...(row.missRate !== undefined ? { missRate: row.missRate } : {}),
    ...(row.detail ? { detail: row.detail } : {}),
    ...(row.node ? { role: row.node.role, slots: row.node.slots ?? '' } : {}),
    ...(row.redirections ? { redirections: row.redirections.moved + row.redirections.ask, moved: row.redirections.moved, ask: row.redirections.ask } : {}),
  };
}

/** The row of the load running now, from its last completed second. */
export function runningRow(load: LiveLoad, order: number): TableRow {
  const last = load.timeline[load.timeline.length - 1];
  return {
    order,
    point: load.at.point,
    phase: load.at.phase,
    test: load.at.test,
    command: 'total',
    requests: load.tick?.requests ?? 0,
    opsPerSec: last?.ops ?? 0,
    meanUs: NaN,
    p50Us: last?.p50Us ?? NaN,
    p90Us: NaN,
    p99Us: last?.p99Us ?? NaN,
    p999Us: NaN,
    maxUs: last?.maxUs ?? NaN,
    errors: load.tick?.errors ?? 0,
    errorsByKind: {},
    status: 'running',
  };
}

const latencyCell = (us: number) => (Number.isFinite(us) ? formatLatency(us) : '—');

/** The latency percentile columns: the scenario's chosen ones (`percentiles`), else p50, p90, p99 and p99.9. */
function percentileColumns(rows: readonly TableRow[]): ColumnDef[] {
  const chosen: ChosenPercentileKey[] = [];
  for (const row of rows) for (const name of Object.keys(row.percentiles ?? {})) if (isChosenPercentileKey(name) && !chosen.includes(name)) chosen.push(name);
  if (chosen.length === 0)
    return [
      { key: 'p50Us', header: 'p50', numeric: true, cell: (r) => latencyCell(r.p50Us) },
      { key: 'p90Us', header: 'p90', numeric: true, cell: (r) => latencyCell(r.p90Us) },
      { key: 'p99Us', header: 'p99', numeric: true, cell: (r) => latencyCell(r.p99Us) },
      { key: 'p999Us', header: 'p99.9', numeric: true, cell: (r) => latencyCell(r.p999Us) },
    ];
  // The running load's row has no histogram yet: its cells show a dash until it ends.
  return chosen.map((name) => ({ key: name, header: name, numeric: true, cell: (r) => latencyCell(r.percentiles?.[name] ?? NaN) }));
}

export function tableColumns(rows: readonly TableRow[]): ColumnDef[] {
  const columns: ColumnDef[] = [];
  if (rows.some((row) => row.point)) columns.push({ key: 'point', header: 'Point', numeric: false, cell: (r) => r.point });
  if (new Set(rows.map((row) => row.phase)).size > 1) columns.push({ key: 'phase', header: 'Phase', numeric: false, cell: (r) => r.phase });
  columns.push(
    {
      key: 'test',
      header: 'Test',
      numeric: false,
      cell: (r) => (r.command === 'total' ? r.test : `${r.test} › ${r.command}`) + (r.status === 'running' ? ' (running)' : ''),
    },
    { key: 'requests', header: 'Requests', numeric: true, cell: (r) => groupDigits(r.requests) },
    {
      key: 'opsPerSec',
      header: 'Ops/s',
      numeric: true,
      cell: (r) => formatOps(r.opsPerSec) + (r.opsRange ? ` (${formatOps(r.opsRange[0])}–${formatOps(r.opsRange[1])})` : ''),
    },
    { key: 'meanUs', header: 'Mean', numeric: true, cell: (r) => latencyCell(r.meanUs) },
    ...percentileColumns(rows),
    { key: 'maxUs', header: 'Max', numeric: true, cell: (r) => latencyCell(r.maxUs) },
    {
      key: 'errors',
      header: 'Errors',
      numeric: true,
      cell: (r) =>
        r.errors === 0
          ? '0'
          : Object.keys(r.errorsByKind).length > 0
            ? Object.entries(r.errorsByKind)
                .map(([kind, n]) => `${kind} ${groupDigits(n)}`)
                .join(', ')
            : groupDigits(r.errors),
    },
  );
  // Reads only: the miss rate, with hits/s and misses/s in its tooltip.
  if (rows.some((row) => row.missRate !== undefined)) {
    columns.push({
      key: 'missRate',
      header: 'Miss rate',
      numeric: true,
      cell: (r) => (r.missRate === undefined ? '' : formatMissRate(r.missRate)),
      title: (r) => {
        const rates = r.source ? hitMissRates(r.source) : undefined;
        return rates ? `${formatOps(rates.hits)} hits/s, ${formatOps(rates.misses)} misses/s` : undefined;
      },
    });
  }
  if (rows.some((row) => row.role !== undefined)) {
    columns.push(
      { key: 'role', header: 'Role', numeric: false, cell: (r) => r.role ?? '' },
      { key: 'slots', header: 'Slots', numeric: false, cell: (r) => r.slots ?? '' },
    );
  }
  if (rows.some((row) => row.redirections !== undefined)) {
    columns.push({
      key: 'redirections',
      header: 'MOVED / ASK',
      numeric: true,
      cell: (r) => (r.moved === undefined ? '' : `${groupDigits(r.moved)} / ${groupDigits(r.ask ?? 0)}`),
    });
  }
  // Run files from before the server-side counters have neither column.
  if (rows.some((row) => row.serverUsPerCall !== undefined)) {
    columns.push({
      key: 'serverUsPerCall',
      header: 'srv µs/call',
      numeric: true,
      cell: (r) => (r.serverUsPerCall === undefined ? '' : usText(r.serverUsPerCall)),
    });
  }
  if (rows.some((row) => row.verdict !== undefined)) {
    columns.push({ key: 'verdict', header: 'Bottleneck', numeric: false, cell: (r) => r.verdict ?? '', title: (r) => r.verdictWhy });
  }
  return columns;
}

/** Rows sorted by a column (a stable sort; unknown values last); no spec: run order. */
export function sortRows(rows: readonly TableRow[], spec?: SortSpec): TableRow[] {
  const sorted = [...rows];
  if (!spec) return sorted.sort((a, b) => a.order - b.order);
  const key = spec.key;
  const direction = spec.descending ? -1 : 1;
  const chosen = isChosenPercentileKey(key) ? key : undefined;
  const value = (row: TableRow) => (chosen ? row.percentiles?.[chosen] : row[key as Exclude<SortKey, ChosenPercentileKey>]);
  const text = (row: TableRow) => (key === 'test' ? (row.command === 'total' ? row.test : `${row.test} ${row.command}`) : String(value(row) ?? ''));
  const numericKey = !TEXT_KEYS.has(key);
  return sorted.sort((a, b) => {
    if (numericKey) {
      const av = (value(a) ?? NaN) as number;
      const bv = (value(b) ?? NaN) as number;
      const aBad = !Number.isFinite(av);
      const bBad = !Number.isFinite(bv);
      if (aBad || bBad) return aBad === bBad ? a.order - b.order : aBad ? 1 : -1;
      return av === bv ? a.order - b.order : (av - bv) * direction;
    }
    const compared = text(a).localeCompare(text(b), 'en', { numeric: true });
    return compared === 0 ? a.order - b.order : compared * direction;
  });
}

/** The table as Markdown or redis-benchmark CSV, in the order shown (the running load left out). */
export function exportTable(rows: readonly TableRow[], format: 'csv' | 'markdown', spec?: SortSpec): string {
  const resultRowsInOrder = sortRows(rows, spec).flatMap((row) => (row.source ? [row.source] : []));
  return format === 'csv' ? toRedisBenchmarkCsv(resultRowsInOrder) : toMarkdown(resultRowsInOrder);
}

// CSV and Markdown exports of result rows. The CSV uses redis-benchmark's `--csv` columns so the two
// tools' output can be diffed.
import type { ResultRow, TableColumn } from './rows';
import { clusterColumns } from './clusterColumns';
import { formatDuration, formatMs, formatOps, formatUsPerCall } from './format';
import { verdictShort } from './bottleneck';
import { hitMissColumns, hitMissRates } from './hitsMisses';
import { csvCell, markdownCell } from '../gates/output';
import { groupDigits } from '../scenario/numberText';

/** A CSV cell: quoted, and text that a spreadsheet would run as a formula marked as text (src/gates/output.ts). */
export function csvField(value: string): string {
  return csvCell(value);
}

/** The name redis-benchmark would print: the test, plus the sweep point and mix command when present. */
export function rowName(row: ResultRow): string {
  const parts = [row.command === 'total' ? row.test : `${row.test} ${row.command}`];
  if (row.point) parts.push(row.point);
  return parts.join(' ');
}

const ms = (us: number) => (us / 1000).toFixed(3);

/** The columns of redis-benchmark 7's `--csv`, in its order: written first here, read by `rbench import`. */
export const REDIS_BENCHMARK_CSV_HEADER = [
  'test',
  'rps',
  'avg_latency_ms',
  'min_latency_ms',
  'p50_latency_ms',
  'p95_latency_ms',
  'p99_latency_ms',
  'max_latency_ms',
];

/** The chosen percentiles' names over rows (`p50`, `p99.99`), in the order chosen; empty when none were chosen. */
export function chosenPercentileNames(rows: ResultRow[]): string[] {
  const names: string[] = [];
  for (const row of rows) for (const name of Object.keys(row.percentiles ?? {})) if (!names.includes(name)) names.push(name);
  return names;
}

/**
 * redis-benchmark's columns first (so the two diff), then the server's time per call, the verdict (its kind,
 * sentence and short label: `limit`) and the test's elapsed seconds (empty where not known), then a
 * `pN_latency_ms` column per chosen percentile, then (when a row is a read) `hits_per_sec`, `misses_per_sec` and
 * `miss_rate`.
 */
export function toRedisBenchmarkCsv(rows: ResultRow[]): string {
  // redis-benchmark's own percentile columns are not repeated (the same figures, by the same rule).
  const chosen = chosenPercentileNames(rows).filter((name) => !REDIS_BENCHMARK_CSV_HEADER.includes(`${name}_latency_ms`));
  const reads = rows.some((row) => row.misses !== undefined);
  const header = [
    ...REDIS_BENCHMARK_CSV_HEADER,
    'server_usec_per_call',
    'bottleneck',
    'bottleneck_why',
    'limit',
    'elapsed_s',
    ...chosen.map((name) => `${name}_latency_ms`),
    // Only when some row is a read that counted its misses (as the table's columns).
    ...(reads ? ['hits_per_sec', 'misses_per_sec', 'miss_rate'] : []),
  ];
  const lines = [header.map(csvField).join(',')];
  for (const row of rows) {
    const server = row.serverUsPerCall !== undefined ? String(Math.round(row.serverUsPerCall * 1000) / 1000) : '';
    lines.push(
      [
        rowName(row),
        row.opsPerSec.toFixed(2),
        ms(row.meanUs),
        ms(row.minUs),
        ms(row.p50Us),
        ms(row.p95Us),
        ms(row.p99Us),
        ms(row.maxUs),
        server,
        row.bottleneck?.kind ?? '',
        row.bottleneck?.why ?? '',
        row.bottleneck ? verdictShort(row.bottleneck) : '',
        row.durationMs !== undefined ? (row.durationMs / 1000).toFixed(3) : '',
        ...chosen.map((name) => (row.percentiles?.[name] !== undefined ? ms(row.percentiles[name]) : '')),
        ...(reads ? hitMissCsvCells(row) : []),
      ]
        .map(csvField)
        .join(','),
    );
  }
  return lines.join('\n') + '\n';
}

/** A row's hits/s, misses/s and miss rate (a fraction, 0…1) for the CSV; empty cells for a row that is no read. */
function hitMissCsvCells(row: ResultRow): string[] {
  const rates = hitMissRates(row);
  if (!rates || row.missRate === undefined) return ['', '', ''];
  return [rates.hits.toFixed(2), rates.misses.toFixed(2), row.missRate.toFixed(4)];
}

/** The latency percentile columns: the chosen ones (`percentiles`), else p50, p99 and p99.9. */
function percentileColumns(rows: ResultRow[]): TableColumn[] {
  const chosen = chosenPercentileNames(rows);
  if (chosen.length === 0)
    return [
      { header: 'p50 ms', align: 'right', cell: (r) => formatMs(r.p50Us) },
      { header: 'p99 ms', align: 'right', cell: (r) => formatMs(r.p99Us) },
      { header: 'p99.9 ms', align: 'right', cell: (r) => formatMs(r.p999Us) },
    ];
  return chosen.map((name) => ({
    header: `${name} ms`,
    align: 'right',
    cell: (r) => (r.percentiles?.[name] !== undefined ? formatMs(r.percentiles[name]) : ''),
  }));
}

/** `--full`: per-second throughput percentiles and bytes per second of each test (its total row). */
function fullColumns(): TableColumn[] {
  const mb = (bytes: number | undefined) => (bytes === undefined ? '' : (bytes / 1_000_000).toFixed(2));
  return [
    {
      header: 'ops/s p5/p50/p95',
      align: 'right',
      cell: (r) =>
        r.throughputPercentiles ? [r.throughputPercentiles.p5, r.throughputPercentiles.p50, r.throughputPercentiles.p95].map(formatOps).join('/') : '',
    },
    { header: 'MB/s sent', align: 'right', cell: (r) => mb(r.bytesPerSec?.sent) },
    { header: 'MB/s recv', align: 'right', cell: (r) => mb(r.bytesPerSec?.received) },
  ];
}

/**
 * The columns of the result table, as the seed blogs printed them. Sweep points come first when present.
 * `full`: the per-second throughput percentiles and bytes per second too.
 */
export function resultColumns(rows: ResultRow[], options: { full?: boolean } = {}): TableColumn[] {
  const columns: TableColumn[] = [];
  if (rows.some((row) => row.point)) columns.push({ header: 'point', align: 'left', cell: (r) => r.point });
  if (new Set(rows.map((row) => row.phase)).size > 1) columns.push({ header: 'phase', align: 'left', cell: (r) => r.phase });
  columns.push(
    { header: 'command', align: 'left', cell: (r) => (r.command === 'total' ? `${r.test}${r.background ? ' (background)' : ''}` : `  ${r.command}`) },
    { header: 'requests', align: 'right', cell: (r) => groupDigits(r.requests) },
    { header: 'clients', align: 'right', cell: (r) => String(r.clients) },
    { header: 'pipeline', align: 'right', cell: (r) => String(r.pipeline) },
    { header: 'key size', align: 'right', cell: (r) => String(r.keySize) },
    { header: 'value size', align: 'right', cell: (r) => r.valueSize },
  );
  // How long each test ran: where the wait went in a long suite.
  if (rows.some((row) => row.durationMs !== undefined)) {
    columns.push({ header: 'time', align: 'right', cell: (r) => (r.durationMs !== undefined ? formatDuration(r.durationMs) : '') });
  }
  columns.push(
    { header: 'ops/s', align: 'right', cell: (r) => formatOps(r.opsPerSec) + (r.opsRange ? ` (${formatOps(r.opsRange[0])}–${formatOps(r.opsRange[1])})` : '') },
    ...percentileColumns(rows),
    // The max is where a freeze shows (issue 20: a 2 s stall hid behind a 7.9 ms p99.9).
    { header: 'max ms', align: 'right', cell: (r) => formatMs(r.maxUs) },
  );
  if (options.full) columns.push(...fullColumns());
  // The server's own time per call beside the client's latency: the rest is round trip, queueing and client.
  if (rows.some((row) => row.serverUsPerCall !== undefined)) {
    columns.push({ header: 'srv µs/call', align: 'right', cell: (r) => (r.serverUsPerCall !== undefined ? formatUsPerCall(r.serverUsPerCall) : '') });
  }
  columns.push({
    header: 'errors',
    align: 'right',
    cell: (r) =>
      r.errors
        ? `${r.errors} (${Object.entries(r.errorsByKind)
            .map(([k, n]) => `${k} ${n}`)
            .join(', ')})`
        : '0',
  });
  // Reads only: after errors, so the columns every table has keep their places.
  columns.push(...hitMissColumns(rows));
  columns.push(...clusterColumns(rows));
  // Tests that churned connections: what each new connection cost (connect, TLS, handshake), and how many there were.
  if (rows.some((row) => row.connect)) {
    columns.push(
      { header: 'connect p50/p99 ms', align: 'right', cell: (r) => (r.connect ? `${formatMs(r.connect.p50Us)} / ${formatMs(r.connect.p99Us)}` : '') },
      { header: 'connections', align: 'right', cell: (r) => (r.connect ? groupDigits(r.connect.count) : '') },
    );
  }
  // The verdict in a word or two; its sentence is printed under the table, once per distinct sentence.
  if (rows.some((row) => row.bottleneck)) columns.push({ header: 'limit', align: 'left', cell: (r) => (r.bottleneck ? verdictShort(r.bottleneck) : '') });
  return columns;
}

/** A Markdown table: headers and cells shown as written (markdownCell: no HTML, no `|` ending a cell), right-aligned columns get `---:`. */
export function renderMarkdownTable(columns: Pick<TableColumn, 'header' | 'align'>[], cells: string[][]): string {
  const escape = (text: string) => markdownCell(text).trim();
  const lines = [
    `| ${columns.map((c) => escape(c.header)).join(' | ')} |`,
    `| ${columns.map((c) => (c.align === 'right' ? '---:' : ':---')).join(' | ')} |`,
    ...cells.map((row) => `| ${row.map(escape).join(' | ')} |`),
  ];
  return lines.join('\n') + '\n';
}

/** A fixed-width text table for terminals: a header, a rule, then the cells padded to each column's width. */
export function renderTextTable(columns: Pick<TableColumn, 'header' | 'align'>[], cells: string[][]): string {
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => r[i].length)));
  const pad = (text: string, i: number) => (columns[i].align === 'right' ? text.padStart(widths[i]) : text.padEnd(widths[i]));
  const lines = [
    columns
      .map((c, i) => pad(c.header, i))
      .join('  ')
      .trimEnd(),
    widths.map((w) => '-'.repeat(w)).join('  '),
  ];
  for (const row of cells)
    lines.push(
      row
        .map((text, i) => pad(text, i))
        .join('  ')
        .trimEnd(),
    );
  return lines.join('\n') + '\n';
}

export function toMarkdown(rows: ResultRow[]): string {
  const columns = resultColumns(rows);
  return renderMarkdownTable(
    columns,
    rows.map((row) => columns.map((c) => c.cell(row))),
  );
}

/** The result table for terminals (`full`: with the throughput percentiles and bytes per second). */
export function toTextTable(rows: ResultRow[], options: { full?: boolean } = {}): string {
  const columns = resultColumns(rows, options);
  return renderTextTable(
    columns,
    rows.map((row) => columns.map((c) => c.cell(row))),
  );
}

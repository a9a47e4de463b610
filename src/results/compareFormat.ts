// A comparison as text for a terminal, Markdown for a pull-request comment, and CSV for spreadsheets.
import {
  COMPARED_METRICS,
  METRIC_INFO,
  type ComparedMetric,
  type ComparedRun,
  type Comparison,
  type ComparisonCell,
  type ComparisonRow,
  type Delta,
  type Verdict,
  plansMatch,
  rowMetrics,
} from './compare';
import { csvField, renderMarkdownTable, renderTextTable } from './export';
import { timeNotes } from './compareExplain';
import { formatUsPerCall } from './format';
import { CONFIDENCE_PERCENT, formatInterval, TEST_DESCRIPTIONS, type StatisticTest } from './statistics';
import { markdownCell, markdownCode } from '../gates/output';
import { figureChange, GROUP_FIGURES, type GroupFigure } from './groupFigures';

type Style = 'emoji' | 'words';

const VERDICT_MARK: Record<Style, Record<Verdict, string>> = {
  emoji: { better: '✅', worse: '❌', noise: '~', differs: '≠' },
  words: { better: 'better', worse: 'worse', noise: 'noise', differs: 'differs' },
};

/** `+3.1%`, `-12.0%`, or the absolute change when the reference is 0 (`+5`). */
export function formatChange(metric: ComparedMetric, delta: Delta): string {
  if (delta.percent !== null) return `${delta.percent >= 0 ? '+' : ''}${delta.percent.toFixed(1)}%`;
  return `${delta.absolute >= 0 ? '+' : '-'}${METRIC_INFO[metric].format(Math.abs(delta.absolute))}`;
}

/** The change with its interval when there is one: `-45.2% [-48.1%, -42.0%]`. */
export function formatChangeWithInterval(metric: ComparedMetric, delta: Delta): string {
  return delta.interval ? `${formatChange(metric, delta)} ${formatInterval(delta.interval)}` : formatChange(metric, delta);
}

const NOT_COMPARABLE: Record<Style, string> = { emoji: '⚠️ not comparable', words: 'not comparable' };

/** The verdict mark of a change; a change of a run (or a reference) whose figures are not comparable is flagged instead. */
function verdictMark(delta: Delta, flagged: boolean, style: Style): string {
  return flagged ? NOT_COMPARABLE[style] : VERDICT_MARK[style][delta.verdict];
}

/** True when the change of `cell` against `reference` is not to be trusted: either side's figures measured the client or foreign load. */
export function notComparable(cell: ComparisonCell | null, reference: ComparisonCell | null): boolean {
  return Boolean(cell?.notComparable || (cell && reference?.notComparable));
}

/** `412,345 (+3.1% ✅)`, with the interval where one was computed (`225,980 (-45.2% [-48.1%, -42.0%] ❌)`); `—` for a gap. */
export function formatCell(metric: ComparedMetric, cell: ComparisonCell | null, style: Style = 'emoji', reference: ComparisonCell | null = null): string {
  if (!cell || cell.metrics[metric].absent) return '—';
  const { value, delta } = cell.metrics[metric];
  const text = METRIC_INFO[metric].format(value);
  return delta ? `${text} (${formatChangeWithInterval(metric, delta)} ${verdictMark(delta, notComparable(cell, reference), style)})` : text;
}

/** `text` as it goes into the output: as it is for a terminal (the CLI's writer escapes it), escaped for Markdown. */
type Inline = (text: string) => string;
const asIs: Inline = (text) => text;

function describeRun(run: ComparedRun, reference: boolean, inline: Inline = asIs, id: Inline = asIs): string {
  const facts = [
    run.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'),
    run.scenario,
    run.status,
    run.server ?? 'server not read',
    `${run.client} client`,
    run.target,
    run.machine,
  ];
  return `${inline(run.label)}${reference ? ' (reference)' : ''}: ${id(run.id)} — ${facts.map(inline).join(', ')}`;
}

/** The metrics worth a line for a row: errors only when some run had any. */
export function metricsShown(row: ComparisonRow): ComparedMetric[] {
  return rowMetrics(row).filter((metric) => metric !== 'errors' || row.cells.some((cell) => cell && cell.metrics.errors.value > 0));
}

interface Grid {
  columns: { header: string; align: 'left' | 'right' }[];
  cells: string[][];
}

/** `GET`, `mix › SET`; a client group's rows `group readers`, `group readers › GET`. */
export function rowName(row: ComparisonRow, test = row.test): string {
  const name = row.group !== undefined ? `group ${test}` : test;
  return row.command === 'total' ? name : `${name} › ${row.command}`;
}

/**
 * The table: a line per row × metric, a column per run. In Markdown a cell holds the value and its change
 * (`412,345 (+3.1% ✅)`); in text the change and the verdict get columns of their own so that numbers align.
 */
function grid(comparison: Comparison, style: Style): Grid {
  const rows = comparison.rows;
  const withPoint = rows.some((row) => row.point);
  const withPhase = new Set(rows.map((row) => row.phase)).size > 1;
  const split = style === 'words';
  const columns: Grid['columns'] = [];
  if (withPoint) columns.push({ header: 'point', align: 'left' });
  if (withPhase) columns.push({ header: 'phase', align: 'left' });
  columns.push({ header: 'command', align: 'left' }, { header: 'metric', align: 'left' });
  const withInterval = rows.some((row) => row.cells.some((cell) => cell && COMPARED_METRICS.some((metric) => cell.metrics[metric].delta?.interval)));
  comparison.runs.forEach((run, i) => {
    columns.push({ header: run.label, align: 'right' });
    if (split && i > 0) {
      columns.push({ header: 'change', align: 'right' });
      if (withInterval) columns.push({ header: `${CONFIDENCE_PERCENT}% interval`, align: 'right' });
      columns.push({ header: '', align: 'left' });
    }
  });
  const cells: string[][] = [];
  for (const row of rows) {
    metricsShown(row).forEach((metric, i) => {
      const first = i === 0;
      const line: string[] = [];
      if (withPoint) line.push(first ? row.point : '');
      if (withPhase) line.push(first ? row.phase : '');
      line.push(first ? rowName(row) : '', METRIC_INFO[metric].label);
      row.cells.forEach((cell, run) => {
        if (!split) return line.push(formatCell(metric, cell, style, run > 0 ? row.cells[0] : null));
        const measured = cell?.metrics[metric];
        line.push(measured && !measured.absent ? METRIC_INFO[metric].format(measured.value) : '—');
        if (run === 0) return;
        const delta = measured?.delta;
        line.push(delta ? formatChange(metric, delta) : '');
        if (withInterval) line.push(delta?.interval ? formatInterval(delta.interval) : '');
        line.push(delta ? verdictMark(delta, notComparable(cell, row.cells[0]), 'words') : '');
      });
      cells.push(line);
    });
    for (const extra of serverLines(row)) {
      const line: string[] = [];
      if (withPoint) line.push('');
      if (withPhase) line.push('');
      line.push('', extra.label);
      extra.values.forEach((value, run) => {
        if (!split) return line.push(value + (extra.changes[run] ? ` (${extra.changes[run]})` : ''));
        line.push(value);
        if (run > 0) line.push(extra.changes[run], ...(withInterval ? [''] : []), '');
      });
      cells.push(line);
    }
  }
  return { columns, cells };
}

/** The lines under a row's metrics: the server's time per call and, for a test's total, the bottleneck verdict (where any run has them). */
function serverLines(row: ComparisonRow): { label: string; values: string[]; changes: string[] }[] {
  const lines: { label: string; values: string[]; changes: string[] }[] = [];
  const reference = row.cells[0]?.serverUsPerCall;
  if (row.cells.some((cell) => cell?.serverUsPerCall !== undefined)) {
    lines.push({
      label: 'srv µs/call',
      values: row.cells.map((cell) => (cell?.serverUsPerCall !== undefined ? formatUsPerCall(cell.serverUsPerCall) : '—')),
      changes: row.cells.map((cell, i) => {
        const value = cell?.serverUsPerCall;
        if (i === 0 || value === undefined || reference === undefined || reference === 0) return '';
        const percent = ((value - reference) / reference) * 100;
        return `${percent >= 0 ? '+' : ''}${percent.toFixed(1)}%`;
      }),
    });
  }
  if (row.command === 'total' && row.cells.some((cell) => cell?.bottleneck)) {
    lines.push({ label: 'bottleneck', values: row.cells.map((cell) => cell?.bottleneck?.kind ?? '—'), changes: row.cells.map(() => '') });
  }
  lines.push(...figureLines(row));
  return lines;
}

/** A consumer or subscriber group's own figures, a line each where any run has it; a change where the reference has it too (the tables and the panel). */
export function figureLines(row: ComparisonRow): { label: string; values: string[]; changes: string[] }[] {
  return (Object.keys(GROUP_FIGURES) as GroupFigure[])
    .filter((figure) => row.cells.some((cell) => cell?.figures?.[figure] !== undefined))
    .map((figure) => ({
      label: GROUP_FIGURES[figure].label,
      values: row.cells.map((cell) => {
        const value = cell?.figures?.[figure];
        return value === undefined ? '—' : GROUP_FIGURES[figure].format(value);
      }),
      changes: row.cells.map((cell, i) => (i === 0 ? '' : figureChange(figure, cell?.figures?.[figure], row.cells[0]?.figures?.[figure]).text)),
    }));
}

/** How many changes of each verdict the comparison holds, over the metrics shown. */
export function verdictCounts(comparison: Comparison): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { better: 0, worse: 0, noise: 0, differs: 0 };
  for (const row of comparison.rows) {
    for (const cell of row.cells) {
      // A change whose figures measure the client (or another client's load) is counted apart, never as better or worse.
      if (!cell || notComparable(cell, row.cells[0])) continue;
      for (const metric of metricsShown(row)) {
        const verdict = cell.metrics[metric].delta?.verdict;
        if (verdict) counts[verdict]++;
      }
    }
  }
  return counts;
}

/** The changes whose figures are not comparable, and why, each reason once (`client CPU set the pace…`). */
export function notComparableChanges(comparison: Comparison): { changes: number; reasons: string[] } {
  let changes = 0;
  const reasons = new Set<string>();
  for (const row of comparison.rows) {
    const reference = row.cells[0];
    for (const cell of row.cells) {
      if (!cell || !notComparable(cell, reference)) continue;
      const deltas = metricsShown(row).filter((metric) => cell.metrics[metric].delta !== undefined).length;
      if (deltas === 0) continue;
      changes += deltas;
      reasons.add((cell.notComparable ?? reference?.notComparable)!);
    }
  }
  return { changes, reasons: [...reasons] };
}

export interface CountPart {
  verdict: Verdict;
  text: string;
}

/** The counts in words: `2 better`, `1 worse`, `9 within noise`; where the plans differ, `12 differ (different loads: not better or worse)` instead of better and worse. */
export function countParts(comparison: Comparison, counts = verdictCounts(comparison)): CountPart[] {
  const { comparable, differing } = countKinds(comparison, counts);
  return [
    ...(comparable
      ? [
          { verdict: 'better' as const, text: `${counts.better} better` },
          { verdict: 'worse' as const, text: `${counts.worse} worse` },
        ]
      : []),
    ...(differing ? [{ verdict: 'differs' as const, text: `${counts.differs} differ (different loads: not better or worse)` }] : []),
    { verdict: 'noise', text: `${counts.noise} within noise` },
    ...notComparablePart(comparison),
  ];
}

/** `20 not comparable (neither better nor worse)`, where some changes are: the reasons follow in statisticsLines. */
function notComparablePart(comparison: Comparison): CountPart[] {
  const { changes } = notComparableChanges(comparison);
  return changes > 0 ? [{ verdict: 'differs', text: `${changes} not comparable (neither better nor worse)` }] : [];
}

/** Which counts a sentence names: better and worse where some rows compare like with like, `differ` where some plans differ. */
function countKinds(comparison: Comparison, counts: Record<Verdict, number>): { comparable: boolean; differing: boolean } {
  return { comparable: plansMatch(comparison) || counts.better + counts.worse > 0, differing: !plansMatch(comparison) || counts.differs > 0 };
}

/** `Against a: 2 better, 1 worse, 9 within noise (±5%)`: the CLI's and the Markdown's line, and the panel's. */
export function countsSentence(comparison: Comparison): string {
  return `Against ${comparison.runs[0].label}: ${countParts(comparison)
    .map((part) => part.text)
    .join(', ')} (±${comparison.noisePercent}%)`;
}

function summaryLine(comparison: Comparison): string {
  const gaps = comparison.rows.filter((row) => row.cells.some((cell) => !cell)).length;
  return countsSentence(comparison) + (gaps ? `; ${gaps} row${gaps === 1 ? '' : 's'} missing in some run` : '') + '.';
}

/** The tests behind the verdicts shown, in a stable order, each with the rows it judged. */
export function testsUsed(comparison: Comparison): { test: StatisticTest; changes: number }[] {
  const counts = new Map<StatisticTest, number>();
  for (const row of comparison.rows)
    for (const cell of row.cells)
      for (const metric of cell ? metricsShown(row) : []) {
        const test = cell!.metrics[metric].delta?.test;
        if (test) counts.set(test, (counts.get(test) ?? 0) + 1);
      }
  const order: StatisticTest[] = ['permutation-repeats', 'limit-only'];
  return order.filter((test) => counts.has(test)).map((test) => ({ test, changes: counts.get(test)! }));
}

/**
 * How the verdicts were reached: the rule, then each test used and on how many changes; and the rows whose
 * figures are not comparable. The same lines in text and Markdown.
 */
export function statisticsLines(comparison: Comparison): string[] {
  const used = testsUsed(comparison);
  if (used.length === 0) return [];
  const lines = [
    `Significance: a change counts only when it exceeds ±${comparison.noisePercent}% and, with repeats, its ${CONFIDENCE_PERCENT}% interval excludes 0 (an exact permutation test on the repeats).`,
    ...used.map(({ test, changes }) => `${changes} change${changes === 1 ? '' : 's'}: ${TEST_DESCRIPTIONS[test]}.`),
  ];
  // Each reason once, with the runs and rows it holds in: a line per cell was a wall of the same sentence.
  const byReason = new Map<string, { runs: Set<string>; rows: number }>();
  for (const row of comparison.rows) {
    row.cells.forEach((cell, i) => {
      if (!cell?.notComparable) return;
      const entry = byReason.get(cell.notComparable) ?? { runs: new Set<string>(), rows: 0 };
      entry.runs.add(comparison.runs[i].label);
      entry.rows++;
      byReason.set(cell.notComparable, entry);
    });
  }
  for (const [reason, { runs, rows }] of byReason) {
    lines.push(`Not comparable: ${rows} row${rows === 1 ? '' : 's'} of ${[...runs].join(', ')}: ${reason}; their changes count neither better nor worse.`);
  }
  return lines;
}

function title(comparison: Comparison, inline: Inline = asIs): string {
  const scenarios = [...new Set(comparison.runs.map((run) => run.scenario))];
  const runs = comparison.runs.length === 2 ? `${inline(comparison.runs[1].label)} vs ${inline(comparison.runs[0].label)}` : `${comparison.runs.length} runs`;
  return `${scenarios.map((s) => `"${inline(s)}"`).join(' / ')}: ${runs}`;
}

const NO_DIFFERENCES = 'No differences in plan, server, client path, machine or status.';

/** For a pull-request comment: the runs, what differs between them, then the numbers. */
export function comparisonToMarkdown(comparison: Comparison): string {
  // Every text from the run files is escaped: a PR comment must not render a stranger's HTML, links or table cells.
  const lines = [`### RBench comparison: ${title(comparison, markdownCell)}`, ''];
  comparison.runs.forEach((run, i) => lines.push(`- ${describeRun(run, i === 0, markdownCell, markdownCode)}`));
  lines.push('');
  if (comparison.differences.length > 0) {
    lines.push(`**⚠️ Differences — read these before the numbers:**`, '');
    for (const difference of comparison.differences) lines.push(`- ${markdownCell(difference.text)}`);
  } else {
    lines.push(NO_DIFFERENCES);
  }
  lines.push('');
  const { columns, cells } = grid(comparison, 'emoji');
  lines.push(renderMarkdownTable(columns, cells));
  const { comparable, differing } = countKinds(comparison, verdictCounts(comparison));
  const key = [comparable ? '✅ better, ❌ worse' : '', differing ? '≠ differs (different loads)' : '', '~ within noise'].filter(Boolean).join(', ');
  lines.push(`${summaryLine(comparison)} ${key}.`);
  const statistics = statisticsLines(comparison);
  if (statistics.length > 0) lines.push('', ...statistics.map((line) => `- ${markdownCell(line)}`));
  const notes = timeNotes(comparison);
  if (notes.length > 0) lines.push('', '**Where the time went:**', '', ...notes.map((note) => `- ${markdownCell(note)}`));
  return lines.join('\n') + '\n';
}

/** For a terminal: the same as the Markdown, aligned in plain text. */
export function comparisonToText(comparison: Comparison): string {
  const lines = [`Comparison: ${title(comparison)}`];
  comparison.runs.forEach((run, i) => lines.push(`  ${describeRun(run, i === 0)}`));
  lines.push('');
  if (comparison.differences.length > 0) {
    lines.push('Differences (read these before the numbers):');
    for (const difference of comparison.differences) lines.push(`  ! ${difference.text}`);
  } else {
    lines.push(NO_DIFFERENCES);
  }
  lines.push('');
  const { columns, cells } = grid(comparison, 'words');
  lines.push(renderTextTable(columns, cells) + summaryLine(comparison));
  lines.push(...statisticsLines(comparison).map((line) => `  ${line}`));
  const notes = timeNotes(comparison);
  if (notes.length > 0) lines.push('', 'Where the time went:', ...notes.map((note) => `  ${note}`));
  return lines.join('\n') + '\n';
}

/** The cells of a comparison CSV line between its run and its group, in the header's order. */
const CSV_CELLS = ['value', 'min', 'max', 'change', 'changePercent', 'verdict', 'low', 'high', 'test', 'notComparable'] as const;
type CsvCells = Partial<Record<(typeof CSV_CELLS)[number], string>>;

/** One line per row × metric × run, in plain units (ops/s, µs, count), for spreadsheets and scripts. */
export function comparisonToCsv(comparison: Comparison): string {
  const header = [
    'point',
    'phase',
    'test',
    'command',
    'metric',
    'run',
    'run_id',
    'value',
    'min',
    'max',
    'change',
    'change_percent',
    'verdict',
    'ci_low_percent',
    'ci_high_percent',
    'test',
    'not_comparable',
    // The client group a row belongs to (`load NAME`), empty for a test's row: a group and a test of one name differ.
    'group',
  ];
  const lines = [header.map(csvField).join(',')];
  const number = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(Math.round(value * 1000) / 1000));
  /** One line in the header's order: the row and run it is of, the cells it has (the others empty). */
  const line = (row: Comparison['rows'][number], metric: string, run: Comparison['runs'][number], cells: CsvCells): string =>
    [row.point, row.phase, row.test, row.command, metric, run.label, run.id, ...CSV_CELLS.map((cell) => cells[cell] ?? ''), row.group ?? '']
      .map(csvField)
      .join(',');
  for (const row of comparison.rows) {
    for (const metric of rowMetrics(row)) {
      row.cells.forEach((cell, i) => {
        const measured = cell?.metrics[metric];
        lines.push(
          line(row, metric, comparison.runs[i], {
            value: number(measured?.absent ? undefined : measured?.value),
            min: number(measured?.spread?.min),
            max: number(measured?.spread?.max),
            change: number(measured?.delta?.absolute),
            changePercent: number(measured?.delta?.percent),
            verdict: measured?.delta?.verdict,
            low: number(measured?.delta?.interval?.low),
            high: number(measured?.delta?.interval?.high),
            test: measured?.delta?.test,
            notComparable: cell?.notComparable,
          }),
        );
      });
    }
    // The server's side, where known: its time per call (µs) and, for a total, the verdict's kind in `value`.
    row.cells.forEach((cell, i) => {
      const run = comparison.runs[i];
      if (cell?.serverUsPerCall !== undefined) lines.push(line(row, 'srv_usec_per_call', run, { value: number(cell.serverUsPerCall) }));
      if (cell?.bottleneck) lines.push(line(row, 'bottleneck', run, { value: cell.bottleneck.kind }));
      // A consumer or subscriber group's own figures: jobs/s, the wake-up p99 (µs), delivered/s, lost; the change against the reference.
      for (const figure of Object.keys(GROUP_FIGURES) as GroupFigure[]) {
        const value = cell?.figures?.[figure];
        if (value === undefined) continue;
        const change = i === 0 ? { text: '' } : figureChange(figure, value, row.cells[0]?.figures?.[figure]);
        lines.push(line(row, GROUP_FIGURES[figure].csv, run, { value: number(value), change: number(change.absolute), changePercent: number(change.percent) }));
      }
    });
  }
  return lines.join('\n') + '\n';
}

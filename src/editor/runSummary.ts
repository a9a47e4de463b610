// What the editor says about a finished run: a one-line headline (CodeLens, history), the report in the
// output channel, and the notification at the end. Built on results/ (rows, format, export, warnings,
// and the one verdict in results/verdict.ts).
import { toTextTable } from '../results/export';
import { formatDuration, formatLatency, formatOpsShort } from '../results/format';
import { resultRows } from '../results/rows';
import type { RunFile } from '../results/runFile';
import { thresholdLine } from '../results/thresholds';
import { measuredAnything, runVerdict, savedAtLine, statusWords, verdictSummary } from '../results/verdict';
import { runWarnings } from '../results/warnings';
import { leftKeysLines } from '../results/leftKeys';

/**
 * `412k ops/s · p99 1.9 ms` for a run with one result; `3 results · 120k–412k ops/s · p99 ≤ 1.9 ms` for
 * several (tests run one after another, so their throughputs are not added up).
 */
export function runHeadline(run: RunFile): string {
  const rows = resultRows(run, { commands: false });
  // A failed run without figures says `failed: why` once.
  const prefix = run.status === 'complete' || (run.status === 'failed' && rows.length === 0) ? '' : `${run.status} · `;
  return prefix + runFigures(run, rows);
}

/** The headline without the status: `412k ops/s · p99 1.9 ms`, or why there are no figures. */
function runFigures(run: RunFile, rows = resultRows(run, { commands: false })): string {
  if (rows.length === 0) return run.status === 'failed' ? `failed: ${run.error ?? 'no results'}` : 'no results';
  const worstP99 = Math.max(...rows.map((row) => row.p99Us));
  if (rows.length === 1) return `${formatOpsShort(rows[0].opsPerSec)} ops/s · p99 ${formatLatency(worstP99)}`;
  const ops = rows.map((row) => row.opsPerSec);
  return `${rows.length} results · ${formatOpsShort(Math.min(...ops))}–${formatOpsShort(Math.max(...ops))} ops/s · p99 ≤ ${formatLatency(worstP99)}`;
}

/** `just now`, `2 min ago`, `3 h ago`, `5 days ago`. */
export function formatAge(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

/** The output channel's report of a run: table, warnings, thresholds, where the run file is. */
export function runReport(run: RunFile, runFilePath: string | undefined, hostLagP99Ms?: number): string {
  const lines: string[] = [];
  const rows = resultRows(run);
  if (rows.length > 0) lines.push(toTextTable(rows).trimEnd());
  for (const warning of runWarnings(run)) lines.push(`! ${warning}`);
  for (const outcome of run.thresholds) lines.push(thresholdLine(outcome));
  if (run.status === 'failed') lines.push(`error: ${run.error ?? 'the run failed'}`);
  if (runFilePath) lines.push(savedAtLine(run, runFilePath));
  else lines.push(`Run ${run.status}, not saved  (${formatDuration(run.durationMs)})`);
  if (hostLagP99Ms !== undefined) lines.push(`Editor responsiveness during the run: event-loop lag p99 ${hostLagP99Ms.toFixed(1)} ms`);
  // Last, as the CLI ends: what the run left on a server that is not a throwaway one.
  for (const line of leftKeysLines(run)) lines.push(`! ${line}`);
  return lines.join('\n');
}

export interface FinishedNotice {
  severity: 'info' | 'warning' | 'error';
  text: string;
}

/** The notification at the end of a run: the status once, then the figures and what the verdict says. */
export function finishedNotice(run: RunFile): FinishedNotice {
  const verdict = runVerdict(run);
  if (verdict.kind === 'error') return { severity: 'error', text: `Run failed: ${run.error ?? 'see the RBench output'}` };
  const status = statusWords(run);
  // What the run left on the server ends the notification too (the output channel has every pattern).
  const [left] = leftKeysLines(run);
  const figures = runFigures(run) + (left ? ` — ${left}` : '');
  if (verdict.kind === 'failed') return { severity: 'warning', text: `Run ${status}: ${figures} — ${verdictSummary(verdict, run.thresholds.length)}` };
  if (verdict.kind === 'cancelled')
    return { severity: 'info', text: `Run cancelled: ${measuredAnything(run) ? `${figures} (partial)` : 'nothing was measured'}` };
  return { severity: 'info', text: `Run ${status}: ${figures}` };
}

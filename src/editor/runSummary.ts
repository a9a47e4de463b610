// What the editor says about a finished run: a one-line headline (CodeLens, notification), the report in
// the output channel, and the Test Explorer verdict. Built on results/ (rows, format, export, warnings).
import { errorStatusVerdict } from '../results/errorStatus';
import { toTextTable } from '../results/export';
import { formatDuration, formatLatency, formatOpsShort } from '../results/format';
import { resultRows } from '../results/rows';
import type { RunFile } from '../results/runFile';
import { thresholdLine } from '../results/thresholds';
import { runWarnings } from '../results/warnings';

/**
 * `412k ops/s · p99 1.9 ms` for a run with one result; `3 results · 120k–412k ops/s · p99 ≤ 1.9 ms` for
 * several (tests run one after another, so their throughputs are not added up).
 */
export function runHeadline(run: RunFile): string {
  const rows = resultRows(run, { commands: false });
  const prefix = run.status === 'complete' ? '' : `${run.status} · `;
  if (rows.length === 0) return run.status === 'failed' ? `failed: ${run.error ?? 'no results'}` : `${prefix}no results`;
  const worstP99 = Math.max(...rows.map((row) => row.p99Us));
  if (rows.length === 1) return `${prefix}${formatOpsShort(rows[0].opsPerSec)} ops/s · p99 ${formatLatency(worstP99)}`;
  const ops = rows.map((row) => row.opsPerSec);
  return `${prefix}${rows.length} results · ${formatOpsShort(Math.min(...ops))}–${formatOpsShort(Math.max(...ops))} ops/s · p99 ≤ ${formatLatency(worstP99)}`;
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
export function runReport(run: RunFile, runFilePath: string, hostLagP99Ms?: number): string {
  const lines: string[] = [];
  const rows = resultRows(run);
  if (rows.length > 0) lines.push(toTextTable(rows).trimEnd());
  for (const warning of runWarnings(run)) lines.push(`! ${warning}`);
  for (const outcome of run.thresholds) lines.push(thresholdLine(outcome));
  if (run.status === 'failed') lines.push(`error: ${run.error ?? 'the run failed'}`);
  lines.push(`${run.status === 'complete' ? 'Run saved' : `Run ${run.status}, partial results saved`}: ${runFilePath}  (${formatDuration(run.durationMs)})`);
  if (hostLagP99Ms !== undefined) lines.push(`Editor responsiveness during the run: event-loop lag p99 ${hostLagP99Ms.toFixed(1)} ms`);
  return lines.join('\n');
}

export type TestVerdict =
  | { kind: 'passed' }
  /** One entry per failed `expect` line: the message and the expectation as written (to find its line). */
  | { kind: 'failed'; failures: { message: string; expectation: string }[] }
  | { kind: 'errored'; message: string }
  | { kind: 'skipped'; message: string };

/** Test Explorer outcome: `expect` lines decide; without any, a completed run passes. */
export function testVerdict(run: RunFile): TestVerdict {
  if (run.status === 'failed') return { kind: 'errored', message: run.error ?? 'the run failed' };
  if (run.status === 'cancelled') return { kind: 'skipped', message: 'cancelled; partial results saved' };
  const failed = run.thresholds.filter((outcome) => !outcome.passed);
  const failures = failed.map((outcome) => ({ message: thresholdLine(outcome), expectation: outcome.expectation }));
  // Errors past the threshold fail the test unless the scenario accepts them (results/errorStatus.ts).
  const errors = errorStatusVerdict(run);
  if (errors.failed) failures.push({ message: `complete with errors: ${errors.reasons.join('; ')}`, expectation: '' });
  if (failures.length > 0) return { kind: 'failed', failures };
  return { kind: 'passed' };
}

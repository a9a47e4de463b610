// The one verdict of a run, shared by the Test Explorer, the Benchmark Runs view, notifications and the
// CLI: `expect` lines and the run's status decide it. A run that ended with errors past the threshold
// (status `complete-with-errors`) fails even when every `expect` line passed, unless the scenario states
// the errors it accepts (`expect error-rate < X`, results/errorStatus.ts).
import { errorStatusVerdict } from './errorStatus';
import { formatDuration } from './format';
import type { RunFile } from './runFile';
import { thresholdLine } from './thresholds';

export type VerdictKind = 'passed' | 'failed' | 'error' | 'cancelled';

/** One failed `expect` line: the message and the expectation as written (to find its line). */
export interface ExpectFailure {
  message: string;
  expectation: string;
}

export type RunVerdict =
  | { kind: 'passed' }
  /** `errors` is set when the run itself ended with errors (past the error threshold). */
  | { kind: 'failed'; failures: ExpectFailure[]; errors?: string }
  | { kind: 'error'; message: string }
  | { kind: 'cancelled'; message: string };

type VerdictInput = Pick<RunFile, 'status' | 'error' | 'thresholds' | 'points' | 'plan'>;

export function runVerdict(run: VerdictInput): RunVerdict {
  switch (run.status) {
    case 'failed':
      return { kind: 'error', message: run.error ?? 'the run failed' };
    case 'cancelled':
      return { kind: 'cancelled', message: `cancelled; ${savedNote(run)}` };
    case 'complete':
    case 'complete-with-errors':
      break;
    default:
      // The run file schema accepts any status a newer RBench writes; this one cannot vouch for it as a pass.
      return { kind: 'error', message: `the run ended as ${statusWords(run)}, a status this version of RBench does not know: update RBench to judge it` };
  }
  const failures = run.thresholds
    .filter((outcome) => !outcome.passed)
    .map((outcome) => ({ message: thresholdLine(outcome), expectation: outcome.expectation }));
  if (run.status === 'complete-with-errors') {
    const errors = errorStatusVerdict(run);
    if (errors.failed) return { kind: 'failed', failures, errors: errors.reasons.join('; ') };
  }
  return failures.length > 0 ? { kind: 'failed', failures } : { kind: 'passed' };
}

/** True when any load of the run measured something (a run that never connected measured nothing). */
export function measuredAnything(run: Pick<RunFile, 'points'>): boolean {
  return run.points.some((point) => point.repeats.some((loads) => loads.length > 0));
}

/** What the run file holds, for "Run cancelled, partial results saved" and the like. */
export function savedNote(run: Pick<RunFile, 'status' | 'points'>): string {
  if (run.status === 'complete' || run.status === 'complete-with-errors') return 'results saved';
  return measuredAnything(run) ? 'partial results saved' : 'nothing was measured';
}

/** `Run saved`, `Run cancelled, partial results saved`, `Run failed, nothing was measured`. */
export function savedLine(run: Pick<RunFile, 'status' | 'points'>): string {
  return run.status === 'complete' ? 'Run saved' : `Run ${statusWords(run)}, ${savedNote(run)}`;
}

/** `Run saved: .rbench/runs/….rbench-run.json  (12s)`: the run file's path after a run's report (the CLI, the output channel). */
export function savedAtLine(run: Pick<RunFile, 'status' | 'points' | 'durationMs'>, path: string): string {
  return `${savedLine(run)}: ${path}  (${formatDuration(run.durationMs)})`;
}

/** `complete with errors` rather than the run file's `complete-with-errors`. */
export function statusWords(run: Pick<RunFile, 'status'>): string {
  return run.status.replace(/-/g, ' ');
}

/** `2 of 3 expectations failed`, `ended with errors`, `run failed`, `cancelled`; empty for a pass. */
export function verdictSummary(verdict: RunVerdict, expectations: number): string {
  switch (verdict.kind) {
    case 'passed':
      return '';
    case 'error':
      return 'run failed';
    case 'cancelled':
      return 'cancelled';
    case 'failed': {
      const parts = verdict.errors ? ['ended with errors'] : [];
      if (verdict.failures.length > 0) parts.push(`${verdict.failures.length} of ${expectations} expectation${expectations === 1 ? '' : 's'} failed`);
      return parts.join(', ');
    }
  }
}

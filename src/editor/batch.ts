// Running many scenarios at once (Run All, a folder): the question before and the one summary after.
// Plain data, no `vscode`.
import { describeEstimate, type RunEstimate } from '../runner/estimate';
import type { FinishedRun, NotRun } from '../runner/session';
import { runVerdict } from '../results/verdict';

export function batchQuestion(scenarios: number, files: number, estimate: RunEstimate, where: string): string {
  return `Run ${scenarios} scenario${scenarios === 1 ? '' : 's'} from ${files} file${files === 1 ? '' : 's'} in ${where}, one after another? Estimated time: ${describeEstimate(estimate)}.`;
}

/** What a summary reads of an outcome (the runner's, or the editor's RunOutcome built on it). */
type Outcome = Pick<NotRun, 'kind'> | Pick<FinishedRun, 'kind' | 'run'>;

/** `5 scenarios: 3 passed, 1 failed, 1 errored` (and not run, cancelled): the Test Explorer's verdicts. */
export function batchSummary(outcomes: readonly Outcome[]): string {
  const counts = { passed: 0, failed: 0, error: 0, cancelled: 0, 'not run': 0 };
  for (const outcome of outcomes) {
    if (outcome.kind === 'not-run') counts['not run']++;
    else counts[runVerdict(outcome.run).kind]++;
  }
  const words: Record<keyof typeof counts, string> = { passed: 'passed', failed: 'failed', error: 'errored', cancelled: 'cancelled', 'not run': 'not run' };
  const parts = (Object.keys(counts) as (keyof typeof counts)[]).filter((key) => counts[key] > 0).map((key) => `${counts[key]} ${words[key]}`);
  return `${outcomes.length} scenario${outcomes.length === 1 ? '' : 's'}: ${parts.join(', ') || 'none run'}`;
}

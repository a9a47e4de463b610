// Running many scenarios at once (Run All, a folder): the question before and the one summary after.
// Plain data, no `vscode`.
import { describeEstimate, type RunEstimate } from '../runner/estimate';
import type { FinishedRun, NotRun } from '../runner/session';
import { basename } from 'node:path';
import { runVerdict, verdictSummary } from '../results/verdict';

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

/** A scenario of a batch that did not pass: what to name and where to go (its header line, its run file). */
export interface BatchFailure {
  /** `failed`, `errored`, `not run`. */
  verdict: string;
  scenario: string;
  /** The scenario file (an absolute path) and its header line (0-based), when known. */
  file: string;
  line?: number;
  runPath?: string;
  why: string;
}

/** What a batch step is: the outcome with the file it came from. */
export interface BatchStep {
  outcome: { kind: 'not-run'; message: string; reason: string } | (Pick<FinishedRun, 'kind' | 'run'> & { path?: string });
  file: string;
}

/** The steps that did not pass, in order (a "no" to a question is the user's choice, not a failure). */
export function batchFailures(steps: readonly BatchStep[]): BatchFailure[] {
  const failures: BatchFailure[] = [];
  for (const { outcome, file } of steps) {
    if (outcome.kind === 'not-run') {
      if (outcome.reason !== 'declined') failures.push({ verdict: 'not run', scenario: basename(file), file, why: outcome.message });
      continue;
    }
    const verdict = runVerdict(outcome.run);
    if (verdict.kind === 'passed' || verdict.kind === 'cancelled') continue;
    const why = verdict.kind === 'error' ? verdict.message : verdictSummary(verdict, outcome.run.thresholds.length);
    failures.push({
      verdict: verdict.kind === 'error' ? 'errored' : 'failed',
      scenario: `"${outcome.run.scenario.name}"`,
      file,
      line: outcome.run.plan.headerRange?.start.line,
      ...(outcome.path ? { runPath: outcome.path } : {}),
      why,
    });
  }
  return failures;
}

/** `failed: "misses" (a.rbench), errored: "slow" (b.rbench)`: the summary's names, at most `most`. */
export function failureNames(failures: readonly BatchFailure[], most = 3): string {
  const named = failures.slice(0, most).map((failure) => `${failure.verdict}: ${failure.scenario} (${basename(failure.file)})`);
  const more = failures.length - named.length;
  return named.join(', ') + (more > 0 ? `, and ${more} more` : '');
}

/** One line of the output channel per failure: `/path/a.rbench:12` opens the scenario, then why and its run file. */
export function failureLine(failure: BatchFailure): string {
  const where = failure.line !== undefined ? `${failure.file}:${failure.line + 1}` : failure.file;
  return `✗ ${failure.verdict} ${failure.scenario} ${where} — ${failure.why}${failure.runPath ? ` — run: ${failure.runPath}` : ''}`;
}

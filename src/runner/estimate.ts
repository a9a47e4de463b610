// How long a set of scenarios will take, before running them: the sum of their timed tests (warm-up
// included). Tests that run a request count take as long as the server needs; they are counted, not guessed.
import type { ScenarioPlan } from '../scenario/plan';
import { formatDuration } from '../results/format';

export interface RunEstimate {
  /** Time of the timed tests (duration + warm-up), all points and repeats. */
  timedMs: number;
  /** Tests that run a request count instead of a duration. */
  countedTests: number;
}

export function estimateRuns(plans: readonly ScenarioPlan[]): RunEstimate {
  const estimate: RunEstimate = { timedMs: 0, countedTests: 0 };
  for (const plan of plans) {
    for (const point of plan.points) {
      for (const phase of point.phases) {
        const loads = phase.tests.length * plan.repeat;
        if (phase.load.durationMs !== undefined) estimate.timedMs += loads * (phase.load.durationMs + phase.load.warmupMs);
        else estimate.countedTests += loads;
      }
    }
  }
  return estimate;
}

/** `about 2m 30s` / `about 40s, plus 3 tests that run a request count`. */
export function describeEstimate(estimate: RunEstimate): string {
  const parts: string[] = [];
  if (estimate.timedMs > 0 || estimate.countedTests === 0) parts.push(`about ${formatDuration(estimate.timedMs)}`);
  if (estimate.countedTests > 0)
    parts.push(
      `${parts.length ? 'plus ' : ''}${estimate.countedTests} ${estimate.countedTests === 1 ? 'test that runs' : 'tests that run'} a request count (as long as the server needs)`,
    );
  return parts.join(', ');
}

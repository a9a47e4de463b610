// Finding the scenario to run in a document, and whether its text lets it run. Plain data.
import type { ScenarioPlan } from '../scenario/plan';
import type { ScenarioHeader } from './codeLenses';

/** The scenario whose block holds `line`; above the first header (file-level lines), the first scenario. */
export function scenarioAtLine<T extends ScenarioHeader & { range: ScenarioPlan['range'] }>(scenarios: readonly T[], line: number): T | undefined {
  return scenarios.find((scenario) => line >= scenario.range.start.line && line <= scenario.range.end.line) ?? scenarios[0];
}

export { blockingErrors, describeErrors } from '../runner/selection';

// Finding the scenario to run in a document, and whether its text lets it run. Plain data.
import type { Diagnostic, ResolvedFile, ScenarioPlan } from '../scenario/plan';
import type { ScenarioHeader } from './codeLenses';

/** The scenario whose block holds `line`; above the first header (file-level lines), the first scenario. */
export function scenarioAtLine<T extends ScenarioHeader & { range: ScenarioPlan['range'] }>(scenarios: readonly T[], line: number): T | undefined {
  return scenarios.find((scenario) => line >= scenario.range.start.line && line <= scenario.range.end.line) ?? scenarios[0];
}

/** Errors that stop `plan` from running: those in its own block and in the file-level lines every scenario shares. */
export function blockingErrors(resolved: ResolvedFile, plan: ScenarioPlan): Diagnostic[] {
  const firstScenarioLine = Math.min(...resolved.scenarios.map((scenario) => scenario.range.start.line));
  return resolved.diagnostics.filter((diagnostic) => {
    if (diagnostic.severity !== 'error') return false;
    const line = diagnostic.range.start.line;
    return line < firstScenarioLine || (line >= plan.range.start.line && line <= plan.range.end.line);
  });
}

/** `line 3: unknown setting …` (first error, and how many more), for a refusal message. */
export function describeErrors(errors: readonly Diagnostic[]): string {
  const [first] = errors;
  if (!first) return '';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `line ${first.range.start.line + 1}: ${first.message}${more}`;
}

// Which scenarios of a file run, and which errors stop them: one rule for the CLI and the editor.
// A scenario runs when its own block and the file-level lines (which every scenario shares) are free of
// errors; an error in another scenario's block does not stop it. Plain data, no `vscode`.
import type { Diagnostic, ResolvedFile, ScenarioPlan } from '../scenario/plan';

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

/** The scenarios picked by name or 1-based number (case-insensitive); all of them when none is named. */
export function pickScenarios(plans: readonly ScenarioPlan[], wanted: readonly string[]): ScenarioPlan[] {
  if (wanted.length === 0) return [...plans];
  const names = wanted.map((name) => name.toLowerCase());
  return plans.filter((plan) => names.includes(plan.name.toLowerCase()) || names.includes(String(plan.index + 1)));
}

/** The scenarios carrying any of `tags` (case-insensitive); all of them when none is given. */
export function pickTagged(plans: readonly ScenarioPlan[], tags: readonly string[]): ScenarioPlan[] {
  if (tags.length === 0) return [...plans];
  const wanted = new Set(tags.map((tag) => tag.toLowerCase()));
  // A plan read back from an older run file has no tags.
  return plans.filter((plan) => (plan.tags ?? []).some((tag) => wanted.has(tag)));
}

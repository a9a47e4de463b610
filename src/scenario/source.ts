// The text of one scenario as stored in its run file: the file-level lines, then its own block.
import type { ScenarioPlan } from './plan';

/** `plans` are all the scenarios of the file: the file-level lines end where the first one starts. */
export function scenarioSource(text: string, plan: ScenarioPlan, plans: ScenarioPlan[]): string {
  const lines = text.split(/\r\n|\r|\n/);
  const fileLevelEnd = Math.min(...plans.map((p) => p.range.start.line));
  const joined = [...lines.slice(0, fileLevelEnd), ...lines.slice(plan.range.start.line, plan.range.end.line + 1)];
  while (joined.length > 0 && joined[joined.length - 1].trim() === '') joined.pop();
  return joined.join('\n') + '\n';
}

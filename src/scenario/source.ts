// The text of one scenario as stored in its run file: the file-level lines, then its own block.
import type { ScenarioPlan } from './plan';

/** The lines of the last text asked about: a run asks once per scenario of the same file. */
let last: { text: string; lines: string[] } | undefined;

/** `plans` are all the scenarios of the file: the file-level lines end where the first one starts. */
export function scenarioSource(text: string, plan: ScenarioPlan, plans: ScenarioPlan[]): string {
  if (last?.text !== text) last = { text, lines: text.split(/\r\n|\r|\n/) };
  const lines = last.lines;
  let fileLevelEnd = Infinity;
  for (const other of plans) fileLevelEnd = Math.min(fileLevelEnd, other.range.start.line);
  const joined = [...lines.slice(0, fileLevelEnd), ...lines.slice(plan.range.start.line, plan.range.end.line + 1)];
  while (joined.length > 0 && joined[joined.length - 1].trim() === '') joined.pop();
  return joined.join('\n') + '\n';
}

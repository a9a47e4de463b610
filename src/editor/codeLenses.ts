// Which CodeLenses go where: "▶ Run" above every scenario header, "Run all" on the first, and the newest
// run's one-line summary once there is one. Plain data; codeLensProvider.ts turns these into vscode lenses.
import type { Range } from '../scenario/plan';
import { formatAge } from './runSummary';
import type { RunEntry } from './runsIndex';

export type LensSpec =
  | { kind: 'run'; line: number; title: string; scenarioIndex: number }
  | { kind: 'runAll'; line: number; title: string }
  | { kind: 'lastRun'; line: number; title: string; tooltip: string; runPath: string };

export interface ScenarioHeader {
  name: string;
  index: number;
  headerRange: Range;
}

export function codeLensesFor(
  scenarios: readonly ScenarioHeader[],
  newestRunOf: (scenario: string) => RunEntry | undefined,
  options: { enabled: boolean; now: number },
): LensSpec[] {
  if (!options.enabled) return [];
  const lenses: LensSpec[] = [];
  for (const scenario of scenarios) {
    const line = scenario.headerRange.start.line;
    lenses.push({ kind: 'run', line, title: '▶ Run', scenarioIndex: scenario.index });
    if (scenario.index === 0 && scenarios.length > 1) lenses.push({ kind: 'runAll', line, title: 'Run all' });
    const last = newestRunOf(scenario.name);
    if (last) {
      const age = formatAge(options.now - Date.parse(last.finishedAt));
      lenses.push({ kind: 'lastRun', line, title: `${last.headline} · ${age}`, tooltip: `Open the last run: ${last.path}`, runPath: last.path });
    }
  }
  return lenses;
}

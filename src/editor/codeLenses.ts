// Which CodeLenses go where: "▶ Run" above every scenario header, "Run all" on the first, the newest
// run's one-line summary once there is one, "Compare with last" once there are two runs and "Compare with
// baseline" when one is pinned. Plain data; codeLensProvider.ts turns these into vscode lenses.
import type { Range } from '../scenario/plan';
import { formatAge } from './runSummary';
import type { RunEntry } from './runsIndex';

export type LensSpec =
  | { kind: 'run'; line: number; title: string; scenarioIndex: number }
  /** In place of "▶ Run" while the scenario runs (or waits for its server): a click cancels. */
  | { kind: 'running'; line: number; title: string; scenarioIndex: number }
  | { kind: 'runAll'; line: number; title: string }
  | { kind: 'lastRun'; line: number; title: string; tooltip: string; runPath: string }
  /** Opens the comparison of these run files, the reference first. */
  | { kind: 'compare'; line: number; title: string; tooltip: string; runPaths: [string, string] };

export interface ScenarioHeader {
  name: string;
  index: number;
  headerRange: Range;
}

export function codeLensesFor(
  scenarios: readonly ScenarioHeader[],
  newestRunOf: (scenario: string) => RunEntry | undefined,
  options: {
    enabled: boolean;
    now: number;
    /** The previous run (the one before the newest), for "Compare with last". */
    previousRunOf?: (scenario: string) => RunEntry | undefined;
    /** The pinned baseline's run file, for "Compare with baseline". */
    baselineOf?: (scenario: string) => string | undefined;
    /** True while the scenario (by index) is running in this window. */
    running?: (scenarioIndex: number) => boolean;
  },
): LensSpec[] {
  if (!options.enabled) return [];
  const lenses: LensSpec[] = [];
  for (const scenario of scenarios) {
    const line = scenario.headerRange.start.line;
    if (options.running?.(scenario.index))
      lenses.push({ kind: 'running', line, title: '$(sync~spin) Running… (click to cancel)', scenarioIndex: scenario.index });
    else lenses.push({ kind: 'run', line, title: '▶ Run', scenarioIndex: scenario.index });
    if (scenario.index === 0 && scenarios.length > 1) lenses.push({ kind: 'runAll', line, title: 'Run all' });
    const last = newestRunOf(scenario.name);
    if (last) {
      const age = formatAge(options.now - Date.parse(last.finishedAt));
      lenses.push({ kind: 'lastRun', line, title: `${last.headline} · ${age}`, tooltip: `Open the last run: ${last.path}`, runPath: last.path });
      const previous = options.previousRunOf?.(scenario.name);
      if (previous) {
        lenses.push({
          kind: 'compare',
          line,
          title: 'Compare with last',
          tooltip: `Compare the newest run with the one before it (${previous.path})`,
          runPaths: [previous.path, last.path],
        });
      }
      const baseline = options.baselineOf?.(scenario.name);
      if (baseline && baseline !== last.path) {
        lenses.push({
          kind: 'compare',
          line,
          title: 'Compare with baseline',
          tooltip: `Compare the newest run with the pinned baseline (${baseline})`,
          runPaths: [baseline, last.path],
        });
      }
    }
  }
  return lenses;
}

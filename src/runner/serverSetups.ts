// The comparison between the points of a `sweep server` run: one run per server setup (its points, with the
// server part of their labels taken off so that the same test lines up across setups), named by its
// directives, for the same compare as between run files (results/compare.ts). Its server facts carry the
// directives CONFIG GET read back, so the comparison's differences name them (`server appendfsync: always → no`).
import { compareRuns, type Comparison, type CompareOptions } from '../results/compare';
import type { PointResult, RunFile } from '../results/runFile';
import type { PointPlan } from '../scenario/plan';
import { SERVER_AXIS, serverPointLabel } from '../scenario/serverSweep';

/** A point's label without its server part: the other swept settings, in the plan's order. */
function otherAxesLabel(axes: readonly string[], sweep: Record<string, number>): string {
  return axes
    .filter((axis) => axis !== SERVER_AXIS && Object.hasOwn(sweep, axis))
    .map((axis) => `${axis}=${sweep[axis]}`)
    .join(' ');
}

/** A `sweep server` run as one run per server setup with their labels; undefined for any other run. */
export function serverSetupRuns(run: RunFile): { runs: RunFile[]; labels: string[] } | undefined {
  const axes = run.plan.sweepAxes;
  if (!axes.includes(SERVER_AXIS)) return undefined;
  const setups = new Map<string, { plans: PointPlan[]; results: PointResult[] }>();
  for (const pointPlan of run.plan.points) {
    const key = serverPointLabel(pointPlan.server ?? []);
    if (!setups.has(key)) setups.set(key, { plans: [], results: [] });
    const { server: _server, ...plain } = pointPlan;
    setups.get(key)!.plans.push({ ...plain, label: otherAxesLabel(axes, pointPlan.sweep) });
  }
  for (const point of run.points) {
    const pointPlan = run.plan.points.find((candidate) => candidate.label === point.label);
    const setup = setups.get(serverPointLabel(pointPlan?.server ?? []));
    if (setup) setup.results.push({ ...point, label: otherAxesLabel(axes, point.sweep) });
  }
  // A setup whose points never ran (the sweep stopped early) has nothing to compare.
  const measured = [...setups].filter(([, setup]) => setup.results.length > 0);
  if (measured.length < 2) return undefined;
  const runs = measured.map(([, { plans, results }]): RunFile => {
    const own = results[0].server;
    const facts = run.target.server && {
      ...run.target.server,
      ...(own?.version ? { version: own.version } : {}),
      config: { ...run.target.server.config, ...own?.config },
    };
    return {
      ...run,
      plan: { ...run.plan, sweepAxes: axes.filter((axis) => axis !== SERVER_AXIS), points: plans },
      target: { ...run.target, display: own?.display ?? run.target.display, ...(facts ? { server: facts } : {}) },
      points: results.map(({ server: _server, ...point }) => point),
    };
  });
  return { runs, labels: measured.map(([label]) => label) };
}

/** The comparison between a `sweep server` run's setups (the first is the reference); undefined for any other run. */
export function compareServerSetups(run: RunFile, options: Pick<CompareOptions, 'noisePercent'> = {}): Comparison | undefined {
  const setups = serverSetupRuns(run);
  return setups && compareRuns(setups.runs, { ...options, labels: setups.labels });
}

/**
 * What a comparison shows for these run files: one `sweep server` run (named once or more) becomes its
 * setups side by side, so its points compare as runs do; anything else is shown as given.
 */
export function runsToCompare(runs: readonly RunFile[]): RunFile[] {
  const one = runs.length > 0 && runs.every((run) => run.id === runs[0].id);
  return (one && serverSetupRuns(runs[0])?.runs) || [...runs];
}

// `find rate where p99 < 2ms`: the search for the highest open-loop rate whose latency stays under a limit.
// Pure decisions over measured points, so the runner, the panel and the CLI judge probes the same way: the
// runner asks pointsToRun for the next point after each one ran; a probe is an ordinary point `rate=N`.
// Search: double from `from` until a probe fails or `to` is reached, then bisect (geometric mean) until the
// highest passing and lowest failing rates are within SEARCH_RESOLUTION, at most MAX_PROBES probes.
import type { PointResult } from './runFile';
import { representativeLoad, summariseRepeats } from './summary';
import { metricValue } from './thresholds';
import type { PointPlan, RateSearchPlan, ScenarioPlan } from '../scenario/plan';

/** Doubling over a 1,000× range takes 10 probes, bisecting to 10% about 4 more. */
export const MAX_PROBES = 16;
/** The search stops when the lowest failing rate is within 10% of the highest passing one. */
export const SEARCH_RESOLUTION = 1.1;

export interface Probe {
  rate: number;
  passed: boolean;
  /** The worst value of the searched metric over the measured tests (µs); null when nothing was measured. */
  valueUs: number | null;
  /** The lowest throughput achieved over the measured tests (ops/s). */
  achieved: number;
  errors: number;
}

export type SearchEnd = 'resolved' | 'reached-top' | 'none-passed' | 'probe-limit' | 'stopped';

export interface RateSearchOutcome {
  search: RateSearchPlan;
  /** In the order they ran. */
  probes: Probe[];
  /** The highest rate that passed; undefined when none did. */
  foundRate?: number;
  /** The lowest failing rate above foundRate, when one ran. */
  failedRate?: number;
  end: SearchEnd;
}

/** The scenario's one point, run open loop at `rate` (measured phases only; a prefill keeps its own pace). */
export function probePoint(template: PointPlan, rate: number): PointPlan {
  return {
    label: `rate=${rate}`,
    sweep: { ...template.sweep, rate },
    phases: template.phases.map((phase) => (phase.measured ? { ...phase, load: { ...phase.load, rate } } : phase)),
  };
}

/** A probe passes when every measured test completed with no errors and its metric is under the limit. */
export function judgeProbe(search: RateSearchPlan, point: PointResult): Probe {
  const rate = point.sweep.rate;
  const repeats = point.repeats.filter((loads) => loads.length > 0);
  const summaries = point.summary.length > 0 ? point.summary : summariseRepeats(repeats);
  let valueUs: number | null = null;
  let achieved = Infinity;
  let errors = 0;
  let complete = summaries.length > 0;
  for (const summary of summaries) {
    const load = representativeLoad(repeats, summary);
    if (!load) continue;
    valueUs = Math.max(valueUs ?? 0, metricValue(load.total, search.metric));
    achieved = Math.min(achieved, summary.opsPerSec.median);
    errors += load.total.errors;
    if (load.status !== 'complete') complete = false;
  }
  const passed = complete && errors === 0 && valueUs !== null && valueUs < search.limitUs;
  return { rate, passed, valueUs, achieved: Number.isFinite(achieved) ? achieved : 0, errors };
}

interface Bracket {
  /** Highest passing rate. */
  low?: number;
  /** Lowest failing rate above `low`. */
  high?: number;
}

function bracketOf(probes: readonly Probe[]): Bracket {
  const passed = probes.filter((p) => p.passed).map((p) => p.rate);
  const low = passed.length > 0 ? Math.max(...passed) : undefined;
  const failed = probes.filter((p) => !p.passed && (low === undefined || p.rate > low)).map((p) => p.rate);
  return { low, high: failed.length > 0 ? Math.min(...failed) : undefined };
}

/** The next rate to probe, or why the search ends. */
export function nextStep(search: RateSearchPlan, probes: readonly Probe[]): { rate: number } | { end: SearchEnd } {
  if (probes.length === 0) return { rate: search.fromRate };
  const { low, high } = bracketOf(probes);
  if (low === undefined) return { end: 'none-passed' };
  if (high === undefined && low >= search.toRate) return { end: 'reached-top' };
  if (high !== undefined && high / low <= SEARCH_RESOLUTION) return { end: 'resolved' };
  if (probes.length >= MAX_PROBES) return { end: 'probe-limit' };
  const rate = high === undefined ? Math.min(low * 2, search.toRate) : Math.round(Math.sqrt(low * high));
  return rate === low || rate === high ? { end: 'resolved' } : { rate };
}

/**
 * The points a run goes through, lazily: the plan's points, or for a search one probe after another,
 * each chosen once the previous one's results are in `done` (the runner appends each point it runs).
 */
export function* pointsToRun(plan: ScenarioPlan, done: readonly PointResult[]): Generator<PointPlan> {
  const search = plan.rateSearch;
  if (!search) {
    yield* plan.points;
    return;
  }
  const probes: Probe[] = [];
  for (let step = nextStep(search, probes); 'rate' in step; step = nextStep(search, probes)) {
    yield probePoint(plan.points[0], step.rate);
    const point = done[done.length - 1];
    if (!point || point.sweep.rate !== step.rate) return;
    probes.push(judgeProbe(search, point));
  }
}

/** The search as it went, from a run file's points (the same judgement the runner made). */
export function rateSearchOutcome(plan: ScenarioPlan, points: readonly PointResult[]): RateSearchOutcome | undefined {
  const search = plan.rateSearch;
  if (!search) return undefined;
  const probes = points.filter((point) => Number.isFinite(point.sweep.rate)).map((point) => judgeProbe(search, point));
  const next = nextStep(search, probes);
  const { low, high } = bracketOf(probes);
  return { search, probes, foundRate: low, failedRate: high, end: 'end' in next ? next.end : 'stopped' };
}

/** The points `expect` lines judge: all of them, or for a search only the probe at the rate it found (none when it found none). */
export function thresholdPoints(plan: ScenarioPlan, points: PointResult[]): PointResult[] {
  if (!plan.rateSearch) return points;
  const found = rateSearchOutcome(plan, points)?.foundRate;
  return points.filter((point) => found !== undefined && point.sweep.rate === found);
}

/** How many points a plan runs at most (a search: MAX_PROBES). */
export function pointCount(plan: ScenarioPlan): number {
  return plan.rateSearch ? MAX_PROBES : plan.points.length;
}

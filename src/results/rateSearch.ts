// `find rate where p99 < 2ms`: the search for the highest open-loop rate whose latency stays under a limit.
// Pure decisions over measured points, so the runner, the panel and the CLI judge probes the same way: the
// runner asks pointsToRun for the next point after each one ran; a probe is an ordinary point `rate=N`.
// Search: double from `from` until a probe fails or `to` is reached, then bisect (geometric mean) until the
// highest passing and lowest failing rates are within SEARCH_RESOLUTION, at most MAX_PROBES probes.
// Confirmation: short probes are noisy, so the answer is rerun for longer (`confirm rate=N`, confirmDurationMs)
// with the step above it; the rate is found only when its rerun holds. One that does not hold steps down 10% at
// a time; a step up that holds raises it. At most MAX_CONFIRMATIONS reruns.
import type { PointResult } from './runFile';
import { representativeLoad, summariseRepeats } from './summary';
import { metricValue } from './thresholds';
import type { PointPlan, RateSearchPlan, ScenarioPlan } from '../scenario/plan';

/** Doubling over a 1,000× range takes 10 probes, bisecting to 10% about 4 more. */
export const MAX_PROBES = 16;
/** The search stops when the lowest failing rate is within 10% of the highest passing one; confirmation steps by as much. */
export const SEARCH_RESOLUTION = 1.1;
/** A confirmation runs CONFIRM_FACTOR × a probe's duration, and at least CONFIRM_MIN_MS: long enough for a queue to show. */
export const CONFIRM_FACTOR = 2;
export const CONFIRM_MIN_MS = 5_000;
/** The found rate, the step above it, and steps down when it does not hold. */
export const MAX_CONFIRMATIONS = 4;
const CONFIRM_PREFIX = 'confirm ';

export interface Probe {
  /** The point's label: `rate=N`, or `confirm rate=N` for a confirmation. */
  label: string;
  rate: number;
  /** A confirmation: a longer rerun, which passes only when every repeat does. */
  confirm: boolean;
  passed: boolean;
  /** The worst value of the searched metric over the measured tests (µs); null when nothing was measured. A confirmation: over its repeats too. */
  valueUs: number | null;
  /** The lowest throughput achieved over the measured tests (ops/s). */
  achieved: number;
  errors: number;
  /** With `repeat`: the searched metric's range over the repeats (each repeat's worst test, µs). */
  spreadUs?: { min: number; max: number; runs: number };
}

export type SearchEnd = 'resolved' | 'reached-top' | 'none-passed' | 'probe-limit' | 'stopped';

/**
 * How the search's answer fared when rerun: `held` (and the step above it failed or was the top), `raised` (the
 * step above held too), `stepped-down` (it did not hold, a lower rate did), `not-held` (no rerun held), `not-run`
 * (no rate to confirm, a search stopped before, or a run file from before confirmations).
 */
export type Confirmation = 'held' | 'raised' | 'stepped-down' | 'not-held' | 'not-run';

/** Two probes that contradict a monotonic server: `failed` ran at a rate no higher than `passed`, and no longer. */
export interface Disagreement {
  failed: Probe;
  passed: Probe;
}

export interface RateSearchOutcome {
  search: RateSearchPlan;
  /** In the order they ran, confirmations included. */
  probes: Probe[];
  /** The highest rate whose confirmation held; without confirmations (none ran yet), the highest passing probe; undefined when none. */
  foundRate?: number;
  /** The lowest failing rate above foundRate, when one ran: the limit lies between the two. */
  failedRate?: number;
  /** The search's own answer before confirmation: the highest passing short probe. */
  searchedRate?: number;
  confirmation: Confirmation;
  /** Non-empty when the result is unstable: probes that a server whose latency rises with the rate could not give. */
  disagreements: Disagreement[];
  /** With `repeat`: the searched metric's range over the repeats at the found rate (its confirmation's when it has one). */
  spreadUs?: Probe['spreadUs'];
  /** How long each confirmation runs (ms); undefined for a plan without a duration. */
  confirmMs?: number;
  end: SearchEnd;
}

/** How long a confirmation of a probe lasting `probeMs` runs. */
export function confirmDurationMs(probeMs: number): number {
  return Math.max(CONFIRM_MIN_MS, CONFIRM_FACTOR * probeMs);
}

export function isConfirmation(point: { label: string }): boolean {
  return point.label.startsWith(CONFIRM_PREFIX);
}

/** The rate of a probe's label (`rate=N` or `confirm rate=N`); NaN for any other label. */
export function rateOfProbeLabel(label: string): number {
  const match = /^(?:confirm )?rate=(\d+(?:\.\d+)?)$/.exec(label);
  return match ? Number(match[1]) : NaN;
}

/** The scenario's one point, run open loop at `rate` (measured phases only; a prefill keeps its own pace); a confirmation runs longer. */
export function probePoint(template: PointPlan, rate: number, confirm = false): PointPlan {
  const stretch = (durationMs: number | undefined) => (confirm && durationMs !== undefined ? { durationMs: confirmDurationMs(durationMs) } : {});
  return {
    label: `${confirm ? CONFIRM_PREFIX : ''}rate=${rate}`,
    sweep: { ...template.sweep, rate },
    phases: template.phases.map((phase) => (phase.measured ? { ...phase, load: { ...phase.load, rate, ...stretch(phase.load.durationMs) } } : phase)),
  };
}

/**
 * A probe passes when every measured test completed with no errors and its metric is under the limit: a short
 * probe on the repeat closest to the median throughput (as the table shows), a confirmation on every repeat.
 */
export function judgeProbe(search: RateSearchPlan, point: PointResult): Probe {
  const rate = point.sweep.rate;
  const confirm = isConfirmation(point);
  const repeats = point.repeats.filter((loads) => loads.length > 0);
  const summaries = point.summary.length > 0 ? point.summary : summariseRepeats(repeats);
  const judged = repeats.map((loads) => judgeRepeat(search, loads, summaries));
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
  let passed = complete && errors === 0 && valueUs !== null && valueUs < search.limitUs;
  if (confirm && judged.length > 0) {
    passed = passed && judged.every((repeat) => repeat.passed);
    valueUs = Math.max(valueUs ?? 0, ...judged.map((repeat) => repeat.valueUs));
  }
  const probe: Probe = { label: point.label, rate, confirm, passed, valueUs, achieved: Number.isFinite(achieved) ? achieved : 0, errors };
  if (judged.length > 1) {
    const values = judged.map((repeat) => repeat.valueUs);
    probe.spreadUs = { min: Math.min(...values), max: Math.max(...values), runs: values.length };
  }
  return probe;
}

/** One repeat of a probe: its worst test's metric, and whether every test passed. */
function judgeRepeat(search: RateSearchPlan, loads: PointResult['repeats'][number], summaries: PointResult['summary']): { valueUs: number; passed: boolean } {
  let valueUs = 0;
  let passed = true;
  for (const summary of summaries) {
    const load = loads.find((candidate) => candidate.phase === summary.phase && candidate.test === summary.test);
    if (!load) {
      passed = false;
      continue;
    }
    const value = metricValue(load.total, search.metric);
    valueUs = Math.max(valueUs, value);
    if (load.status !== 'complete' || load.total.errors > 0 || !(value < search.limitUs)) passed = false;
  }
  return { valueUs, passed };
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
  return { low, high: lowestFailingAbove(probes, low ?? -Infinity) };
}

function lowestFailingAbove(probes: readonly Probe[], rate: number): number | undefined {
  const failed = probes.filter((p) => !p.passed && p.rate > rate).map((p) => p.rate);
  return failed.length > 0 ? Math.min(...failed) : undefined;
}

/** The search proper, over the short probes: the next rate to probe, or why it ends. */
function searchStep(search: RateSearchPlan, probes: readonly Probe[]): { rate: number } | { end: SearchEnd } {
  if (probes.length === 0) return { rate: search.fromRate };
  const { low, high } = bracketOf(probes);
  if (low === undefined) return { end: 'none-passed' };
  if (high === undefined && low >= search.toRate) return { end: 'reached-top' };
  if (high !== undefined && high / low <= SEARCH_RESOLUTION) return { end: 'resolved' };
  if (probes.length >= MAX_PROBES) return { end: 'probe-limit' };
  const rate = high === undefined ? Math.min(low * 2, search.toRate) : Math.round(Math.sqrt(low * high));
  return rate === low || rate === high ? { end: 'resolved' } : { rate };
}

/** The next confirmation's rate once the search has its answer, or undefined when confirming is over. */
function confirmationStep(search: RateSearchPlan, short: readonly Probe[], confirms: readonly Probe[]): number | undefined {
  const { low } = bracketOf(short);
  if (low === undefined) return undefined;
  if (confirms.length === 0) return low;
  if (confirms.length >= MAX_CONFIRMATIONS) return undefined;
  const held = confirms.filter((p) => p.passed).map((p) => p.rate);
  if (held.length === 0) {
    // Nothing held yet: one step below the lowest rerun that did not.
    const lowestFailed = Math.min(...confirms.map((p) => p.rate));
    const down = Math.round(lowestFailed / SEARCH_RESOLUTION);
    return down >= 1 && down < lowestFailed ? down : undefined;
  }
  const top = Math.max(...held);
  // Held, and a rerun above it did not: the answer is bracketed by reruns.
  if (lowestFailingAbove(confirms, top) !== undefined) return undefined;
  // The step up: the lowest short probe that failed above, if closer than one step, and never past `to`.
  const up = Math.min(lowestFailingAbove(short, top) ?? Infinity, Math.round(top * SEARCH_RESOLUTION), search.toRate);
  return up > top ? up : undefined;
}

/** The next point to run (a probe or a confirmation), or why the search ends. */
export function nextStep(search: RateSearchPlan, probes: readonly Probe[]): { rate: number; confirm: boolean } | { end: SearchEnd } {
  const short = probes.filter((p) => !p.confirm);
  const confirms = probes.filter((p) => p.confirm);
  const step = searchStep(search, short);
  if ('rate' in step && confirms.length === 0) return { rate: step.rate, confirm: false };
  const end = 'end' in step ? step.end : 'stopped';
  if (end === 'none-passed') return { end };
  const rate = confirmationStep(search, short, confirms);
  return rate === undefined ? { end } : { rate, confirm: true };
}

/**
 * Probes a server whose latency rises with the rate could not give: a rate that failed while a higher one (or
 * the same one rerun for longer) passed. A long rerun failing below a short probe's pass is not one of them:
 * that is a rate that did not hold, which confirmation handles.
 */
export function disagreementsOf(probes: readonly Probe[]): Disagreement[] {
  const found: Disagreement[] = [];
  for (const failed of probes.filter((p) => !p.passed)) {
    const contradicting = probes.filter(
      (p) => p.passed && (p.confirm || !failed.confirm) && (p.rate > failed.rate || (p.rate === failed.rate && p.confirm && !failed.confirm)),
    );
    if (contradicting.length === 0) continue;
    const passed = contradicting.reduce((best, p) => (p.rate > best.rate ? p : best));
    found.push({ failed, passed });
  }
  return found.sort((a, b) => a.failed.rate - b.failed.rate);
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
    const point = probePoint(plan.points[0], step.rate, step.confirm);
    yield point;
    const last = done[done.length - 1];
    if (!last || last.label !== point.label) return;
    probes.push(judgeProbe(search, last));
  }
}

/** The search as it went, from a run file's points (the same judgement the runner made). */
export function rateSearchOutcome(plan: ScenarioPlan, points: readonly PointResult[]): RateSearchOutcome | undefined {
  const search = plan.rateSearch;
  if (!search) return undefined;
  const probes = points.filter((point) => Number.isFinite(point.sweep.rate)).map((point) => judgeProbe(search, point));
  const next = nextStep(search, probes);
  const confirms = probes.filter((p) => p.confirm);
  const searchedRate = bracketOf(probes.filter((p) => !p.confirm)).low;
  const held = confirms.filter((p) => p.passed).map((p) => p.rate);
  const top = held.length > 0 ? Math.max(...held) : undefined;
  const foundRate = confirms.length === 0 ? searchedRate : top;
  let confirmation: Confirmation = 'not-run';
  if (confirms.length > 0) confirmation = top === undefined ? 'not-held' : top > searchedRate! ? 'raised' : top < searchedRate! ? 'stepped-down' : 'held';
  const outcome: RateSearchOutcome = {
    search,
    probes,
    foundRate,
    failedRate: foundRate === undefined ? undefined : lowestFailingAbove(probes, foundRate),
    searchedRate,
    confirmation,
    disagreements: disagreementsOf(probes),
    end: 'end' in next ? next.end : 'stopped',
  };
  // Probes only, the search over: a run stopped before confirming, or one from before confirmations.
  const searchEnd = searchStep(search, probes);
  if (confirms.length === 0 && 'end' in searchEnd) outcome.end = searchEnd.end;
  const probeMs = Math.max(...(plan.points[0]?.phases ?? []).filter((phase) => phase.measured).map((phase) => phase.load.durationMs ?? NaN));
  if (Number.isFinite(probeMs)) outcome.confirmMs = confirmDurationMs(probeMs);
  const atFound = probes.filter((p) => p.rate === foundRate);
  const spread = (atFound.find((p) => p.confirm) ?? atFound[0])?.spreadUs;
  if (spread) outcome.spreadUs = spread;
  return outcome;
}

/** The points `expect` lines judge: all of them, or for a search only the one at the rate it found (its confirmation when it has one; none when it found none). */
export function thresholdPoints(plan: ScenarioPlan, points: PointResult[]): PointResult[] {
  if (!plan.rateSearch) return points;
  const found = rateSearchOutcome(plan, points)?.foundRate;
  const atFound = points.filter((point) => found !== undefined && point.sweep.rate === found);
  const confirmed = atFound.filter(isConfirmation);
  return confirmed.length > 0 ? confirmed.slice(-1) : atFound.slice(0, 1);
}

/** How many points a plan runs at most (a search: its probes and confirmations). */
export function pointCount(plan: ScenarioPlan): number {
  return plan.rateSearch ? MAX_PROBES + MAX_CONFIRMATIONS : plan.points.length;
}

// Evaluates a scenario's `expect` lines against its results. Each expectation applies to every measured
// test at every point (a per-command one to the tests that ran that command).
import type { CommandResult, LoadResult } from '../engine';
import type { CompareOp, ExpectMetric, Expectation } from '../scenario/plan';
import { formatMetric } from './format';
import { latencyAtChosen } from './chosenPercentiles';
import { percentileOfMetric } from '../scenario/expect';
import type { KeysAfterPrefill, PointResult, ThresholdOutcome } from './runFile';
import { representativeLoad } from './summary';
import { missRateOf } from './missRate';

export function metricValue(result: CommandResult, metric: ExpectMetric): number {
  const latency = result.latency;
  switch (metric) {
    case 'ops':
      return result.opsPerSec;
    case 'mean':
      return latency.meanUs;
    case 'p50':
      return latency.p50Us;
    case 'p90':
      return latency.p90Us;
    case 'p95':
      return latency.p95Us;
    case 'p99':
      return latency.p99Us;
    case 'p99.9':
      return latency.p999Us;
    case 'max':
      return latency.maxUs;
    case 'errors':
      return result.errors;
    case 'error-rate':
      return result.requests > 0 ? result.errors / result.requests : 0;
    case 'miss-rate':
      return missRateOf(result) ?? Number.NaN;
    case 'keys':
      // Not a figure of a test: evaluateThresholds reads the counts taken after the prefill.
      return Number.NaN;
    default:
      return latencyAtChosen(result, percentileOfMetric(metric) ?? 100);
  }
}

export function compare(actual: number, op: CompareOp, expected: number): boolean {
  switch (op) {
    case '<':
      return actual < expected;
    case '<=':
      return actual <= expected;
    case '>':
      return actual > expected;
    case '>=':
      return actual >= expected;
    case '=':
      return actual === expected;
    case '!=':
      return actual !== expected;
  }
}

function commandResultFor(load: LoadResult, expectation: Expectation): CommandResult | undefined {
  if (!expectation.command) return load.total;
  const wanted = expectation.command.toUpperCase();
  // A command group's name labels its units: its total.
  return load.commands.find((c) => c.command.toUpperCase() === wanted) ?? (load.test.toUpperCase() === wanted ? load.total : undefined);
}

/** `expect keys = N`: one outcome per count taken after a prefill (each point and repeat). */
function keysOutcomes(expectation: Expectation, counts: readonly KeysAfterPrefill[]): ThresholdOutcome[] {
  return counts.map((count) => ({
    expectation: expectation.text,
    metric: expectation.metric,
    point: count.point,
    test: '',
    phase: count.phase,
    actual: count.keys,
    passed: compare(count.keys, expectation.op, expectation.value),
  }));
}

/** The expectation judged on every measured test of every point. */
function testOutcomes(expectation: Expectation, points: PointResult[]): ThresholdOutcome[] {
  const outcomes: ThresholdOutcome[] = [];
  for (const point of points) {
    for (const summary of point.summary) {
      const load = representativeLoad(point.repeats, summary);
      if (!load) continue;
      // A background client group is judged only by an expectation that names it.
      if (load.group?.background && load.test.toUpperCase() !== expectation.command?.toUpperCase()) continue;
      const result = commandResultFor(load, expectation);
      if (!result) continue; // this test did not run the command the expectation names
      if (expectation.metric === 'miss-rate' && result.misses === undefined) continue; // not a read: nothing to miss
      // Over repeats, throughput is judged on its median; the rest on the representative run.
      const value = expectation.metric === 'ops' && !expectation.command ? summary.opsPerSec.median : metricValue(result, expectation.metric);
      // A rate of nothing (a miss rate where no key was looked up: every transaction discarded) is not measured: not a pass.
      const actual = Number.isNaN(value) ? null : value;
      outcomes.push({
        expectation: expectation.text,
        metric: expectation.metric,
        point: point.label,
        test: summary.test,
        phase: summary.phase,
        actual,
        // Errors past the threshold still let an expectation pass (an error-rate one says what is accepted),
        // but a result where nothing succeeded never passes.
        passed:
          actual !== null &&
          (load.status === 'complete' || load.status === 'complete-with-errors') &&
          !(result.requests > 0 && result.errors >= result.requests) &&
          compare(actual, expectation.op, expectation.value),
      });
    }
  }
  return outcomes;
}

export function evaluateThresholds(expectations: Expectation[], points: PointResult[], keysAfterPrefill: readonly KeysAfterPrefill[] = []): ThresholdOutcome[] {
  const outcomes: ThresholdOutcome[] = [];
  for (const expectation of expectations) {
    const before = outcomes.length;
    outcomes.push(...(expectation.metric === 'keys' ? keysOutcomes(expectation, keysAfterPrefill) : testOutcomes(expectation, points)));
    // Nothing measured what the expectation names (the run stopped early): that is not a pass.
    if (outcomes.length === before) {
      outcomes.push({
        expectation: expectation.text,
        metric: expectation.metric,
        point: '',
        test: expectation.command ?? '',
        phase: '',
        actual: null,
        passed: false,
      });
    }
  }
  return outcomes;
}
/** Whether the scenario states which errors it accepts (`expect error-rate < 80%`, `expect errors < 100`). */
export function acceptsErrors(expectations: readonly Expectation[]): boolean {
  return expectations.some((e) => (e.metric === 'error-rate' || e.metric === 'errors') && (e.op === '<' || e.op === '<='));
}

/** `pass  expect p99 < 2ms  [GET]  (actual 1.52 ms)`. */
export function thresholdLine(outcome: ThresholdOutcome): string {
  const where = [outcome.point, outcome.test].filter(Boolean).join(' ');
  const actual = outcome.actual === null ? 'not measured' : formatMetric(outcome.metric, outcome.actual);
  return `${outcome.passed ? 'pass' : 'FAIL'}  ${outcome.expectation}${where ? `  [${where}]` : ''}  (actual ${actual})`;
}

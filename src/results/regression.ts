// The regression gate of `rbench run --baseline … --max-regression`: a run against its baseline, test by test.
import { compareRuns, DEFAULT_NOISE_PERCENT, type Comparison, type ComparisonCell, type ComparisonRow } from './compare';
import { formatMs, formatOps } from './format';
import { rateSearchOutcome } from './rateSearch';
import { searchCondition } from './rateCurve';
import type { RunFile } from './runFile';
import { foreignLoadLine } from './bottleneck';
import { CONFIDENCE_PERCENT, formatInterval } from './statistics';

export interface RegressionLimits {
  /** A throughput drop or p99 rise larger than this (in %) fails. */
  maxRegressionPercent: number;
}

export interface Regression {
  kind: 'throughput' | 'p99' | 'missing' | 'not-comparable';
  point: string;
  phase: string;
  test: string;
  /** Baseline and new values (ops/s or µs) and the change in %, for throughput and p99. */
  baseline?: number;
  actual?: number;
  percent?: number;
  message: string;
}

function rowName(row: Pick<ComparisonRow, 'point' | 'phase' | 'test'>, severalPhases: boolean): string {
  return [row.test, severalPhases ? `(phase ${row.phase})` : '', row.point ? `[${row.point}]` : ''].filter(Boolean).join(' ');
}

/** The noise threshold the gate's comparison uses: the table's default, or the limit when that is smaller. */
export function gateNoisePercent(limits: RegressionLimits): number {
  return Math.min(DEFAULT_NOISE_PERCENT, limits.maxRegressionPercent);
}

/** The comparison the gate judges, and that `rbench run --baseline` prints: the same noise rule for both. */
export function gateComparison(baseline: RunFile, run: RunFile, limits: RegressionLimits): Comparison {
  return compareRuns([baseline, run], { labels: ['baseline', 'this run'], noisePercent: gateNoisePercent(limits) });
}

export interface GateResult {
  /** What fails the gate; an empty list passes. */
  regressions: Regression[];
  /** Changes beyond the limit that the comparison marks as noise (their interval includes 0): not failures, said so. */
  withinNoise: string[];
}

/** The figure a gate line quotes: one run's value, or the median over repeats with both ranges. */
function figure(metric: 'ops' | 'p99', before: ComparisonCell, after: ComparisonCell): string {
  const [format, unit] = metric === 'ops' ? [formatOps, 'ops/s'] : [formatMs, 'ms'];
  const a = before.metrics[metric];
  const b = after.metrics[metric];
  const values = `${format(a.value)} → ${format(b.value)} ${unit}`;
  const interval = b.delta?.interval ? `; ${CONFIDENCE_PERCENT}% interval of the change ${formatInterval(b.delta.interval)}` : '';
  if (!a.spread || !b.spread) return values + interval;
  const range = (cell: typeof a) => `${format(cell.spread!.min)}–${format(cell.spread!.max)}`;
  return `${values}, centres of ${before.repeats} and ${after.repeats} repeats (geometric means; from 5 repeats without the highest and lowest); ranges ${range(a)} and ${range(b)} ${unit}${interval}`;
}

/** Why a change beyond the limit is not significant (statistics.ts's rule, as the comparison applied it). */
const WITHIN_NOISE = `within noise (its ${CONFIDENCE_PERCENT}% interval includes 0)`;

/** A finding in a row whose figures are not comparable (the client set the pace, foreign load) says so. */
function caveat(before: ComparisonCell, after: ComparisonCell): string {
  const reason = after.notComparable ?? before.notComparable;
  return reason ? ` — not comparable: ${reason}` : '';
}

/**
 * Compares a run with its baseline, test by test (each test's total at each point and phase): a throughput
 * drop or p99 rise beyond the limit that the comparison marks worse (statistics.ts's one rule: beyond the
 * noise limit and an interval that excludes 0) is a regression, so the gate and the table agree. Runs whose plans differ are not comparable: that is reported as a failure too (pin a
 * new baseline after changing a scenario). `comparison` defaults to gateComparison's.
 */
export function runGate(baseline: RunFile, run: RunFile, limits: RegressionLimits, comparison = gateComparison(baseline, run, limits)): GateResult {
  const regressions: Regression[] = [];
  const withinNoise: string[] = [];
  const planChanges = comparison.differences.filter((d) => d.kind === 'plan');
  if (planChanges.length > 0) {
    regressions.push({
      kind: 'not-comparable',
      point: '',
      phase: '',
      test: '',
      message: `not comparable with the baseline: the plans differ (${planChanges.map((d) => d.text).join('; ')}). Pin a new baseline after changing the scenario.`,
    });
    return { regressions, withinNoise };
  }
  if (baseline.status !== 'complete') {
    regressions.push({
      kind: 'not-comparable',
      point: '',
      phase: '',
      test: '',
      message: `not comparable with the baseline: the baseline run ${baseline.id} is ${baseline.status} (partial results). Pin a complete run.`,
    });
  }
  // Foreign load: the baseline's figures were not its own alone (src/results/bottleneck/foreignLoad.ts).
  const foreign = foreignLoadLine(baseline);
  if (foreign) {
    regressions.push({
      kind: 'not-comparable',
      point: '',
      phase: '',
      test: '',
      message: `not a clean baseline: in ${baseline.id} ${foreign}. Pin a clean run.`,
    });
  }
  const limit = limits.maxRegressionPercent;
  if (baseline.plan.rateSearch && run.plan.rateSearch) {
    // Probes land on different rates run to run: a search is gated on the rate it found.
    const before = rateSearchOutcome(baseline.plan, baseline.points)?.foundRate;
    const after = rateSearchOutcome(run.plan, run.points)?.foundRate;
    const condition = searchCondition(run.plan.rateSearch);
    if (before !== undefined && (after === undefined || (before - after) / before > limit / 100)) {
      const drop = after === undefined ? 100 : ((before - after) / before) * 100;
      regressions.push({
        kind: 'throughput',
        point: '',
        phase: '',
        test: '',
        baseline: before,
        actual: after ?? 0,
        percent: -drop,
        message:
          after === undefined
            ? `the search found no rate with ${condition} (the baseline found ${formatOps(before)}/s)`
            : `the highest rate with ${condition} dropped ${drop.toFixed(1)}% (${formatOps(before)}/s → ${formatOps(after)}/s), more than the ${limit}% allowed`,
      });
    }
    return { regressions, withinNoise };
  }
  const severalPhases = new Set(comparison.rows.map((row) => row.phase)).size > 1;
  for (const row of comparison.rows) {
    if (row.command !== 'total') continue;
    const [before, after] = row.cells;
    const where = { point: row.point, phase: row.phase, test: row.test };
    const name = rowName(row, severalPhases);
    if (!before) continue;
    if (!after) {
      regressions.push({ kind: 'missing', ...where, message: `${name}: measured in the baseline but not in this run` });
      continue;
    }
    const ops = after.metrics.ops.delta!;
    const drop = ops.percent === null ? 0 : -ops.percent;
    if (drop > limit && ops.verdict === 'noise') {
      withinNoise.push(
        `${name}: throughput dropped ${drop.toFixed(1)}% (${figure('ops', before, after)}), beyond the ${limit}% limit but ${WITHIN_NOISE}: not a regression`,
      );
    } else if (drop > limit) {
      regressions.push({
        kind: 'throughput',
        ...where,
        baseline: before.metrics.ops.value,
        actual: after.metrics.ops.value,
        percent: -drop,
        message: `${name}: throughput dropped ${drop.toFixed(1)}% (${figure('ops', before, after)}), more than the ${limit}% allowed${caveat(before, after)}`,
      });
    }
    const p99 = after.metrics.p99.delta!;
    const rise = p99.percent ?? (p99.absolute > 0 ? Infinity : 0);
    const riseText = Number.isFinite(rise) ? `${rise.toFixed(1)}%` : 'from 0';
    if (rise > limit && p99.verdict === 'noise') {
      withinNoise.push(`${name}: p99 rose ${riseText} (${figure('p99', before, after)}), beyond the ${limit}% limit but ${WITHIN_NOISE}: not a regression`);
    } else if (rise > limit) {
      regressions.push({
        kind: 'p99',
        ...where,
        baseline: before.metrics.p99.value,
        actual: after.metrics.p99.value,
        percent: rise,
        message: `${name}: p99 rose ${riseText} (${figure('p99', before, after)}), more than the ${limit}% allowed${caveat(before, after)}`,
      });
    }
  }
  return { regressions, withinNoise };
}

/** The gate's failures only (see runGate). An empty list passes. */
export function checkRegression(baseline: RunFile, run: RunFile, limits: RegressionLimits): Regression[] {
  return runGate(baseline, run, limits).regressions;
}

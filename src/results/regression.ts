// The regression gate of `rbench run --baseline … --max-regression`: a run against its baseline, test by test.
import { compareRuns, type ComparisonRow } from './compare';
import { formatMs, formatOps } from './format';
import type { RunFile } from './runFile';

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

/**
 * Compares a run with its baseline, test by test (each test's total at each point and phase): a throughput
 * drop or p99 rise beyond the limit is a regression. Runs whose plans differ are not comparable: that is
 * reported as a failure too (pin a new baseline after changing a scenario). An empty list passes.
 */
export function checkRegression(baseline: RunFile, run: RunFile, limits: RegressionLimits): Regression[] {
  const comparison = compareRuns([baseline, run], { labels: ['baseline', 'this run'] });
  const regressions: Regression[] = [];
  const planChanges = comparison.differences.filter((d) => d.kind === 'plan');
  if (planChanges.length > 0) {
    regressions.push({
      kind: 'not-comparable',
      point: '',
      phase: '',
      test: '',
      message: `not comparable with the baseline: the plans differ (${planChanges.map((d) => d.text).join('; ')}). Pin a new baseline after changing the scenario.`,
    });
    return regressions;
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
  const limit = limits.maxRegressionPercent;
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
    if (drop > limit) {
      regressions.push({
        kind: 'throughput',
        ...where,
        baseline: before.metrics.ops.value,
        actual: after.metrics.ops.value,
        percent: -drop,
        message: `${name}: throughput dropped ${drop.toFixed(1)}% (${formatOps(before.metrics.ops.value)} → ${formatOps(after.metrics.ops.value)} ops/s), more than the ${limit}% allowed`,
      });
    }
    const p99 = after.metrics.p99.delta!;
    const rise = p99.percent ?? (p99.absolute > 0 ? Infinity : 0);
    if (rise > limit) {
      regressions.push({
        kind: 'p99',
        ...where,
        baseline: before.metrics.p99.value,
        actual: after.metrics.p99.value,
        percent: rise,
        message: `${name}: p99 rose ${Number.isFinite(rise) ? `${rise.toFixed(1)}%` : 'from 0'} (${formatMs(before.metrics.p99.value)} → ${formatMs(after.metrics.p99.value)} ms), more than the ${limit}% allowed`,
      });
    }
  }
  return regressions;
}

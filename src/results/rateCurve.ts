// Latency against offered load: for a `sweep rate` run or a `find rate` search, each measured test's
// achieved throughput, p50 and p99 at each offered rate, in rate order. The panel draws it, the CLI prints it.
import { rateSearchOutcome, type RateSearchOutcome } from './rateSearch';
import { renderTextTable } from './export';
import { formatMetric, formatMs, formatOps } from './format';
import type { RateSearchPlan } from '../scenario/plan';
import type { RunFile } from './runFile';
import { representativeLoad } from './summary';
import { metricValue } from './thresholds';

export interface RateCurveRow {
  test: string;
  offered: number;
  achieved: number;
  p50Us: number;
  p99Us: number;
  errors: number;
  /** For a search: whether this probe passed, and its searched metric (µs) when that is neither p50 nor p99. */
  passed?: boolean;
  metricUs?: number;
}

export interface RateCurve {
  tests: string[];
  /** Sorted by offered rate, then test. */
  rows: RateCurveRow[];
  search?: RateSearchOutcome;
}

/** The curve of a run that varied only the rate (a `sweep rate` or a search); undefined otherwise. */
export function rateCurve(run: RunFile): RateCurve | undefined {
  const search = rateSearchOutcome(run.plan, run.points);
  const onlyRate = run.plan.sweepAxes.length === 1 && run.plan.sweepAxes[0] === 'rate';
  if (!search && !onlyRate) return undefined;
  const passedAt = new Map(search?.probes.map((probe) => [probe.rate, probe.passed]));
  const tests: string[] = [];
  const rows: RateCurveRow[] = [];
  for (const point of run.points) {
    const offered = point.sweep.rate;
    if (!Number.isFinite(offered)) continue;
    for (const summary of point.summary) {
      const load = representativeLoad(point.repeats, summary);
      if (!load) continue;
      const test = summary.phase === 'main' || summary.phase === summary.test ? summary.test : `${summary.phase} ${summary.test}`;
      if (!tests.includes(test)) tests.push(test);
      const row: RateCurveRow = {
        test,
        offered,
        achieved: summary.opsPerSec.median,
        p50Us: load.total.latency.p50Us,
        p99Us: load.total.latency.p99Us,
        errors: load.total.errors,
      };
      if (search) row.passed = passedAt.get(offered);
      if (search && extraMetric(search)) row.metricUs = metricValue(load.total, search.search.metric);
      rows.push(row);
    }
  }
  rows.sort((a, b) => a.offered - b.offered || tests.indexOf(a.test) - tests.indexOf(b.test));
  return rows.length > 0 ? { tests, rows, search } : undefined;
}

/** The searched metric when the curve does not show it already (p50 and p99 are always shown). */
export function extraMetric(search: RateSearchOutcome | undefined): string | undefined {
  const metric = search?.search.metric;
  return metric && metric !== 'p50' && metric !== 'p99' ? metric : undefined;
}

/** `p99 < 2.00 ms`: what a probe must meet. */
export function searchCondition(search: RateSearchPlan): string {
  return `${search.metric} < ${formatMetric(search.metric, search.limitUs)}`;
}

/** The search's result in one sentence. */
export function searchSentence(outcome: RateSearchOutcome): string {
  const { search } = outcome;
  const condition = searchCondition(search);
  const probes = `${outcome.probes.length} probe${outcome.probes.length === 1 ? '' : 's'}`;
  const rate = (value: number) => `${formatOps(value)}/s`;
  if (outcome.foundRate === undefined) {
    return outcome.probes.length === 0
      ? `No rate probed for ${condition}.`
      : `No rate met ${condition}: the first probe, ${rate(search.fromRate)}, failed (lower \`from\`).`;
  }
  const found = `Highest rate with ${condition}: ${rate(outcome.foundRate)}`;
  switch (outcome.end) {
    case 'resolved':
      return `${found} (${rate(outcome.failedRate!)} failed; ${probes}).`;
    case 'reached-top':
      return `${found}, the top of the search (\`to\`): the limit was not reached (${probes}).`;
    case 'probe-limit':
      return `${found} after ${probes}, the most a search runs${outcome.failedRate ? ` (${rate(outcome.failedRate)} failed)` : ''}.`;
    default:
      return `${found} so far: the search stopped early (${probes}).`;
  }
}

/** The curve as a text table for the terminal, with the search's result under it. */
export function rateCurveText(curve: RateCurve): string {
  const several = curve.tests.length > 1;
  const extra = extraMetric(curve.search);
  const columns = [
    ...(several ? [{ header: 'test', align: 'left' as const }] : []),
    { header: 'offered/s', align: 'right' as const },
    { header: 'achieved/s', align: 'right' as const },
    { header: 'p50 ms', align: 'right' as const },
    { header: 'p99 ms', align: 'right' as const },
    ...(extra ? [{ header: `${extra} ms`, align: 'right' as const }] : []),
    { header: 'errors', align: 'right' as const },
    ...(curve.search ? [{ header: 'probe', align: 'left' as const }] : []),
  ];
  const cells = curve.rows.map((row) => [
    ...(several ? [row.test] : []),
    formatOps(row.offered),
    formatOps(row.achieved),
    formatMs(row.p50Us),
    formatMs(row.p99Us),
    ...(extra ? [formatMs(row.metricUs ?? NaN)] : []),
    row.errors.toLocaleString('en-US'),
    ...(curve.search ? [row.passed ? 'passed' : 'failed'] : []),
  ]);
  const title = 'Latency against offered load (open loop):';
  return [title, renderTextTable(columns, cells).trimEnd(), ...(curve.search ? [searchSentence(curve.search)] : [])].join('\n') + '\n';
}

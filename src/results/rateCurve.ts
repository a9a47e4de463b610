// Latency against offered load: for a `sweep rate` run or a `find rate` search, each measured test's
// achieved throughput, p50 and p99 at each offered rate, in rate order. The panel draws it, the CLI prints it.
import { rateSearchOutcome, type Probe, type RateSearchOutcome } from './rateSearch';
import { renderTextTable } from './export';
import { formatDuration, formatMetric, formatMs, formatOps } from './format';
import type { RateSearchPlan } from '../scenario/plan';
import type { RunFile } from './runFile';
import { representativeLoad } from './summary';
import { metricValue } from './thresholds';
import { groupDigits } from '../scenario/numberText';

export interface RateCurveRow {
  test: string;
  offered: number;
  achieved: number;
  p50Us: number;
  p99Us: number;
  errors: number;
  /** For a search: whether this probe passed, and its searched metric (µs) when that is neither p50 nor p99. */
  passed?: boolean;
  /** For a search: this row is a confirmation (the longer rerun of a found rate or the step above it). */
  confirm?: boolean;
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
  const probeOf = new Map(search?.probes.map((probe) => [probe.label, probe]));
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
      const probe = probeOf.get(point.label);
      if (probe) row.passed = probe.passed;
      if (probe?.confirm) row.confirm = true;
      if (search && extraMetric(search)) row.metricUs = metricValue(load.total, search.search.metric);
      rows.push(row);
    }
  }
  rows.sort((a, b) => a.offered - b.offered || Number(a.confirm ?? false) - Number(b.confirm ?? false) || tests.indexOf(a.test) - tests.indexOf(b.test));
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

/** The search's result in one sentence: the rate, how its rerun went, the bracket it lies in, its spread over repeats. */
export function searchSentence(outcome: RateSearchOutcome): string {
  const { search } = outcome;
  const condition = searchCondition(search);
  const rate = (value: number) => `${formatOps(value)}/s`;
  const confirms = outcome.probes.filter((probe) => probe.confirm);
  const shortCount = outcome.probes.length - confirms.length;
  const counts = `${shortCount} probe${shortCount === 1 ? '' : 's'}${confirms.length > 0 ? `, ${confirms.length} confirmation${confirms.length === 1 ? '' : 's'}` : ''}`;
  const rerun = outcome.confirmMs !== undefined ? `a ${formatDuration(outcome.confirmMs)} rerun` : 'a longer rerun';
  const stopped = outcome.end === 'stopped' ? ' so far: the search stopped early' : '';
  if (outcome.searchedRate === undefined) {
    return outcome.probes.length === 0
      ? `No rate probed for ${condition}.`
      : `No rate met ${condition}: the first probe, ${rate(search.fromRate)}, failed (lower \`from\`).`;
  }
  if (outcome.foundRate === undefined) {
    const tried = confirms.map((probe) => rate(probe.rate)).join(', ');
    return `No rate held ${condition} over ${rerun}${stopped}: the search found ${rate(outcome.searchedRate)}, but ${tried} did not hold (${counts}).`;
  }
  const searched = rate(outcome.searchedRate);
  const confirmation = {
    'not-run': stopped || ', not confirmed by a rerun (the run stopped before it, or predates confirmations)',
    held: `, confirmed by ${rerun}${stopped}`,
    raised: `, confirmed by ${rerun}${stopped}: above the search's ${searched}, as the step up held on its rerun`,
    'stepped-down': `, confirmed by ${rerun}${stopped} after the search's ${searched} did not hold`,
    'not-held': '',
  }[outcome.confirmation];
  let bracket = '';
  if (outcome.failedRate !== undefined) bracket = `; ${rate(outcome.failedRate)} failed, so the limit lies between the two`;
  else if (outcome.foundRate >= search.toRate) bracket = '; that is the top of the search (`to`): the limit was not reached';
  else if (outcome.confirmation === 'raised') bracket = '; no rate above it failed, so the limit may be higher';
  if (outcome.end === 'probe-limit') bracket += `; the search ran the most probes it runs`;
  const spread = outcome.spreadUs
    ? `; ${search.metric} ${formatMetric(search.metric, outcome.spreadUs.min)}–${formatMetric(search.metric, outcome.spreadUs.max)} over ${outcome.spreadUs.runs} repeats`
    : '';
  return `Highest rate with ${condition}: ${rate(outcome.foundRate)}${confirmation}${bracket}${spread} (${counts}).`;
}

/** What makes the search's result doubtful, as warnings: probes that contradict each other. */
export function searchWarnings(outcome: RateSearchOutcome): string[] {
  const { disagreements, search } = outcome;
  if (disagreements.length === 0) return [];
  const describe = (probe: Probe, verb: string) => {
    const value = probe.valueUs === null ? 'not measured' : `${search.metric} ${formatMetric(search.metric, probe.valueUs)}`;
    const errors = probe.errors > 0 ? `, ${groupDigits(probe.errors)} errors` : '';
    return `${formatOps(probe.rate)}/s${probe.confirm ? ' (rerun)' : ''} ${verb} (${value}${errors})`;
  };
  const shown = disagreements.slice(0, 3).map(({ failed, passed }) => `${describe(failed, 'failed')} while ${describe(passed, 'passed')}`);
  const more = disagreements.length > shown.length ? `, and ${disagreements.length - shown.length} more` : '';
  return [
    `The rate search is unstable: ${shown.join('; ')}${more}. A lower rate should not fail where a higher one passes: the probes measured noise — use a longer \`duration\`, \`repeat\`, or a quieter machine.`,
  ];
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
    groupDigits(row.errors),
    ...(curve.search ? [row.confirm ? (row.passed ? 'held (rerun)' : 'did not hold (rerun)') : row.passed ? 'passed' : 'failed'] : []),
  ]);
  const title = 'Latency against offered load (open loop):';
  return [title, renderTextTable(columns, cells).trimEnd(), ...(curve.search ? [searchSentence(curve.search)] : [])].join('\n') + '\n';
}

// When a run's errors make it fail: the engine marks a load `complete-with-errors` when error replies and
// timeouts pass its threshold (1% of requests) or nothing succeeded. Such a run fails (CLI exit 1, failed
// test) unless the scenario states which errors it accepts (`expect error-rate < 80%`); then its
// expectations decide. A load where nothing succeeded fails whatever the scenario accepts.
import type { LoadResult } from '../engine';
import type { RunFile } from './runFile';
import { acceptsErrors } from './thresholds';

export interface ErrorStatusVerdict {
  /** The errors fail the run by themselves. */
  failed: boolean;
  /** Plain words for the table, the panel and the Test Explorer: which tests, why, and what to do. */
  reasons: string[];
}

/**
 * A rate search's probes are meant to find where the server gives out: a probe that failed on errors is the
 * search's finding (it marks the rate as too high, and shows in the curve), not a failure of the run.
 */
function erroredLoads(run: Pick<RunFile, 'points' | 'plan'>): LoadResult[] {
  if (run.plan.rateSearch) return [];
  return run.points.flatMap((point) => point.repeats.flat()).filter((load) => load.status === 'complete-with-errors');
}

export function errorStatusVerdict(run: Pick<RunFile, 'points' | 'plan' | 'status' | 'error'>): ErrorStatusVerdict {
  const loads = erroredLoads(run);
  const prefill = prefillFailure(run);
  if (loads.length === 0 && !prefill) return { failed: false, reasons: [] };
  const accepted = acceptsErrors(run.plan.expects);
  const nothingSucceeded = loads.some((load) => load.total.requests > 0 && load.total.errors >= load.total.requests);
  const where = (load: LoadResult) => [run.points.length > 1 ? pointOf(run, load) : '', load.test].filter(Boolean).join(' ');
  const reasons = loads.map((load) => `${where(load)}: ${load.errorStatusReason ?? 'too many errors'}`);
  if (prefill) reasons.unshift(prefill);
  if (!accepted && loads.length > 0) reasons.push('add `expect error-rate < X%` to the scenario if these errors are expected');
  return { failed: !accepted || nothingSucceeded || prefill !== undefined, reasons };
}

/**
 * A prefill's numbers are not kept (runner/runScenario.ts), but its errors end the run complete-with-errors
 * with the reason as the run's error: a run so marked whose error no measured load accounts for. It fails
 * whatever the scenario's `expect` lines accept (they speak of the measured tests, which ran on data the
 * prefill did not write).
 */
function prefillFailure(run: Pick<RunFile, 'points' | 'status' | 'error'>): string | undefined {
  if (run.status !== 'complete-with-errors') return undefined;
  const measured = run.points.flatMap((point) => point.repeats.flat()).filter((load) => load.status === 'complete-with-errors');
  if (measured.some((load) => run.error === `${load.test}: ${load.errorStatusReason ?? 'too many errors'}`)) return undefined;
  if (measured.length > 0 && run.error === undefined) return undefined;
  return `prefill ${run.error ?? 'ended with errors'}: the measured tests ran on data it did not write; fix the prefill's commands (or the server's state) and run again`;
}

function pointOf(run: Pick<RunFile, 'points'>, load: LoadResult): string {
  return run.points.find((point) => point.repeats.some((loads) => loads.includes(load)))?.label ?? '';
}

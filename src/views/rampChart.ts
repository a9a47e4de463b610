// The results panel's ramp chart (`ramp clients A..B step S every T`): a point per step of each ramped test,
// x = the step's connected clients, its throughput and its p50 and p99 — where the staircase shows at how many
// clients throughput stops rising and latency starts to (memtier's ramp-up read). A ramp is a sweep inside one
// test: the chart is the sweep chart's kind (SweepSeries), its figures the table's step rows' (breakdownRows).
// Pure: bundled into the webview and unit-tested.
import type { LoadResult } from '../engine';
import type { RunFile } from '../results/runFile';
import { formatLatency, formatOpsShort } from '../results/format';
import { representativeLoad } from '../results/summary';
import { groupDigits } from '../scenario/numberText';
import { testName, type SweepSeries } from './timeCharts';

/** A ramp chart: the sweep chart's series over the steps' clients (no sweep table: the step rows are in the results table). */
export interface RampChart extends Omit<SweepSeries, 'table'> {
  axis: 'clients';
  /** Where each ramp's throughput peaked, and the steps left out of the chart (thinned, or clients that do not climb), in words. */
  note?: string;
}

/** More steps than this in one test (a stranger's file, or an hour of 1 s steps): every k-th step is charted, and the last. */
export const MAX_RAMP_CHART_STEPS = 1000;

type Step = NonNullable<LoadResult['ramp']>[number];

/** The steps drawn: all of them, or every k-th and the last when there are more than the chart holds. */
function chartedSteps(steps: readonly Step[]): { steps: { step: Step; index: number }[]; every: number } {
  const every = Math.ceil(steps.length / MAX_RAMP_CHART_STEPS);
  const picked = steps.map((step, index) => ({ step, index })).filter(({ index }) => index % every === 0 || index === steps.length - 1);
  return { steps: picked, every };
}

/** A staircase climbs: each step has more clients than the one before (a file whose steps do not cannot be drawn on a clients axis). */
const climbs = (steps: readonly Step[]) => steps.every((step, i) => i === 0 || step.clients > steps[i - 1].clients);

export function rampChart(run: RunFile): RampChart | undefined {
  const phases = new Set(run.points.flatMap((p) => p.summary.map((s) => s.phase))).size;
  const ramps: { name: string; steps: { step: Step; index: number }[]; repeats: LoadResult[] }[] = [];
  const notes: string[] = [];
  for (const point of run.points) {
    for (const summary of point.summary) {
      const load = representativeLoad(point.repeats, summary);
      if (!load?.ramp?.length) continue;
      const name = testName(point.label, summary.phase, summary.test, phases);
      if (!climbs(load.ramp)) {
        notes.push(`${name}: its steps' clients do not climb, so it is not charted`);
        continue;
      }
      const { steps, every } = chartedSteps(load.ramp);
      if (every > 1) notes.push(`${name}: one step in ${every} of its ${groupDigits(load.ramp.length)} is charted, and the last`);
      const repeats = point.repeats.flatMap((loads) => loads.filter((l) => l.phase === summary.phase && l.test === summary.test));
      ramps.push({ name, steps, repeats });
    }
  }
  if (ramps.length === 0) return undefined;

  // Where throughput stopped rising: the step of the most replies per second, and its p99 (a fact, not a verdict).
  const peaks = ramps.map(({ name, steps }) => {
    const { step } = steps.reduce((best, each) => (each.step.opsPerSec > best.step.opsPerSec ? each : best));
    const where = `${ramps.length > 1 ? `${name}: ` : ''}most throughput at ${groupDigits(step.clients)} client${step.clients === 1 ? '' : 's'}`;
    return `${where} (${formatOpsShort(step.opsPerSec)} ops/s, p99 ${formatLatency(step.latency.p99Us)})`;
  });
  const x = [...new Set(ramps.flatMap((ramp) => ramp.steps.map(({ step }) => step.clients)))].sort((a, b) => a - b);
  const series: RampChart['series'] = [];
  const prefix = (name: string) => (ramps.length > 1 ? `${name} ` : '');
  for (const ramp of ramps) {
    // The same step in each repeat (its number and clients, as the compare rows pair steps): the spread's bounds.
    const at = (pick: (step: Step) => number) => {
      const median: (number | null)[] = x.map(() => null);
      const min = [...median];
      const max = [...median];
      for (const { step, index } of ramp.steps) {
        const i = x.indexOf(step.clients);
        const values = ramp.repeats.flatMap((load) => {
          const same = load.ramp?.[index];
          return same && same.clients === step.clients ? [pick(same)] : [];
        });
        median[i] = pick(step);
        min[i] = Math.min(...values, pick(step));
        max[i] = Math.max(...values, pick(step));
      }
      return { median, min, max };
    };
    series.push({ label: `${prefix(ramp.name)}ops/s`, metric: 'ops', ...at((step) => step.opsPerSec) });
    series.push({ label: `${prefix(ramp.name)}p50`, metric: 'p50', ...at((step) => step.latency.p50Us / 1000) });
    series.push({ label: `${prefix(ramp.name)}p99`, metric: 'p99', ...at((step) => step.latency.p99Us / 1000) });
  }
  return {
    axis: 'clients',
    x,
    xLabels: x.map((clients) => `${groupDigits(clients)} client${clients === 1 ? '' : 's'}`),
    log: false,
    series,
    note: [
      `${ramps.length > 1 ? peaks.join('; ') : capitalised(peaks[0])}.`,
      ...(notes.length > 0 ? [`${notes.join('; ')}: the table lists every step.`] : []),
    ].join(' '),
  };
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

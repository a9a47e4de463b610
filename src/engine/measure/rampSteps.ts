// `ramp clients A..B step S every T`: the load's timeline buckets grouped into the ramp's steps, each with its
// connected clients, replies per second and latency from the buckets' merged histograms (exact: a step is a
// whole number of buckets, as the ramp's interval is whole seconds).
import { LatencyRecorder } from './histogram';
import { summarize } from './summary';
import type { RampStep } from '../types';

export interface RampShape {
  from: number;
  to: number;
  step: number;
  everyMs: number;
}

/** Clients connected during step `k` (0-based). */
export function rampClients(ramp: Pick<RampShape, 'from' | 'to' | 'step'>, k: number): number {
  return Math.min(ramp.to, ramp.from + k * ramp.step);
}

/** Steps of a ramp: from A, S more at each, the last at B. */
export function rampStepCount(ramp: Pick<RampShape, 'from' | 'to' | 'step'>): number {
  return Math.ceil((ramp.to - ramp.from) / ramp.step) + 1;
}

export class RampSteps {
  private readonly steps: { count: number; errors: number; spanMs: number; recorder: LatencyRecorder }[] = [];

  constructor(private readonly ramp: RampShape) {}

  /** A closed timeline bucket starting `t` seconds into the window. */
  add(t: number, count: number, errors: number, spanMs: number, recorder: LatencyRecorder): void {
    const k = Math.min(rampStepCount(this.ramp) - 1, Math.floor((t * 1000 + 1e-6) / this.ramp.everyMs));
    const step = (this.steps[k] ??= { count: 0, errors: 0, spanMs: 0, recorder: new LatencyRecorder() });
    step.count += count;
    step.errors += errors;
    step.spanMs += spanMs;
    step.recorder.add(recorder);
  }

  results(): RampStep[] {
    const results: RampStep[] = [];
    for (let k = 0; k < this.steps.length; k++) {
      const step = this.steps[k];
      if (!step) continue;
      const { latency } = summarize(step.recorder);
      results.push({
        clients: rampClients(this.ramp, k),
        fromMs: k * this.ramp.everyMs,
        toMs: k * this.ramp.everyMs + step.spanMs,
        replies: step.count,
        errors: step.errors,
        opsPerSec: step.spanMs > 0 ? (step.count * 1000) / step.spanMs : 0,
        latency,
      });
    }
    return results;
  }
}

// Live progress text for the notification, the output channel and the Test Explorer output. Plain data.
import type { LoadResult, LoadTick } from '../engine';
import { formatDuration, formatLatency, formatOpsShort } from '../results/format';
import { formatLoadName, type LoadPosition, type RunProgress } from '../runner/runScenario';
import type { ScenarioPlan } from '../scenario/plan';
import { groupDigits } from '../scenario/numberText';

/**
 * `[2/3] GET · 412k ops/s · p99 1.9 ms · 12s elapsed · 48s left`. The numbers are the last second's;
 * the time left comes from the share of the load done (count or duration), when the engine knows it.
 */
export function formatProgressMessage(at: LoadPosition, tick: LoadTick, rest?: RestOfRun): string {
  const parts = [formatLoadName(at) + (tick.warmingUp ? ' (warm-up)' : '')];
  const second = tick.lastSecond;
  if (second) parts.push(`${formatOpsShort(second.ops)} ops/s`, `p99 ${formatLatency(second.p99Us)}`);
  parts.push(`${formatDuration(tick.elapsedMs)} elapsed`);
  const later = rest?.(at.index);
  // The whole run's time left: this load's, then every load after it (their planned durations).
  const current = remainingMs(tick) ?? (later?.currentMs !== undefined ? Math.max(0, later.currentMs - tick.elapsedMs) : undefined);
  if (current !== undefined) {
    const counted = later?.countedTests ?? 0;
    const extra = counted > 0 ? ` + ${counted} test${counted === 1 ? '' : 's'} by request count` : '';
    parts.push(`${formatDuration(current + (later?.timedMs ?? 0))}${extra} left`);
  }
  return parts.join(' · ');
}

/** What is left of a run after the load at `index`: its timed loads' planned time and how many run a request count. */
export type RestOfRun = (index: number) => { timedMs: number; countedTests: number; currentMs?: number } | undefined;

/**
 * The rest of a run by load index, from its plan, in runScenario's order (points × repeats × phases × tests);
 * undefined for a rate search, whose probes are not known in advance.
 */
export function restOfRun(plan: ScenarioPlan): RestOfRun {
  if (plan.rateSearch) return () => undefined;
  const planned: (number | undefined)[] = [];
  for (const point of plan.points)
    for (let repeat = 0; repeat < plan.repeat; repeat++)
      for (const phase of point.phases)
        for (let test = 0; test < phase.tests.length; test++)
          planned.push(phase.load.durationMs !== undefined ? phase.load.durationMs + phase.load.warmupMs : undefined);
  return (index) => {
    if (index < 0 || index >= planned.length) return undefined;
    let timedMs = 0;
    let countedTests = 0;
    for (const ms of planned.slice(index + 1)) {
      if (ms === undefined) countedTests++;
      else timedMs += ms;
    }
    return { timedMs, countedTests, currentMs: planned[index] };
  };
}

/** Time left in this load, extrapolated from the share done; undefined until there is a share to go on. */
export function remainingMs(tick: LoadTick): number | undefined {
  const fraction = tick.fraction;
  if (fraction === undefined || fraction <= 0 || tick.warmingUp) return undefined;
  return Math.max(0, (tick.elapsedMs * (1 - Math.min(fraction, 1))) / fraction);
}

/** Share of the whole run done, 0…100: finished loads plus the share of the current one. */
export function runPercent(at: LoadPosition, fraction: number | undefined): number {
  if (at.total === 0) return 100;
  const current = Math.min(Math.max(fraction ?? 0, 0), 1);
  return Math.min(100, ((at.index + current) / at.total) * 100);
}

/** `[2/3] GET: 412k ops/s, p99 1.9 ms, 12 errors (cancelled)`: the line logged when a load ends. */
export function formatLoadEnd(at: LoadPosition, result: LoadResult): string {
  return (
    `${formatLoadName(at)}: ${formatOpsShort(result.total.opsPerSec)} ops/s, p99 ${formatLatency(result.total.latency.p99Us)}` +
    (result.total.errors ? `, ${groupDigits(result.total.errors)} errors` : '') +
    (result.status !== 'complete' ? ` (${result.status}${result.error ? `: ${result.error}` : ''})` : '')
  );
}

/**
 * A progress listener that writes one line per second of load and one per finished load (the output
 * channel, the Test Explorer's output). The engine repeats the last second in its final tick: each
 * second is written once.
 */
export function progressLogger(write: (line: string) => void, rest?: RestOfRun): (event: RunProgress) => void {
  const written = new Set<string>();
  return (event) => {
    if (event.kind === 'tick' && event.tick.lastSecond) {
      const second = `${event.at.index}:${event.tick.lastSecond.t}`;
      if (written.has(second)) return;
      written.add(second);
      write(formatProgressMessage(event.at, event.tick, rest));
    } else if (event.kind === 'load-end') {
      write(formatLoadEnd(event.at, event.result));
    }
  };
}

/** What a progress notification is told: a message and how far the run has come (VS Code's `Progress`). */
export interface ProgressSink {
  report(value: { message?: string; increment?: number }): void;
}

/**
 * The progress listener of a run's notification (the palette's runs and the Test Explorer's alike): the
 * last second's figures and the time left as its message, the share of the run done as its bar.
 * `clean` makes a message safe to show (control characters out).
 */
export function notificationProgress(progress: ProgressSink, clean: (text: string) => string, rest?: RestOfRun): (event: RunProgress) => void {
  const increments = new ProgressIncrements();
  return (event) => {
    if (event.kind === 'tick') {
      progress.report({
        message: clean(formatProgressMessage(event.at, event.tick, rest)),
        increment: increments.advance(runPercent(event.at, event.tick.fraction)),
      });
    } else if (event.kind === 'load-start') {
      progress.report({ message: clean(`${formatLoadName(event.at)} · starting`), increment: increments.advance(runPercent(event.at, 0)) });
    }
  };
}

/**
 * Turns absolute percentages into the increments `Progress.report` wants, never going backwards.
 * One per run; `advance(percent)` returns the increment to report (0 when nothing moved).
 */
export class ProgressIncrements {
  private reported = 0;

  advance(percent: number): number {
    const target = Math.min(100, Math.max(this.reported, percent));
    const increment = target - this.reported;
    this.reported = target;
    return increment;
  }
}

// A consumer group's line under the CLI table: jobs and jobs/s, the wake-up latency of the stamped jobs, the
// waits that ran out, how many consumers sat idle, and the queue left when they stopped.
import type { LoadResult } from '../engine';
import type { RunFile } from './runFile';
import { formatLatency, formatOps } from './format';
import { groupDigits } from '../scenario/numberText';

/** `workers: 4,000 jobs, 400 jobs/s; wake-up p50 … p99 … (4,000 stamped); 4 empty returns; …; queue left: LLEN jobs 0` */
export function consumerLine(name: string, load: LoadResult): string | undefined {
  const consumer = load.consumer;
  if (!consumer) return undefined;
  const wake = consumer.wakeUp.latency;
  const timed =
    wake.count > 0
      ? `wake-up p50 ${formatLatency(wake.p50Us)}, p99 ${formatLatency(wake.p99Us)} (${groupDigits(wake.count)} stamped)`
      : 'wake-up not timed (no job began with `__now__`)';
  const left = consumer.queueLeft.map((key) => `${key.command} ${key.key} ${groupDigits(key.length)}`).join(', ');
  const ended = consumer.ended === 'drain-limit' ? ', stopped at the drain limit' : consumer.ended === 'cancelled' ? ', cancelled' : '';
  return [
    `${name}: ${groupDigits(consumer.jobs)} jobs, ${formatOps(load.total.opsPerSec)} jobs/s`,
    timed,
    ...(consumer.acked !== undefined ? [`${groupDigits(consumer.acked)} acked by ${groupDigits(consumer.acks ?? 0)} XACKs`] : []),
    `${groupDigits(consumer.emptyReturns)} empty returns`,
    `${consumer.idleConsumers.toFixed(1)} of ${consumer.consumers} consumers idle on average`,
    `queue left: ${left || 'not read'} (drained in ${formatLatency(consumer.drainMs * 1000)}${ended})`,
  ].join('; ');
}

/** A line per consumer group of the run's first repeat at each point. */
export function consumerLines(run: RunFile): string[] {
  return run.points.flatMap((point) =>
    (point.repeats[0] ?? []).flatMap((load) => consumerLine(`${point.label ? point.label + ' ' : ''}${load.test}`, load) ?? []),
  );
}

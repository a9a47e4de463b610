// `rbench run --metrics ADDR`: serves the runs' OpenMetrics while they go on (src/runner/metrics), for
// Prometheus and Grafana during long and sharded runs. Opened before the first run (a port in use is a
// plain message, no load sent); after the last run it waits for one more scrape (--metrics-linger), so the
// final counts reach the scraper.
import { startMetricsServer, MetricsListenError, type MetricsServer } from '../runner/metrics/metricsServer';
import { RunMetrics } from '../runner/metrics/runMetrics';
import type { SessionPorts } from '../runner/session';
import type { ListenAddress } from '../gates/listen';
import type { ShardSpec } from '../runner/shard';
import { formatDuration } from '../results/format';
import type { Output } from './output';

/** How long the endpoint stays up after the last run for a final scrape, by default (Prometheus' usual 15 s interval). */
export const DEFAULT_METRICS_LINGER_MS = 15_000;

export interface CliMetrics {
  /** The session's ports, also feeding the metrics. */
  ports(base: SessionPorts): SessionPorts;
  /** After the last run: waits for a final scrape (at most `lingerMs`), then closes. */
  finish(lingerMs: number, signal?: AbortSignal): Promise<void>;
}

export async function openMetrics(address: ListenAddress, shard: ShardSpec | undefined, output: Output): Promise<CliMetrics | string> {
  const metrics = new RunMetrics({ constant: shard ? { shard: `${shard.index}/${shard.count}` } : {} });
  let server: MetricsServer;
  try {
    server = await startMetricsServer(address, () => metrics.families());
  } catch (error) {
    if (error instanceof MetricsListenError) return error.message;
    throw error;
  }
  output.info(`Metrics: http://${server.address}/metrics (OpenMetrics)${address.exposed ? ' — reachable from other machines' : ''}`);
  return {
    ports: (base) => ({
      ...base,
      started(run, target) {
        metrics.scenarioStarted(run.plan.name, target.display);
        base.started?.(run, target);
      },
      progress(run, event) {
        metrics.observe(run.plan.name, event);
        base.progress?.(run, event);
      },
    }),
    async finish(lingerMs, signal) {
      if (lingerMs > 0 && !signal?.aborted) {
        output.info(`Metrics: waiting up to ${formatDuration(lingerMs)} for a final scrape (--metrics-linger 0s to skip)`);
        await server.scrapedAfter(Date.now(), lingerMs, signal);
      }
      await server.close();
    },
  };
}

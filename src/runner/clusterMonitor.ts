// INFO sampling of a cluster: one ServerMonitor per master, their samples added up tick by tick, so the
// run's server timeline covers the whole cluster (memory, keys, ops, persistence) and not the seed alone.
import { approvedNodes } from '../gates/network';
import { nodeTls } from '../engine';
import { addCounts, recordFromMap } from '../gates/plainData';
import type { TopologyNode } from '../redis/clusterTopology';
import { ServerMonitor, type MonitorOptions, type SamplingGap } from '../redis/monitor';
import type { NodeCounters } from '../redis/serverCounters';
import type { ConnectionOptions, ServerSample } from '../redis/types';

/** The cluster's figures from one sample per master: counts added, flags OR-ed, the worst status kept. */
export function sumSamples(samples: ServerSample[]): ServerSample {
  const sum = (pick: (s: ServerSample) => number | undefined) => samples.reduce((total, s) => total + (pick(s) ?? 0), 0);
  const status = (pick: (s: ServerSample) => string) => samples.map(pick).find((value) => value !== 'ok') ?? 'ok';
  const errorstats = new Map<string, number>();
  for (const s of samples) addCounts(errorstats, s.errorstats);
  const merged: ServerSample = {
    t: Math.max(...samples.map((s) => s.t)),
    usedMemory: sum((s) => s.usedMemory),
    usedMemoryRss: sum((s) => s.usedMemoryRss),
    connectedClients: sum((s) => s.connectedClients),
    instantaneousOps: sum((s) => s.instantaneousOps),
    totalCommandsProcessed: sum((s) => s.totalCommandsProcessed),
    rdbBgsaveInProgress: samples.some((s) => s.rdbBgsaveInProgress),
    rdbLastBgsaveStatus: status((s) => s.rdbLastBgsaveStatus),
    rdbChangesSinceLastSave: sum((s) => s.rdbChangesSinceLastSave),
    aofEnabled: samples.some((s) => s.aofEnabled),
    aofRewriteInProgress: samples.some((s) => s.aofRewriteInProgress),
    aofLastBgrewriteStatus: status((s) => s.aofLastBgrewriteStatus),
    latestForkUsec: Math.max(...samples.map((s) => s.latestForkUsec)),
    evictedKeys: sum((s) => s.evictedKeys),
    expiredKeys: sum((s) => s.expiredKeys),
    keys: sum((s) => s.keys),
    errorstats: recordFromMap(errorstats),
  };
  if (samples.every((s) => s.rdbSaves !== undefined)) merged.rdbSaves = sum((s) => s.rdbSaves);
  if (samples.every((s) => s.aofRewrites !== undefined)) merged.aofRewrites = sum((s) => s.aofRewrites);
  // The server counters: added over the masters, and only when every master gave them (a partial sum would read as a drop).
  for (const field of ['commandCalls', 'commandUsec', 'cpuUser', 'cpuSys', 'cpuMainThread', 'totalForks'] as const) {
    if (samples.every((s) => s[field] !== undefined)) merged[field] = sum((s) => s[field]);
  }
  return merged;
}

/** ServerMonitor's surface over every master of a cluster. */
export class ClusterMonitor {
  private readonly monitors: ServerMonitor[];
  private readonly pending: ServerSample[][];
  /** The network gate's refusal of a master (none opens then). */
  private readonly refusal: string | undefined;

  constructor(connection: ConnectionOptions, masters: TopologyNode[], options: MonitorOptions = {}) {
    this.refusal = approvedNodes(connection).refusal(masters, 'INFO sampling would reach');
    this.pending = masters.map(() => []);
    this.monitors = masters.map(
      (master, i) =>
        new ServerMonitor(
          { ...connection, host: master.host, port: master.port, path: undefined, cluster: false, tls: nodeTls(connection, master) },
          {
            timeOrigin: options.timeOrigin,
            tally: options.tally,
            open: options.open,
            // Live: a cluster sample once every master has given its sample of that tick.
            onSample: (sample) => {
              this.pending[i].push(sample);
              if (this.pending.every((queue) => queue.length > 0)) options.onSample?.(sumSamples(this.pending.map((queue) => queue.shift()!)));
            },
          },
        ),
    );
  }

  get lastError(): string | undefined {
    return this.monitors.map((m) => m.lastError).find((e) => e !== undefined);
  }

  get gaps(): SamplingGap[] {
    return this.monitors.flatMap((m) => m.gaps).sort((a, b) => a.fromT - b.fromT);
  }

  async open(): Promise<void> {
    if (this.refusal) throw new Error(this.refusal);
    await Promise.all(this.monitors.map((m) => m.open()));
  }

  async start(intervalMs = 1000): Promise<void> {
    await Promise.all(this.monitors.map((m) => m.start(intervalMs)));
  }

  async sampleNow(): Promise<ServerSample> {
    return sumSamples(await Promise.all(this.monitors.map((m) => m.sampleNow())));
  }

  /** Every master's counters (the per-test reads), each on its own sampling connection, at once. */
  /** A cluster's masters are weighed apart by their counters, not one main thread's schedstat (ServerMonitor.verifiedPid). */
  verifiedPid(): Promise<number | undefined> {
    return Promise.resolve(undefined);
  }

  async readCounters(options: { slowlogEntries?: number } = {}): Promise<NodeCounters[]> {
    return (await Promise.all(this.monitors.map((m) => m.readCounters(options)))).flat();
  }

  /** CONFIG RESETSTAT on every master (a throwaway cluster only: the runner decides). */
  async resetStats(): Promise<void> {
    await Promise.all(this.monitors.map((m) => m.resetStats()));
  }

  /** The samples added up tick by tick (as many ticks as every master has). */
  async stop(): Promise<ServerSample[]> {
    const series = await Promise.all(this.monitors.map((m) => m.stop()));
    const ticks = Math.min(...series.map((s) => s.length));
    return Array.from({ length: ticks }, (_, k) => sumSamples(series.map((s) => s[k])));
  }

  async close(): Promise<void> {
    await Promise.all(this.monitors.map((m) => m.close()));
  }
}

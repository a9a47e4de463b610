// Samples INFO once a second on a control connection of its own while a load runs, and derives the
// persistence events (snapshots, AOF rewrites) that explain dips in a latency timeline.
// Cluster: one monitor per master, added up by src/runner/clusterMonitor.ts.
import type { CommandTally } from './commandTally';
import { ioredisLink, openControlConnection, RedisConnectionError } from './control';
import type { ControlLink, OpenControl } from './controlLink';
import { describeConnectionError, describeServerError, errorPlace } from './errors';
import { isReplyError, parseInfo, readSampleInfo, sampleFromInfo } from './info';
import { readServerCounters, resetServerStats, type NodeCounters } from './serverCounters';
import { isLocalTarget, readServerSchedule, verifiedServerPid } from './serverSchedule';
import type { ConnectionOptions, ServerSample } from './types';

export interface MonitorOptions {
  /** Date.now() at the start of the run: sample times `t` count from here. Default: when the monitor is created. */
  timeOrigin?: number;
  /** Called with each timeline sample as it arrives (live views). */
  onSample?: (sample: ServerSample) => void;
  /** Counts what the sampling connection sends (the foreign-load accounting, src/redis/commandTally.ts). */
  tally?: CommandTally;
  /** Opens the sampling connection (a run's: the engine's raw one, src/engine/fast/rawControl.ts). Default: an ioredis client. */
  open?: OpenControl;
}

const openIoredisControl: OpenControl = async (options, tally) => ioredisLink(await openControlConnection(options, tally));

/**
 * Usage: `await m.open(); before = await m.sampleNow(); await m.start(); …load…; samples = await m.stop();
 * after = await m.sampleNow(); await m.close()`. stop() keeps the connection open for the `after` snapshot.
 */
/** A stretch without samples: the server could not be reached (`t` as in samples, ms since the origin). */
export interface SamplingGap {
  fromT: number;
  /** The first sample after the gap; absent while it lasts or when the server never came back. */
  toT?: number;
  reason: string;
}

/** How long stop() waits for a sample in flight. */
const STOP_WAIT_MS = 1000;

export class ServerMonitor {
  /** Why sampling missed samples (the server went away for a while) or stopped (INFO was refused). */
  lastError?: string;
  /** Stretches without samples: sampling retries each tick, as the load reconnects, and resumes when it can. */
  readonly gaps: SamplingGap[] = [];
  private readonly samples: ServerSample[] = [];
  private timeOrigin: number;
  private readonly onSample?: (sample: ServerSample) => void;
  private readonly tally?: CommandTally;
  private redis?: Promise<ControlLink>;
  private readonly openLink: OpenControl;
  private running = false;
  private timer?: NodeJS.Timeout;
  private inFlight?: Promise<void>;
  /** The local server's verified pid (serverSchedule.ts), looked up once; undefined when not local or not verified. */
  private serverPid?: Promise<number | undefined>;

  constructor(
    private readonly options: ConnectionOptions,
    monitorOptions: MonitorOptions = {},
  ) {
    this.timeOrigin = monitorOptions.timeOrigin ?? Date.now();
    this.onSample = monitorOptions.onSample;
    this.tally = monitorOptions.tally;
    this.openLink = monitorOptions.open ?? openIoredisControl;
  }

  /** Connects now, so that a connection failure shows before the run starts. Throws RedisConnectionError. */
  async open(): Promise<void> {
    await this.connection();
  }

  get sampling(): boolean {
    return this.running;
  }

  /**
   * Takes a sample at once, then every `intervalMs` on a fixed grid from now, so a slow INFO does not make
   * later samples drift (ticks it overran are skipped). Resolves after the first sample. `timeOrigin`
   * (Date.now() ms) resets where `t` counts from. Rejects (RedisConnectionError) only when it has to
   * connect and cannot; once open() has succeeded, failures end up in lastError instead.
   */
  async start(intervalMs = 1000, timeOrigin?: number): Promise<void> {
    if (this.running) return;
    if (timeOrigin !== undefined) this.timeOrigin = timeOrigin;
    await this.connection();
    this.running = true;
    const gridStart = performance.now();
    let tick = 0;
    const sampleAndReschedule = async (): Promise<void> => {
      this.timer = undefined;
      this.inFlight = this.recordSample();
      await this.inFlight;
      if (!this.running) return;
      tick = Math.max(tick + 1, Math.ceil((performance.now() - gridStart) / intervalMs));
      this.timer = setTimeout(() => void sampleAndReschedule(), gridStart + tick * intervalMs - performance.now());
    };
    await sampleAndReschedule();
  }

  /** Stops sampling and returns every sample taken (also after the server went away). */
  async stop(): Promise<ServerSample[]> {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    // A sample in flight to a frozen server would hold the end of the run for its whole command timeout:
    // wait a moment for it, then end without it.
    await Promise.race([this.inFlight, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())]);
    return [...this.samples];
  }

  /**
   * One sample now, outside the timeline (the before/after snapshots); `t` defaults to the time since
   * the origin. Throws RedisConnectionError.
   */
  async sampleNow(t = Date.now() - this.timeOrigin): Promise<ServerSample> {
    const redis = await this.connection();
    try {
      return sampleFromInfo(await readSampleInfo(redis), t);
    } catch (error) {
      throw new RedisConnectionError(
        isReplyError(error) ? describeServerError(error.message) : describeConnectionError(error, { ...errorPlace(this.options), wasConnected: true }),
      );
    }
  }

  /**
   * The server's counters now (src/redis/serverCounters.ts), on the sampling connection: the per-test reads
   * before and after each load. Throws RedisConnectionError when the server cannot be reached.
   */
  async readCounters(options: { slowlogEntries?: number } = {}): Promise<NodeCounters[]> {
    const redis = await this.connection();
    try {
      const read = await readServerCounters(redis, this.nodeName(), options);
      const pid = await this.localServerPid(redis);
      const schedule = pid !== undefined ? readServerSchedule(pid) : undefined;
      if (schedule) read.schedule = schedule;
      return [read];
    } catch (error) {
      throw new RedisConnectionError(describeConnectionError(error, { ...errorPlace(this.options), wasConnected: true }));
    }
  }

  /** The pid of a server on this machine, verified as that redis-server, once readCounters looked for it; else undefined. */
  verifiedPid(): Promise<number | undefined> {
    return this.serverPid ?? Promise.resolve(undefined);
  }

  /** A server on this machine: its pid from INFO server, once, kept only when it is that redis-server (never for a remote one). */
  private localServerPid(redis: ControlLink): Promise<number | undefined> {
    if (!isLocalTarget(this.options)) return Promise.resolve(undefined);
    this.serverPid ??= redis
      .call('INFO', 'server')
      .then((text) => verifiedServerPid(parseInfo(String(text)).server?.process_id, this.options))
      .catch(() => undefined);
    return this.serverPid;
  }

  /** CONFIG RESETSTAT: for a throwaway server only (the runner decides), so its latencystats are per test. */
  async resetStats(): Promise<void> {
    await resetServerStats(await this.connection());
  }

  private nodeName(): string {
    return this.options.path ?? `${this.options.host}:${this.options.port}`;
  }

  /** Stops sampling and closes the connection. */
  async close(): Promise<void> {
    await this.stop();
    const redis = await this.redis?.catch(() => undefined);
    if (redis) await redis.close();
  }

  private dropConnection(): void {
    const dropped = this.redis;
    this.redis = undefined;
    void dropped?.then((redis) => redis.disconnect()).catch(() => undefined);
  }

  private describeGaps(): string {
    const parts = this.gaps.map((gap) => {
      const from = (gap.fromT / 1000).toFixed(1);
      return gap.toT !== undefined
        ? `no samples from ${from} s to ${(gap.toT / 1000).toFixed(1)} s (${gap.reason}), then sampling resumed`
        : `no samples from ${from} s on: ${gap.reason}`;
    });
    return `server sampling: ${parts.join('; ')}`;
  }

  private connection(): Promise<ControlLink> {
    if (!this.redis) {
      const opening = this.openLink(this.options, this.tally);
      // A failed connect is not kept: the next call tries again.
      opening.catch(() => {
        if (this.redis === opening) this.redis = undefined;
      });
      this.redis = opening;
    }
    return this.redis;
  }

  private async recordSample(): Promise<void> {
    let sample: ServerSample;
    const t = Date.now() - this.timeOrigin;
    try {
      sample = sampleFromInfo(await readSampleInfo(await this.connection()), t);
    } catch (error) {
      if (isReplyError(error)) {
        // The server answers but refuses INFO: retrying cannot help.
        this.lastError = `server monitoring stopped after ${this.samples.length} samples: ${describeServerError(error.message)}`;
        this.running = false;
        return;
      }
      const message =
        error instanceof RedisConnectionError ? error.message : describeConnectionError(error, { ...errorPlace(this.options), wasConnected: true });
      // The server went away (restart, failover): drop the connection and try again next tick.
      this.dropConnection();
      const open = this.gaps[this.gaps.length - 1];
      if (!open || open.toT !== undefined) this.gaps.push({ fromT: t, reason: message });
      this.lastError = this.describeGaps();
      return;
    }
    const open = this.gaps[this.gaps.length - 1];
    if (open && open.toT === undefined) {
      open.toT = sample.t;
      this.lastError = this.describeGaps();
    }
    this.samples.push(sample);
    try {
      this.onSample?.(sample);
    } catch {
      // A failing listener (a closed view) must not stop the sampling.
    }
  }
}

/**
 * How much a sample counter (totalCommandsProcessed, commandCalls, cpuUser…) grew between two samples;
 * undefined when either lacks it or it went down: CONFIG RESETSTAT (RBench's own, before each test on a
 * throwaway server) or a restart sets counters back, and a rate from that would be negative.
 */
export function counterIncrease(before: number | undefined, after: number | undefined): number | undefined {
  return before === undefined || after === undefined || after < before ? undefined : after - before;
}

export type PersistenceEventKind = 'bgsave-start' | 'bgsave-end' | 'bgsave-failed' | 'aof-rewrite-start' | 'aof-rewrite-end' | 'aof-rewrite-failed';

export interface PersistenceEvent {
  /** `t` of the first sample that shows the event. */
  t: number;
  kind: PersistenceEventKind;
}

interface ForkedJob {
  prefix: 'bgsave' | 'aof-rewrite';
  running(sample: ServerSample): boolean;
  /** Jobs started since the server started (failed ones too); undefined before Redis 7. */
  started(sample: ServerSample): number | undefined;
  lastStatus(sample: ServerSample): string;
}

const FORKED_JOBS: ForkedJob[] = [
  {
    prefix: 'bgsave',
    running: (s) => s.rdbBgsaveInProgress,
    started: (s) => s.rdbSaves,
    lastStatus: (s) => s.rdbLastBgsaveStatus,
  },
  {
    prefix: 'aof-rewrite',
    running: (s) => s.aofRewriteInProgress,
    started: (s) => s.aofRewrites,
    lastStatus: (s) => s.aofLastBgrewriteStatus,
  },
];

/**
 * Snapshot and AOF-rewrite starts, ends and failures seen between consecutive samples. The start
 * counters catch jobs that began and finished (or failed at once) between two samples; the status
 * flipping to `err` catches failures on servers without counters.
 */
export function persistenceEvents(samples: readonly ServerSample[]): PersistenceEvent[] {
  const events: PersistenceEvent[] = [];
  for (let i = 1; i < samples.length; i++) {
    const previous = samples[i - 1];
    const current = samples[i];
    for (const job of FORKED_JOBS) {
      const push = (kind: 'start' | 'end' | 'failed') => events.push({ t: current.t, kind: `${job.prefix}-${kind}` });
      const outcome = job.lastStatus(current) === 'err' ? 'failed' : 'end';
      const before = job.started(previous);
      const after = job.started(current);
      // CONFIG RESETSTAT (RBench's own, between tests on a throwaway server) sets the counters back to 0: a
      // counter lower than before started again from 0, so any count now is a job started since.
      const flagged = !job.running(previous) && job.running(current);
      const started = before !== undefined && after !== undefined ? (after < before ? after > 0 || flagged : after > before) : flagged;
      let ended = false;
      // The job running before has finished (possibly followed at once by another one).
      if (job.running(previous) && (!job.running(current) || started)) {
        push(outcome);
        ended = true;
      }
      if (started) {
        push('start');
        if (!job.running(current)) {
          push(outcome);
          ended = true;
        }
      }
      if (!ended && job.lastStatus(previous) !== 'err' && job.lastStatus(current) === 'err') push('failed');
    }
  }
  return events;
}

// Samples INFO once a second on a control connection of its own while a load runs, and derives the
// persistence events (snapshots, AOF rewrites) that explain dips in a latency timeline.
// Cluster: only the seed node is watched.
import type Redis from 'ioredis';
import { closeControlConnection, openControlConnection, RedisConnectionError } from './control';
import { describeConnectionError, describeServerError, errorPlace } from './errors';
import { isReplyError, readSampleInfo, sampleFromInfo } from './info';
import type { ConnectionOptions, ServerSample } from './types';

export interface MonitorOptions {
  /** Date.now() at the start of the run: sample times `t` count from here. Default: when the monitor is created. */
  timeOrigin?: number;
  /** Called with each timeline sample as it arrives (live views). */
  onSample?: (sample: ServerSample) => void;
}

/**
 * Usage: `await m.open(); before = await m.sampleNow(); await m.start(); …load…; samples = await m.stop();
 * after = await m.sampleNow(); await m.close()`. stop() keeps the connection open for the `after` snapshot.
 */
export class ServerMonitor {
  /** Why sampling stopped early (the server went away, INFO was refused), if it did. */
  lastError?: string;
  private readonly samples: ServerSample[] = [];
  private timeOrigin: number;
  private readonly onSample?: (sample: ServerSample) => void;
  private redis?: Promise<Redis>;
  private running = false;
  private timer?: NodeJS.Timeout;
  private inFlight?: Promise<void>;

  constructor(
    private readonly options: ConnectionOptions,
    monitorOptions: MonitorOptions = {},
  ) {
    this.timeOrigin = monitorOptions.timeOrigin ?? Date.now();
    this.onSample = monitorOptions.onSample;
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
    await this.inFlight;
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
        isReplyError(error)
          ? describeServerError(error.message)
          : describeConnectionError(error, { ...errorPlace(this.options), wasConnected: true }),
      );
    }
  }

  /** Stops sampling and closes the connection. */
  async close(): Promise<void> {
    await this.stop();
    const redis = await this.redis?.catch(() => undefined);
    if (redis) await closeControlConnection(redis);
  }

  private connection(): Promise<Redis> {
    if (!this.redis) {
      const opening = openControlConnection(this.options);
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
    try {
      sample = await this.sampleNow();
    } catch (error) {
      this.lastError = `server monitoring stopped after ${this.samples.length} samples: ${(error as Error).message}`;
      this.running = false;
      return;
    }
    this.samples.push(sample);
    try {
      this.onSample?.(sample);
    } catch {
      // A failing listener (a closed view) must not stop the sampling.
    }
  }
}

export type PersistenceEventKind =
  | 'bgsave-start'
  | 'bgsave-end'
  | 'bgsave-failed'
  | 'aof-rewrite-start'
  | 'aof-rewrite-end'
  | 'aof-rewrite-failed';

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
      const started =
        before !== undefined && after !== undefined ? after > before : !job.running(previous) && job.running(current);
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

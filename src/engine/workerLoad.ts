// One thread's share of a load: its connections, the warm-up → measuring → drain life cycle, the
// open-loop schedule, per-second reports and the final result. Runs inside a worker thread (worker.ts)
// but has no worker-specific code, so tests and tools can run it in process too.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { serverLostLimitMs, serverLostMessage } from './failoverWait';
import type { SecondReport, WorkerClusterReport, WorkerConfig, WorkerResult, WorkerToMain } from './workerMessages';
import type { ConnectionFactory, ConnectionHost, LoadConnection } from './connection';
import { CONNECTION_ERROR_KIND, TIMEOUT_ERROR_KIND, WorkerStats } from './measure/stats';
import { SilenceWatch } from './measure/silences';
import { startGcStorm } from './measure/gcStorm';
import { scheduleBetween, serverThreadSchedule, threadCpuMs, threadSchedule, type ThreadSchedule } from './threadCpu';
import type { WorkerPauses } from './measure/clientPauses';
import type { LoadStatus } from './types';
import { requestBudget, type RequestBudget } from './requestBudget';
import { LatencyRecorder } from './measure/histogram';
import { IdleConnections } from './idleConnections';
import { rampClients } from './measure/rampSteps';

/** How long to wait for in-flight replies after a duration or request budget ends. */
export const DRAIN_TIMEOUT_MS = 2000;
/** How long to wait for in-flight replies after a cancellation (the whole stop must stay well under 1 s). */
export const CANCEL_DRAIN_MS = 250;
/**
 * Open loop: a request sent more than this after its intended time counts as a late send, and its latency
 * counts from the intended time (coordinated omission corrected). Sends are paced by millisecond timers,
 * which fire a little late; a send only that much late (the client's pacing, not the server's doing)
 * counts from when it went out. Sleeping on plain timers is what keeps a light load cheap: no spinning.
 */
export const LATE_SEND_THRESHOLD_MS = 3;
/** Timeline buckets switch from the fine length to whole seconds once a load has lasted this long. */
export const FINE_TIMELINE_LIMIT_MS = 10_000;
export class WorkerLoad implements ConnectionHost {
  readonly stats: WorkerStats;
  readonly sent: Float64Array;
  measuring = false;
  /** No new requests (deadline, cancellation or failure). */
  stopping = false;
  /** performance.now() at which a duration-mode load stops sending. */
  deadline = Infinity;
  measureStart = 0;
  lateSends = 0;
  readonly openLoop: boolean;
  readonly connections: LoadConnection[];
  private status: LoadStatus = 'complete';
  private error: string | undefined;
  private finalized = false;
  private downCount = 0;
  private allDownSince = 0;
  /** How long every connection may be down before the server counts as lost (longer for a Sentinel target). */
  private serverLostLimit: number;
  private lastConnectionError = '';
  /** Start of the current timeline bucket, in ms since measuring began. */
  private bucketStartMs = 0;
  /** The window was closed (duration over, or a stall) and its last bucket taken; its length in ms. */
  private windowEndMs: number | undefined;
  /** Since when no connection has heard a reply (or came up): the stall watch's clock. */
  private connectionUpAt = 0;
  private idleSeenAt = 0;
  private stall: WorkerResult['stall'];
  private drainStart = 0;
  private scheduledSends = 0;
  private cpuStart: number | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private tickTimer: NodeJS.Timeout | undefined;
  private tickImmediate: NodeJS.Immediate | undefined;
  /** Open loop: some connection has due batches it could not send (in-flight cap reached, or down). */
  private blocked = false;
  private nextIntended: Float64Array;
  private readonly batchInterval: number;
  /** `--timing recorded`: the captured gaps after each command (TestPlan.gapsMs), and the batches scheduled so far. */
  private readonly gaps: Float64Array | undefined;
  private batchesScheduled = 0;
  private eluStart: EventLoopUtilization | undefined;
  private scheduleStart: ThreadSchedule | undefined;
  private serverStart: ThreadSchedule | undefined;
  /** Per connection: when it last heard a reply, and the stretches it heard none (silences.ts). */
  private readonly silences: SilenceWatch;
  /** Global index of this thread's first connection (its connections are one contiguous range). */
  private readonly firstIndex: number;
  private stopGcStorm: (() => void) | undefined;
  private opened = 0;
  /** Set-up time of every connection opened (first, cycled, reconnected after a loss, idle), warm-up included. */
  private readonly connectTimes = new LatencyRecorder();
  /** `idle-connections`: this thread's share, opened with the load's and closed when it ends. */
  private readonly idle: IdleConnections;
  /** `ramp`: the connections opened so far (the others wait for their step). */
  private readonly rampOpened = new Set<LoadConnection>();
  /** Cluster targets: the routing state the connections share (set by the connection factory). */
  cluster: { report(): WorkerClusterReport; resetCounts(): void } | undefined;

  constructor(
    readonly config: WorkerConfig,
    private readonly post: (message: WorkerToMain) => void,
    factory: ConnectionFactory,
  ) {
    this.stats = new WorkerStats(config.labels.length, config.missRules);
    this.sent = new Float64Array(config.labels.length);
    this.serverLostLimit = config.serverLostTimeoutMs;
    this.openLoop = config.ratePerConnection !== undefined && config.ratePerConnection > 0;
    // Open loop: each connection sends a batch of `pipeline` requests every batchInterval ms.
    this.batchInterval = this.openLoop ? (config.pipeline * 1000) / config.ratePerConnection! : 0;
    this.gaps = this.openLoop && config.test.gapsMs?.length ? Float64Array.from(config.test.gapsMs) : undefined;
    this.connections = config.connections.map((c) => factory(c.index, this));
    this.nextIntended = new Float64Array(this.connections.length);
    this.silences = new SilenceWatch(this.connections.length);
    this.firstIndex = config.connections[0]?.index ?? 0;
    this.idle = new IdleConnections(config.connection, config.idleConnections ?? 0, (micros) => this.connected(micros));
  }

  /** Opens every connection; reports 'ready' or the first failure (and closes the rest). */
  async open(): Promise<boolean> {
    const timedOpen = async (connection: LoadConnection) => {
      const started = performance.now();
      await connection.open();
      this.connected(Math.round((performance.now() - started) * 1000));
    };
    // A ramp opens its first step's clients now, the others at their step (rampTo).
    // `connect-only`: nothing to open first, every connection is one of the load's requests.
    const first = this.config.connectOnly ? [] : this.config.ramp ? this.connections.filter((c) => c.index < this.config.ramp!.from) : this.connections;
    const results = await Promise.allSettled([...first.map(timedOpen), this.idle.open()]);
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) {
      for (const connection of this.connections) connection.abandon();
      this.idle.close();
      this.post({ type: 'connect-failed', message: (failure.reason as Error).message ?? String(failure.reason) });
      return false;
    }
    this.opened = first.length;
    for (const connection of first) this.rampOpened.add(connection);
    this.post({ type: 'ready', opened: this.opened });
    return true;
  }

  start(): void {
    if (this.stopping) return;
    const now = performance.now();
    if (this.config.warmupMs > 0) {
      this.after(this.config.warmupMs, () => this.beginMeasuring());
    } else {
      this.beginMeasuring();
    }
    if (this.openLoop) {
      this.connections.forEach((connection, j) => {
        // Stagger connections so that together they send evenly spaced batches.
        this.nextIntended[j] = now + (this.batchInterval * connection.index) / this.config.totalConnections;
      });
      this.tick();
    } else {
      for (const connection of this.connections) connection.startClosedLoop(now);
    }
  }

  /** Cancellation from the main thread. */
  stop(): void {
    if (this.finalized || this.stopping) return;
    this.status = 'cancelled';
    this.stopping = true;
    for (const connection of this.connections) connection.drain();
    this.after(CANCEL_DRAIN_MS, () => {
      for (const connection of this.connections) connection.abandon();
      this.finalize();
    });
    this.connectionFinished();
  }

  private beginMeasuring(): void {
    if (this.stopping) return;
    this.measuring = true;
    this.stats.reset();
    this.cluster?.resetCounts();
    this.lateSends = 0;
    this.measureStart = performance.now();
    this.eluStart = performance.eventLoopUtilization();
    this.stats.pauses.start();
    this.silences.begin(this.measureStart);
    if (this.config.testHooks) this.stopGcStorm = startGcStorm(this.config.testHooks.gcStormEveryMs);
    this.scheduleStart = threadSchedule();
    this.serverStart = serverThreadSchedule(this.config.serverPid);
    this.cpuStart = threadCpuMs();
    this.scheduledSends = 0;
    const budget: RequestBudget | undefined = this.config.budget ? requestBudget(this.config.budget) : undefined;
    for (const connection of this.connections) connection.beginMeasuring(budget);
    if (this.config.durationMs !== undefined) {
      this.deadline = this.measureStart + this.config.durationMs;
      this.after(this.config.durationMs, () => this.drainAll());
    }
    const ramp = this.config.ramp;
    if (ramp) for (let k = 1; rampClients(ramp, k - 1) < ramp.to; k++) this.after(k * ramp.everyMs, () => this.rampTo(rampClients(ramp, k)));
    this.scheduleBucket();
    this.watchForStall(this.measureStart + this.config.stallTimeoutMs);
    this.post({ type: 'measuring' });
    this.connectionFinished(); // a zero budget finishes at once
  }

  /** `ramp`: the step's clients with a global index below `clients` connect (timed, as the first did) and join the closed loop. */
  private rampTo(clients: number): void {
    for (const connection of this.connections) {
      if (connection.index >= clients || this.rampOpened.has(connection)) continue;
      this.rampOpened.add(connection);
      const started = performance.now();
      connection.open().then(
        () => {
          if (this.stopping || this.finalized) return connection.abandon();
          this.connected(Math.round((performance.now() - started) * 1000));
          this.opened++;
          connection.beginMeasuring(undefined);
          const now = performance.now();
          this.startsAfresh(connection.index, now);
          connection.startClosedLoop(now);
        },
        (error: Error) => {
          connection.abandon();
          this.fail(`ramp to ${clients} clients: ${error.message}`);
        },
      );
    }
  }

  /** Length of the timeline bucket starting at `startMs`: fine while the load is short, then whole seconds. */
  private bucketLength(startMs: number): number {
    const fine = this.config.fineBucketMs;
    if (fine === undefined || fine >= 1000) return 1000;
    const duration = this.config.durationMs;
    if (duration !== undefined) return duration < FINE_TIMELINE_LIMIT_MS ? fine : 1000;
    return startMs < FINE_TIMELINE_LIMIT_MS ? fine : 1000;
  }

  /**
   * Reports each timeline bucket when it ends, on a grid from the measuring start. In duration mode the
   * grid stops at the window's end: drainAll takes the last bucket, so replies arriving in the drain never
   * show as a burst after a stall (the stalled seconds show as buckets with no replies).
   */
  private scheduleBucket(): void {
    const start = this.bucketStartMs;
    const end = start + this.bucketLength(start);
    if (this.config.durationMs !== undefined && end >= this.config.durationMs) return;
    this.after(this.measureStart + end - performance.now(), () => {
      this.postBucket(start, end - start);
      this.bucketStartMs = end;
      this.scheduleBucket();
    });
  }

  private postBucket(startMs: number, spanMs: number): void {
    const second = this.stats.takeSecond(Math.round(startMs) / 1000, spanMs);
    this.post({ type: 'second', second, requests: this.stats.requests, errors: this.stats.errors });
  }

  /** The duration is over: close the window, stop sending, wait (bounded) for the replies in flight. */
  private drainAll(): void {
    if (this.stopping) return;
    this.stopping = true;
    this.closeWindow(this.config.durationMs!);
    this.drainStart = performance.now();
    for (const connection of this.connections) connection.drain();
    this.after(DRAIN_TIMEOUT_MS, () => {
      for (const connection of this.connections) {
        connection.abandon(TIMEOUT_ERROR_KIND, `no reply within ${DRAIN_TIMEOUT_MS} ms after the load ended`);
      }
      this.finalize();
    });
    this.connectionFinished();
  }

  /** Ends the throughput window `endMs` after measuring began: its last bucket is taken now, so later replies and timeouts stay out of the timeline. */
  private closeWindow(endMs: number): void {
    this.closeSilences();
    this.stats.closeWindow();
    this.postBucket(this.bucketStartMs, Math.max(0, endMs - this.bucketStartMs));
    this.windowEndMs = endMs;
  }

  /**
   * The stall watch: a timer (no polling) set for when the quiet time would reach the limit. No reply on any
   * connection for that long while requests are outstanding means the server stopped answering: the load
   * ends there instead of waiting forever, and what is outstanding becomes TIMEOUT errors.
   */
  private watchForStall(at: number): void {
    this.after(at - performance.now(), () => {
      if (this.stopping || this.finalized) return;
      const now = performance.now();
      const outstanding = this.connections.reduce((sum, c) => sum + c.outstanding, 0);
      // Nothing outstanding (a slow open loop between sends) is not a stall: the clock restarts.
      if (outstanding === 0) this.idleSeenAt = now;
      const quietSince = Math.max(this.stats.lastReplyAt, this.measureStart, this.connectionUpAt, this.idleSeenAt);
      const limit = this.config.stallTimeoutMs;
      if (outstanding > 0 && now - quietSince >= limit) this.stalled(now - quietSince, outstanding);
      else this.watchForStall(Math.max(quietSince + limit, now + Math.min(limit, 1000) / 10));
    });
  }

  private stalled(silentMs: number, outstanding: number): void {
    this.stopping = true;
    this.stall = { silentMs, outstanding };
    this.closeWindow(performance.now() - this.measureStart);
    const text = `no reply within ${Math.round(silentMs)} ms: the server stalled (stall-timeout ${this.config.stallTimeoutMs} ms)`;
    for (const connection of this.connections) connection.abandon(TIMEOUT_ERROR_KIND, text);
    this.finalize();
  }

  /** A connection may have finished: when all have, the load is over. */
  connectionFinished(): void {
    if (this.finalized || (!this.measuring && !this.stopping)) return;
    for (const connection of this.connections) if (!connection.finished) return;
    this.finalize();
  }

  budgetSpent(): void {
    for (const connection of this.connections) connection.drain();
  }

  connectionDown(message: string): void {
    this.lastConnectionError = message;
    this.downCount++;
    if (this.downCount === this.connections.length) {
      this.allDownSince = performance.now();
      this.after(this.config.serverLostTimeoutMs + 10, () => this.checkServerLost());
      // A Sentinel target: asked now, while the sentinels may still be about to fail over.
      const since = this.allDownSince;
      void serverLostLimitMs(this.config.connection, this.config.serverLostTimeoutMs).then((limit) => {
        if (this.allDownSince !== since || limit <= this.serverLostLimit) return;
        this.serverLostLimit = limit;
        this.after(since + limit + 10 - performance.now(), () => this.checkServerLost());
      });
    }
  }

  connectionUp(): void {
    this.downCount--;
    this.connectionUpAt = performance.now();
    this.silences.reconnected(this.connectionUpAt);
    this.kick();
  }

  heard(index: number, now: number): void {
    this.silences.heard(index - this.firstIndex, now);
  }

  /** The window is over: connections still waiting for a reply end their silence here. */
  private closeSilences(): void {
    this.silences.close(performance.now(), (slot) => this.connections[slot].outstanding);
  }

  connected(micros: number): void {
    this.connectTimes.record(micros, 1);
  }

  startsAfresh(index: number, now: number): void {
    this.silences.sending(index - this.firstIndex, now);
  }

  reconnectFailed(message: string): void {
    this.lastConnectionError = message;
    this.checkServerLost();
  }

  /** Every connection down for longer than the limit: the server went away; stop and keep what was measured. */
  private checkServerLost(): void {
    if (this.finalized || this.downCount < this.connections.length) return;
    const downFor = performance.now() - this.allDownSince;
    if (downFor < this.serverLostLimit) return;
    this.fail(serverLostMessage(this.config.connection, downFor, this.lastConnectionError));
  }

  /** A fault that waiting cannot mend (lost server, a node refusing TLS): stop now, keep what was measured, say why. */
  fail(message: string): void {
    if (this.finalized) return;
    this.status = 'failed';
    this.error = message;
    this.stopping = true;
    for (const connection of this.connections) connection.abandon();
    this.finalize();
  }

  /** Open loop: a blocked connection may send again (replies came in, or it reconnected). */
  kick(): void {
    if (!this.blocked || this.stopping || this.tickImmediate) return;
    if (this.tickTimer) {
      clearTimeout(this.tickTimer);
      this.tickTimer = undefined;
    }
    this.tickImmediate = setImmediate(this.tick);
  }

  /** Open loop: send every batch that is due, then sleep until the next one. The schedule never shifts. */
  private readonly tick = (): void => {
    this.tickTimer = undefined;
    this.tickImmediate = undefined;
    if (this.stopping || this.finalized) return;
    const now = performance.now();
    let next = Infinity;
    // Sends held back by a blocked connection (too much in flight: the server's doing) count from their intended time.
    const afterBlock = this.blocked;
    this.blocked = false;
    for (let j = 0; j < this.connections.length; j++) {
      const connection = this.connections[j];
      let due = this.nextIntended[j];
      while (due <= now && due < this.deadline && connection.hasBudget() && connection.canSend()) {
        // A connection that had nothing outstanding was not waiting: its quiet time starts with this send.
        if (connection.outstanding === 0) this.silences.sending(j, now);
        const late = now - due > LATE_SEND_THRESHOLD_MS;
        const sent = connection.sendScheduled(late || afterBlock ? due : now, now);
        if (this.measuring) {
          this.scheduledSends += sent;
          if (late) this.lateSends += sent;
        }
        // A replay at its recorded timing: the gap after this command (one connection, one command a batch).
        due += this.gaps ? this.gaps[this.batchesScheduled++ % this.gaps.length] : this.batchInterval;
      }
      this.nextIntended[j] = due;
      // A connection blocked with due batches is woken by kick() when it can send again.
      if (due <= now && due < this.deadline && connection.hasBudget()) this.blocked = true;
      else if (due > now && connection.hasBudget() && due < next) next = due;
    }
    if (next === Infinity || next >= this.deadline + this.batchInterval) return;
    // Never spin: sleep on a timer until the next send is due (timers fire up to a millisecond or so
    // late; such a send counts from when it went out, see LATE_SEND_THRESHOLD_MS).
    this.tickTimer = setTimeout(this.tick, next - now);
  };

  private after(ms: number, fn: () => void): void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        fn();
      },
      Math.max(0, ms),
    );
    this.timers.add(timer);
  }

  private finalize(): void {
    if (this.finalized) return;
    this.finalized = true;
    this.stopping = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (this.tickTimer) clearTimeout(this.tickTimer);
    if (this.tickImmediate) clearImmediate(this.tickImmediate);
    this.stopGcStorm?.();
    if (this.measuring) this.closeSilences();
    for (const connection of this.connections) connection.abandon();
    this.idle.close();

    const now = performance.now();
    let lastSecond: SecondReport | undefined;
    let durationMs = 0;
    let eventLoopUtilization = 0;
    let eventLoopLagP99Ms = 0;
    let drainMs = 0;
    let cpuMs: number | undefined;
    let schedule: ThreadSchedule | undefined;
    let serverThread: ThreadSchedule | undefined;
    let pauses: WorkerPauses | undefined;
    if (this.measuring) {
      if (this.windowEndMs !== undefined) {
        // Duration mode: the window is the planned duration, however long the server kept silent in it.
        // A stall: first send to the moment the stall was called.
        durationMs = this.windowEndMs;
        drainMs = this.drainStart > 0 ? now - this.drainStart : 0;
      } else {
        // Count mode: first send to the last reply (a cancelled or failed load: to when it stopped).
        const end = this.status === 'complete' && this.stats.lastReplyAt > this.measureStart ? this.stats.lastReplyAt : now;
        durationMs = Math.max(0, end - this.measureStart);
        this.stats.closeWindow();
        const spanMs = end - (this.measureStart + this.bucketStartMs);
        if (spanMs > 0 || this.stats.secondCount > 0) {
          lastSecond = this.stats.takeSecond(Math.round(this.bucketStartMs) / 1000, Math.max(1, Math.min(this.bucketLength(this.bucketStartMs), spanMs)));
        }
      }
      const cpuEnd = threadCpuMs();
      if (cpuEnd !== undefined && this.cpuStart !== undefined) cpuMs = cpuEnd - this.cpuStart;
      schedule = scheduleBetween(this.scheduleStart, threadSchedule());
      serverThread = scheduleBetween(this.serverStart, serverThreadSchedule(this.config.serverPid));
      if (this.eluStart) {
        const elu = performance.eventLoopUtilization(this.eluStart);
        const wall = elu.idle + elu.active;
        eventLoopUtilization = wall > 0 ? elu.active / wall : 0;
      }
      pauses = this.stats.pauses.finish();
      eventLoopLagP99Ms = pauses.eventLoopDelayP99Ms;
    }
    this.stats.pauses.stop();
    const result: WorkerResult = {
      status: this.status,
      error: this.error,
      labels: this.stats.labels.map((l) => l.report()),
      ...(this.config.countsReceivers ? { published: { ...this.stats.published } } : {}),
      durationMs,
      drainMs,
      scheduledSends: this.scheduledSends,
      sent: Array.from(this.sent),
      ...(cpuMs !== undefined ? { threadCpuMs: cpuMs } : {}),
      ...(schedule ? { threadCpu: schedule } : {}),
      ...(serverThread ? { serverThread } : {}),
      ...(pauses ? { pauses } : {}),
      ...(this.measuring
        ? { silences: this.silences.heardSilences((from, to) => this.stats.pauses.longPausedWithin(this.measureStart + from, this.measureStart + to)) }
        : {}),
      opened: this.opened,
      reconnects: this.connections.reduce((sum, c) => sum + c.reconnects, 0),
      cycles: this.connections.reduce((sum, c) => sum + c.cycles, 0),
      ...(this.idle.count > 0 ? { idle: this.idle.count } : {}),
      connectTimes: this.connectTimes.toSparse(),
      lateSends: this.lateSends,
      eventLoopUtilization,
      eventLoopLagP99Ms,
      ...(this.stall ? { stall: this.stall } : {}),
      // A group's requests are its units: its commands' rows would count them again.
      unanswered: (this.config.test.group ? this.stats.labels.slice(0, 1) : this.stats.labels).reduce(
        (sum, l) => sum + (l.errorsByKind.get(TIMEOUT_ERROR_KIND) ?? 0),
        0,
      ),
      ...(this.cluster ? { cluster: this.cluster.report() } : {}),
    };
    this.post({ type: 'result', result, lastSecond });
  }
}

export { CONNECTION_ERROR_KIND };

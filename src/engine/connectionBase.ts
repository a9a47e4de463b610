// What the fast and the ioredis load connections share: the life cycle, the claims on the load's shared
// request budget (requestBudget.ts), the count of requests written, and when a connection counts as
// finished. Only per-batch and life-cycle code lives here; sending requests, reading replies and recording
// stay in the subclasses, with no indirection added per request.
import { performance } from 'node:perf_hooks';
import { keyWidth, ValueSizes, type BatchContext } from './requests/batch';
import { payloadFor } from './requests/payload';
import { dataCursors } from './requests/tableValues';
import type { WorkerConfig } from './workerMessages';
import { createKeySource, type KeySource, type KeySourceContext } from './requests/random';
import type { ConnectionHost, LoadConnection } from './connection';
import type { RequestBudget } from './requestBudget';

export const enum State {
  Idle,
  Running,
  Down,
  Draining,
  Finished,
  /** `reconnect every N`: the spent connection is closed and a new one is opening (nothing in flight). */
  Cycling,
}

/** Connection `index`'s seeded key sequence and what its requests are built from; the same for both clients. */
export function requestSource(config: WorkerConfig, index: number): { keys: KeySource; context: BatchContext } {
  const keyContext = {
    seed: config.seed,
    connection: index,
    connections: config.totalConnections,
    ...(config.budget ? { firstClient: config.budget.firstClient, clients: config.budget.clients } : {}),
  };
  return {
    keys: createKeySource(config.keys, keyContext),
    context: {
      seed: config.seed,
      client: index,
      pipeline: config.pipeline,
      keySpace: Math.max(1, config.keys.space),
      keyWidth: keyWidth(config.keys.space, config.keys.size),
      connections: config.totalConnections,
      labelIndexes: config.labelIndexes,
      payload: payloadFor(config.valueFill, config.seed, new ValueSizes(config.value).max),
      ...dataCursors(config.data, keyContext),
      ...(config.test.sequence ? { order: commandOrder(config.test.commands.length, keyContext) } : {}),
    },
  };
}

/** A replayed test's commands in sequence: the sequential key rule over their indexes (N requests: each command once). */
function commandOrder(count: number, context: KeySourceContext): KeySource {
  return createKeySource({ space: count, distribution: 'sequential', zipfExponent: 0, gaussianStddev: 0, size: 1 }, context);
}

export abstract class BudgetedConnection implements LoadConnection {
  reconnects = 0;
  /** `reconnect every N`: connections closed and reopened as planned. */
  cycles = 0;
  protected state = State.Idle;
  /** The load's shared budget, from when measuring starts (none in duration mode: unlimited). */
  private budget: RequestBudget | undefined;
  /** Requests written on the current connection (`reconnect every N` closes it at N). */
  private sentOnConnection = 0;
  /**
   * Requests claimed before a cycle, sent first on the new connection: claiming before reopening means a
   * connection is only opened for requests the budget still holds (`reconnect every 1`: one per request, exactly).
   */
  private reserved = 0;
  /** The load ended while a cycle was opening its new connection: finish once it is open. */
  private finishAfterCycle = false;

  constructor(
    readonly index: number,
    protected readonly load: ConnectionHost,
  ) {}

  get finished(): boolean {
    return this.state === State.Finished;
  }

  /** Requests sent and not answered yet (the stall watch needs them). */
  get outstanding(): number {
    return this.state === State.Finished ? 0 : this.requestsInFlight();
  }

  get up(): boolean {
    return this.state === State.Running || this.state === State.Draining;
  }

  abstract open(): Promise<void>;
  abstract canSend(): boolean;
  abstract sendScheduled(intended: number, now: number): number;
  abstract abandon(kind?: string, text?: string): void;

  startClosedLoop(now: number): void {
    if (this.state === State.Running) this.sendNextBatch(now);
  }

  beginMeasuring(budget: RequestBudget | undefined): void {
    this.budget = budget;
    // Reserved during the warm-up, when nothing was claimed: the budget decides from now on.
    this.reserved = 0;
    this.restartSequences();
    this.finishIfDone();
  }

  /** Open loop: whether the budget allows another batch. Once it is spent the connection drains (another may have taken the last requests). */
  hasBudget(): boolean {
    if (this.reserved === 0 && this.budgetSpent()) {
      this.drain();
      return false;
    }
    return this.state !== State.Finished && this.state !== State.Draining;
  }

  drain(): void {
    // A cycle holding claimed requests sends them on its new connection, unless the load itself is ending.
    if (this.state === State.Cycling) {
      // Otherwise it finishes once its new connection is open (or failed): the connections made are all counted.
      if (this.reserved === 0 || this.load.stopping) this.finishAfterCycle = true;
      return;
    }
    if (this.state === State.Running) this.state = State.Draining;
    else if (this.state === State.Down || this.state === State.Idle) this.finish();
    this.finishIfDone();
  }

  /** Closed loop: sends the next batch, or drains when the load stops. */
  protected abstract sendNextBatch(now: number): void;
  /** Restarts the key and choice sequences, so that measuring sees the same requests every run. */
  protected abstract restartSequences(): void;
  /** The next batch holds the budget's requests first, first+1, …: its draws follow them (BatchBuilder.claimed). */
  protected abstract claimed(first: number): void;
  protected abstract requestsInFlight(): number;
  /** Closes the socket or client for good. */
  protected abstract close(): void;

  /** Closed loop: whether another batch may go out now; if not, drains as the load requires. */
  protected mayBuildBatch(now: number): boolean {
    if (this.load.stopping || now >= this.load.deadline || this.state !== State.Running) {
      this.drain();
      return false;
    }
    return true;
  }

  /**
   * Size of the next batch (up to `wanted`, a pipeline by default): claimed from the shared budget when
   * measuring a count, with the keys set to follow the claimed numbers. 0: the budget is spent, and this
   * thread's connections drain (those waiting for a reconnect finish now: nothing is left for them).
   */
  protected takeBudget(wanted = this.load.config.pipeline): number {
    if (this.reserved > 0) {
      const count = this.reserved;
      this.reserved = 0;
      this.sentOnConnection += count;
      return count;
    }
    const every = this.load.config.reconnectEvery;
    // A batch never spans two connections.
    if (every !== undefined) wanted = Math.min(wanted, every - this.sentOnConnection);
    const budget = this.budget;
    const count = budget === undefined ? wanted : budget.claim(wanted);
    if (count > 0) {
      if (budget !== undefined) this.claimed(budget.first);
      this.sentOnConnection += count;
    } else this.load.budgetSpent();
    return count;
  }

  /** `reconnect every N`: this connection has written its N requests. */
  protected connectionSpent(): boolean {
    const every = this.load.config.reconnectEvery;
    return every !== undefined && this.sentOnConnection >= every;
  }

  /**
   * `reconnect every N`: once a spent connection's replies are all in and the load goes on, closes it and
   * opens a new one (the path's own opening: the network gate and the handshake again), timed as the first was.
   * True when the connection is cycling (or finished for want of requests): the caller sends nothing now.
   */
  protected cycleIfSpent(now: number): boolean {
    if (!this.connectionSpent() || this.state !== State.Running || this.requestsInFlight() > 0) return false;
    if (this.load.stopping || now >= this.load.deadline) return false;
    this.sentOnConnection = 0;
    const count = this.takeBudget();
    if (count === 0) {
      this.finishIfDone();
      return true;
    }
    // Counted on the new connection when it sends them.
    this.sentOnConnection = 0;
    this.reserved = count;
    this.state = State.Cycling;
    const started = performance.now();
    this.reopen().then(
      () => {
        // Made, whatever happens next: the server counts it.
        this.load.connected(Math.round((performance.now() - started) * 1000));
        this.cycles++;
        if (this.state !== State.Cycling) {
          this.close(); // abandoned while opening: the new connection goes too
          return;
        }
        if (this.finishAfterCycle) {
          this.finish();
          return;
        }
        this.state = State.Running;
        this.load.startsAfresh(this.index, performance.now());
        if (this.load.openLoop) this.load.kick();
        else this.sendNextBatch(performance.now());
      },
      (error: Error) => {
        if (this.state !== State.Cycling) return;
        if (this.finishAfterCycle) return this.finish();
        this.load.fail(`reconnect every ${this.load.config.reconnectEvery}: opening a new connection failed: ${error.message}`);
      },
    );
    return true;
  }

  /** `reconnect every N`: closes the current connection without counting it as lost, and opens a new one (rejects with a LoadError). */
  protected reopen(): Promise<void> {
    return Promise.reject(new Error('this client path does not reconnect on a schedule'));
  }

  /** Counts `commands` written requests by their labels (all of `labels[0]` when the test has one label). */
  protected countSent(labels: Uint16Array, commands: number, singleLabel: boolean): void {
    const sent = this.load.sent;
    if (singleLabel) sent[labels[0]] += commands;
    else for (let i = 0; i < commands; i++) sent[labels[i]]++;
  }

  private budgetSpent(): boolean {
    return this.budget !== undefined && this.budget.spent();
  }

  protected finishIfDone(): void {
    if (this.state === State.Finished || this.state === State.Cycling || this.reserved > 0 || this.requestsInFlight() > 0) return;
    if (this.state === State.Draining || this.budgetSpent()) this.finish();
  }

  protected finish(): void {
    if (this.state === State.Finished) return;
    this.state = State.Finished;
    this.close();
    this.load.connectionFinished();
  }
}

// What the fast and the ioredis load connections share: the life cycle, the measured request budget and
// when a connection counts as finished. Only per-batch and life-cycle code lives here; sending requests,
// reading replies and recording stay in the subclasses, with no indirection added per request.
import { keyWidth, ValueSizes, type BatchContext } from './requests/batch';
import { payloadFor } from './requests/payload';
import type { WorkerConfig } from './workerMessages';
import { createKeySource, type KeySource } from './requests/random';
import type { ConnectionHost, LoadConnection } from './connection';

export const enum State {
  Idle,
  Running,
  Down,
  Draining,
  Finished,
}

/** Connection `index`'s seeded key sequence and what its requests are built from; the same for both clients. */
export function requestSource(config: WorkerConfig, index: number): { keys: KeySource; context: BatchContext } {
  return {
    keys: createKeySource(config.keys, { seed: config.seed, connection: index, connections: config.totalConnections }),
    context: {
      seed: config.seed,
      client: index,
      pipeline: config.pipeline,
      keySpace: Math.max(1, config.keys.space),
      keyWidth: keyWidth(config.keys.space, config.keys.size),
      labelIndexes: config.labelIndexes,
      payload: payloadFor(config.valueFill, config.seed, new ValueSizes(config.value).max),
    },
  };
}

export abstract class BudgetedConnection implements LoadConnection {
  reconnects = 0;
  protected state = State.Idle;
  /** Measured requests left to send (Infinity before measuring and in duration mode). */
  protected remaining = Infinity;

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

  beginMeasuring(requests: number | undefined): void {
    this.remaining = requests ?? Infinity;
    this.restartSequences();
    this.finishIfDone();
  }

  hasBudget(): boolean {
    return this.remaining > 0 && this.state !== State.Finished && this.state !== State.Draining;
  }

  drain(): void {
    if (this.state === State.Running) this.state = State.Draining;
    else if (this.state === State.Down || this.state === State.Idle) this.finish();
    this.finishIfDone();
  }

  /** Closed loop: sends the next batch, or drains when the load stops. */
  protected abstract sendNextBatch(now: number): void;
  /** Restarts the key and choice sequences, so that measuring sees the same requests every run. */
  protected abstract restartSequences(): void;
  protected abstract requestsInFlight(): number;
  /** Closes the socket or client for good. */
  protected abstract close(): void;

  /** Closed loop: whether another batch may go out now; if not, drains or finishes as the load requires. */
  protected mayBuildBatch(now: number): boolean {
    if (this.load.stopping || now >= this.load.deadline || this.state !== State.Running) {
      this.drain();
      return false;
    }
    if (this.remaining === 0) {
      this.finishIfDone();
      return false;
    }
    return true;
  }

  /** Size of the next batch; taken from the budget when measuring. */
  protected takeBudget(): number {
    const count = Math.min(this.load.config.pipeline, this.remaining);
    if (this.load.measuring) this.remaining -= count;
    return count;
  }

  protected finishIfDone(): void {
    if (this.state === State.Finished || this.requestsInFlight() > 0) return;
    const budgetSpent = this.load.measuring && this.remaining === 0;
    if (this.state === State.Draining || budgetSpent) this.finish();
  }

  protected finish(): void {
    if (this.state === State.Finished) return;
    this.state = State.Finished;
    this.close();
    this.load.connectionFinished();
  }
}

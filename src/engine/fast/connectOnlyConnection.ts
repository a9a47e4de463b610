// `connect-only on`: a connection storm (dragonfly's connect-only benchmark, for max-connection and TLS-handshake
// tests). Each request of the test is a connection: opened as every load connection is (the network gate, TLS,
// AUTH/HELLO/SELECT and PING: openTargetSocket), timed, and closed at once, with no command of the load's own.
// A client opens one connection at a time: the closed loop opens the next as soon as one is made; the open loop
// (`rate`) starts one on the schedule, late while the previous one is still opening. So at most `clients`
// sockets are ever open, inside the connection budget the run checked. The request's latency is the set-up time
// (from its intended time in the open loop); each one is also a sample of the connections' set-up histogram.
// On a Redis Cluster the connections go to its masters in turn (connectOnlyCluster.ts).
import { performance } from 'node:perf_hooks';
import { NodeRefusedError } from '../../gates/network';
import { BudgetedConnection, State } from '../connectionBase';
import type { ClientPathModule, ConnectionHost } from '../connection';
import { CONNECTION_ERROR_KIND, type LabelStats } from '../measure/stats';
import type { ConnectionOptions } from '../../redis/types';
import type { RawConnection } from './connect';
import { openTargetSocket } from './primarySocket';

/** Failed connections in a row after which a client stops: the target refuses them all, and more would only spin. */
export const CONNECT_FAILURES_IN_A_ROW = 50;

/** Where a client's storm connections go: the target as given (one node, a Sentinel's primary), or a cluster's masters. */
export interface StormTarget {
  /** Known before any connection: the network gate refused the cluster's layout. */
  readonly refused?: string;
  /** Opens this client's connection number `turn`; `node` is the cluster node's row, which counts it too. */
  open(turn: number): { opening: Promise<RawConnection>; node?: LabelStats };
}

/** The target as the load names it: every connection through the network gate and the handshake (openTargetSocket). */
export function targetAsGiven(connection: ConnectionOptions): StormTarget {
  return { open: () => ({ opening: openTargetSocket(connection) }) };
}

export class ConnectOnlyConnection extends BudgetedConnection {
  private opening = false;
  /** Connections this client began (made or not): its turn over a cluster's masters. */
  private turns = 0;
  private failuresInARow = 0;
  /** The request's row: the test's only label (`connect`). */
  private readonly label: number;

  constructor(
    index: number,
    load: ConnectionHost,
    private readonly target: StormTarget,
  ) {
    super(index, load);
    this.label = load.config.labelIndexes[0] ?? 0;
    // Nothing to open before the load: every connection is one of its requests.
    this.state = State.Running;
  }

  override open(): Promise<void> {
    return this.target.refused ? Promise.reject(new NodeRefusedError(this.target.refused)) : Promise.resolve();
  }

  override canSend(): boolean {
    return this.state === State.Running && !this.opening;
  }

  override sendScheduled(intended: number, now: number): number {
    if (this.takeBudget(1) === 0) {
      this.finishIfDone();
      return 0;
    }
    this.connect(intended, now);
    return 1;
  }

  override abandon(): void {
    this.finish();
  }

  protected override sendNextBatch(now: number): void {
    if (!this.mayBuildBatch(now)) return;
    if (this.takeBudget(1) === 0) {
      this.finishIfDone();
      return;
    }
    this.connect(now, now);
  }

  /** Opens one connection, times it from `intended` (its request) and from `started` (its set-up), and closes it. */
  private connect(intended: number, started: number): void {
    this.opening = true;
    const measured = this.load.measuring;
    const { opening, node } = this.target.open(this.turns++);
    opening.then(
      ({ socket }) => {
        const now = performance.now();
        // Made, whatever happens next: the server counts it (as a planned connection: its handshake is the load's own).
        socket.destroy();
        this.load.connected(Math.round((now - started) * 1000));
        this.cycles++;
        this.failuresInARow = 0;
        if (measured) {
          const micros = Math.round((now - intended) * 1000);
          this.load.stats.recordReplies(this.label, micros, 1, now);
          node?.recorder.record(micros, 1);
          if (node) node.requests++;
        }
        this.done(now);
      },
      (error: Error) => {
        const now = performance.now();
        if (this.state === State.Finished) return;
        // A node the network gate refuses (a Sentinel's primary elsewhere): trying again cannot mend that.
        if (error instanceof NodeRefusedError) return this.load.fail(error.message);
        if (measured) {
          this.load.stats.recordError(this.label, CONNECTION_ERROR_KIND, error.message);
          node?.addError(CONNECTION_ERROR_KIND, error.message, 1);
        }
        if (++this.failuresInARow >= CONNECT_FAILURES_IN_A_ROW) {
          return this.load.fail(`connect-only: ${CONNECT_FAILURES_IN_A_ROW} connections in a row failed, the last with: ${error.message}`);
        }
        this.done(now);
      },
    );
  }

  private done(now: number): void {
    this.opening = false;
    this.load.heard(this.index, now);
    if (this.state !== State.Running) return this.finishIfDone();
    if (this.load.openLoop) {
      this.load.kick();
      this.finishIfDone();
    } else this.sendNextBatch(now);
  }

  protected override restartSequences(): void {}

  protected override claimed(): void {}

  protected override requestsInFlight(): number {
    return this.opening ? 1 : 0;
  }

  /** Nothing stays open between requests: a connection still opening closes when it is made. */
  protected override close(): void {}
}

/** The connect-only path on one node (clientPaths.ts chooses it for `connect-only on`, whatever the client; connectOnlyCluster.ts on a cluster). */
export const openClientPath: ClientPathModule['openClientPath'] = (config) => ({
  factory: (index, load) => new ConnectOnlyConnection(index, load, targetAsGiven(config.connection)),
  cluster: () => undefined,
});

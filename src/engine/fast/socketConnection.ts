// What the fast path's raw-socket connections share (fastConnection.ts: pre-encoded batches; replyConnection.ts:
// reply-driven requests): opening the target's socket, a lost connection (its requests in flight counted as
// errors, then reconnects with a growing delay), the planned close and reopen of `reconnect every N`, and the
// close for good. Reading replies and sending requests stay in the subclasses: nothing here runs per request.
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { NodeRefusedError } from '../../gates/network';
import { BudgetedConnection, State } from '../connectionBase';
import { CONNECTION_ERROR_KIND } from '../measure/stats';
import type { BytesHandler, RawConnection } from './connect';
import { openTargetSocket } from './primarySocket';

const RECONNECT_FIRST_DELAY_MS = 50;
const RECONNECT_MAX_DELAY_MS = 1000;

export abstract class SocketConnection extends BudgetedConnection {
  protected socket: Socket | undefined;
  private reconnectAttempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private lastSocketError: NodeJS.ErrnoException | undefined;

  /** Where the socket's incoming bytes go (a chunk is valid only during the call). */
  protected abstract readonly onData: BytesHandler;
  /** A new socket is attached: the reply reader starts afresh (and whatever else follows the socket). */
  protected abstract attached(socket: Socket): void;
  /** The requests in flight will get no reply: counted as errors of `kind` (timed-out ones with their wait). */
  protected abstract countInFlightAsErrors(kind: string, text: string): void;

  /** The socket closed, before the loss is handled: anything awaiting a reply on it hears so. */
  protected socketClosed(): void {}

  /** Opens the target's socket (network gate, TLS, handshake) and attaches it; rejects with a LoadError. */
  protected async connectSocket(): Promise<void> {
    this.attach(await openTargetSocket(this.load.config.connection));
  }

  override abandon(kind?: string, text?: string): void {
    if (kind !== undefined) this.countInFlightAsErrors(kind, text ?? kind);
    this.finish();
  }

  protected override async reopen(): Promise<void> {
    const old = this.socket;
    this.socket = undefined;
    if (old) {
      // A planned close: not a lost connection.
      old.removeListener('close', this.onClose);
      old.removeListener('error', this.onSocketError);
      old.destroy();
    }
    await this.connectSocket();
  }

  protected override close(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.socket?.destroy();
    this.socket = undefined;
  }

  private attach(connection: RawConnection): void {
    const socket = connection.socket;
    this.socket = socket;
    this.attached(socket);
    connection.onBytes(this.onData);
    socket.on('error', this.onSocketError);
    socket.on('close', this.onClose);
  }

  private readonly onSocketError = (error: NodeJS.ErrnoException): void => {
    this.lastSocketError = error;
  };

  private readonly onClose = (): void => {
    this.socket?.removeListener('close', this.onClose);
    this.socket = undefined;
    this.socketClosed();
    if (this.state === State.Finished) return;
    const error = this.lastSocketError ?? Object.assign(new Error('connection closed by the server'), { code: 'ECONNRESET' });
    this.lastSocketError = undefined;
    const message = `connection lost: ${error.message}`;
    this.countInFlightAsErrors(CONNECTION_ERROR_KIND, message);
    if (this.state === State.Draining || this.load.stopping) {
      this.finish();
      return;
    }
    this.state = State.Down;
    this.load.connectionDown(message);
    this.scheduleReconnect();
  };

  private scheduleReconnect(): void {
    const delay = Math.min(RECONNECT_MAX_DELAY_MS, RECONNECT_FIRST_DELAY_MS * 2 ** this.reconnectAttempt++);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.state !== State.Down) return;
      const started = performance.now();
      openTargetSocket(this.load.config.connection).then(
        (connection) => {
          if (this.state !== State.Down) {
            connection.socket.destroy();
            return;
          }
          this.load.connected(Math.round((performance.now() - started) * 1000));
          this.attach(connection);
          this.state = State.Running;
          this.reconnects++;
          this.reconnectAttempt = 0;
          this.load.connectionUp();
          if (!this.load.openLoop) this.sendNextBatch(performance.now());
        },
        (error: Error) => {
          if (this.state !== State.Down) return;
          // The sentinels name a primary the network gate refuses: waiting cannot mend that.
          if (error instanceof NodeRefusedError) return this.load.fail(error.message);
          this.load.reconnectFailed(error.message);
          if (this.state === State.Down) this.scheduleReconnect();
        },
      );
    }, delay);
  }
}

// `idle-connections N`: connections opened beside the load and held without a request until it ends (redis-benchmark's
// `-I`), so the server carries that many more clients. They open as the fast path's do (the network gate, the
// handshake), whatever the load's client path: what the server sees of an idle client is its socket.
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ConnectionOptions } from '../redis/types';
import { openTargetSocket } from './fast/primarySocket';

export class IdleConnections {
  private readonly sockets: Socket[] = [];
  private closed = false;

  constructor(
    private readonly connection: ConnectionOptions,
    readonly count: number,
    /** Each connection's set-up time in µs, as the load's own connections report theirs. */
    private readonly connected: (micros: number) => void,
  ) {}

  /** Opens them all; rejects with the first failure (a LoadError naming the place and the fix). */
  async open(): Promise<void> {
    await Promise.all(Array.from({ length: this.count }, () => this.openOne()));
  }

  private async openOne(): Promise<void> {
    const started = performance.now();
    const { socket } = await openTargetSocket(this.connection);
    this.connected(Math.round((performance.now() - started) * 1000));
    // A server closing an idle client (its `timeout`) ends nothing: the load goes on without it (its errors have
    // the listener every socket gets, src/redis/clientSocket.ts).
    if (this.closed) socket.destroy();
    else this.sockets.push(socket);
  }

  close(): void {
    this.closed = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.length = 0;
  }
}

// Follows a Sentinel failover on the fast path. A primary demoted by a failover keeps its clients until
// the sentinels reconfigure it (up to their 10 s INFO period), still answering writes: so each thread
// asks the sentinels every half second while it has connections, and closes those attached to an
// address that is no longer the primary. They reconnect through the sentinels (openTargetSocket).
import type { Socket } from 'node:net';
import { discoverPrimary, type PrimaryAddress } from '../../redis/sentinel';
import type { ConnectionOptions } from '../../redis/types';

export const PRIMARY_POLL_MS = 500;

const watches = new Map<string, PrimaryWatch>();

/** Registers a fast-path socket of a Sentinel target (others are ignored); it leaves the watch when it closes. */
export function watchPrimary(options: ConnectionOptions, socket: Socket): void {
  if (!options.sentinel) return;
  const key = JSON.stringify([options.sentinel, options.tls !== undefined]);
  let watch = watches.get(key);
  if (!watch) {
    watch = new PrimaryWatch(options, () => watches.delete(key));
    watches.set(key, watch);
  }
  watch.add(socket);
}

class PrimaryWatch {
  private readonly sockets = new Set<Socket>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: ConnectionOptions,
    private readonly onEmpty: () => void,
  ) {}

  add(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => {
      this.sockets.delete(socket);
      if (this.sockets.size === 0) this.stop();
    });
    // Polls with a plain timer, never a spin; it does not keep a finished thread alive.
    this.timer ??= setTimeout(this.poll, PRIMARY_POLL_MS).unref();
  }

  private readonly poll = async (): Promise<void> => {
    this.timer = undefined;
    const primary = await discoverPrimary({ ...this.options, sentinel: this.options.sentinel! }).catch(() => undefined);
    // No answer (all sentinels away for a moment): keep the connections; a dead primary drops them anyway.
    if (primary) for (const socket of this.sockets) if (!attachedTo(socket, primary)) socket.destroy();
    if (this.sockets.size > 0) this.timer ??= setTimeout(this.poll, PRIMARY_POLL_MS).unref();
  };

  private stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.onEmpty();
  }
}

/** Whether the socket's peer is that primary: the port, and the address when the sentinels give an IP. */
function attachedTo(socket: Socket, primary: PrimaryAddress): boolean {
  if (socket.remotePort === undefined) return true; // not connected yet, or already closing
  if (socket.remotePort !== primary.port) return false;
  const peer = socket.remoteAddress?.replace(/^::ffff:/, '');
  return !/^[\d.]+$|:/.test(primary.host) || peer === primary.host;
}

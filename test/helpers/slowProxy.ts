// A TCP proxy for tests: forwards loopback connections to a real server, and holds back the server's bytes to
// the first `slowConnections` accepted connections by `delayMs` per read (order kept), as a connection hit by
// retransmits would see them. The other connections pass straight through.
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

export interface SlowProxy {
  host: string;
  port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

export interface SlowProxyOptions {
  /** How many of the first connections are slowed (default 1). */
  slowConnections?: number;
  /** Added to every read from the server on a slowed connection. */
  delayMs: number;
}

export async function startSlowProxy(target: { host: string; port: number }, options: SlowProxyOptions): Promise<SlowProxy> {
  const slowConnections = options.slowConnections ?? 1;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let accepted = 0;
  const server: Server = createServer((client) => {
    const slow = accepted++ < slowConnections;
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      if (!slow) {
        client.write(chunk);
        return;
      }
      // Timers of the same length fire in the order they were set: the bytes keep their order.
      const timer = setTimeout(() => {
        timers.delete(timer);
        client.write(chunk);
      }, options.delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    get accepted() {
      return accepted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

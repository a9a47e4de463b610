// Traffic for the capture tests: ioredis clients on a source server, each running a loop until stopped, then
// closed. The loops see `running()` turn false and end; a refused call is caught in the loop itself.
import Redis from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ClientLoops {
  stop(): Promise<void>;
}

/** `count` clients, and the loops `start` gives them, until stop(). */
export function startClientLoops(
  server: { host: string; port: number },
  count: number,
  start: (clients: Redis[], running: () => boolean) => Promise<unknown>[],
): ClientLoops {
  let running = true;
  const clients = Array.from({ length: count }, () => {
    const client = new Redis({ host: server.host, port: server.port, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    client.on('error', () => undefined);
    return client;
  });
  const loops = start(clients, () => running);
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      await Promise.all(clients.map((client) => client.quit().catch(() => undefined)));
    },
  };
}

/** One client SETting and GETting `user:0`…`user:99` (50-byte values), a pair every 5 ms: the mix beside a queue. */
export async function getSetLoop(client: Redis, running: () => boolean): Promise<void> {
  let n = 0;
  while (running()) {
    await client.set(`user:${n % 100}`, 'v'.repeat(50)).catch(() => undefined);
    await client.get(`user:${(n * 7) % 100}`).catch(() => undefined);
    n++;
    await sleep(5);
  }
}

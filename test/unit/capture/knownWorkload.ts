// The known workload, sent by a plain test client (ioredis): 70% GET / 25% SET / 5% HINCRBY, zipf
// keys over 10k ids, values of 100–1000 bytes, a TTL on half the keys. Every key and value it writes is
// remembered, so a test can search the written scenario for them.
import Redis from 'ioredis';
import { ZipfKeys } from '../../../src/engine/requests/random';

export const KNOWN = { get: 0.7, set: 0.25, hincrby: 0.05, ids: 10_000, exponent: 1.0, minValue: 100, maxValue: 1000 };

export const userKey = (id: number) => `user:${id}:profile`;
export const statsKey = (id: number) => `stats:${id}`;
/** The hash field HINCRBY bumps: a plain word, so without --keep-names it must not appear. */
export const STATS_FIELD = 'pageviews';

/** Values are text with a marker, so a search finds any copy: `secretvalue-<id>-xxxx…`. */
export function valueFor(id: number, size: number): string {
  const head = `secretvalue-${id}-`;
  return head + 'x'.repeat(Math.max(0, size - head.length));
}

function randomSize(): number {
  return KNOWN.minValue + Math.floor(Math.random() * (KNOWN.maxValue - KNOWN.minValue + 1));
}

/** Writes the 10k string keys (half with a TTL) and returns when done. */
export async function populate(redis: Redis): Promise<void> {
  const pipeline = redis.pipeline();
  for (let id = 0; id < KNOWN.ids; id++) {
    if (id % 2 === 0) pipeline.set(userKey(id), valueFor(id, randomSize()), 'EX', 3600);
    else pipeline.set(userKey(id), valueFor(id, randomSize()));
  }
  await pipeline.exec();
}

export interface Traffic {
  stop(): Promise<{ sent: number }>;
}

/** Sends the mix from `connections` clients, one command at a time each, until stopped (or the server goes away). */
export function startTraffic(server: { host: string; port: number }, connections = 8, seed = 7): Traffic {
  let running = true;
  let sent = 0;
  const clients = Array.from(
    { length: connections },
    () => new Redis({ host: server.host, port: server.port, maxRetriesPerRequest: 0, enableOfflineQueue: false }),
  );
  for (const client of clients) client.on('error', () => undefined);
  const loops = clients.map(async (client, index) => {
    const keys = new ZipfKeys(KNOWN.ids, KNOWN.exponent, { seed, connection: index, connections });
    while (running) {
      const id = keys.next();
      const pick = Math.random();
      try {
        if (pick < KNOWN.get) await client.get(userKey(id));
        // KEEPTTL: the keys populate gave a TTL keep it, so half the keys have one throughout.
        else if (pick < KNOWN.get + KNOWN.set) await client.set(userKey(id), valueFor(id, randomSize()), 'KEEPTTL');
        else await client.hincrby(statsKey(id), STATS_FIELD, 1);
        sent++;
      } catch {
        if (!running) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      for (const client of clients) client.disconnect();
      return { sent };
    },
  };
}

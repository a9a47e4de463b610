// Starts a real redis-server for a mocha suite and stops it after, and reads what it was sent. No mocks of Redis.
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { startLocalServer, type LocalServer, type LocalServerOptions } from '../../src/redis/localServer';

/**
 * Call inside a `describe`: starts a throwaway server before the suite, stops it after.
 * Returns a getter, since the server exists only once `before` has run.
 */
export function useRedisServer(options: LocalServerOptions = {}): () => LocalServer {
  // Suites that slow the server on purpose use DEBUG SLEEP; the product's servers refuse DEBUG.
  options = { debugCommand: true, ...options };
  let server: LocalServer | undefined;
  before(async function () {
    this.timeout(20_000);
    server = await startLocalServer(options);
  });
  after(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('the redis server is not started yet (use it inside a test or hook)');
    return server;
  };
}

/** How many times the server has run `command` (lower case), from INFO commandstats. */
export async function commandCalls(redis: Redis, command: string): Promise<number> {
  const stats = await redis.info('commandstats');
  return Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
}

/** Calls per command (lower case, `cluster|slots` for a subcommand) from INFO commandstats, added to `into` when given (summing several nodes). */
export async function allCommandCalls(redis: Redis, into = new Map<string, number>()): Promise<Map<string, number>> {
  for (const match of (await redis.info('commandstats')).matchAll(/cmdstat_([^:]+):calls=(\d+)/g))
    into.set(match[1], (into.get(match[1]) ?? 0) + Number(match[2]));
  return into;
}

/** The commands run between two readings of allCommandCalls: per command, the calls added (commands with none left out). */
export function callsAdded(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...after].map(([name, n]) => [name, n - (before.get(name) ?? 0)] as const).filter(([, n]) => n > 0));
}

/** Polls every 20 ms, at most `tries` times, until the server has run `command` at least `count` times. */
export async function waitForCalls(redis: Redis, command: string, count: number, tries: number): Promise<void> {
  for (let i = 0; i < tries && (await commandCalls(redis, command)) < count; i++) await sleep(20);
}

/** Runs `fn` with an ioredis client connected to `server`, disconnected after. */
export async function withRedis<T>(server: { host: string; port: number }, fn: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ host: server.host, port: server.port, lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

/** How many keys matching `pattern` database `db` of `server` holds. */
export async function keysInDb(server: { host: string; port: number }, db: number, pattern: string): Promise<number> {
  return withRedis(server, async (redis) => {
    await redis.select(db);
    return (await redis.keys(pattern)).length;
  });
}

/**
 * Call inside a `describe` after useRedisServer: one connection for every read of the server's figures, opened
 * once, so that reading adds no connection to the counts. Returns a getter, as useRedisServer does.
 */
export function useObserver(server: () => { host: string; port: number }): () => Redis {
  let observer: Redis | undefined;
  before(async () => {
    observer = new Redis({ host: server().host, port: server().port, lazyConnect: true });
    await observer.connect();
  });
  after(() => observer?.disconnect());
  return () => observer!;
}

/** INFO stats `total_connections_received`: every connection the server has accepted. */
export async function connectionsReceived(redis: Redis): Promise<number> {
  return Number(/total_connections_received:(\d+)/.exec(await redis.info('stats'))![1]);
}

// A Sentinel-managed primary for tests: one primary, one replica and one or three sentinels, each a real
// redis-server (the sentinels as `redis-server sentinel.conf --sentinel`: Debian ships no redis-sentinel
// binary) on a free loopback port in its own temp dir, under the same watchdog as every throwaway server.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { startLocalServer, type LocalServer } from '../../src/redis/localServer';
import type { ServerDirective } from '../../src/scenario/plan';

export const PRIMARY_NAME = 'rbench-primary';

export interface SentinelSet {
  /** The servers as started: `servers[0]` began as the primary, `servers[1]` as its replica. */
  servers: LocalServer[];
  sentinels: LocalServer[];
  /** `redis-sentinel://127.0.0.1:p1,127.0.0.1:p2/rbench-primary`. */
  url: string;
  /** The server the sentinels name as primary now. */
  primary(): Promise<LocalServer>;
  /** Resolves once the sentinels see a healthy replica to fail over to (bounded). */
  readyForFailover(): Promise<void>;
  /** `SENTINEL FAILOVER` on the first sentinel; resolves once the sentinels name the other server (bounded). */
  failover(): Promise<LocalServer>;
  stop(): Promise<void>;
}

export interface SentinelSetOptions {
  sentinels?: 1 | 3;
  /** Extra lines for the data nodes (0: the first primary, 1: its replica) and the sentinels (TLS ports and certificates). */
  serverConfig?: (index: number) => ServerDirective[];
  sentinelConfig?: (index: number) => ServerDirective[];
  /** The port of a data node that the replica and the sentinels use, when not its plain port (its TLS port). */
  dataPort?: (server: LocalServer, index: number) => number;
  /** The port clients reach a sentinel at, when not its plain port (a TLS port). */
  clientPort?: (sentinel: LocalServer, index: number) => number;
  /** The sentinels' `down-after-milliseconds` (2000 unless given): short to let a crashed primary be replaced quickly. */
  downAfterMs?: number;
}

/** Polls `check` every 100 ms for at most `ms`; throws `what` when it never holds. */
async function waitUntil(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting until ${what}`);
    await sleep(100);
  }
}

/** Runs `fn` with a client of 127.0.0.1:`port` that does not retry, disconnected after. */
export async function withClient<T>(port: number, fn: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

export async function startSentinelSet(options: SentinelSetOptions = {}): Promise<SentinelSet> {
  const started: LocalServer[] = [];
  // The watchdog starts `binary conf`: a two-line script adds `--sentinel`.
  const scriptDir = mkdtempSync(join(tmpdir(), 'rbench-sentinel-bin-'));
  const script = join(scriptDir, 'redis-sentinel');
  writeFileSync(script, `#!/bin/sh\nexec ${JSON.stringify(process.env.RBENCH_REDIS_SERVER ?? 'redis-server')} "$1" --sentinel\n`);
  chmodSync(script, 0o700);
  const stop = async () => {
    for (const server of started.reverse()) await server.stop();
    rmSync(scriptDir, { recursive: true, force: true });
  };
  try {
    const dataPort = (server: LocalServer, index: number) => options.dataPort?.(server, index) ?? server.port;
    const primary = await startLocalServer({ config: options.serverConfig?.(0) });
    started.push(primary);
    const replica = await startLocalServer({
      config: [...(options.serverConfig?.(1) ?? []), { name: 'replicaof', args: ['127.0.0.1', String(dataPort(primary, 0))] }],
    });
    started.push(replica);
    await waitUntil('the replica is in sync', 10_000, () => withClient(replica.port, async (r) => /master_link_status:up/.test(await r.info('replication'))));

    const count = options.sentinels ?? 1;
    const quorum = String(Math.ceil((count + 1) / 2));
    const sentinels: LocalServer[] = [];
    for (let i = 0; i < count; i++) {
      const sentinel = await startLocalServer({
        binary: script,
        config: [
          { name: 'sentinel', args: ['monitor', PRIMARY_NAME, '127.0.0.1', String(dataPort(primary, 0)), quorum] },
          { name: 'sentinel', args: ['down-after-milliseconds', PRIMARY_NAME, String(options.downAfterMs ?? 2000)] },
          { name: 'sentinel', args: ['failover-timeout', PRIMARY_NAME, '10000'] },
          ...(options.sentinelConfig?.(i) ?? []),
        ],
      });
      started.push(sentinel);
      sentinels.push(sentinel);
    }
    // SENTINEL FAILOVER needs a replica the sentinel has seen; three sentinels also need to know each other.
    for (const sentinel of sentinels) {
      await waitUntil('the sentinels see the replica', 15_000, () =>
        withClient(sentinel.port, async (r) => {
          const replicas = (await r.call('SENTINEL', 'REPLICAS', PRIMARY_NAME)) as string[][];
          const others = (await r.call('SENTINEL', 'SENTINELS', PRIMARY_NAME)) as unknown[];
          return replicas.length === 1 && others.length === count - 1;
        }),
      );
    }
    const servers = [primary, replica];
    const primaryPort = () =>
      withClient(sentinels[0].port, async (r) => Number(((await r.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', PRIMARY_NAME)) as string[])[1]));
    const byPort = (port: number) => {
      const server = servers.find((s, i) => dataPort(s, i) === port);
      if (!server) throw new Error(`the sentinels name port ${port}, which is none of this set's servers`);
      return server;
    };
    // A failover needs a replica the sentinel finds healthy (after an earlier failover: the demoted primary,
    // which the sentinels reconfigure within their 10 s INFO period, once in sync).
    const readyForFailover = () =>
      waitUntil('the sentinel sees a healthy replica', 30_000, () =>
        withClient(sentinels[0].port, async (r) => {
          const replicas = (await r.call('SENTINEL', 'REPLICAS', PRIMARY_NAME)) as string[][];
          return replicas.some((fields) => {
            const field = (name: string) => fields[fields.indexOf(name) + 1];
            return field('flags') === 'slave' && field('master-link-status') === 'ok';
          });
        }),
      );
    const clientPorts = sentinels.map((s, i) => options.clientPort?.(s, i) ?? s.port);
    return {
      servers,
      sentinels,
      url: `redis-sentinel://${clientPorts.map((port) => `127.0.0.1:${port}`).join(',')}/${PRIMARY_NAME}`,
      primary: async () => byPort(await primaryPort()),
      readyForFailover,
      failover: async () => {
        const before = await primaryPort();
        await readyForFailover();
        await withClient(sentinels[0].port, (r) => r.call('SENTINEL', 'FAILOVER', PRIMARY_NAME));
        await waitUntil('the sentinels name the new primary', 20_000, async () => (await primaryPort()) !== before);
        const now = byPort(await primaryPort());
        await waitUntil('the new primary takes writes', 10_000, () => withClient(now.port, async (r) => /role:master/.test(await r.info('replication'))));
        return now;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Call inside a `describe`: starts the set before the suite and stops it after. */
export function useSentinelSet(options: SentinelSetOptions = {}): () => SentinelSet {
  let set: SentinelSet | undefined;
  before(async function () {
    this.timeout(60_000);
    set = await startSentinelSet(options);
  });
  after(async function () {
    this.timeout(30_000);
    await set?.stop();
  });
  return () => {
    if (!set) throw new Error('the sentinel set is not started yet (use it inside a test or hook)');
    return set;
  };
}

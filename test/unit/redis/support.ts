// Shared bits of the redis-layer tests: target plans and connection options for a LocalServer.
import type { LocalServer } from '../../../src/redis/localServer';
import type { ConnectionOptions } from '../../../src/redis/types';
import type { TargetPlan } from '../../../src/scenario/plan';

export function targetPlan(fields: Partial<TargetPlan> = {}): TargetPlan {
  return { cluster: false, resp: 2, client: 'fast', connectTimeoutMs: 2000, ...fields };
}

export function optionsFor(server: Pick<LocalServer, 'host' | 'port'>, fields: Partial<ConnectionOptions> = {}): ConnectionOptions {
  return { host: server.host, port: server.port, resp: 2, connectTimeoutMs: 2000, ...fields };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` every 20 ms until it returns true or `timeoutMs` passes. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await delay(20);
  }
}

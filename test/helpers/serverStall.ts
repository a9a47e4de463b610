// A condition a live test makes on its real redis-server at a point of the load's own progress (the server's count of
// the load's command), not at a wall-clock moment: on a busy machine a load may not have begun by then, or be over.
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { commandCalls } from './redis';

/**
 * Once `server` (or the servers, together: a cluster's masters) has run `command` (lower case) `calls` more times than
 * when this was called (read every 10 ms), runs `act` on a connection of its own (the first server's). Resolves true
 * when it acted, false when `running` settled first.
 */
export async function whenServerCalled(
  server: { host: string; port: number } | { host: string; port: number }[],
  command: string,
  calls: number,
  running: Promise<unknown>,
  act: (redis: Redis) => Promise<unknown>,
): Promise<boolean> {
  let settled = false;
  void running.then(
    () => (settled = true),
    () => (settled = true),
  );
  const servers = Array.isArray(server) ? server : [server];
  const links = servers.map((s) => new Redis({ host: s.host, port: s.port, lazyConnect: true, maxRetriesPerRequest: 1 }));
  // `act` may stop or kill the server under these links: their loss is expected, not an error to report.
  for (const redis of links) redis.on('error', () => undefined);
  try {
    await Promise.all(links.map((redis) => redis.connect()));
    const total = async () => (await Promise.all(links.map((redis) => commandCalls(redis, command)))).reduce((a, b) => a + b, 0);
    const before = await total();
    while (!settled) {
      if ((await total()) - before >= calls) {
        await act(links[0]);
        return true;
      }
      await sleep(10);
    }
    return false;
  } finally {
    for (const redis of links) redis.disconnect();
  }
}

/** DEBUG SLEEP `seconds` once the server has run `command` `calls` times more (whenServerCalled): the server answers nothing meanwhile. */
export function stallServerAfter(
  server: { host: string; port: number },
  command: string,
  calls: number,
  seconds: number,
  running: Promise<unknown>,
): Promise<boolean> {
  return whenServerCalled(server, command, calls, running, (redis) => redis.call('DEBUG', 'SLEEP', String(seconds)));
}

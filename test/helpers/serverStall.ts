// A condition a live test makes on its real redis-server at a point of the load's own progress (the server's count of
// the load's command), not at a wall-clock moment: on a busy machine a load may not have begun by then, or be over.
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { commandCalls } from './redis';

/**
 * Once `server` has run `command` (lower case) `calls` more times than when this was called (read every 10 ms),
 * runs `act` on a connection of its own. Resolves true when it acted, false when `running` settled first.
 */
export async function whenServerCalled(
  server: { host: string; port: number },
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
  const redis = new Redis({ host: server.host, port: server.port, lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const before = await commandCalls(redis, command);
    while (!settled) {
      if ((await commandCalls(redis, command)) - before >= calls) {
        await act(redis);
        return true;
      }
      await sleep(10);
    }
    return false;
  } finally {
    redis.disconnect();
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

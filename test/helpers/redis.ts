// Starts a real redis-server for a mocha suite and stops it after. No mocks of Redis.
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

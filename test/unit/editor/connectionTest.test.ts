// Issue 22 (3): "Test Connection" on a server that answers with an error and closes (maxclients, a proxy
// refusing) stops at that first definite error and names it, after one connection: not dozens of reconnects
// ending "Command timed out".
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { testConnection } from '../../../src/redis/control';

describe('Test Connection on a server that refuses with an error', function () {
  this.timeout(30_000);

  it('stops at the first error reply, after one connection, and reports it', async () => {
    let connections = 0;
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      connections++;
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('data', () => socket.end('-ERR max number of clients reached\r\n'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const started = Date.now();
      const result = await testConnection({ host: '127.0.0.1', port, resp: 2, connectTimeoutMs: 2000 });
      const tookMs = Date.now() - started;
      assert.equal(result.ok, false);
      assert.match(result.ok ? '' : result.error, /max number of clients reached/);
      assert.doesNotMatch(result.ok ? '' : result.error, /timed out/);
      assert.equal(connections, 1, 'one connection, no reconnects');
      assert.ok(tookMs < 5000, `answered in ${tookMs} ms`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

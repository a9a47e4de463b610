// Every door that opens a TLS socket meets a server whose certificate lacks the checked name and whose bad
// record arrives in the same read: Node emits a second 'error' on the socket after the first destroyed it.
// Each door ends in its plain handshake message; none lets that error end the process (an uncaught error
// fails the test it happens in). The built command meets it in test/unit/cli/lateTlsError.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer } from 'node:net';
import { readMonitor } from '../../../src/capture/monitorReader';
import { runLoad } from '../../../src/engine';
import { openTcpSocket, openTlsSocket } from '../../../src/redis/clientSocket';
import { testConnection } from '../../../src/redis/control';
import type { ConnectionOptions } from '../../../src/redis/types';
import { startLateErrorTlsServer, type LateErrorTlsServer } from '../../helpers/lateTlsError';
import { loadRequest, singleTest } from '../engine/plans';

/** Long enough for the bad record to be read, were it not read with the handshake's end. */
const SETTLE_MS = 200;

describe('a TLS socket that errs again after a failed certificate check (every door)', function () {
  this.timeout(30_000);
  let server: LateErrorTlsServer;
  before(async () => (server = await startLateErrorTlsServer()));
  after(() => server.close());

  function target(extra: Partial<ConnectionOptions> = {}): ConnectionOptions {
    return {
      host: '127.0.0.1',
      port: server.port,
      resp: 2,
      connectTimeoutMs: 5000,
      tls: { ca: readFileSync(join(server.certDir, 'cert.pem')), servername: 'redis.test' },
      ...extra,
    };
  }

  const handshakeFailed = () =>
    new RegExp(`^TLS handshake with 127\\.0\\.0\\.1:${server.port} failed: the certificate is not issued for the name "redis\\.test"`);

  it('the control connection (ioredis) says the certificate lacks the name', async () => {
    const result = await testConnection(target());
    await sleep(SETTLE_MS);
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : result.error, handshakeFailed());
  });

  // A sentinel is checked against its own address, not `tls servername` (which names the primary).
  it("a Sentinel target: asking the sentinel says its certificate lacks the sentinel's address", async () => {
    const result = await testConnection(target({ host: 'unused', port: 1, sentinel: { name: 'mymaster', nodes: [{ host: '127.0.0.1', port: server.port }] } }));
    await sleep(SETTLE_MS);
    assert.equal(result.ok, false);
    assert.match(
      result.ok ? '' : result.error,
      new RegExp(`sentinel TLS handshake with 127\\.0\\.0\\.1:${server.port} failed: the certificate is not issued for the name "127\\.0\\.0\\.1"`),
    );
  });

  for (const client of ['fast', 'ioredis'] as const) {
    it(`a load on the ${client} path fails with the handshake's message`, async () => {
      const outcome = await runLoad(
        loadRequest(
          { host: '127.0.0.1', port: server.port },
          { client, test: singleTest('SET key:__key__ __value__'), load: { clients: 2, requests: 100 }, connection: target() },
        ),
      ).then(
        (result) => result.error ?? `a ${result.status} run`,
        (error: Error) => error.message,
      );
      await sleep(SETTLE_MS);
      assert.match(outcome, handshakeFailed());
    });
  }

  it('a capture (MONITOR) ends closed, saying why', async () => {
    const outcome = await readMonitor(target(), { maxLines: 10, maxBytes: 10_000, maxMs: 2000 }, () => undefined);
    await sleep(SETTLE_MS);
    assert.equal(outcome.end, 'closed');
    assert.match(outcome.error ?? '', /certificate|altnames/);
  });

  // An owner may let go of a socket before it closes (a planned close, an idle connection): its error then has the
  // socket's own listener. A refused connection, no listener of the caller's: the socket closes, the process goes on.
  it('a socket whose owner does not listen (TCP and TLS) closes on a refused connection without ending the process', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const sockets = [openTcpSocket({ host: '127.0.0.1', port }), openTlsSocket({ host: '127.0.0.1', port })];
    // Not events.once, which listens for 'error' itself.
    const closes = sockets.map((socket) => new Promise<boolean>((resolve) => socket.on('close', resolve)));
    assert.deepEqual(await Promise.all(closes), [true, true], 'each closed by the refusal');
  });
});

// Debian's redis-server 7.0 is built with TLS: these run against a real tls-port with a self-signed
// certificate made by openssl, which also serves as the CA and as the client certificate.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { testConnection } from '../../../src/redis/control';
import { resolveConnection } from '../../../src/redis/target';
import type { TlsPlan } from '../../../src/scenario/plan';
import { targetPlan } from './support';
import { useTlsServer } from '../../helpers/tls';

describe('TLS connections to a real redis-server tls-port', () => {
  const tlsServer = useTlsServer({ authClients: true });
  let certDir: string;
  let tlsPort: number;
  before(() => ({ certDir, port: tlsPort } = tlsServer()));

  /** testConnection for a target on the TLS port, with TLS files relative to the certificate folder. */
  async function tryTls(tls: Omit<TlsPlan, 'enabled'>, url = `rediss://localhost:${tlsPort}`) {
    const resolved = resolveConnection(targetPlan({ url, tls: { enabled: true, ...tls } }), { env: {}, baseDir: certDir });
    assert.ok(resolved.options, resolved.error);
    return testConnection(resolved.options);
  }

  const clientCert = { cert: 'cert.pem', key: 'key.pem' };

  it('connects with the CA and a client certificate read from files', async () => {
    const result = await tryTls({ ca: 'cert.pem', ...clientCert });
    assert.ok(result.ok, result.ok ? '' : result.error);
    assert.match(result.facts.version, /^\d+\.\d+\.\d+$/);
  });

  it('connects to a self-signed server with `tls insecure`', async () => {
    const result = await tryTls({ insecure: true, ...clientCert }, `rediss://127.0.0.1:${tlsPort}`);
    assert.equal(result.ok, true, result.ok ? '' : result.error);
  });

  it('explains an untrusted self-signed certificate', async () => {
    assert.deepEqual(await tryTls(clientCert), {
      ok: false,
      error: `TLS handshake with localhost:${tlsPort} failed: the server's certificate is self-signed and not trusted — give its CA certificate with \`tls ca FILE\`, or \`tls insecure\` for a test server`,
    });
  });

  it('explains a certificate issued for another name', async () => {
    const result = await tryTls({ ca: 'cert.pem', servername: 'redis.example.com', ...clientCert });
    assert.equal(result.ok, false);
    assert.match(
      result.ok ? '' : result.error,
      new RegExp(
        `^TLS handshake with localhost:${tlsPort} failed: the certificate is not issued for the name "redis\\.example\\.com" \\(.*DNS:localhost.*\\) — set \`tls servername\` to a name in the certificate`,
      ),
    );
  });

  it('says the server wants a client certificate', async () => {
    assert.deepEqual(await tryTls({ ca: 'cert.pem' }), {
      ok: false,
      error: `TLS handshake with localhost:${tlsPort} failed: the server requires a client certificate — set \`tls cert FILE\` and \`tls key FILE\` (tls-auth-clients is on)`,
    });
  });

  it('explains TLS spoken to a plain redis port', async () => {
    // Redis reads the TLS hello as an inline command: it stays silent unless the hello holds a newline
    // byte, then it answers in plain text. Both outcomes must point at the port not speaking TLS.
    const resolved = resolveConnection(targetPlan({ url: `rediss://localhost:${tlsServer().server.port}`, connectTimeoutMs: 500 }), { env: {} });
    assert.ok(resolved.options);
    const result = await testConnection(resolved.options);
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : result.error, /(wrong version number|does not speak TLS stays silent).*use redis:\/\/ \(no TLS\) or the server's tls-port/);
  });

  describe('a plain-text server that greets first', () => {
    let plain: Server;
    let port: number;
    before(async () => {
      plain = createServer((socket) => socket.end('-ERR plain text here\r\n'));
      await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
      port = (plain.address() as { port: number }).port;
    });
    after(() => plain.close());

    it('reports the EPROTO / wrong version number of a TLS client reading plain text', async () => {
      const resolved = resolveConnection(targetPlan({ url: `rediss://127.0.0.1:${port}` }), { env: {} });
      assert.ok(resolved.options);
      assert.deepEqual(await testConnection(resolved.options), {
        ok: false,
        error: `TLS handshake with 127.0.0.1:${port} failed: EPROTO / wrong version number — the server does not speak TLS on this port; use redis:// (no TLS) or the server's tls-port`,
      });
    });
  });

  it('explains plain text spoken to a TLS port', async () => {
    const resolved = resolveConnection(targetPlan({ url: `redis://127.0.0.1:${tlsPort}`, connectTimeoutMs: 1000 }), { env: {} });
    assert.ok(resolved.options);
    assert.deepEqual(await testConnection(resolved.options), {
      ok: false,
      error: `the connection to 127.0.0.1:${tlsPort} was reset by the server — if that port expects TLS, use rediss://; otherwise check the server log (maxclients, protected-mode)`,
    });
  });
});

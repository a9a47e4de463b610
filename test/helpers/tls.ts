// A throwaway redis-server with a tls-port and a self-signed certificate made by openssl, which also
// serves as the CA and as the client certificate. Debian's redis-server 7.0 is built with TLS.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startLocalServer, type LocalServer } from '../../src/redis/localServer';

export interface TlsServer {
  server: LocalServer;
  /** The TLS port (the plain port stays open too: startLocalServer checks readiness there). */
  port: number;
  /** Holds cert.pem and key.pem. */
  certDir: string;
}

/** Starts the server before the suite and stops it after; `authClients`: the server asks for a client certificate. */
export function useTlsServer(options: { authClients: boolean }): () => TlsServer {
  let state: TlsServer | undefined;
  before(async function () {
    this.timeout(20_000);
    const certDir = makeCertificate();
    const port = await freePort();
    const server = await startLocalServer({
      config: [
        { name: 'tls-port', args: [String(port)] },
        { name: 'tls-cert-file', args: [join(certDir, 'cert.pem')] },
        { name: 'tls-key-file', args: [join(certDir, 'key.pem')] },
        ...(options.authClients ? [{ name: 'tls-ca-cert-file', args: [join(certDir, 'cert.pem')] }] : []),
        { name: 'tls-auth-clients', args: [options.authClients ? 'yes' : 'no'] },
      ],
    });
    state = { server, port, certDir };
  });
  after(async () => {
    await state?.server.stop();
    if (state) rmSync(state.certDir, { recursive: true, force: true });
  });
  return () => {
    if (!state) throw new Error('the TLS server is not started: call useTlsServer() inside describe()');
    return state;
  };
}

/** A new temp folder holding a self-signed cert.pem (also the CA) and key.pem for `names` (a subjectAltName). */
export function makeCertificate(names = 'DNS:localhost,IP:127.0.0.1'): string {
  const certDir = mkdtempSync(join(tmpdir(), 'rbench-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      `subjectAltName=${names}`,
      '-keyout',
      join(certDir, 'key.pem'),
      '-out',
      join(certDir, 'cert.pem'),
    ],
    { stdio: 'pipe' },
  );
  return certDir;
}

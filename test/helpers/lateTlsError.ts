// A TLS server whose certificate lacks the name the client checks, and which sends a record the client
// cannot decrypt right behind its last handshake message, in the same write. A client reads both at
// once: its certificate check fails and destroys the socket, then the bad record makes Node emit a
// second 'error' on that socket, outside destroy's once-only guard (what a real redis-server's alert
// did, by chance, in CI). A real server cannot be made to do this on purpose.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createServer as createTcpServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { makeCertificate } from './tls';

export interface LateErrorTlsServer {
  port: number;
  /** Holds cert.pem (the CA to trust): it names only other.test. */
  certDir: string;
  close(): Promise<void>;
}

const RECORD_HEADER = 5;
const CHANGE_CIPHER_SPEC = 0x14;
/** An application-data record of 16 bytes no key decrypts. */
const UNDECRYPTABLE = Buffer.from([0x17, 0x03, 0x03, 0x00, 0x10, ...Array.from({ length: 16 }, (_, i) => i)]);

export async function startLateErrorTlsServer(): Promise<LateErrorTlsServer> {
  const certDir = makeCertificate('DNS:other.test');
  const tlsServer = createTlsServer({
    key: readFileSync(join(certDir, 'key.pem')),
    cert: readFileSync(join(certDir, 'cert.pem')),
    // TLS 1.2: the server's last handshake record (Finished) is the one behind its ChangeCipherSpec, in plain sight.
    maxVersion: 'TLSv1.2',
  });
  tlsServer.on('tlsClientError', () => undefined);
  tlsServer.on('secureConnection', (socket) => socket.on('error', () => undefined));
  await listen(tlsServer);
  const sockets = new Set<Socket>();
  const front = createTcpServer((client) => {
    const upstream = tcpConnect(port(tlsServer), '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (chunk) => upstream.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    let pending = Buffer.alloc(0);
    let afterChangeCipherSpec = false;
    let appended = false;
    // Whole records go through as they come; the one behind the ChangeCipherSpec goes with the bad record.
    upstream.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= RECORD_HEADER && pending.length >= RECORD_HEADER + pending.readUInt16BE(3)) {
        const length = RECORD_HEADER + pending.readUInt16BE(3);
        const record = pending.subarray(0, length);
        pending = pending.subarray(length);
        if (afterChangeCipherSpec && !appended) {
          appended = true;
          client.write(Buffer.concat([record, UNDECRYPTABLE]));
        } else client.write(record);
        if (record[0] === CHANGE_CIPHER_SPEC) afterChangeCipherSpec = true;
      }
    });
  });
  await listen(front);
  return {
    port: port(front),
    certDir,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all([front, tlsServer].map((server) => new Promise((resolve) => server.close(resolve))));
      rmSync(certDir, { recursive: true, force: true });
    },
  };
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
}

function port(server: Server): number {
  return (server.address() as { port: number }).port;
}

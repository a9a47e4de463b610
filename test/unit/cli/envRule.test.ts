// Issue 18, seen 5, as a user runs it: `value-fill`, `tls-servername`, `user` (and a URL user) and a host
// built from `${env:…}` send nothing of the value to a server unless the user allows the variable. A
// recording proxy in front of a real redis-server logs every byte clients send (AUTH, SET payloads and a
// TLS ClientHello's cleartext SNI alike); the positive runs show it would see the value.
import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { runCli, useScratch } from '../../helpers/cli';
import { useRedisServer } from '../../helpers/redis';

interface RecordingProxy {
  port: number;
  /** Everything clients sent, as latin1 text. */
  received(): string;
  connections(): number;
  close(): Promise<void>;
}

function recordingProxy(upstreamPort: number): Promise<RecordingProxy> {
  const sockets = new Set<Socket>();
  let received = '';
  let connections = 0;
  const server: Server = createServer((client) => {
    connections++;
    const upstream = connect(upstreamPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    for (const socket of [client, upstream]) socket.on('error', () => (client.destroy(), upstream.destroy()));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : 0,
        received: () => received,
        connections: () => connections,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

describe('CLI: environment values reach no server through settings unless allowed (issue 18, seen 5)', function () {
  this.timeout(60_000);
  const scratch = useScratch();
  const server = useRedisServer();
  let proxy: RecordingProxy;
  beforeEach(async () => (proxy = await recordingProxy(server().port)));
  afterEach(() => proxy.close());

  const SECRET = 'Zq81-env-secret';
  const env = { RBENCH_T_VALUE: SECRET, RBENCH_T_SNI: `${SECRET.toLowerCase()}.example`, RBENCH_T_USER: SECRET, RBENCH_T_HOST: SECRET.toLowerCase() };

  /** Runs the file (`--yes`: the target is named in it) and returns the CLI's result with everything it left behind. */
  async function run(text: string, allow: string[] = []) {
    const file = scratch.write('env.rbench', text.replaceAll('PORT', String(proxy.port)));
    const [connections, received] = [proxy.connections(), proxy.received().length];
    const result = await runCli(['run', file, '--yes', ...allow.flatMap((name) => ['--allow-env', name])], { cwd: scratch.dir, env });
    return {
      ...result,
      runFiles: JSON.stringify(scratch.runFiles()),
      connections: proxy.connections() - connections,
      received: proxy.received().slice(received),
    };
  }

  function assertRefused(result: Awaited<ReturnType<typeof run>>, name: string): void {
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.match(result.stderr, new RegExp(`environment variable ${name} would[^\\n]*--allow-env ${name}`));
    assert.equal(result.connections, 0, 'no connection is even made');
    for (const text of [result.received, result.stdout, result.stderr, result.runFiles]) assert.ok(!text.toLowerCase().includes(SECRET.toLowerCase()), text);
  }

  it('value-fill ${env:X}: not sent in SET, not stored; sent once allowed', async () => {
    const text = 'target redis://127.0.0.1:PORT\n### fill\nrequests 20\nvalue 32\nvalue-fill ${env:RBENCH_T_VALUE}\nSET envrule:k __value__\n';
    assertRefused(await run(text), 'RBENCH_T_VALUE');
    const allowed = await run(text, ['RBENCH_T_VALUE']);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.ok(allowed.received.includes(SECRET), 'allowed, the value is in the SET payloads');
  });

  it('tls-servername ${env:X}: no ClientHello carries it in cleartext SNI; allowed, one does', async () => {
    const text = 'target rediss://127.0.0.1:PORT\ntls-servername ${env:RBENCH_T_SNI}\n### sni\nrequests 20\nGET k\n';
    assertRefused(await run(text), 'RBENCH_T_SNI');
    const allowed = await run(text, ['RBENCH_T_SNI']);
    assert.notEqual(allowed.code, 0, 'the server does not speak TLS');
    assert.ok(allowed.received.includes(env.RBENCH_T_SNI), 'allowed, the SNI is in the ClientHello');
  });

  it('user ${env:X} and a URL user: not sent as the AUTH user, not stored as the target', async () => {
    for (const text of [
      'target redis://127.0.0.1:PORT\nuser ${env:RBENCH_T_USER}\n### user\nrequests 20\nGET k\n',
      'target redis://${env:RBENCH_T_USER}@127.0.0.1:PORT\n### url user\nrequests 20\nGET k\n',
    ]) {
      assertRefused(await run(text), 'RBENCH_T_USER');
      const allowed = await run(text, ['RBENCH_T_USER']);
      assert.ok(allowed.received.includes(SECRET), 'allowed, the user goes into AUTH');
      assert.notEqual(allowed.code, 0, 'no such user on the server');
    }
  });

  it('a host ${env:X}.localhost is refused before any lookup or loopback judgement', async () => {
    const result = await run('target redis://${env:RBENCH_T_HOST}.localhost:PORT\n### host\nrequests 20\nGET k\n');
    assertRefused(result, 'RBENCH_T_HOST');
  });
});

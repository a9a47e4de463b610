// `tls-insecure on` works against a self-signed server, and the run says so: a warning under the CLI
// table, in the results panel's model and a flag in the run file. A verified connection has none of it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startLocalServer, type LocalServer } from '../../../src/redis/localServer';
import { buildViewModel } from '../../../src/views/model';
import { runCli, Scratch } from '../../helpers/cli';

describe('tls-insecure as a warning', function () {
  this.timeout(60_000);
  let certDir: string;
  let server: LocalServer;
  let tlsPort: number;
  let scratch: Scratch;

  before(async function () {
    certDir = mkdtempSync(join(tmpdir(), 'rbench-tls-'));
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout', join(certDir, 'key.pem'), '-out', join(certDir, 'cert.pem'),
    ], { stdio: 'pipe' });
    tlsPort = await freePort();
    server = await startLocalServer({
      config: [
        { name: 'tls-port', args: [String(tlsPort)] },
        { name: 'tls-cert-file', args: [join(certDir, 'cert.pem')] },
        { name: 'tls-key-file', args: [join(certDir, 'key.pem')] },
        { name: 'tls-auth-clients', args: ['no'] },
      ],
    });
  });
  after(async () => {
    await server?.stop();
    rmSync(certDir, { recursive: true, force: true });
  });
  beforeEach(() => (scratch = new Scratch()));
  afterEach(() => scratch.remove());

  const WARNING = /TLS certificate verification was off \(`tls-insecure on`\): the connection was encrypted, but the server was not authenticated/;

  it('warns under the table, in the panel and in the run file', async () => {
    const file = scratch.write('insecure.rbench', `### insecure\ntarget rediss://127.0.0.1:${tlsPort}\ntls-insecure on\nclients 2\nrequests 500\nPING\n`);
    const result = await runCli(['run', file], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`^PING\\s+500[\\s\\S]*^! ${WARNING.source}`, 'm'));
    const [run] = scratch.runFiles();
    assert.equal(run.target.tlsInsecure, true);
    assert.equal(run.points[0].repeats[0][0].total.requests, 500);
    assert.ok(buildViewModel(run).warnings.some((warning) => WARNING.test(warning)), 'the panel shows the warning');
  });

  it('says nothing when the certificate is verified', async () => {
    const file = scratch.write('verified.rbench', `### verified\ntarget rediss://localhost:${tlsPort}\ntls-ca ${join(certDir, 'cert.pem')}\nclients 2\nrequests 500\nPING\n`);
    const result = await runCli(['run', file], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, WARNING);
    const [run] = scratch.runFiles();
    assert.equal(run.target.tlsInsecure, undefined);
    assert.ok(!buildViewModel(run).warnings.some((warning) => WARNING.test(warning)));
  });
});

// The built command meets a TLS server whose certificate check fails and whose bad record arrives in the same read
// (test/helpers/lateTlsError.ts; the other doors: test/unit/gates/lateTlsError.test.ts). Its runner takes ioredis from
// a bundle of its own (dist/ioredis-vendor.js): the late-error listener must reach the ioredis that bundle holds, not a
// second copy. The certificate is not trusted here (no `tls-ca`).
import assert from 'node:assert/strict';
import { runCli, useScratch } from '../../helpers/cli';
import { startLateErrorTlsServer, type LateErrorTlsServer } from '../../helpers/lateTlsError';

describe('the built rbench command and a TLS socket that errs again after a failed certificate check', function () {
  this.timeout(60_000);
  let server: LateErrorTlsServer;
  before(async () => (server = await startLateErrorTlsServer()));
  after(() => server.close());
  const scratch = useScratch();
  const untrusted = () => new RegExp(`TLS handshake with 127\\.0\\.0\\.1:${server.port} failed: the server's certificate is self-signed and not trusted`);

  it('rbench check --url (its control connection, ioredis) exits 3 with the handshake message', async () => {
    const file = scratch.write('ping.rbench', '### ping\nrequests 10\nPING\n');
    const result = await runCli(['check', '--url', `rediss://127.0.0.1:${server.port}`, file], { cwd: scratch.dir });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, untrusted());
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  });

  for (const client of ['fast', 'ioredis'] as const) {
    it(`rbench run (${client}) ends with the handshake message, no stack trace`, async () => {
      const file = scratch.write(`${client}.rbench`, `### tls\ntarget rediss://127.0.0.1:${server.port}\nclient ${client}\nclients 2\nrequests 100\nPING\n`);
      const result = await runCli(['run', '--yes', file], { cwd: scratch.dir });
      assert.notEqual(result.code, 0);
      assert.match(result.stdout + result.stderr, untrusted());
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
    });
  }
});

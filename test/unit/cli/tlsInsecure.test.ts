// `tls-insecure on` works against a self-signed server, and the run says so: a warning under the CLI
// table, in the results panel's model and a flag in the run file. A verified connection has none of it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildViewModel } from '../../../src/views/model';
import { runCli, useScratch } from '../../helpers/cli';
import { useTlsServer } from '../../helpers/tls';

describe('tls-insecure as a warning', function () {
  this.timeout(60_000);
  const tlsServer = useTlsServer({ authClients: false });
  let certDir: string;
  let tlsPort: number;
  before(() => ({ certDir, port: tlsPort } = tlsServer()));
  const scratch = useScratch();

  const WARNING = /TLS certificate verification was off \(`tls-insecure on`\): the connection was encrypted, but the server was not authenticated/;

  it('warns under the table, in the panel and in the run file', async () => {
    const file = scratch.write('insecure.rbench', `### insecure\ntarget rediss://127.0.0.1:${tlsPort}\ntls-insecure on\nclients 2\nrequests 500\nPING\n`);
    const result = await runCli(['run', '--yes', file], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`^PING\\s+500[\\s\\S]*^! ${WARNING.source}`, 'm'));
    const [run] = scratch.runFiles();
    assert.equal(run.target.tlsInsecure, true);
    assert.equal(run.points[0].repeats[0][0].total.requests, 500);
    assert.ok(
      buildViewModel(run).warnings.some((warning) => WARNING.test(warning)),
      'the panel shows the warning',
    );
  });

  it('says nothing when the certificate is verified', async () => {
    const file = scratch.write(
      'verified.rbench',
      `### verified\ntarget rediss://localhost:${tlsPort}\ntls-ca ${join(certDir, 'cert.pem')}\nclients 2\nrequests 500\nPING\n`,
    );
    const result = await runCli(['run', '--yes', file], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, WARNING);
    const [run] = scratch.runFiles();
    assert.equal(run.target.tlsInsecure, undefined);
    assert.ok(!buildViewModel(run).warnings.some((warning) => WARNING.test(warning)));
  });
});

// TLS to the sentinels and to the data nodes: sentinels and servers listen on TLS ports with a certificate
// made by openssl, the sentinels monitor the primary's TLS port (`tls-replication yes`), and the scenario
// reaches them with `rediss-sentinel://` and `tls-ca`. A wrong CA gets the TLS message, naming the sentinel.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../../src/redis/localServer';
import type { ServerDirective } from '../../../src/scenario/plan';
import { runCli, useScratch } from '../../helpers/cli';
import { startSentinelSet, type SentinelSet } from '../../helpers/sentinel';
import { makeCertificate } from '../../helpers/tls';

describe('TLS to sentinels and data nodes', function () {
  this.timeout(90_000);
  let set: SentinelSet | undefined;
  let certDir = '';
  let otherCertDir = '';
  let sentinelTlsPort = 0;
  const scratch = useScratch();

  const tlsLines = (port: number): ServerDirective[] => [
    { name: 'tls-port', args: [String(port)] },
    { name: 'tls-cert-file', args: [join(certDir, 'cert.pem')] },
    { name: 'tls-key-file', args: [join(certDir, 'key.pem')] },
    { name: 'tls-ca-cert-file', args: [join(certDir, 'cert.pem')] },
    { name: 'tls-auth-clients', args: ['no'] },
    // Replicas and sentinels connect to data nodes over TLS too.
    { name: 'tls-replication', args: ['yes'] },
  ];

  before(async function () {
    this.timeout(60_000);
    certDir = makeCertificate();
    otherCertDir = makeCertificate();
    const dataTls = [await freePort(), await freePort()];
    sentinelTlsPort = await freePort();
    set = await startSentinelSet({
      serverConfig: (index) => tlsLines(dataTls[index]),
      sentinelConfig: () => tlsLines(sentinelTlsPort),
      dataPort: (_server, index) => dataTls[index],
      clientPort: () => sentinelTlsPort,
    });
  });
  after(async function () {
    this.timeout(30_000);
    await set?.stop();
    for (const dir of [certDir, otherCertDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("runs through `rediss-sentinel://` with the CA, on the primary's TLS port", async () => {
    const url = `rediss-sentinel://127.0.0.1:${sentinelTlsPort}/${set!.url.split('/').pop()}`;
    for (const client of ['fast', 'ioredis']) {
      const file = scratch.write(
        `${client}.rbench`,
        `### over TLS\ntarget ${url}\ntls-ca ${join(certDir, 'cert.pem')}\nclient ${client}\nclients 2\nrequests 1000\nSET tls-sentinel:__key__ __value__\n`,
      );
      const result = await runCli(['run', '--yes', file], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stdout + result.stderr);
    }
    const runs = scratch.runFiles();
    assert.equal(runs.length, 2);
    for (const run of runs) {
      assert.equal(run.status, 'complete');
      assert.equal(run.target.display, url);
      assert.equal(run.target.tlsInsecure, undefined, 'the certificates were verified');
      assert.equal(run.points[0].repeats[0][0].total.requests, 1000);
    }
  });

  it('names the sentinel when its certificate is not trusted', async () => {
    const url = `rediss-sentinel://127.0.0.1:${sentinelTlsPort}/${set!.url.split('/').pop()}`;
    const file = scratch.write('wrong-ca.rbench', `### wrong CA\ntarget ${url}\ntls-ca ${join(otherCertDir, 'cert.pem')}\nrequests 10\nPING\n`);
    const result = await runCli(['run', '--yes', file], { cwd: scratch.dir });
    assert.equal(result.code, 3, result.stdout + result.stderr);
    assert.match(result.stdout + result.stderr, new RegExp(`sentinel .*127\\.0\\.0\\.1:${sentinelTlsPort}.*certificate`, 'i'));
  });
});

// A scenario run end to end against a TLS cluster whose nodes hold certificates of their own names: the
// control connections beside the load (clean-up and INFO sampling on every master) send each node its own
// TLS name, as the load does, not the seed's `tls servername`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScenario } from '../../../src/runner/runScenario';
import { useCluster } from '../../helpers/cluster';
import { planOf } from '../editor/fixtures';

describe('runScenario against a TLS cluster with a certificate per name (SNI per node)', function () {
  this.timeout(90_000);
  // The seed's certificate names only seed.test; the others' only localhost, which they announce.
  const cluster = useCluster(3, 0, { tls: true, tlsNames: { seed: 'DNS:seed.test', others: 'DNS:localhost' }, announceHostname: 'localhost' });

  it('samples INFO and cleans up on every master', async () => {
    const c = cluster();
    const text =
      '### tls\nclients 2\nkeys 3000 sequential\ncleanup pre:*\nprefill\nrequests 3000\nSET pre:__key__ __value__\nphase main\nrequests 3000\nGET pre:__key__\n';
    const tls = { ca: readFileSync(join(c.certDir!, 'ca.pem')), servername: 'seed.test' };
    const connection = { host: '127.0.0.1', port: c.nodes[0].port, resp: 2 as const, connectTimeoutMs: 2000, cluster: true, tls };
    const run = await runScenario(planOf(text), { connection, targetDisplay: c.url, local: false, source: text });
    assert.equal(run.status, 'complete', run.error);
    for (const load of run.points.flatMap((point) => point.repeats.flat())) assert.equal(load.total.errors, 0, JSON.stringify(load.total.errorExamples));
    assert.equal(run.cleanedUpKeys, 3000, 'the clean-up reached every master');
    const left = await Promise.all(c.nodes.map((n) => c.client(n.port).dbsize()));
    assert.deepEqual(left, [0, 0, 0]);
    assert.ok(run.server.samples.length > 0, 'INFO sampled');
    assert.equal(run.server.error, undefined, 'INFO sampling on every master worked');
  });
});

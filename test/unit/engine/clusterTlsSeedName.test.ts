// A TLS cluster target given by host name (rediss://localhost:PORT with `tls servername`) while the cluster
// announces its nodes by IP: the seed is still recognised (by node ID), so it is checked under the target's
// `tls servername`, and the others under their announced hostname.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLoad } from '../../../src/engine';
import { discoverTopology } from '../../../src/engine/cluster/topology';
import { useCluster } from '../../helpers/cluster';
import { connectionTo, loadRequest, singleTest } from './plans';

describe('a TLS cluster target given by host name while CLUSTER SHARDS names the seed by IP', function () {
  this.timeout(90_000);
  // The seed's certificate names only seed.test, the others' only localhost (which they announce).
  const cluster = useCluster(3, 0, { tls: true, tlsNames: { seed: 'DNS:seed.test', others: 'DNS:localhost' }, announceHostname: 'localhost' });
  const target = () => ({ host: 'localhost', port: cluster().nodes[0].port });
  const tls = () => ({ ca: readFileSync(join(cluster().certDir!, 'ca.pem')), servername: 'seed.test' });

  it('marks the seed in the layout although it is announced as 127.0.0.1', async () => {
    const topology = await discoverTopology(connectionTo(target(), { cluster: true, tls: tls() }));
    const seeds = topology.nodes.filter((n) => n.seed);
    assert.deepEqual(
      seeds.map((n) => `${n.host}:${n.port}`),
      [`127.0.0.1:${target().port}`],
    );
  });

  for (const client of ['fast', 'ioredis'] as const) {
    it(`${client}: loads every master, the seed checked under its tls servername`, async () => {
      const result = await runLoad(
        loadRequest(target(), {
          client,
          test: singleTest('SET key:__key__ __value__'),
          load: { clients: 2, pipeline: 8, requests: 3000 },
          connection: { cluster: true, tls: tls() },
        }),
      );
      assert.equal(result.status, 'complete', result.error);
      assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorsByKind));
      const masters = result.cluster!.nodes.filter((n) => n.role === 'master');
      assert.equal(masters.length, 3, masters.map((n) => n.node).join(', '));
      for (const node of masters) assert.ok(node.total.requests > 500, `${node.node} got ${node.total.requests} of 3000`);
    });
  }
});

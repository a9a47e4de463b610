// A TLS cluster target given by host name (rediss://localhost:PORT with `tls servername`) while the cluster
// announces its nodes by IP: the seed is still recognised (by node ID), so it is checked under the target's
// `tls servername`, and the others under their announced hostname.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLoad } from '../../../src/engine';
import { nodeTls } from '../../../src/engine/cluster/nodeTls';
import { openRawControl } from '../../../src/engine/fast/rawControl';
import { discoverTopology, topologyFromShards, topologyFromSlots } from '../../../src/redis/clusterTopology';
import { useCluster } from '../../helpers/cluster';
import { connectionTo, loadRequest, singleTest } from './plans';

describe('a TLS cluster target given by host name while CLUSTER SHARDS names the seed by IP', function () {
  this.timeout(90_000);
  // The seed's certificate names only seed.test, the others' only localhost (which they announce).
  const cluster = useCluster(3, 0, { tls: true, tlsNames: { seed: 'DNS:seed.test', others: 'DNS:localhost' }, announceHostname: 'localhost' });
  const target = () => ({ host: 'localhost', port: cluster().nodes[0].port });
  const tls = () => ({ ca: readFileSync(join(cluster().certDir!, 'ca.pem')), servername: 'seed.test' });

  it('marks the seed in the layout although it is announced as 127.0.0.1', async () => {
    const topology = await discoverTopology(connectionTo(target(), { cluster: true, tls: tls() }), openRawControl);
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

describe('the seed in a cluster layout, by node ID', () => {
  const seed = { host: 'localhost', port: 7000, resp: 2 as const, connectTimeoutMs: 1000, tls: { servername: 'seed.test', rejectUnauthorized: true } };
  const node = (port: number, role: string) => [
    'id',
    `n${port}`,
    'port',
    0,
    'tls-port',
    port,
    'ip',
    '127.0.0.1',
    'endpoint',
    '127.0.0.1',
    'hostname',
    'localhost',
    'role',
    role,
    'health',
    'online',
  ];
  const shards = [
    ['slots', [0, 8191], 'nodes', [node(7000, 'master'), node(7002, 'replica')]],
    ['slots', [8192, 16383], 'nodes', [node(7001, 'master')]],
  ];
  const slots = [
    [0, 8191, ['127.0.0.1', 7000, 'n7000'], ['127.0.0.1', 7002, 'n7002']],
    [8192, 16383, ['127.0.0.1', 7001, 'n7001']],
  ];

  it('marks the node whose ID the seed gave (CLUSTER SHARDS and CLUSTER SLOTS), none without an ID', () => {
    const marked = (nodes: { port: number; seed?: true }[]) => nodes.filter((n) => n.seed).map((n) => n.port);
    assert.deepEqual(marked(topologyFromShards(shards, seed, 'n7000').nodes), [7000]);
    assert.deepEqual(marked(topologyFromSlots(slots, seed, 'n7002').nodes), [7002]);
    assert.deepEqual(marked(topologyFromShards(shards, seed).nodes), []);
  });

  it('gives the marked seed the target’s TLS settings although its address differs from the target’s', () => {
    const [first] = topologyFromShards(shards, seed, 'n7000').nodes;
    assert.equal(nodeTls(seed, first), seed.tls);
    assert.deepEqual(nodeTls(seed, { ...first, seed: undefined }), { servername: 'localhost', rejectUnauthorized: true });
  });
});

// A Redis Cluster on TLS only (tls-port, port 0, TLS on the bus and for replication): a load reaches every
// master over TLS on both client paths, and a CA that did not sign the nodes' certificate ends in a plain error.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runLoad } from '../../../src/engine';
import { useCluster } from '../../helpers/cluster';
import { commandCalls } from '../../helpers/redis';
import { makeCertificate } from '../../helpers/tls';
import { nodeTls } from '../../../src/engine/cluster/nodeTls';
import { loadRequest, singleTest } from './plans';

describe('runLoad against a Redis Cluster on TLS (3 masters, 3 replicas)', function () {
  this.timeout(90_000);
  const cluster = useCluster(3, 1, { tls: true });
  const seed = () => ({ host: '127.0.0.1', port: cluster().nodes[0].port });
  const ca = () => readFileSync(join(cluster().certDir!, 'ca.pem'));

  beforeEach(async () => {
    const { masters } = await cluster().roles();
    await Promise.all(masters.map((port) => cluster().client(port).flushall()));
    await Promise.all(cluster().nodes.map((n) => cluster().client(n.port).config('RESETSTAT')));
  });

  for (const client of ['fast', 'ioredis'] as const) {
    it(`${client}: loads every master over TLS, and the per-node counts match each server's commandstats`, async () => {
      assert.match(cluster().url, /^rediss:/);
      const result = await runLoad(
        loadRequest(seed(), {
          client,
          test: singleTest('SET key:__key__ __value__'),
          load: { clients: 3, pipeline: 8, requests: 6000 },
          keys: { space: 5000 },
          connection: { cluster: true, tls: { ca: ca() } },
        }),
      );
      assert.equal(result.status, 'complete', result.error);
      assert.equal(result.total.requests, 6000);
      assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorsByKind));
      const nodes = result.cluster!.nodes;
      assert.equal(
        nodes.reduce((sum, n) => sum + n.total.requests, 0),
        result.total.requests,
        'per-node requests add up to the total',
      );
      const { masters } = await cluster().roles();
      assert.equal(masters.length, 3);
      for (const port of masters) {
        const node = nodes.find((n) => n.node === `127.0.0.1:${port}`);
        assert.ok(node, `master ${port} (its tls-port) is in the breakdown: ${nodes.map((n) => n.node).join(', ')}`);
        const calls = await commandCalls(cluster().client(port), 'set');
        assert.ok(node.total.requests > 1000, `master ${port} got ${node.total.requests} of 6000`);
        assert.equal(node.total.requests, calls, `master ${port}: the breakdown matches INFO commandstats`);
      }
    });

    it(`${client}: a CA that did not sign the nodes' certificate gives a plain error naming the node`, async () => {
      const otherCa = makeCertificate();
      try {
        await assert.rejects(
          runLoad(
            loadRequest(seed(), {
              client,
              test: singleTest('PING'),
              load: { clients: 1, requests: 10 },
              connection: { cluster: true, tls: { ca: readFileSync(join(otherCa, 'cert.pem')) } },
            }),
          ),
          (error: Error) => {
            assert.match(
              error.message,
              new RegExp(`^TLS handshake with 127\\.0\\.0\\.1:${seed().port} failed: .*give (its|the) CA certificate with \`tls ca FILE\``),
            );
            assert.doesNotMatch(error.message, /\n\s+at /, 'no stack trace');
            return true;
          },
        );
      } finally {
        rmSync(otherCa, { recursive: true, force: true });
      }
    });
  }
});

describe('SNI per node in a TLS cluster: the seed under its `tls servername`, the others under their announced hostname', function () {
  this.timeout(90_000);
  // The seed's certificate names only seed.test; the other nodes' only localhost, which they announce
  // (cluster-announce-hostname). One servername for every node fails on all but the seed.
  const cluster = useCluster(3, 1, { tls: true, tlsNames: { seed: 'DNS:seed.test', others: 'DNS:localhost' }, announceHostname: 'localhost' });

  for (const client of ['fast', 'ioredis'] as const) {
    it(`${client}: loads every master, each checked against its own name`, async () => {
      const seed = { host: '127.0.0.1', port: cluster().nodes[0].port };
      const result = await runLoad(
        loadRequest(seed, {
          client,
          test: singleTest('SET key:__key__ __value__'),
          load: { clients: 2, pipeline: 8, requests: 3000 },
          connection: { cluster: true, tls: { ca: readFileSync(join(cluster().certDir!, 'ca.pem')), servername: 'seed.test' } },
        }),
      );
      assert.equal(result.status, 'complete', result.error);
      assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorsByKind));
      const masters = result.cluster!.nodes.filter((n) => n.role === 'master');
      assert.equal(masters.length, 3);
      for (const node of masters) assert.ok(node.total.requests > 500, `${node.node} got ${node.total.requests} of 3000`);
    });
  }
});

describe('nodeTls: the TLS settings for one cluster node', () => {
  const seed = { host: '127.0.0.1', port: 7000, resp: 2 as const, connectTimeoutMs: 1000, tls: { servername: 'seed.test', rejectUnauthorized: true } };

  it('keeps the seed as configured, and gives the others their hostname, their host name, or no SNI for an IP', () => {
    assert.equal(nodeTls(seed, { host: '127.0.0.1', port: 7000 }), seed.tls);
    assert.deepEqual(nodeTls(seed, { host: '127.0.0.1', port: 7001, hostname: 'node1.test' }), { servername: 'node1.test', rejectUnauthorized: true });
    assert.deepEqual(nodeTls(seed, { host: 'node2.test', port: 7002 }), { servername: 'node2.test', rejectUnauthorized: true });
    assert.deepEqual(nodeTls(seed, { host: '10.0.0.3', port: 7003 }), { servername: undefined, rejectUnauthorized: true });
    assert.equal(nodeTls({ ...seed, tls: undefined }, { host: '127.0.0.1', port: 7001 }), undefined);
  });
});

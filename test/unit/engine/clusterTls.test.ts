// A Redis Cluster on TLS only (tls-port, port 0, TLS on the bus and for replication): a load reaches every
// master over TLS on both client paths, and a CA that did not sign the nodes' certificate ends in a plain error.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runLoad } from '../../../src/engine';
import { useCluster } from '../../helpers/cluster';
import { commandCalls } from '../../helpers/redis';
import { makeCertificate } from '../../helpers/tls';
import { loadRequest, singleTest } from './plans';

describe('runLoad against a Redis Cluster on TLS (3 masters, 3 replicas)', function () {
  this.timeout(90_000);
  const cluster = useCluster(3, 1, { tls: true });
  const seed = () => ({ host: '127.0.0.1', port: cluster().nodes[0].port });
  const ca = () => readFileSync(join(cluster().certDir!, 'cert.pem'));

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

// A TLS cluster whose nodes other than the seed present a certificate that does not match the name the
// client sends them: the run ends within seconds in a plain error naming such a node (no hang, no stack).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type Redis from 'ioredis';
import { runLoad } from '../../../src/engine';
import { useCluster } from '../../helpers/cluster';
import { loadRequest, singleTest } from './plans';

/** A run that does not end within this is a hang, well below the 120 s the bug took. */
const END_WITHIN_MS = 15_000;

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('a TLS cluster whose other nodes refuse the name they are checked against', function () {
  this.timeout(90_000);
  // The seed's certificate names seed.test; the others' only other.test, while they announce `localhost`.
  const cluster = useCluster(3, 0, { tls: true, tlsNames: { seed: 'DNS:seed.test', others: 'DNS:other.test' }, announceHostname: 'localhost' });

  for (const client of ['fast', 'ioredis'] as const) {
    it(`${client}: ends within seconds in "TLS handshake with HOST:PORT failed" naming a non-seed node`, async () => {
      const seedPort = cluster().nodes[0].port;
      const others = cluster()
        .nodes.slice(1)
        .map((n) => n.port);
      const started = Date.now();
      const run = runLoad(
        loadRequest(
          { host: '127.0.0.1', port: seedPort },
          {
            client,
            test: singleTest('SET key:__key__ __value__'),
            load: { clients: 2, pipeline: 4, requests: 600 },
            connection: { cluster: true, tls: { ca: readFileSync(join(cluster().certDir!, 'ca.pem')), servername: 'seed.test' } },
          },
        ),
      );
      const outcome = await within(
        run.then(
          (result) => ({ result, error: undefined as Error | undefined }),
          (error: Error) => ({ result: undefined, error }),
        ),
        END_WITHIN_MS,
        'the run',
      );
      const message = outcome.error?.message ?? outcome.result?.error ?? '';
      assert.ok(
        outcome.error || outcome.result?.status === 'failed',
        `the run fails (status ${outcome.result?.status}, ${outcome.result?.total.requests} requests)`,
      );
      const named = message.match(/^TLS handshake with (?:localhost|127\.0\.0\.1):(\d+) failed: (.+)/);
      assert.ok(named, `a plain TLS handshake error: ${message}`);
      assert.ok(others.includes(Number(named[1])), `names a node other than the seed (${others.join(', ')}): ${message}`);
      assert.match(named[2], /not issued for the name "localhost".*DNS:other\.test/, 'says which name the certificate lacks');
      // The fix for a node other than the seed: its own name, not `tls servername` (which names the seed).
      assert.match(
        named[2],
        /the hostname it announces, not `tls servername`.*put "localhost" in its certificate, or set the node's cluster-announce-hostname/,
      );
      assert.doesNotMatch(message, /\n\s+at /, 'no stack trace');
      assert.ok(Date.now() - started < END_WITHIN_MS, `ended in ${Date.now() - started} ms`);
    });
  }
});

/** The hostname node `port` announces, as the seed's CLUSTER SHARDS shows it ('' for none). */
async function announcedHostname(seed: Redis, port: number): Promise<string> {
  const shards = (await seed.call('CLUSTER', 'SHARDS')) as unknown[][];
  for (const shard of shards) {
    const nodes = shard[shard.indexOf('nodes') + 1] as unknown[][];
    for (const node of nodes) {
      const fields = new Map<string, unknown>();
      for (let i = 0; i + 1 < node.length; i += 2) fields.set(String(node[i]), node[i + 1]);
      if (Number(fields.get('tls-port') ?? fields.get('port')) === port) return String(fields.get('hostname') ?? '');
    }
  }
  return '';
}

describe('a TLS cluster node met during the run that refuses its name (a replica promoted by CLUSTER FAILOVER)', function () {
  this.timeout(90_000);
  // One certificate for every node (localhost, 127.0.0.1); the replica to be promoted announces a name it lacks.
  const cluster = useCluster(3, 1, { tls: true });
  const RUN_MS = 20_000;
  const FAILOVER_AFTER_MS = 1000;

  async function until(done: () => Promise<boolean>, what: string): Promise<void> {
    for (let i = 0; i < 200 && !(await done()); i++) await sleep(50);
    assert.ok(await done(), `${what} within 10 s`);
  }

  async function announce(port: number, hostname: string): Promise<void> {
    await cluster().client(port).config('SET', 'cluster-announce-hostname', hostname);
    const seed = cluster().client(cluster().nodes[0].port);
    for (let i = 0; i < 200 && (await announcedHostname(seed, port)) !== hostname; i++) await sleep(50);
    assert.equal(await announcedHostname(seed, port), hostname, `node ${port} announces "${hostname}"`);
  }

  for (const client of ['fast', 'ioredis'] as const) {
    it(`${client}: the run ends within seconds of the failover, naming the promoted node`, async () => {
      // Not the seed (the target's node keeps the target's TLS settings, whatever it announces).
      const replica = (await cluster().roles()).replicas.find((port) => port !== cluster().nodes[0].port)!;
      // A manual failover waits for a replica in sync (the previous test's failover made this one resync).
      await until(
        async () => ((await cluster().client(replica).info('replication')) as string).includes('master_link_status:up'),
        `replica ${replica} in sync`,
      );
      await announce(replica, 'bad.test');
      try {
        const started = Date.now();
        const run = runLoad(
          loadRequest(
            { host: '127.0.0.1', port: cluster().nodes[0].port },
            {
              client,
              test: singleTest('SET key:__key__ __value__'),
              load: { clients: 2, pipeline: 4, durationMs: RUN_MS, requests: undefined },
              connection: { cluster: true, tls: { ca: readFileSync(join(cluster().certDir!, 'ca.pem')) } },
            },
          ),
        ).then(
          (result) => ({ result, error: undefined as Error | undefined }),
          (error: Error) => ({ result: undefined, error }),
        );
        await sleep(FAILOVER_AFTER_MS);
        assert.equal(await cluster().client(replica).cluster('FAILOVER'), 'OK');
        const outcome = await within(run, END_WITHIN_MS, 'the run');
        const elapsed = Date.now() - started;
        const message = outcome.error?.message ?? outcome.result?.error ?? '';
        assert.match(
          message,
          new RegExp(
            `^TLS handshake with 127\\.0\\.0\\.1:${replica} failed: the certificate is not issued for the name "bad\\.test".*put "bad\\.test" in its certificate`,
          ),
        );
        assert.doesNotMatch(message, /\n\s+at /, 'no stack trace');
        assert.ok(elapsed < FAILOVER_AFTER_MS + END_WITHIN_MS && elapsed < RUN_MS, `ended after ${elapsed} ms`);
        if (client === 'fast') {
          // The fast path opens only the masters: it meets the promoted replica during the run, and keeps what it measured.
          assert.equal(outcome.result?.status, 'failed', 'a failed run with its figures');
          assert.ok(outcome.result!.total.requests > 0, 'what was measured before is kept');
        }
      } finally {
        await announce(replica, '');
      }
    });
  }
});

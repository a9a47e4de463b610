// A TLS cluster whose nodes other than the seed present a certificate that does not match the name the
// client sends them: the run ends within seconds in a plain error naming such a node (no hang, no stack).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
      const others = cluster().nodes.slice(1).map((n) => n.port);
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
      assert.ok(outcome.error || outcome.result?.status === 'failed', `the run fails (status ${outcome.result?.status}, ${outcome.result?.total.requests} requests)`);
      const named = message.match(/^TLS handshake with (?:localhost|127\.0\.0\.1):(\d+) failed: (.+)/);
      assert.ok(named, `a plain TLS handshake error: ${message}`);
      assert.ok(others.includes(Number(named[1])), `names a node other than the seed (${others.join(', ')}): ${message}`);
      assert.match(named[2], /not issued for the name "localhost".*DNS:other\.test/, 'says which name the certificate lacks');
      // The fix for a node other than the seed: its own name, not `tls servername` (which names the seed).
      assert.match(named[2], /the hostname it announces, not `tls servername`.*put "localhost" in its certificate, or set the node's cluster-announce-hostname/);
      assert.doesNotMatch(message, /\n\s+at /, 'no stack trace');
      assert.ok(Date.now() - started < END_WITHIN_MS, `ended in ${Date.now() - started} ms`);
    });
  }
});

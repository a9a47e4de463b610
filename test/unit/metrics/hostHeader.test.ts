// A listener answers only the names it serves (the listening gate, src/gates/listen.ts): a page that rebinds its
// own name to 127.0.0.1 reaches the `--metrics` endpoint with `Host: evil.example:P`, and must not read it.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { freePort } from '../../../src/redis/localServer';
import { listenAddress } from '../../../src/gates/listen';
import { startMetricsServer, type MetricsServer } from '../../../src/runner/metrics/metricsServer';
import { startCli, useScratch } from '../../helpers/cli';

/** GET /metrics on host:port with the Host header as given (undefined: none at all). */
function get(host: string, port: number, hostHeader: string | undefined): Promise<{ status: number; body: string; type?: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = hostHeader === undefined ? {} : { Host: hostHeader };
    const sent = request({ host, port, path: '/metrics', headers, setHost: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, type: response.headers['content-type'] }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('a listener answers only the names it serves', function () {
  this.timeout(60_000);

  describe('the metrics endpoint on 127.0.0.1', () => {
    let server: MetricsServer | undefined;
    let port = 0;
    before(async () => {
      port = await freePort();
      server = await startMetricsServer(listenAddress(`127.0.0.1:${port}`, 'user', '--metrics'), () => []);
    });
    after(async () => server?.close());

    it('refuses another name (DNS rebinding), with a plain text answer naming the names it serves', async () => {
      const refused = await get('127.0.0.1', port, `evil.example:${port}`);
      assert.equal(refused.status, 421);
      assert.match(refused.type ?? '', /^text\/plain/);
      assert.match(refused.body, new RegExp(`127\\.0\\.0\\.1:${port}`));
      assert.doesNotMatch(refused.body, /evil|rbench_/, 'neither the name sent nor any figure');
      assert.equal(server!.scrapes().count, 0, 'a refused request is no scrape');
    });

    it('answers its address and localhost, with the port, in any case and with a trailing dot', async () => {
      for (const name of [`127.0.0.1:${port}`, `localhost:${port}`, `LocalHost:${port}`, `localhost.:${port}`]) {
        assert.equal((await get('127.0.0.1', port, name)).status, 200, name);
      }
    });

    it('refuses its address on another port, no port, no Host, other loopback names and forms that only look alike', async () => {
      const other = port === 65535 ? port - 1 : port + 1;
      const scrapes = server!.scrapes().count;
      for (const name of [
        `127.0.0.1:${other}`,
        '127.0.0.1',
        `[::1]:${port}`,
        `127.0.0.2:${port}`,
        `0.0.0.0:${port}`,
        `evil.localhost:${port}`,
        `127.0.0.1.evil.example:${port}`,
        `localhost:${port}@evil.example`,
        `evil.example`,
        '',
      ]) {
        assert.equal((await get('127.0.0.1', port, name)).status, 421, String(name));
      }
      // Without any Host, Node's parser refuses the request itself (HTTP/1.1 requires one): the handler never runs.
      const none = await get('127.0.0.1', port, undefined);
      assert.equal(none.status, 400);
      assert.doesNotMatch(none.body, /rbench_/);
      assert.equal(server!.scrapes().count, scrapes, 'none of them was answered as a scrape');
    });
  });

  describe('the metrics endpoint on ::1', () => {
    it('answers [::1]:P and localhost:P, refuses 127.0.0.1:P and others', async () => {
      const port = await freePort();
      const server = await startMetricsServer(listenAddress(`[::1]:${port}`, 'user', '--metrics'), () => []);
      try {
        assert.equal((await get('::1', port, `[::1]:${port}`)).status, 200);
        assert.equal((await get('::1', port, `[0:0::1]:${port}`)).status, 200);
        assert.equal((await get('::1', port, `localhost:${port}`)).status, 200);
        assert.equal((await get('::1', port, `127.0.0.1:${port}`)).status, 421);
        assert.equal((await get('::1', port, `[::1]:${port + 1}`)).status, 421);
        assert.equal((await get('::1', port, `evil.example:${port}`)).status, 421);
      } finally {
        await server.close();
      }
    });
  });

  describe('rbench run --metrics', () => {
    const scratch = useScratch();

    it('refuses Host: evil.example during the run and answers 127.0.0.1:P', async () => {
      const port = await freePort();
      const file = scratch.write('m.rbench', '### m\nrequests 200\nSET m:__key__ __value__\n');
      const run = startCli(['run', file, '--metrics', `127.0.0.1:${port}`, '--metrics-linger', '60s'], { cwd: scratch.dir });
      try {
        await run.waitFor(/Metrics: http:\/\/127\.0\.0\.1:\d+\/metrics/, 30_000);
        const refused = await get('127.0.0.1', port, `evil.example:${port}`);
        assert.equal(refused.status, 421, refused.body);
        assert.doesNotMatch(refused.body, /rbench_/);
        // The run waits (--metrics-linger) for one scrape after its last run: only an answered one ends it.
        await run.waitFor(/waiting up to 1m\S* for a final scrape/, 30_000);
        assert.equal((await get('127.0.0.1', port, `evil.example:${port}`)).status, 421);
        const answered = await get('127.0.0.1', port, `127.0.0.1:${port}`);
        assert.equal(answered.status, 200);
        assert.match(answered.body, /rbench_test_requests_total\{[^}]*\} 200\b/);
        const result = await run.done;
        assert.equal(result.code, 0, result.stderr);
      } finally {
        run.kill('SIGKILL');
      }
    });
  });
});

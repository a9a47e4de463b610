// unix:///path targets: parsed into a socket path for every connection, shown without a host, refused with the fix.
import assert from 'node:assert/strict';
import { address, describeConnectionError, errorPlace } from '../../../src/redis/errors';
import { resolveConnection } from '../../../src/redis/target';
import { targetPlan } from './support';

describe('unix socket targets', () => {
  it('connect to the path, on this machine, with the db from ?db=N or the setting', () => {
    const { options, error, display } = resolveConnection(targetPlan({ url: 'unix:///run/redis/redis.sock?db=3' }), { env: {} });
    assert.equal(error, undefined);
    assert.deepEqual(options, {
      host: 'localhost',
      port: 0,
      path: '/run/redis/redis.sock',
      db: 3,
      resp: 2,
      connectTimeoutMs: 2000,
      network: { seeds: [{ host: 'localhost', port: 0 }], allowHosts: [] },
    });
    assert.equal(display, 'unix:///run/redis/redis.sock?db=3');
    assert.equal(address(options!), 'unix:/run/redis/redis.sock');
    const fromSetting = resolveConnection(targetPlan({ url: 'unix:///run/a%20b.sock', db: 2 }), { env: {} });
    assert.equal(fromSetting.options?.path, '/run/a b.sock');
    assert.equal(fromSetting.display, 'unix:///run/a%20b.sock?db=2');
  });

  it('refuse a host, options, TLS and over-long paths with the fix', () => {
    const cases: [string, Partial<Parameters<typeof targetPlan>[0]>, RegExp][] = [
      ['unix://run/redis.sock', {}, /names a host \(run\): a unix socket URL has three slashes and an absolute path/],
      ['unix:///run/r.sock?timeout=1', {}, /has the option \?timeout=1: a unix socket URL only takes \?db=N/],
      ['unix:///run/r.sock', { tls: { enabled: true } }, /is a unix socket, which Redis serves without TLS: remove the tls settings/],
      [`unix:///${'d'.repeat(120)}/r.sock`, {}, /bytes long, more than the \d+ the system allows: use a shorter path/],
    ];
    for (const [url, extra, expected] of cases) {
      const { error } = resolveConnection(targetPlan({ url, ...extra }), { env: {} });
      assert.match(error ?? '', expected, url);
    }
  });

  it('explain a missing socket, a refused one and a forbidden one', () => {
    const place = errorPlace({ host: 'localhost', port: 0, path: '/run/r.sock', resp: 2, connectTimeoutMs: 1000 });
    const error = (code: string) => Object.assign(new Error(code), { code });
    assert.match(
      describeConnectionError(error('ENOENT'), place),
      /^cannot connect to unix:\/run\/r\.sock: no such socket — is redis-server running with `unixsocket \/run\/r\.sock`\?/,
    );
    assert.match(describeConnectionError(error('ECONNREFUSED'), place), /the socket file exists but no redis-server listens on it/);
    assert.match(describeConnectionError(error('EACCES'), place), /permission denied — the socket's permissions \(redis\.conf `unixsocketperm`\)/);
  });
});

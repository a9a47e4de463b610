// Sentinel targets: the URL and its messages, the sentinels' credentials, and discovery against real
// sentinels (`redis-server --sentinel`) watching a real primary and replica.
import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { openControlConnection, closeControlConnection, RedisConnectionError } from '../../../src/redis/control';
import { discoverPrimary } from '../../../src/redis/sentinel';
import { parseRedisUrl } from '../../../src/protocol/redisUrl';
import { resolveConnection, type ResolveContext } from '../../../src/redis/target';
import type { ConnectionOptions } from '../../../src/redis/types';
import type { TargetPlan } from '../../../src/scenario/plan';
import { PRIMARY_NAME, useSentinelSet } from '../../helpers/sentinel';
import { targetPlan } from './support';

const noEnv: ResolveContext = { env: {} };

describe('Sentinel target URLs', () => {
  it('reads several sentinels, the primary name and ?db=, with 26379 as the default port', () => {
    const url = parseRedisUrl('redis-sentinel://alice:pw@10.0.0.5:26380,[::1],sentinel-3.example.com/mymaster?db=2');
    assert.notEqual(typeof url, 'string', String(url));
    assert.deepEqual(url, {
      tls: false,
      host: '10.0.0.5',
      port: 26380,
      user: 'alice',
      password: 'pw',
      db: 2,
      sentinel: {
        name: 'mymaster',
        nodes: [
          { host: '10.0.0.5', port: 26380 },
          { host: '::1', port: 26379 },
          { host: 'sentinel-3.example.com', port: 26379 },
        ],
      },
    });
  });

  it('says what is wrong and how to write it', () => {
    const cases: [string, RegExp][] = [
      ['redis-sentinel://10.0.0.5:26379', /names no primary: end it with \/NAME/],
      ['redis-sentinel://10.0.0.5:26379/', /names no primary/],
      ['redis-sentinel:///mymaster', /has no sentinel host/],
      ['redis-sentinel://a:1,,b:2/mymaster', /sentinel address "": write host or host:port/],
      ['redis-sentinel://a:99999/mymaster', /port must be a number from 1 to 65535/],
      ['redis-sentinel://a/my master', /one word/],
      ['redis-sentinel://a/mymaster?timeout=5', /only takes \?db=N/],
      ['redis-sentinel://u:secret@a:x/mymaster', /sentinel address "a:x"/],
    ];
    for (const [text, pattern] of cases) {
      const result = parseRedisUrl(text);
      assert.equal(typeof result, 'string', text);
      assert.match(result as string, pattern, text);
      assert.doesNotMatch(result as string, /secret/, 'the password is never shown');
    }
  });

  it('resolves to the first sentinel plus the sentinel list, shown without the password', () => {
    const { options, display, error } = resolveConnection(targetPlan({ url: 'rediss-sentinel://bob:pw@s1:1,s2:2/cache?db=3' }), noEnv);
    assert.equal(error, undefined);
    assert.equal(display, 'rediss-sentinel://bob@s1:1,s2:2/cache?db=3');
    assert.equal(options?.password, 'pw', "the URL password is the primary's");
    assert.equal(options?.db, 3);
    assert.deepEqual(options?.tls, {});
    assert.deepEqual(options?.sentinel, {
      name: 'cache',
      nodes: [
        { host: 's1', port: 1 },
        { host: 's2', port: 2 },
      ],
    });
  });

  it("takes the sentinels' own user and password from the environment or the secret, never the file", () => {
    const fromEnv = resolveConnection(targetPlan({ url: 'redis-sentinel://s1/cache', sentinelUser: 'watcher', sentinelPasswordEnv: 'SENTINEL_PW' }), {
      env: { SENTINEL_PW: 'env-pw' },
    });
    assert.deepEqual(fromEnv.options?.sentinel, {
      name: 'cache',
      nodes: [{ host: 's1', port: 26379 }],
      username: 'watcher',
      password: 'env-pw',
      passwordSource: 'environment variable SENTINEL_PW',
    });
    assert.equal(fromEnv.options?.password, undefined, "the primary gets no password from the sentinels' setting");
    const missing = resolveConnection(targetPlan({ url: 'redis-sentinel://s1/cache', sentinelPasswordEnv: 'SENTINEL_PW' }), noEnv);
    assert.match(missing.error ?? '', /SENTINEL_PW \(`sentinel-password env:SENTINEL_PW`\), but SENTINEL_PW is not set/);
    const secret = resolveConnection(targetPlan({ url: 'redis-sentinel://s1/cache', sentinelPasswordSecret: true }), { env: {}, secret: 'stored' });
    assert.equal(secret.options?.sentinel?.password, 'stored');
    const profile = resolveConnection(targetPlan({ profile: 'ha' }), {
      env: { P: 'from-profile' },
      profiles: { ha: { url: 'redis-sentinel://s1,s2/cache', sentinelPasswordEnv: 'P' } },
    });
    assert.equal(profile.options?.sentinel?.password, 'from-profile');
    assert.equal(profile.display, 'redis-sentinel://s1:26379,s2:26379/cache');
  });

  it('refuses cluster mode on a Sentinel target', () => {
    const { error } = resolveConnection(targetPlan({ url: 'redis-sentinel://s1/cache', cluster: true }), noEnv);
    assert.match(error ?? '', /Sentinel target, which serves one primary, but cluster mode is on: turn cluster off/);
  });
});

describe('Sentinel discovery against real sentinels', function () {
  this.timeout(60_000);
  const set = useSentinelSet();

  function options(url: string): ConnectionOptions {
    const resolved = resolveConnection(targetPlan({ url }), noEnv);
    assert.equal(resolved.error, undefined);
    return resolved.options!;
  }

  it('finds the primary by name, skipping a sentinel that is down', async () => {
    const sentinel = set().sentinels[0];
    const primary = await set().primary();
    const withDeadSentinel = options(`redis-sentinel://127.0.0.1:1,127.0.0.1:${sentinel.port}/${PRIMARY_NAME}`);
    assert.deepEqual(await discoverPrimary({ ...withDeadSentinel, sentinel: withDeadSentinel.sentinel! }), { host: '127.0.0.1', port: primary.port });
  });

  it('sends INFO, facts and clean-up through the control connection to the primary', async () => {
    const primary = await set().primary();
    const redis = await openControlConnection(options(set().url));
    try {
      await redis.set('sentinel:control', '1');
      assert.match(await redis.info('replication'), /role:master/);
      assert.equal(await redis.call('CONFIG', 'GET', 'port').then((r) => (r as string[])[1]), String(primary.port));
    } finally {
      await closeControlConnection(redis);
    }
  });

  it('says when the sentinels know no primary of that name', async () => {
    const wrong = options(`redis-sentinel://127.0.0.1:${set().sentinels[0].port}/no-such-primary`);
    await assert.rejects(discoverPrimary({ ...wrong, sentinel: wrong.sentinel! }), (error: Error) => {
      assert.match(error.message, new RegExp(`sentinels at 127.0.0.1:${set().sentinels[0].port} know no primary named "no-such-primary"`));
      assert.match(error.message, /SENTINEL MASTERS/);
      return true;
    });
    await assert.rejects(openControlConnection(wrong), (error: Error) => error instanceof RedisConnectionError && /know no primary named/.test(error.message));
  });

  it('says when an address is a data node rather than a sentinel', async () => {
    const primary = await set().primary();
    const dataNode = options(`redis-sentinel://127.0.0.1:${primary.port}/${PRIMARY_NAME}`);
    await assert.rejects(discoverPrimary({ ...dataNode, sentinel: dataNode.sentinel! }), /is not a sentinel .*list the sentinels' ports \(26379 by default\)/);
  });

  it('says when no sentinel answers', async () => {
    const none = options(`redis-sentinel://127.0.0.1:1/${PRIMARY_NAME}`);
    await assert.rejects(discoverPrimary({ ...none, sentinel: none.sentinel! }), /no sentinel of primary "rbench-primary" answered: .*127\.0\.0\.1:1/);
  });
});

describe('Sentinel discovery with three sentinels', function () {
  this.timeout(60_000);
  const set = useSentinelSet({ sentinels: 3 });

  it('asks the next sentinel when the first one stalls, within the connect timeout', async () => {
    const [first, second] = set().sentinels;
    const primary = await set().primary();
    const resolved = resolveConnection(targetPlan({ url: set().url, connectTimeoutMs: 1000 }), noEnv);
    const options = { ...resolved.options!, sentinel: resolved.options!.sentinel! };
    assert.deepEqual(
      options.sentinel.nodes.map((node) => node.port),
      set().sentinels.map((s) => s.port),
    );
    process.kill(first.pid, 'SIGSTOP');
    try {
      const started = performance.now();
      assert.deepEqual(await discoverPrimary(options), { host: '127.0.0.1', port: primary.port });
      const took = performance.now() - started;
      assert.ok(took >= 900 && took < 5000, `waited out the stalled sentinel, then asked sentinel ${second.port} (${Math.round(took)} ms)`);
    } finally {
      process.kill(first.pid, 'SIGCONT');
    }
  });
  it('authenticates to a sentinel with `sentinel-user` and `sentinel-password`, and says when they are missing or wrong', async () => {
    const sentinel = set().sentinels[2];
    const url = `redis-sentinel://127.0.0.1:${sentinel.port}/${PRIMARY_NAME}`;
    const admin = new Redis({ host: '127.0.0.1', port: sentinel.port, lazyConnect: true });
    await admin.connect();
    await admin.call('ACL', 'SETUSER', 'watcher', 'on', '>watch-pw', '+@all');
    await admin.call('ACL', 'SETUSER', 'default', 'off');
    admin.disconnect();
    try {
      const ask = (fields: Partial<TargetPlan>, env: Record<string, string> = {}) => {
        const resolved = resolveConnection(targetPlan({ url, ...fields }), { env });
        assert.equal(resolved.error, undefined);
        return discoverPrimary({ ...resolved.options!, sentinel: resolved.options!.sentinel! });
      };
      await assert.rejects(ask({}), new RegExp(`sentinel 127\\.0\\.0\\.1:${sentinel.port} asks for a password — add \`sentinel-password env:NAME\``));
      await assert.rejects(
        ask({ sentinelUser: 'watcher', sentinelPasswordEnv: 'SPW' }, { SPW: 'wrong' }),
        /sentinel authentication failed at .*wrong password for user "watcher".*SPW/,
      );
      assert.equal((await ask({ sentinelUser: 'watcher', sentinelPasswordEnv: 'SPW' }, { SPW: 'watch-pw' })).port, (await set().primary()).port);
    } finally {
      const restore = new Redis({ host: '127.0.0.1', port: sentinel.port, username: 'watcher', password: 'watch-pw', lazyConnect: true });
      await restore.connect();
      await restore.call('ACL', 'SETUSER', 'default', 'on', 'nopass', '+@all');
      restore.disconnect();
    }
  });
});

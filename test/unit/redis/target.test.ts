import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isLoopbackHost } from '../../../src/gates/network';
import { resolveConnection, type ResolveContext } from '../../../src/redis/target';
import { checkText } from '../../../src/scenario';
import type { ConnectionProfile } from '../../../src/redis/types';
import { targetPlan } from './support';

const noEnv: ResolveContext = { env: {} };

describe('resolveConnection', () => {
  describe('URLs', () => {
    it('defaults the port to 6379 and leaves user, password and db unset', () => {
      const { options, error, display } = resolveConnection(targetPlan({ url: 'redis://10.0.0.5' }), noEnv);
      assert.equal(error, undefined);
      // With the network gate's rule, fixed before any contact: this server only.
      assert.deepEqual(options, {
        host: '10.0.0.5',
        port: 6379,
        resp: 2,
        connectTimeoutMs: 2000,
        network: { seeds: [{ host: '10.0.0.5', port: 6379 }], allowHosts: [] },
      });
      assert.equal(display, 'redis://10.0.0.5:6379');
    });

    it('reads user, password, port and db from the URL and shows them without the password', () => {
      const { options, display } = resolveConnection(targetPlan({ url: 'redis://alice:hunter2@10.0.0.5:6380/2' }), noEnv);
      assert.equal(options?.username, 'alice');
      assert.equal(options?.password, 'hunter2');
      assert.equal(options?.passwordSource, 'the target URL');
      assert.equal(options?.port, 6380);
      assert.equal(options?.db, 2);
      assert.equal(display, 'redis://alice@10.0.0.5:6380/2');
    });

    it('decodes percent-encoded user names and passwords', () => {
      const { options, display } = resolveConnection(targetPlan({ url: 'redis://al%40ice:p%3Ass@host' }), noEnv);
      assert.equal(options?.username, 'al@ice');
      assert.equal(options?.password, 'p:ss');
      assert.equal(display, 'redis://al%40ice@host:6379');
    });

    it('turns TLS on for rediss://', () => {
      const { options, display } = resolveConnection(targetPlan({ url: 'rediss://cache.example.com:6380' }), noEnv);
      assert.deepEqual(options?.tls, {});
      assert.equal(display, 'rediss://cache.example.com:6380');
    });

    it('accepts IPv6 hosts in brackets and shows them in brackets', () => {
      const { options, display } = resolveConnection(targetPlan({ url: 'redis://[::1]:6390/1' }), noEnv);
      assert.equal(options?.host, '::1');
      assert.equal(options?.port, 6390);
      assert.equal(display, 'redis://[::1]:6390/1');
    });

    it('lets the target settings override the URL user and db', () => {
      const { options, display } = resolveConnection(targetPlan({ url: 'redis://alice@h/3', user: 'bob', db: 5 }), noEnv);
      assert.equal(options?.username, 'bob');
      assert.equal(options?.db, 5);
      assert.equal(display, 'redis://bob@h:6379/5');
    });

    it('rejects other schemes, paths that are not a db number, URL options and missing hosts', () => {
      const cases: [string, RegExp][] = [
        ['http://h:6379', /only redis:\/\/ and rediss:\/\/ \(TLS\) are supported/],
        ['redis://h/cache', /the path can only be a database number/],
        ['redis://h?db=2', /URL options .* are not read/],
        ['redis://:6379', /not a valid URL|has no host/],
        ['not a url', /is not a valid URL: expected redis:\/\/\[user@\]host/],
      ];
      for (const [url, message] of cases) {
        const { options, error } = resolveConnection(targetPlan({ url }), noEnv);
        assert.equal(options, undefined, url);
        assert.match(error ?? '', message, url);
      }
    });

    it('asks for a URL or a profile when the target has neither', () => {
      assert.match(resolveConnection(targetPlan(), noEnv).error ?? '', /has no URL: give `target redis:\/\/host:port` or the name of a connection profile/);
    });
  });

  describe('passwords', () => {
    it('reads `password env:NAME` from the environment and remembers where it came from', () => {
      const { options } = resolveConnection(targetPlan({ url: 'redis://h', passwordEnv: 'REDIS_PW' }), { env: { REDIS_PW: 'hunter2' } });
      assert.equal(options?.password, 'hunter2');
      assert.equal(options?.passwordSource, 'environment variable REDIS_PW');
    });

    it('names a missing or empty environment variable and how to set it', () => {
      for (const env of [{}, { REDIS_PW: '' }]) {
        const { options, error, display } = resolveConnection(targetPlan({ url: 'redis://alice@h:7000', passwordEnv: 'REDIS_PW' }), { env });
        assert.equal(options, undefined);
        assert.match(error ?? '', /environment variable REDIS_PW \(`password env:REDIS_PW`\), but REDIS_PW is (not set|empty)/);
        assert.match(error ?? '', /`export REDIS_PW=…`/);
        assert.equal(display, 'redis://alice@h:7000');
      }
    });

    it('takes `password secret` from the context, and says how to store one when there is none', () => {
      const withSecret = resolveConnection(targetPlan({ url: 'redis://h', passwordSecret: true }), { env: {}, secret: 'hunter2' });
      assert.equal(withSecret.options?.password, 'hunter2');
      const without = resolveConnection(targetPlan({ url: 'redis://h', passwordSecret: true }), noEnv);
      assert.match(without.error ?? '', /no password is stored: .*"RBench: Set Password".*RBENCH_PASSWORD/);
    });

    it('prefers an explicit password source over a password in the URL', () => {
      const { options } = resolveConnection(targetPlan({ url: 'redis://:fromurl@h', passwordEnv: 'PW' }), { env: { PW: 'fromenv' } });
      assert.equal(options?.password, 'fromenv');
    });

    it('never shows the password, in the display or in errors', () => {
      const plans = [
        targetPlan({ url: 'redis://alice:hunter2@h:6380/2' }),
        targetPlan({ url: 'rediss://:hunter2@h' }),
        targetPlan({ url: 'redis://alice:hunter2@h/nodb' }),
        targetPlan({ url: 'redis://alice:hunter2@h?x=1' }),
        targetPlan({ url: 'redis://alice:hunter2@h', cluster: true, db: 3 }),
        targetPlan({ url: 'redis://h', passwordEnv: 'PW' }),
      ];
      for (const plan of plans) {
        const { display, error } = resolveConnection(plan, { env: { PW: 'hunter2' } });
        assert.doesNotMatch(display, /hunter2/, plan.url);
        assert.doesNotMatch(error ?? '', /hunter2/, plan.url);
      }
    });
  });

  describe('profiles', () => {
    const profiles: Record<string, ConnectionProfile> = {
      staging: { url: 'rediss://staging.example.com:6380', user: 'bench', passwordEnv: 'STAGING_PW', label: 'Staging', cluster: true },
      local: { url: 'redis://127.0.0.1:6379' },
    };

    it('resolves a profile name through the profiles, with the target settings on top', () => {
      const { options, display } = resolveConnection(targetPlan({ profile: 'staging', resp: 3 }), { env: { STAGING_PW: 'pw' }, profiles });
      assert.equal(options?.host, 'staging.example.com');
      assert.equal(options?.username, 'bench');
      assert.equal(options?.password, 'pw');
      assert.equal(options?.cluster, true);
      assert.equal(options?.resp, 3);
      assert.equal(display, 'rediss://bench@staging.example.com:6380');
      const overridden = resolveConnection(targetPlan({ profile: 'staging', user: 'ops', passwordSecret: true }), { env: {}, secret: 's', profiles });
      assert.equal(overridden.options?.username, 'ops');
      assert.equal(overridden.options?.password, 's');
    });

    it('lists the known profiles for an unknown name', () => {
      const { error } = resolveConnection(targetPlan({ profile: 'prod' }), { env: {}, profiles });
      assert.equal(error, 'unknown connection profile "prod": known profiles are "staging", "local"');
      assert.match(resolveConnection(targetPlan({ profile: 'prod' }), noEnv).error ?? '', /no profiles are defined/);
    });
  });

  it('turns replica reads on from the scenario (`replica-reads on`) or from a profile', () => {
    assert.equal(resolveConnection(targetPlan({ url: 'redis://h', cluster: true, replicaReads: true }), noEnv).options?.replicaReads, true);
    assert.equal(resolveConnection(targetPlan({ url: 'redis://h', cluster: true }), noEnv).options?.replicaReads, undefined);
    const profiles: Record<string, ConnectionProfile> = { shards: { url: 'redis://10.0.0.5:7000', cluster: true, replicaReads: true } };
    const { options } = resolveConnection(targetPlan({ profile: 'shards' }), { ...noEnv, profiles });
    assert.equal(options?.cluster, true);
    assert.equal(options?.replicaReads, true);
    assert.equal(checkText('### r\ncluster on\nreplica-reads on\nGET k\n').scenarios[0].target.replicaReads, true);
  });

  it('refuses a db other than 0 in cluster mode', () => {
    assert.match(resolveConnection(targetPlan({ url: 'redis://h/2', cluster: true }), noEnv).error ?? '', /cluster mode has only database 0/);
  });

  describe('TLS files', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'rbench-tls-files-'));
      writeFileSync(join(dir, 'ca.pem'), 'CA');
      writeFileSync(join(dir, 'client.pem'), 'CERT');
      writeFileSync(join(dir, 'client.key'), 'KEY');
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('reads ca, cert and key relative to the base folder, with servername and insecure', () => {
      const tls = { enabled: true, ca: 'ca.pem', cert: 'client.pem', key: join(dir, 'client.key'), servername: 'redis.internal', insecure: true };
      const { options, display } = resolveConnection(targetPlan({ url: 'redis://h', tls }), { env: {}, baseDir: dir });
      assert.equal(options?.tls?.ca?.toString(), 'CA');
      assert.equal(options?.tls?.cert?.toString(), 'CERT');
      assert.equal(options?.tls?.key?.toString(), 'KEY');
      assert.equal(options?.tls?.servername, 'redis.internal');
      assert.equal(options?.tls?.rejectUnauthorized, false);
      assert.equal(display, 'rediss://h:6379');
    });

    it('names a missing file with its full path', () => {
      const { error } = resolveConnection(targetPlan({ url: 'rediss://h', tls: { enabled: true, ca: 'missing-ca.pem' } }), { env: {}, baseDir: dir });
      assert.equal(error, `TLS ca file not found: ${join(dir, 'missing-ca.pem')} (check the \`tls ca\` path; relative paths start at the scenario's folder)`);
    });

    it('wants a client cert and key together', () => {
      const { error } = resolveConnection(targetPlan({ url: 'rediss://h', tls: { enabled: true, cert: 'client.pem' } }), { env: {}, baseDir: dir });
      assert.match(error ?? '', /need both a cert file and a key file/);
    });

    it("applies a profile's TLS files", () => {
      const profiles = { secure: { url: 'redis://h:6390', tls: { ca: 'ca.pem' } } };
      const { options, display } = resolveConnection(targetPlan({ profile: 'secure' }), { env: {}, profiles, baseDir: dir });
      assert.equal(options?.tls?.ca?.toString(), 'CA');
      assert.equal(display, 'rediss://h:6390');
    });
  });
});

// The one loopback rule is the network gate's (src/gates/network.ts); these are the forms a target names.
describe('isLoopbackHost on target hosts', () => {
  it('recognises names and addresses of this machine only', () => {
    for (const host of ['localhost', '127.0.0.1', '127.10.0.3', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', 'LOCALHOST']) {
      assert.equal(isLoopbackHost(host), true, host);
    }
    for (const host of ['10.0.0.5', '128.0.0.1', '::2', '::ffff:10.0.0.1', 'redis.example.com', 'localhost.example.com', '1::1']) {
      assert.equal(isLoopbackHost(host), false, host);
    }
  });
});

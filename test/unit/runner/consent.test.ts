// The consent gate: what a run does, computed from real scenario text and the resolved connection (never
// opened), who supplied each piece, when the question is needed, its text, and the digest answers are kept under.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { checkText } from '../../../src/scenario';
import type { ConnectionProfile } from '../../../src/redis/types';
import { chooseTarget, connectionFor, parseActiveTarget } from '../../../src/runner/targets';
import { consentQuestion, consentRequest, effectsDigest, needsConsent, nodeRule, onlyReads, runEffects, type RunEffects } from '../../../src/runner/consent';
import { scenarioActions } from '../../../src/runner/safety';

interface Setup {
  env?: Record<string, string>;
  /** The selected target (rbench.target / --url) and who set it. */
  selected?: { value: string; supplier: 'workspace' | 'user'; via?: string };
  profiles?: Record<string, ConnectionProfile>;
  workspaceProfiles?: string[];
  storedPassword?: string;
  secretEnv?: string;
  allowEnv?: string[];
}

/** The effects of the first scenario of `text`, worked out as the session does (no connection is opened). */
function effectsOf(text: string, setup: Setup = {}): RunEffects {
  const env = setup.env ?? {};
  // The environment rule refuses `${env:…}` a file uses unless the user allows it: these tests allow every variable they set.
  const allowEnv = setup.allowEnv ?? Object.keys(env);
  const resolved = checkText(text, { env, allowEnv });
  const errors = resolved.diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(
    errors.map((e) => e.message),
    [],
  );
  const plan = resolved.scenarios[0];
  const profiles = setup.profiles ?? {};
  const active = setup.selected ? parseActiveTarget(setup.selected.value, profiles) : ({ kind: 'local' } as const);
  assert.notEqual(active.kind, 'invalid');
  const choice = chooseTarget(plan.target, active.kind === 'invalid' ? { kind: 'local' } : active);
  assert.equal(choice.local, false, 'the throwaway server needs no consent');
  const connection = connectionFor(choice, { profiles, storedPassword: setup.storedPassword, env });
  assert.ok(connection.options, connection.error);
  return runEffects({
    file: 'bench.rbench',
    plan,
    actions: scenarioActions(plan),
    choice: { source: choice.source === 'scenario' ? 'scenario' : 'selected', target: choice.target },
    selected: setup.selected ? { supplier: setup.selected.supplier, via: setup.selected.via ?? `selected by ${setup.selected.supplier}` } : undefined,
    profiles,
    workspaceProfiles: new Set(setup.workspaceProfiles ?? []),
    connection: { display: connection.display, options: connection.options },
    storedPasswordUsed: Boolean(setup.storedPassword),
    secretEnv: setup.secretEnv,
    allowEnv,
    text,
  });
}

const READ = '### s\nrequests 10\nGET k\n';
const user = (value: string) => ({ value, supplier: 'user' as const, via: 'you selected it' });

describe('consent: the effects of a run', () => {
  describe('target and who chose it', () => {
    it("a target line of the file is the file's", () => {
      const effects = effectsOf(`target redis://10.0.0.5:6379\n${READ}`);
      assert.deepEqual(effects.target, { display: 'redis://10.0.0.5:6379', supplier: 'file', via: ['the file names it (its target line)'] });
      assert.equal(effects.file, 'bench.rbench');
    });

    it("a profile the file names is the file's choice even when the user defined it", () => {
      const effects = effectsOf(`target prod\n${READ}`, { profiles: { prod: { url: 'redis://10.0.0.5:6379' } } });
      assert.equal(effects.target.supplier, 'file');
      assert.deepEqual(effects.target.via, ['the file names it (profile "prod")']);
    });

    it("the user's selection is the user's; a workspace's is the workspace's", () => {
      assert.deepEqual(effectsOf(READ, { selected: user('redis://127.0.0.1:6399') }).target, {
        display: 'redis://127.0.0.1:6399',
        supplier: 'user',
        via: ['you selected it'],
      });
      const workspace = effectsOf(READ, { selected: { value: 'redis://127.0.0.1:6399', supplier: 'workspace', via: 'the workspace selects it' } });
      assert.deepEqual(workspace.target, { display: 'redis://127.0.0.1:6399', supplier: 'workspace', via: ['the workspace selects it'] });
    });

    it("a selection without a stated supplier counts as the user's", () => {
      const resolved = checkText(READ, { env: {} });
      const plan = resolved.scenarios[0];
      const choice = chooseTarget(plan.target, { kind: 'url', url: 'redis://127.0.0.1:6399' });
      const connection = connectionFor(choice, { profiles: {}, env: {} });
      const effects = runEffects({
        file: 'f',
        plan,
        actions: scenarioActions(plan),
        choice: { source: 'selected', target: choice.target },
        profiles: {},
        connection: { display: connection.display, options: connection.options! },
      });
      assert.deepEqual(effects.target, { display: 'redis://127.0.0.1:6399', supplier: 'user', via: ['your selected target'] });
    });

    it("the user's selection of a profile the workspace defines is the workspace's, with the profile's URL user", () => {
      const profiles = { cache: { url: 'redis://alice@127.0.0.1:6399' } };
      const effects = effectsOf(READ, { selected: user('cache'), profiles, workspaceProfiles: ['cache'] });
      assert.equal(effects.target.supplier, 'workspace');
      assert.deepEqual(effects.target.via, ['you selected it', 'profile "cache" is defined in the workspace settings']);
      assert.deepEqual(effects.credentials, [{ role: 'server', user: { name: 'alice', from: 'the target URL', supplier: 'workspace' } }]);
      const own = effectsOf(READ, { selected: user('cache'), profiles });
      assert.equal(own.target.supplier, 'user');
      assert.deepEqual(own.target.via, ['you selected it']);
      assert.equal(own.credentials[0].user?.supplier, 'user');
    });

    it("a file naming a workspace profile with its own URL keeps the URL the file's", () => {
      const profiles = { cache: { url: 'redis://127.0.0.1:6399', user: 'bob' } };
      const effects = effectsOf(`target cache\n${READ}`, { profiles, workspaceProfiles: ['cache'] });
      assert.equal(effects.target.supplier, 'file');
      assert.deepEqual(effects.target.via, ['the file names it (profile "cache")', 'profile "cache" is defined in the workspace settings']);
      assert.deepEqual(effects.credentials, [{ role: 'server', user: { name: 'bob', from: 'profile "cache"', supplier: 'workspace' } }]);
    });
  });

  describe('hosts and the node rule', () => {
    it('one host:port for a server, with IPv6 in brackets; a unix socket by path', () => {
      assert.deepEqual(effectsOf(`target redis://10.0.0.5:6380\n${READ}`).hosts, ['10.0.0.5:6380']);
      assert.deepEqual(effectsOf(`target redis://[::1]:6380\n${READ}`).hosts, ['[::1]:6380']);
      assert.deepEqual(effectsOf(`target unix:///var/run/redis.sock\n${READ}`).hosts, ['unix:/var/run/redis.sock']);
      assert.equal(effectsOf(`target redis://10.0.0.5:6380\n${READ}`).nodeRule, undefined);
    });

    it('every sentinel, and the rule for the nodes they name', () => {
      const effects = effectsOf(`target redis-sentinel://10.0.0.7:26379,10.0.0.8:26380/cache\n${READ}`);
      assert.deepEqual(effects.hosts, ['10.0.0.7:26379', '10.0.0.8:26380']);
      assert.equal(effects.nodeRule, 'sentinels 10.0.0.7:26379, 10.0.0.8:26380, and a primary they name on 10.0.0.7, 10.0.0.8');
    });

    it('a cluster seed, and the rule for the nodes its cluster announces (replicas with replica-reads)', () => {
      assert.equal(effectsOf(`target redis://10.0.0.5:7000\ncluster on\n${READ}`).nodeRule, '10.0.0.5:7000, and nodes on 10.0.0.5 the cluster announces');
      assert.equal(
        effectsOf(`target redis://10.0.0.5:7000\ncluster on\nreplica-reads on\n${READ}`).nodeRule,
        '10.0.0.5:7000, and nodes on 10.0.0.5 the cluster announces (replicas too: replica-reads on)',
      );
      assert.equal(nodeRule({ host: 'h', port: 1, resp: 2, connectTimeoutMs: 1 }), undefined);
    });
  });

  describe('credentials and the environment variables they come from', () => {
    it('none: no credential, no variable', () => {
      const effects = effectsOf(`target redis://10.0.0.5:6379\n${READ}`);
      assert.deepEqual(effects.credentials, []);
      assert.deepEqual(effects.env, []);
    });

    it("the file's user from the environment and password env:NAME: named, never their values", () => {
      const effects = effectsOf(`target redis://10.0.0.5:6379\nuser \${env:BENCH_USER}\npassword env:GITHUB_TOKEN\n${READ}`, {
        env: { BENCH_USER: 'u1', GITHUB_TOKEN: 'ghp_x' },
      });
      assert.deepEqual(effects.credentials, [
        {
          role: 'server',
          user: { name: 'u1', from: "the file's user line (from environment variable BENCH_USER)", supplier: 'file' },
          password: { from: "environment variable GITHUB_TOKEN (the file's password env:GITHUB_TOKEN)", supplier: 'file' },
        },
      ]);
      assert.deepEqual(effects.env, [
        { name: 'GITHUB_TOKEN', use: 'password', supplier: 'file' },
        { name: 'BENCH_USER', use: 'user name', supplier: 'file' },
      ]);
      assert.ok(!JSON.stringify(effects).includes('ghp_x'));
    });

    it("a literal user line is the file's, without a variable", () => {
      const effects = effectsOf(`target redis://10.0.0.5:6379\nuser bench\n${READ}`);
      assert.deepEqual(effects.credentials, [{ role: 'server', user: { name: 'bench', from: "the file's user line", supplier: 'file' } }]);
    });

    it('a URL from the environment carries its user and password: both named with the variable', () => {
      const effects = effectsOf(`target \${env:REDIS_URL}\n${READ}`, { env: { REDIS_URL: 'redis://carol:pw@10.0.0.5:6379' } });
      assert.deepEqual(effects.credentials, [
        {
          role: 'server',
          user: { name: 'carol', from: 'the target URL (from environment variable REDIS_URL)', supplier: 'file' },
          password: { from: 'the target URL', supplier: 'file' },
        },
      ]);
      assert.deepEqual(effects.env, [{ name: 'REDIS_URL', use: 'target URL (host, user, password)', supplier: 'file' }]);
    });

    it('password secret: the stored password in the editor, RBENCH_PASSWORD (a variable sent) in the CLI', () => {
      const text = `target redis://10.0.0.5:6379\npassword secret\n${READ}`;
      assert.deepEqual(effectsOf(text, { storedPassword: 's' }).credentials, [
        { role: 'server', password: { from: 'the password you stored for this target', supplier: 'file' } },
      ]);
      const cli = effectsOf(text, { storedPassword: 's', secretEnv: 'RBENCH_PASSWORD' });
      assert.deepEqual(cli.credentials, [{ role: 'server', password: { from: 'environment variable RBENCH_PASSWORD (password secret)', supplier: 'file' } }]);
      assert.deepEqual(cli.env, [{ name: 'RBENCH_PASSWORD', use: 'password', supplier: 'file' }]);
    });

    it("a profile's passwordEnv and passwordSecret are the profile's supplier's", () => {
      const profiles = { p: { url: 'redis://127.0.0.1:6399', passwordEnv: 'P_PASS' }, q: { url: 'redis://127.0.0.1:6398', passwordSecret: true } };
      const env = { P_PASS: 'x' };
      const mine = effectsOf(READ, { selected: user('p'), profiles, env });
      assert.deepEqual(mine.credentials, [
        { role: 'server', password: { from: 'environment variable P_PASS (passwordEnv of the profile)', supplier: 'user' } },
      ]);
      assert.deepEqual(mine.env, [{ name: 'P_PASS', use: 'password', supplier: 'user' }]);
      const theirs = effectsOf(READ, { selected: user('p'), profiles, env, workspaceProfiles: ['p'] });
      assert.deepEqual(theirs.env, [{ name: 'P_PASS', use: 'password', supplier: 'workspace' }]);
      const secret = effectsOf(READ, { selected: user('q'), profiles, storedPassword: 's', workspaceProfiles: ['q'] });
      assert.deepEqual(secret.credentials, [{ role: 'server', password: { from: 'the password you stored for this target', supplier: 'workspace' } }]);
    });

    it("a password stored with Set Password, used because nothing else names one, is the user's", () => {
      const effects = effectsOf(READ, { selected: user('redis://127.0.0.1:6399'), storedPassword: 's' });
      assert.deepEqual(effects.credentials, [{ role: 'server', password: { from: 'the password you stored for this target', supplier: 'user' } }]);
      assert.equal(needsConsent(effects), false);
    });

    it("the file's password env wins over the profile's", () => {
      const profiles = { p: { url: 'redis://127.0.0.1:6399', passwordEnv: 'P_PASS' } };
      const effects = effectsOf(`password env:MINE\n${READ}`, { selected: user('p'), profiles, env: { P_PASS: 'x', MINE: 'y' } });
      assert.deepEqual(effects.env, [{ name: 'MINE', use: 'password', supplier: 'file' }]);
    });

    it("the sentinels' own user and password", () => {
      const text = `target redis-sentinel://10.0.0.7:26379/cache\nsentinel-user \${env:S_USER}\nsentinel-password env:S_PASS\n${READ}`;
      const effects = effectsOf(text, { env: { S_USER: 'watcher', S_PASS: 'x' } });
      assert.deepEqual(effects.credentials, [
        {
          role: 'sentinels',
          user: { name: 'watcher', from: "the file's sentinel-user line (from environment variable S_USER)", supplier: 'file' },
          password: { from: "environment variable S_PASS (the file's password env:S_PASS)", supplier: 'file' },
        },
      ]);
      assert.deepEqual(effects.env, [
        { name: 'S_PASS', use: 'sentinel password', supplier: 'file' },
        { name: 'S_USER', use: 'sentinel user name', supplier: 'file' },
      ]);
    });

    it('a Sentinel target without credentials lists none; a stored password goes to the data nodes only', () => {
      assert.deepEqual(effectsOf(`target redis-sentinel://10.0.0.7:26379/cache\n${READ}`).credentials, []);
      const profiles = { s: { url: 'redis-sentinel://127.0.0.1:26379/cache', sentinelUser: 'watcher' } };
      const effects = effectsOf(READ, { selected: user('s'), profiles, storedPassword: 'pw' });
      assert.deepEqual(effects.credentials, [
        { role: 'server', password: { from: 'the password you stored for this target', supplier: 'user' } },
        { role: 'sentinels', user: { name: 'watcher', from: 'profile "s"', supplier: 'user' } },
      ]);
    });

    it("a profile's sentinel user, literal", () => {
      const profiles = { s: { url: 'redis-sentinel://127.0.0.1:26379/cache', sentinelUser: 'watcher' } };
      const effects = effectsOf(READ, { selected: user('s'), profiles, workspaceProfiles: ['s'] });
      assert.deepEqual(effects.credentials, [{ role: 'sentinels', user: { name: 'watcher', from: 'profile "s"', supplier: 'workspace' } }]);
    });
  });

  describe('environment values on the wire', () => {
    it('SNI, the database number and every value written, by variable', () => {
      const text = `target redis://10.0.0.5:6379\ntls-servername \${env:SNI}\ndb \${env:DB}\n### s\nrequests 10\nvalue-fill \${env:FILL}\nSET k __value__\n`;
      const effects = effectsOf(text, { env: { SNI: 'a.example', DB: '2', FILL: 'secret' } });
      const env = effects.env.map((item) => `${item.name}: ${item.use} (${item.supplier})`).sort();
      assert.deepEqual(env, ['DB: database number (file)', 'FILL: every value written (file)', 'SNI: TLS server name (SNI, sent in clear) (file)']);
    });

    it("a variable the user lets into commands is listed as the user's, only when the file uses it", () => {
      const text = `target redis://10.0.0.5:6379\n### s\nrequests 10\nECHO \${env:TOKEN}\n`;
      const effects = effectsOf(text, { env: { TOKEN: 't' }, allowEnv: ['TOKEN', 'OTHER'] });
      assert.deepEqual(effects.env, [{ name: 'TOKEN', use: 'commands', supplier: 'user' }]);
      assert.ok(consentQuestion(effects, 's').lines.includes('Sends environment variable TOKEN: in commands (yours)'));
    });
  });

  describe('TLS weakened or replaced by the file', () => {
    const tlsProfile = { tlsp: { url: 'rediss://127.0.0.1:6399', tls: { ca: __filename } } };

    it('tls-insecure on in the file', () => {
      assert.deepEqual(effectsOf(`target redis://10.0.0.5:6379\ntls-insecure on\n${READ}`).tls, [
        { item: "the server's certificate is not verified (tls-insecure on)", supplier: 'file' },
      ]);
    });

    it('tls-insecure with TLS off sends nothing unverified: not listed', () => {
      const effects = effectsOf(`target redis://10.0.0.5:6379\ntls off\ntls-insecure on\n${READ}`);
      assert.deepEqual(effects.tls, []);
    });

    it("the file's TLS settings replace a profile's; tls off turns a profile's TLS off", () => {
      const text = `tls-servername other.example\n${READ}`;
      const effects = effectsOf(text, { selected: user('tlsp'), profiles: tlsProfile });
      assert.deepEqual(effects.tls, [
        { item: 'the file\'s TLS settings replace those of profile "tlsp"', supplier: 'file' },
        { item: 'TLS server name other.example (tls-servername in the file)', supplier: 'file' },
      ]);
      const off = effectsOf(`tls off\n${READ}`, { selected: user('plain'), profiles: { plain: { url: 'rediss://127.0.0.1:6399' } } });
      assert.deepEqual(off.tls, [{ item: 'TLS is turned off (tls off in the file)', supplier: 'file' }]);
      const offProfileTls = effectsOf(`tls off\n${READ}`, { selected: user('tlsp'), profiles: { tlsp: { url: 'redis://127.0.0.1:6399', tls: {} } } });
      assert.deepEqual(
        offProfileTls.tls.map((item) => item.item),
        ['the file\'s TLS settings replace those of profile "tlsp"', 'TLS is turned off (tls off in the file)'],
      );
    });

    it('a CA from the file is listed', () => {
      const effects = effectsOf(`target rediss://10.0.0.5:6379\ntls-ca ${__filename}\n${READ}`);
      assert.deepEqual(effects.tls, [{ item: `trusts the CA certificate ${__filename} (tls-ca in the file)`, supplier: 'file' }]);
    });

    it('a client certificate from the file is listed, with its key: its content goes to the server', () => {
      const effects = effectsOf(`target rediss://10.0.0.5:6379\ntls-cert ${__filename}\ntls-key ${__filename}\n${READ}`);
      assert.deepEqual(effects.tls, [
        { item: `sends the client certificate ${__filename} (tls-cert in the file, signed with tls-key ${__filename})`, supplier: 'file' },
      ]);
    });

    it("a profile's own tls-insecure is listed as its supplier's, and the profile's other TLS settings are not", () => {
      const profiles = { lab: { url: 'rediss://127.0.0.1:6399', tls: { insecure: true, servername: 'lab.example' } } };
      assert.deepEqual(effectsOf(READ, { selected: user('lab'), profiles }).tls, [
        { item: "the server's certificate is not verified (tls-insecure on)", supplier: 'user' },
      ]);
      assert.deepEqual(effectsOf(READ, { selected: user('lab'), profiles, workspaceProfiles: ['lab'] }).tls[0].supplier, 'workspace');
      assert.deepEqual(effectsOf(READ, { selected: user('tlsp'), profiles: tlsProfile }).tls, []);
      // The file's TLS settings replace the profile's, tls-insecure included: verified again.
      const replaced = effectsOf(`tls-servername lab.example\n${READ}`, { selected: user('lab'), profiles });
      assert.deepEqual(
        replaced.tls.map((item) => item.item),
        ['the file\'s TLS settings replace those of profile "lab"', 'TLS server name lab.example (tls-servername in the file)'],
      );
    });
  });

  describe('commands', () => {
    it('every command by class, cleanup patterns and destructive ones', () => {
      const effects = effectsOf(`target redis://10.0.0.5:6379\ncleanup bench:*\n### s\nrequests 10\nGET k\nMGET a b\nSET k v\nFLUSHALL\nEVAL "return 1" 0\n`);
      assert.deepEqual(effects.commands, {
        read: ['GET', 'MGET'],
        write: ['SET', 'FLUSHALL', 'cleanup bench:*'],
        dangerous: ['FLUSHALL'],
        scripting: ['EVAL'],
      });
      assert.deepEqual(effects.writePatterns, ['k', 'bench:*']);
      assert.deepEqual(effects.destructive, [
        'FLUSHALL wipes every key of every database',
        'EVAL runs or installs server-side code that may touch any key',
        "`cleanup bench:*` deletes keys beyond the scenario's own k",
      ]);
      // SET k writes k, it does not delete it: the question says writes (it said "Deletes keys matching: k").
      const lines = consentQuestion(effects, 's').lines;
      assert.ok(lines.includes('Writes keys matching: k, bench:*'), lines.join('\n'));
    });
  });
});

/** Effects built by hand, for the rules. */
function effects(more: Partial<RunEffects> = {}): RunEffects {
  return {
    file: 'f.rbench',
    target: { display: 'redis://127.0.0.1:6379', supplier: 'user', via: ['you selected it'] },
    hosts: ['127.0.0.1:6379'],
    credentials: [],
    env: [],
    tls: [],
    commands: { read: ['GET'] },
    writePatterns: [],
    destructive: [],
    ...more,
  };
}

describe('consent: when it asks', () => {
  it('only reads: read and blocking classes, no cleanup, nothing destructive', () => {
    assert.equal(onlyReads(effects()), true);
    assert.equal(onlyReads(effects({ commands: { read: ['XREAD'], blocking: ['XREAD'] } })), true);
    assert.equal(onlyReads(effects({ commands: {} })), true);
    assert.equal(onlyReads(effects({ commands: { read: ['GET'], write: [] } })), true, 'an empty class is no class');
    assert.equal(onlyReads(effects({ commands: { read: ['GET'], write: ['SET'] } })), false);
    for (const kind of ['dangerous', 'scripting', 'admin'] as const) assert.equal(onlyReads(effects({ commands: { [kind]: ['X'] } })), false, kind);
    assert.equal(onlyReads(effects({ writePatterns: ['x:*'] })), false);
    assert.equal(onlyReads(effects({ destructive: ['FLUSHDB'] })), false);
  });

  it("not for reads on the user's own target with nothing from the file or the workspace", () => {
    assert.equal(needsConsent(effects()), false);
    const mine = effects({
      credentials: [{ role: 'server', user: { name: 'u', from: 'x', supplier: 'user' }, password: { from: 'y', supplier: 'user' } }],
      env: [{ name: 'P', use: 'password', supplier: 'user' }],
      tls: [{ item: 'x', supplier: 'user' }],
    });
    assert.equal(needsConsent(mine), false);
  });

  it('for a target from the file or the workspace, loopback included', () => {
    assert.equal(needsConsent(effects({ target: { display: 'redis://127.0.0.1:6379', supplier: 'file', via: [] } })), true);
    assert.equal(needsConsent(effects({ target: { display: 'redis://127.0.0.1:6379', supplier: 'workspace', via: [] } })), true);
  });

  it("for anything but reads on the user's own target", () => {
    assert.equal(needsConsent(effects({ commands: { write: ['SET'] } })), true);
    assert.equal(needsConsent(effects({ writePatterns: ['x:*'] })), true);
  });

  it('for any credential, variable or TLS item from the file or the workspace', () => {
    for (const supplier of ['file', 'workspace'] as const) {
      assert.equal(needsConsent(effects({ credentials: [{ role: 'server', user: { name: 'u', from: 'x', supplier } }] })), true);
      assert.equal(needsConsent(effects({ credentials: [{ role: 'server', password: { from: 'x', supplier } }] })), true);
      assert.equal(
        needsConsent(effects({ credentials: [{ role: 'sentinels', user: { name: 'u', from: 'x', supplier: 'user' }, password: { from: 'x', supplier } }] })),
        true,
      );
      assert.equal(needsConsent(effects({ env: [{ name: 'X', use: 'value', supplier }] })), true);
      assert.equal(needsConsent(effects({ tls: [{ item: 'x', supplier }] })), true);
    }
  });

  it("for the real cases: a file naming loopback asks; the user's selected loopback with reads does not", () => {
    assert.equal(needsConsent(effectsOf(`target redis://127.0.0.1:6379\n${READ}`)), true);
    assert.equal(needsConsent(effectsOf(READ, { selected: user('redis://127.0.0.1:6379') })), false);
    assert.equal(needsConsent(effectsOf(`tls-insecure on\n${READ}`, { selected: user('rediss://127.0.0.1:6379') })), true);
    assert.equal(needsConsent(effectsOf('### s\nrequests 10\nSET k v\n', { selected: user('redis://127.0.0.1:6379') })), true);
  });
});

describe('consent: the question', () => {
  it('lists every effect, one item per line', () => {
    const question = consentQuestion(
      effects({
        target: {
          display: 'redis-sentinel://10.0.0.7:26379/cache',
          supplier: 'workspace',
          via: ['the workspace selects it', 'profile "c" is defined in the workspace settings'],
        },
        hosts: ['10.0.0.7:26379'],
        nodeRule: 'sentinels 10.0.0.7:26379, and a primary they name on 10.0.0.7',
        credentials: [
          {
            role: 'server',
            user: { name: 'u', from: 'profile "c"', supplier: 'workspace' },
            password: { from: 'environment variable P', supplier: 'workspace' },
          },
          { role: 'sentinels', user: { name: 'w', from: 'the file', supplier: 'file' } },
        ],
        env: [{ name: 'P', use: 'password', supplier: 'workspace' }],
        tls: [{ item: "the server's certificate is not verified (tls-insecure on)", supplier: 'file' }],
        commands: { blocking: ['BLPOP'], read: ['GET', 'MGET'], write: ['SET', 'BLPOP'], admin: ['CLIENT KILL'], scripting: ['EVAL'], dangerous: ['FLUSHALL'] },
        writePatterns: ['bench:*'],
        destructive: ['FLUSHALL'],
      }),
      'reads',
    );
    assert.equal(question.message, 'Run "reads" from f.rbench against redis-sentinel://10.0.0.7:26379/cache?');
    assert.deepEqual(question.lines, [
      'Target: redis-sentinel://10.0.0.7:26379/cache (from the workspace settings: the workspace selects it; profile "c" is defined in the workspace settings)',
      'Connects to: sentinels 10.0.0.7:26379, and a primary they name on 10.0.0.7',
      'Server user: u (profile "c"; from the workspace settings)',
      'Server password: environment variable P (from the workspace settings)',
      'Sentinels user: w (the file; from the file)',
      'Sends environment variable P: as the password (from the workspace settings)',
      "TLS: the server's certificate is not verified (tls-insecure on)",
      'Reads: GET, MGET',
      'Writes: SET, BLPOP',
      'Wipes data: FLUSHALL',
      'Runs scripts: EVAL',
      'Administers the server: CLIENT KILL',
      'Blocks: BLPOP',
      'Writes keys matching: bench:*',
      'Can destroy keys it did not create: FLUSHALL',
    ]);
  });

  it("says yours for the user's own pieces, and leaves out what is absent", () => {
    const question = consentQuestion(effects({ commands: { read: ['GET'], write: [] } }), 's');
    assert.deepEqual(question.lines, ['Target: redis://127.0.0.1:6379 (yours: you selected it)', 'Connects to: 127.0.0.1:6379', 'Reads: GET']);
  });

  it('a request carries the digest and the question', () => {
    const request = consentRequest(effects(), 's');
    assert.equal(request.digest, effectsDigest(effects()));
    assert.equal(request.scenario, 's');
    assert.deepEqual(request.question, consentQuestion(effects(), 's'));
  });
});

describe('consent: the digest', () => {
  it('is a sha256 in hex, the same for equal effects and for the same effects listed in another order', () => {
    const digest = effectsDigest(effects());
    assert.match(digest, /^[0-9a-f]{64}$/);
    assert.equal(effectsDigest(effects()), digest);
    const a = effects({
      hosts: ['a:1', 'b:2'],
      commands: { read: ['GET', 'MGET'], write: ['SET', 'DEL'] },
      env: [
        { name: 'A', use: 'x', supplier: 'file' },
        { name: 'B', use: 'y', supplier: 'user' },
      ],
    });
    const b = effects({
      hosts: ['b:2', 'a:1'],
      commands: { write: ['DEL', 'SET', 'SET'], read: ['MGET', 'GET'] },
      env: [
        { supplier: 'user', use: 'y', name: 'B' },
        { name: 'A', use: 'x', supplier: 'file' },
      ],
    });
    assert.equal(effectsDigest(a), effectsDigest(b));
    assert.equal(effectsDigest(effects({ commands: { read: ['GET'], write: [] } })), digest, 'an empty class is no class');
    assert.equal(effectsDigest(effects({ nodeRule: undefined })), digest);
  });

  it('changes when the file changes what it does (seen 7: FLUSHALL and password env:GITHUB_TOKEN after a read-only version)', () => {
    const before = effectsOf(`target redis://192.0.2.1:6379\n${READ}`);
    const after = effectsOf(`target redis://192.0.2.1:6379\npassword env:GITHUB_TOKEN\n### s\nrequests 10\nGET k\nFLUSHALL\n`, { env: { GITHUB_TOKEN: 'x' } });
    assert.notEqual(effectsDigest(before), effectsDigest(after));
    assert.equal(
      effectsDigest(effectsOf(`target redis://192.0.2.1:6379\n### other name\nrequests 99\nGET k\n`)),
      effectsDigest(before),
      'names and numbers are not effects',
    );
  });

  const word = fc.stringMatching(/^[A-Za-z0-9:*._-]{1,12}$/);
  const supplier = fc.constantFrom('file' as const, 'workspace' as const, 'user' as const);
  const arbitraryEffects: fc.Arbitrary<RunEffects> = fc.record({
    file: word,
    target: fc.record({ display: word, supplier, via: fc.uniqueArray(word, { maxLength: 3 }) }),
    hosts: fc.uniqueArray(word, { minLength: 1, maxLength: 4 }),
    nodeRule: fc.option(word, { nil: undefined }),
    credentials: fc.uniqueArray(
      fc.record({
        role: fc.constantFrom('server' as const, 'sentinels' as const),
        user: fc.option(fc.record({ name: word, from: word, supplier }), { nil: undefined }),
        password: fc.option(fc.record({ from: word, supplier }), { nil: undefined }),
      }),
      { maxLength: 2, selector: (credential) => credential.role },
    ),
    env: fc.uniqueArray(fc.record({ name: word, use: word, supplier }), { maxLength: 4, selector: (item) => item.name }),
    tls: fc.uniqueArray(fc.record({ item: word, supplier }), { maxLength: 3, selector: (item) => item.item }),
    commands: fc.record(
      {
        read: fc.uniqueArray(word, { minLength: 1, maxLength: 4 }),
        write: fc.uniqueArray(word, { minLength: 1, maxLength: 4 }),
        admin: fc.uniqueArray(word, { minLength: 1, maxLength: 2 }),
      },
      { requiredKeys: [] },
    ),
    writePatterns: fc.uniqueArray(word, { maxLength: 3 }),
    destructive: fc.uniqueArray(word, { maxLength: 3 }),
  });

  /** Every way to change one field of the effects, as a function that returns the changed copy (or undefined when the change is not possible here). */
  const changes: ((e: RunEffects, w: string) => RunEffects | undefined)[] = [
    (e, w) => (w === e.file ? undefined : { ...e, file: w }),
    (e, w) => (w === e.target.display ? undefined : { ...e, target: { ...e.target, display: w } }),
    (e) => ({ ...e, target: { ...e.target, supplier: e.target.supplier === 'file' ? 'user' : 'file' } }),
    (e, w) => (e.target.via.includes(w) ? undefined : { ...e, target: { ...e.target, via: [...e.target.via, w] } }),
    (e, w) => (e.hosts.includes(w) ? undefined : { ...e, hosts: [...e.hosts, w] }),
    (e) => (e.hosts.length > 1 ? { ...e, hosts: e.hosts.slice(1) } : undefined),
    (e, w) => (w === e.nodeRule ? undefined : { ...e, nodeRule: w }),
    (e) => (e.nodeRule === undefined ? undefined : { ...e, nodeRule: undefined }),
    (e, w) => ({ ...e, credentials: e.credentials.length > 0 ? e.credentials.slice(1) : [{ role: 'server', user: { name: w, from: w, supplier: 'file' } }] }),
    (e) =>
      e.credentials[0]?.password
        ? {
            ...e,
            credentials: [
              { ...e.credentials[0], password: { ...e.credentials[0].password, supplier: e.credentials[0].password.supplier === 'user' ? 'file' : 'user' } },
              ...e.credentials.slice(1),
            ],
          }
        : undefined,
    (e, w) =>
      e.credentials[0]?.user && e.credentials[0].user.name !== w
        ? { ...e, credentials: [{ ...e.credentials[0], user: { ...e.credentials[0].user, name: w } }, ...e.credentials.slice(1)] }
        : undefined,
    (e, w) => (e.env.some((item) => item.name === w) ? undefined : { ...e, env: [...e.env, { name: w, use: 'password', supplier: 'file' }] }),
    (e) => (e.env.length > 0 ? { ...e, env: [{ ...e.env[0], supplier: e.env[0].supplier === 'user' ? 'workspace' : 'user' }, ...e.env.slice(1)] } : undefined),
    (e, w) => (e.env.length > 0 && e.env[0].use !== w ? { ...e, env: [{ ...e.env[0], use: w }, ...e.env.slice(1)] } : undefined),
    (e, w) => (e.tls.some((item) => item.item === w) ? undefined : { ...e, tls: [...e.tls, { item: w, supplier: 'file' }] }),
    (e) => (e.tls.length > 0 ? { ...e, tls: [{ ...e.tls[0], supplier: e.tls[0].supplier === 'user' ? 'file' : 'user' }, ...e.tls.slice(1)] } : undefined),
    (e, w) => ((e.commands.write ?? []).includes(w) ? undefined : { ...e, commands: { ...e.commands, write: [...(e.commands.write ?? []), w] } }),
    (e, w) => ((e.commands.dangerous ?? []).includes(w) ? undefined : { ...e, commands: { ...e.commands, dangerous: [w] } }),
    (e) => (e.commands.read && e.commands.read.length > 0 ? { ...e, commands: { ...e.commands, read: e.commands.read.slice(1) } } : undefined),
    (e) =>
      e.commands.read?.length === 1 && !(e.commands.write ?? []).includes(e.commands.read[0])
        ? { ...e, commands: { ...e.commands, read: undefined, write: [...(e.commands.write ?? []), e.commands.read[0]] } }
        : undefined,
    (e, w) => (e.writePatterns.includes(w) ? undefined : { ...e, writePatterns: [...e.writePatterns, w] }),
    (e, w) => (e.destructive.includes(w) ? undefined : { ...e, destructive: [...e.destructive, w] }),
  ];

  it('property: any change to a field of the effects changes the digest', () => {
    fc.assert(
      fc.property(arbitraryEffects, fc.nat(changes.length - 1), word, (base, which, w) => {
        const changed = changes[which](base, w);
        fc.pre(changed !== undefined);
        assert.notEqual(effectsDigest(changed!), effectsDigest(base), JSON.stringify({ base, changed }));
      }),
      { numRuns: 600, seed: 18 },
    );
  });

  it('property: listing commands, hosts, variables, credentials or TLS items in another order (or twice) keeps the digest', () => {
    fc.assert(
      fc.property(arbitraryEffects, fc.integer(), (base, seed) => {
        const shuffle = <T>(items: readonly T[]): T[] => {
          const copy = [...items];
          let state = seed;
          for (let i = copy.length - 1; i > 0; i--) {
            state = (state * 1103515245 + 12345) & 0x7fffffff;
            const j = state % (i + 1);
            [copy[i], copy[j]] = [copy[j], copy[i]];
          }
          return copy;
        };
        const commands = Object.fromEntries(shuffle(Object.entries(base.commands)).map(([kind, list]) => [kind, shuffle([...list!, ...list!.slice(0, 1)])]));
        const permuted: RunEffects = {
          ...base,
          target: { ...base.target, via: shuffle(base.target.via) },
          hosts: shuffle(base.hosts),
          credentials: shuffle(base.credentials),
          env: shuffle(base.env).map((item) => ({ supplier: item.supplier, use: item.use, name: item.name })),
          tls: shuffle(base.tls),
          commands,
          writePatterns: shuffle(base.writePatterns),
          destructive: shuffle(base.destructive),
        };
        assert.equal(effectsDigest(permuted), effectsDigest(base));
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});

describe('consent: the edges (mutation tests, issue 18)', () => {
  /** runEffects of READ on a URL the user selected, built by hand so optional inputs can be left out. */
  function bare(more: { profile?: string; profiles?: Record<string, ConnectionProfile>; allowEnv?: string[]; text?: string } = {}): RunEffects {
    const plan = checkText(READ, { env: {} }).scenarios[0];
    const profiles = more.profiles ?? {};
    const choice = chooseTarget(
      plan.target,
      more.profile !== undefined ? { kind: 'profile', name: more.profile } : { kind: 'url', url: 'redis://127.0.0.1:6399' },
    );
    const connection = connectionFor(choice, { profiles, env: {} });
    assert.ok(connection.options, connection.error);
    return runEffects({
      file: 'f',
      plan,
      actions: scenarioActions(plan),
      choice: { source: 'selected', target: choice.target },
      profiles,
      connection: { display: connection.display, options: connection.options },
      allowEnv: more.allowEnv,
      text: more.text,
    });
  }

  it('a profile without workspaceProfiles given is the user\'s; a profile named "undefined" is not taken for no profile', () => {
    const profiles = { p: { url: 'redis://bob@127.0.0.1:6399' } };
    const effects = bare({ profile: 'p', profiles });
    assert.equal(effects.target.supplier, 'user');
    assert.deepEqual(effects.credentials, [{ role: 'server', user: { name: 'bob', from: 'the target URL', supplier: 'user' } }]);
    const odd = { undefined: { url: 'rediss://127.0.0.1:6399', user: 'mallory', tls: { insecure: true } } };
    const plain = effectsOf(`tls off\n${READ}`, { selected: user('redis://alice@127.0.0.1:6399'), profiles: odd });
    assert.deepEqual(plain.credentials, [{ role: 'server', user: { name: 'alice', from: 'the target URL', supplier: 'user' } }]);
    assert.deepEqual(plain.tls, []);
  });

  it('allowEnv or the text left out: no variable in commands, and no failure', () => {
    assert.deepEqual(bare({ text: '${env:X}' }).env, []);
    assert.deepEqual(bare({ allowEnv: ['X'] }).env, []);
    assert.deepEqual(bare({ allowEnv: ['X'], text: 'ECHO ${env:X}' }).env, [{ name: 'X', use: 'commands', supplier: 'user' }]);
  });

  it('a variable in commands is listed beside others, and once when it is also the password', () => {
    const text = `target redis://10.0.0.5:6379\npassword env:P\n### s\nrequests 10\nECHO \${env:TOKEN}\n`;
    assert.deepEqual(effectsOf(text, { env: { P: 'x', TOKEN: 't' } }).env, [
      { name: 'P', use: 'password', supplier: 'file' },
      { name: 'TOKEN', use: 'commands', supplier: 'user' },
    ]);
    const twice = `target redis://10.0.0.5:6379\npassword env:TOKEN\n### s\nrequests 10\nECHO \${env:TOKEN}\n`;
    assert.deepEqual(effectsOf(twice, { env: { TOKEN: 't' } }).env, [{ name: 'TOKEN', use: 'password', supplier: 'file' }]);
  });

  it("the URL's user is not said to come from another setting's variable", () => {
    const effects = effectsOf(`target redis://bob@10.0.0.5:6379\ndb \${env:DB}\n${READ}`, { env: { DB: '1' } });
    assert.deepEqual(effects.credentials, [{ role: 'server', user: { name: 'bob', from: 'the target URL', supplier: 'file' } }]);
  });

  it('a user made of two variables names both', () => {
    const effects = effectsOf(`target redis://10.0.0.5:6379\nuser \${env:A}\${env:B}\n${READ}`, { env: { A: 'u', B: 'v' } });
    assert.equal(effects.credentials[0].user?.from, "the file's user line (from environment variable A, environment variable B)");
    const sentinel = effectsOf(`target redis-sentinel://10.0.0.7:26379/cache\nsentinel-user \${env:A}\${env:B}\n${READ}`, { env: { A: 'u', B: 'v' } });
    assert.equal(sentinel.credentials[0].user?.from, "the file's sentinel-user line (from environment variable A, environment variable B)");
  });

  it("the sentinels' literal user, and a password without a user", () => {
    const literal = effectsOf(`target redis-sentinel://10.0.0.7:26379/cache\nsentinel-user watcher\n${READ}`);
    assert.deepEqual(literal.credentials, [{ role: 'sentinels', user: { name: 'watcher', from: "the file's sentinel-user line", supplier: 'file' } }]);
    const passwordOnly = effectsOf(`target redis-sentinel://10.0.0.7:26379/cache\nsentinel-password env:S_PASS\n${READ}`, { env: { S_PASS: 'x' } });
    assert.deepEqual(passwordOnly.credentials, [
      { role: 'sentinels', password: { from: "environment variable S_PASS (the file's password env:S_PASS)", supplier: 'file' } },
    ]);
    const stored = effectsOf(`target redis-sentinel://10.0.0.7:26379/cache\nsentinel-password secret\n${READ}`, { storedPassword: 's' });
    assert.deepEqual(
      stored.credentials.find((c) => c.role === 'sentinels'),
      { role: 'sentinels', password: { from: 'the password you stored for this target', supplier: 'file' } },
    );
    assert.deepEqual(stored.env, []);
  });

  it('TLS file paths from variables', () => {
    const text = `target rediss://10.0.0.5:6379\ntls-ca \${env:CA}\ntls-cert \${env:CERT}\ntls-key \${env:KEY}\n${READ}`;
    const effects = effectsOf(text, { env: { CA: __filename, CERT: __filename, KEY: __filename } });
    assert.deepEqual(effects.env.map((item) => `${item.name}: ${item.use}`).sort(), [
      'CA: TLS CA file path',
      'CERT: TLS client certificate path',
      'KEY: TLS client key path',
    ]);
  });

  it("tls off names a profile's TLS only when its URL starts with rediss", () => {
    const effects = effectsOf(`tls off\n${READ}`, { selected: user('p'), profiles: { p: { url: 'redis://rediss.example:6399' } } });
    assert.deepEqual(effects.tls, []);
    const upper = effectsOf(`tls off\n${READ}`, { selected: user('p'), profiles: { p: { url: 'REDISS://127.0.0.1:6399' } } });
    assert.deepEqual(upper.tls, [{ item: 'TLS is turned off (tls off in the file)', supplier: 'file' }]);
  });

  it('no node rule: no nodeRule key at all; a network rule with no further hosts is none', () => {
    assert.ok(!('nodeRule' in effectsOf(`target redis://10.0.0.5:6380\n${READ}`)));
    assert.equal(nodeRule({ host: 'h', port: 1, resp: 2, connectTimeoutMs: 1, network: { seeds: [], allowHosts: [] } }), undefined);
  });

  it('onlyReads skips a class listed as undefined', () => {
    assert.equal(onlyReads(effects({ commands: { read: ['GET'], write: undefined } })), true);
  });

  it('the question joins hosts and destructive items with commas, and lists a password without a user', () => {
    const question = consentQuestion(
      effects({
        hosts: ['a:1', 'b:2'],
        credentials: [{ role: 'server', password: { from: 'the target URL', supplier: 'user' } }],
        destructive: ['FLUSHALL x', 'FLUSHDB y'],
      }),
      's',
    );
    assert.deepEqual(question.lines, [
      'Target: redis://127.0.0.1:6379 (yours: you selected it)',
      'Connects to: a:1, b:2',
      'Server password: the target URL (yours)',
      'Reads: GET',
      'Can destroy keys it did not create: FLUSHALL x, FLUSHDB y',
    ]);
  });

  it('the digest is the sha256 of a fixed canonical text (answers stored under it stay valid)', () => {
    const given = effects({
      hosts: ['b:2', 'a:1'],
      credentials: [{ role: 'server', user: undefined, password: { supplier: 'file', from: 'x' } }],
      commands: { write: ['SET', 'DEL'], read: ['GET'] },
    });
    const text =
      '{"commands":{"read":["GET"],"write":["DEL","SET"]},' +
      '"credentials":["{\\"password\\":{\\"from\\":\\"x\\",\\"supplier\\":\\"file\\"},\\"role\\":\\"server\\"}"],' +
      '"destructive":[],"env":[],"file":"f.rbench","hosts":["a:1","b:2"],"nodeRule":null,' +
      '"target":{"display":"redis://127.0.0.1:6379","supplier":"user","via":["you selected it"]},"tls":[],"writePatterns":[]}';
    assert.equal(effectsDigest(given), createHash('sha256').update(text).digest('hex'));
  });
});

describe('consent: connections beyond one per client', () => {
  it('a read-only run on your own target still asks when it reconnects per request or holds idle connections, and says so', () => {
    const selected = { selected: user('redis://127.0.0.1:6399') };
    assert.equal(needsConsent(effectsOf(READ, selected)), false, 'the reference: reads on your target do not ask');
    const effects = effectsOf('### s\nrequests 10\nreconnect every 1\nidle-connections 2000\nGET k\n', selected);
    assert.deepEqual(effects.connections, [
      'phase main: each client opens a new connection every 1 request',
      'phase main: 2,000 idle connections held beside the load',
    ]);
    assert.equal(needsConsent(effects), true);
    assert.ok(consentQuestion(effects, 's').lines.includes(`Connections beyond one per client: ${effects.connections!.join('; ')}`));
    // A file that raises its idle connections asks again; one without any keeps the digest it had.
    assert.notEqual(effectsDigest(effects), effectsDigest(effectsOf('### s\nrequests 10\nreconnect every 1\nidle-connections 3000\nGET k\n', selected)));
    assert.equal(effectsOf(READ, selected).connections, undefined);
  });

  it('a connect-only storm asks too, listed as such; the PING of its handshake is its only command', () => {
    const selected = { selected: user('redis://127.0.0.1:6399') };
    const effects = effectsOf('### s\nclients 10\nrequests 1000\nconnect-only on\n', selected);
    assert.deepEqual(effects.connections, ['phase main: connect-only, opens and closes a connection per request (no commands besides the handshake)']);
    assert.deepEqual(effects.commands, { read: ['PING'] });
    assert.equal(needsConsent(effects), true);
  });

  it('a storm group beside readers is listed by its group; the readers add nothing', () => {
    const selected = { selected: user('redis://127.0.0.1:6399') };
    const effects = effectsOf('### s\nrequests 100\nload storm background\nclients 10\nconnect-only on\nload readers\nGET k\n', selected);
    assert.deepEqual(effects.connections, [
      'phase main, group storm: connect-only, opens and closes a connection per request (no commands besides the handshake)',
    ]);
    assert.equal(needsConsent(effects), true);
  });
});

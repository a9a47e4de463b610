import assert from 'node:assert/strict';
import { chooseTarget, connectionFor, defaultTargetPlan, parseActiveTarget, readProfiles, secretKey, settingsPasswordError } from '../../../src/runner/targets';
import { activeSecretKey, describeActiveTarget, targetPickItems, validateTargetUrl } from '../../../src/editor/targetChoices';
import type { ConnectionProfile } from '../../../src/redis/types';
import { planOf } from '../editor/fixtures';

const PROFILES: Record<string, ConnectionProfile> = {
  staging: { url: 'redis://10.0.0.5:6380', label: 'Staging cache', readOnly: true },
  prod: { url: 'rediss://redis.example.com:6379', user: 'bench', passwordEnv: 'PROD_PASSWORD' },
};

describe('editor: the active target setting', () => {
  it('reads local, a profile name or a URL, and explains anything else', () => {
    assert.deepEqual(parseActiveTarget(undefined, PROFILES), { kind: 'local' });
    assert.deepEqual(parseActiveTarget(' local ', PROFILES), { kind: 'local' });
    assert.deepEqual(parseActiveTarget('staging', PROFILES), { kind: 'profile', name: 'staging' });
    assert.deepEqual(parseActiveTarget('redis://127.0.0.1:7000', PROFILES), { kind: 'url', url: 'redis://127.0.0.1:7000' });
    const invalid = parseActiveTarget('stagin', PROFILES);
    assert.equal(invalid.kind, 'invalid');
    assert.match(invalid.kind === 'invalid' ? invalid.error : '', /"stagin".*known: "staging", "prod"/);
    // Object prototype names are not profiles.
    assert.equal(parseActiveTarget('constructor', {}).kind, 'invalid');
  });

  it('names the target for the status bar', () => {
    assert.equal(describeActiveTarget({ kind: 'local' }, PROFILES), 'local');
    assert.equal(describeActiveTarget({ kind: 'profile', name: 'staging' }, PROFILES), 'Staging cache');
    assert.equal(describeActiveTarget({ kind: 'profile', name: 'prod' }, PROFILES), 'prod');
    assert.equal(describeActiveTarget({ kind: 'url', url: 'redis://alice@[::1]:7000/2' }, PROFILES), '[::1]:7000');
  });

  it('keeps well-formed profiles and reports the others', () => {
    const { profiles, problems } = readProfiles({ ok: { url: 'redis://h:1' }, broken: { host: 'h' } });
    assert.deepEqual(Object.keys(profiles), ['ok']);
    assert.deepEqual(problems, ['connection profile "broken" needs a "url" such as "redis://host:6379"']);
    assert.deepEqual(readProfiles(undefined).problems, []);
    assert.deepEqual(Object.keys(readProfiles(undefined).profiles), []);
  });
});

describe('editor: target precedence', () => {
  const plain = planOf('### p\nGET k\n').target;
  const ownUrl = planOf('target redis://10.1.1.1:6379\n### p\nGET k\n').target;
  const ownProfile = planOf('target prod\n### p\nGET k\n').target;

  it("uses the scenario's own target line before the selected target", () => {
    for (const active of [{ kind: 'local' } as const, { kind: 'profile', name: 'staging' } as const, { kind: 'url', url: 'redis://127.0.0.1:1' } as const]) {
      assert.deepEqual(chooseTarget(ownUrl, active), { source: 'scenario', target: ownUrl, local: false });
      assert.deepEqual(chooseTarget(ownProfile, active), { source: 'scenario', target: ownProfile, local: false });
    }
  });

  it('uses the selected profile or URL for a scenario without a target', () => {
    const byProfile = chooseTarget(plain, { kind: 'profile', name: 'staging' });
    assert.equal(byProfile.source, 'selected');
    assert.equal(byProfile.local, false);
    assert.equal(byProfile.target.profile, 'staging');
    const byUrl = chooseTarget(plain, { kind: 'url', url: 'redis://127.0.0.1:7000' });
    assert.equal(byUrl.target.url, 'redis://127.0.0.1:7000');
    assert.equal(byUrl.target.resp, plain.resp, 'the scenario’s other target settings stay');
  });

  it('falls back to a throwaway local server', () => {
    assert.deepEqual(chooseTarget(plain, { kind: 'local' }), { source: 'local', target: plain, local: true });
  });

  it('connects a local choice to the URL of the server started for it', () => {
    const resolved = connectionFor(chooseTarget(plain, { kind: 'local' }), { profiles: {}, env: {}, localUrl: 'redis://127.0.0.1:45678' });
    assert.equal(resolved.options?.port, 45678);
    assert.equal(resolved.display, 'redis://127.0.0.1:45678');
  });
});

describe('editor: passwords', () => {
  const plain = planOf('### p\nGET k\n').target;

  it('refuses a password written in the settings', () => {
    const withPassword = { ...PROFILES, leaky: { url: 'redis://:hunter2@10.0.0.9:6379' } };
    assert.match(
      settingsPasswordError(chooseTarget(plain, { kind: 'profile', name: 'leaky' }), withPassword) ?? '',
      /profile "leaky" holds a password.*Set Password/,
    );
    assert.match(
      settingsPasswordError(chooseTarget(plain, { kind: 'url', url: 'redis://:pw@10.0.0.9:6379' }), {}) ?? '',
      /rbench.target holds a URL with a password/,
    );
    const field = { bad: { url: 'redis://10.0.0.9:6379', password: 'x' } as ConnectionProfile };
    assert.match(settingsPasswordError(chooseTarget(plain, { kind: 'profile', name: 'bad' }), field) ?? '', /"password" in the settings/);
    assert.equal(settingsPasswordError(chooseTarget(plain, { kind: 'profile', name: 'staging' }), PROFILES), undefined);
  });

  it('rejects typed URLs with a password or of the wrong kind', () => {
    assert.equal(validateTargetUrl('redis://10.0.0.5:6379'), undefined);
    assert.match(validateTargetUrl('redis://:pw@10.0.0.5:6379') ?? '', /Set Password/);
    assert.match(validateTargetUrl('http://10.0.0.5') ?? '', /only redis:\/\/ and rediss:\/\//);
  });

  it('keys stored passwords by profile name, else by host:port', () => {
    assert.equal(secretKey({ profile: 'prod' }), 'rbench.password.profile.prod');
    assert.equal(secretKey({ url: 'redis://bob@10.0.0.5:6380/3' }), 'rbench.password.10.0.0.5:6380');
    assert.equal(secretKey({ url: 'redis://[::1]' }), 'rbench.password.[::1]:6379');
    assert.equal(secretKey({}), undefined);
    assert.equal(activeSecretKey({ kind: 'local' }), undefined);
    assert.equal(activeSecretKey({ kind: 'profile', name: 'staging' }), 'rbench.password.profile.staging');
  });

  it('uses a stored password when nothing else names one, and the environment variable when the profile does', () => {
    const stored = connectionFor(chooseTarget(plain, { kind: 'profile', name: 'staging' }), { profiles: PROFILES, env: {}, storedPassword: 's3cret' });
    assert.equal(stored.options?.password, 's3cret');
    const fromEnv = connectionFor(chooseTarget(plain, { kind: 'profile', name: 'prod' }), {
      profiles: PROFILES,
      env: { PROD_PASSWORD: 'from-env' },
      storedPassword: 'ignored',
    });
    assert.equal(fromEnv.options?.password, 'from-env');
    assert.equal(fromEnv.options?.username, 'bench');
    const none = connectionFor(chooseTarget(plain, { kind: 'url', url: 'redis://10.0.0.5' }), { profiles: {}, env: {} });
    assert.equal(none.options?.password, undefined);
  });

  it('explains `password secret` without a stored password', () => {
    const secretPlan = planOf('password secret\n### p\nGET k\n').target;
    const resolved = connectionFor(chooseTarget(secretPlan, { kind: 'url', url: 'redis://10.0.0.5' }), { profiles: {}, env: {} });
    assert.equal(resolved.options, undefined);
    assert.match(resolved.error ?? '', /RBench: Set Password/);
  });
});

describe('editor: Select Target choices', () => {
  it('lists each profile, the throwaway server, the current custom URL, Enter a URL… and Add connection profile…', () => {
    const items = targetPickItems(PROFILES, 'redis://127.0.0.1:7000');
    assert.deepEqual(
      items.map((item) => [item.label, item.value, item.picked]),
      [
        ['Staging cache', 'staging', false],
        ['prod', 'prod', false],
        ['Throwaway local redis-server', 'local', false],
        ['127.0.0.1:7000', 'redis://127.0.0.1:7000', true],
        ['Enter a URL…', { enterUrl: true }, false],
        ['Add connection profile…', { addProfile: true }, false],
      ],
    );
    assert.match(items[0].description ?? '', /read-only/);
    assert.equal(targetPickItems({}, undefined).find((item) => item.picked)?.value, 'local');
  });

  it('tests connections with the language’s default target settings', () => {
    const defaults = defaultTargetPlan();
    assert.equal(defaults.url, undefined);
    assert.equal(defaults.resp, 2);
    assert.ok(defaults.connectTimeoutMs > 0);
  });
});

// Settings are data too: connection profiles are read by own property, profile names that are prototype
// names are refused with a plain message, and a polluted Object.prototype names no password source.
import assert from 'node:assert/strict';
import { connectionFor, readProfiles } from '../../../src/runner/targets';
import { validateProfileName } from '../../../src/editor/targetChoices';
import { ownField } from '../../../src/gates/plainData';
import { resolveConnection } from '../../../src/redis/target';
import type { TargetPlan } from '../../../src/scenario/plan';

const plan = (fields: Partial<TargetPlan> = {}): TargetPlan => ({ cluster: false, resp: 2, client: 'fast', connectTimeoutMs: 2000, ...fields });
const ENV = { SOME_SECRET: 'hunter2' };

describe('gate: settings are data', () => {
  it('refuses profiles named like prototype machinery, naming the profile and the fix', () => {
    const raw = JSON.parse(
      '{"constructor":{"url":"redis://h:1"},"__proto__":{"url":"redis://h:2"},"toString":{"url":"redis://h:3"},"ok":{"url":"redis://h:4"}}',
    ) as unknown;
    const { profiles, problems } = readProfiles(raw);
    assert.deepEqual(Object.keys(profiles), ['ok']);
    assert.deepEqual(problems, [
      'connection profile "constructor" is ignored: the name is reserved by JavaScript — rename the profile in rbench.profiles',
      'connection profile "__proto__" is ignored: the name is reserved by JavaScript — rename the profile in rbench.profiles',
      'connection profile "toString" is ignored: the name is reserved by JavaScript — rename the profile in rbench.profiles',
    ]);
    assert.equal(profiles.constructor, undefined);
  });

  it('"Add connection profile" refuses a prototype name', () => {
    assert.equal(validateProfileName('constructor', {}), '"constructor" is reserved by JavaScript: pick another name');
    assert.equal(validateProfileName('valueOf', {}), '"valueOf" is reserved by JavaScript: pick another name');
    assert.equal(validateProfileName('Constructor', {}), undefined);
  });

  it('a profile reads its own fields only: a passwordEnv on its prototype or under __proto__ is ignored', () => {
    const inherited = Object.create({ passwordEnv: 'SOME_SECRET' }) as Record<string, unknown>;
    inherited.url = 'redis://127.0.0.1:6379';
    const raw = { inherited, hidden: JSON.parse('{"url":"redis://127.0.0.1:6380","__proto__":{"passwordEnv":"SOME_SECRET"}}') as unknown };
    const { profiles, problems } = readProfiles(raw);
    assert.deepEqual(problems, []);
    for (const name of ['inherited', 'hidden']) {
      assert.equal(profiles[name].passwordEnv, undefined, name);
      const resolved = connectionFor({ source: 'selected', target: plan({ profile: name }), local: false }, { profiles, env: ENV });
      assert.equal(resolved.error, undefined, name);
      assert.equal(resolved.options?.password, undefined, name);
    }
  });

  it('a profile named constructor (or any prototype name) is unknown, not Object', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const resolved = resolveConnection(plan({ profile: name }), { env: ENV, profiles: {} });
      assert.match(resolved.error ?? '', new RegExp(`unknown connection profile "${name}"`), name);
      assert.equal(resolved.options, undefined, name);
    }
  });

  describe('with Object.prototype polluted by someone else', () => {
    const proto = Object.prototype as Record<string, unknown>;
    beforeEach(() => {
      proto.passwordEnv = 'SOME_SECRET';
      proto.sentinelPasswordEnv = 'SOME_SECRET';
      proto.passwordSecret = true;
    });
    afterEach(() => {
      delete proto.passwordEnv;
      delete proto.sentinelPasswordEnv;
      delete proto.passwordSecret;
    });

    it('no target, profile or sentinel gets a password from it', () => {
      const { profiles } = readProfiles({ prod: { url: 'redis://127.0.0.1:6379' } });
      const direct = resolveConnection(plan({ url: 'redis://127.0.0.1:6379' }), { env: ENV, secret: 'stored' });
      assert.equal(direct.error, undefined);
      assert.equal(direct.options?.password, undefined);
      const viaProfile = resolveConnection(plan({ profile: 'prod' }), { env: ENV, profiles, secret: 'stored' });
      assert.equal(viaProfile.error, undefined);
      assert.equal(viaProfile.options?.password, undefined);
      const sentinel = resolveConnection(plan({ url: 'redis-sentinel://127.0.0.1:26379/mymaster' }), { env: ENV });
      assert.equal(sentinel.error, undefined);
      assert.equal(sentinel.options?.sentinel?.password, undefined);
      assert.equal(sentinel.options?.password, undefined);
    });
  });

  it('ownField reads own fields and never the prototype', () => {
    const target = Object.create({ passwordEnv: 'X' }) as TargetPlan;
    assert.equal(target.passwordEnv, 'X');
    assert.equal(ownField(target, 'passwordEnv'), undefined);
    assert.equal(ownField(plan({ passwordEnv: 'Y' }), 'passwordEnv'), 'Y');
    assert.equal(ownField(plan({ passwordSecret: false }), 'passwordSecret'), false);
  });
});

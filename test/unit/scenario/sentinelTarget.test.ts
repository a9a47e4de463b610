// `target redis-sentinel://…` in a scenario: accepted with its settings, its mistakes said at the line.
import assert from 'node:assert/strict';
import { checkText } from '../../../src/scenario';

function check(text: string, env: Record<string, string> = {}) {
  // The variables given are the user's to allow: a file alone cannot put them into the target.
  const result = checkText(text, { env, allowEnv: Object.keys(env) });
  return { target: result.scenarios[0]?.target, errors: result.diagnostics.filter((d) => d.severity === 'error') };
}

describe('Sentinel targets in a scenario', () => {
  it("accepts the URL, the sentinels' user and password source, and TLS", () => {
    const { target, errors } = check(
      '### ha\ntarget rediss-sentinel://10.0.0.5:26379,10.0.0.6/mymaster?db=1\npassword env:REDIS_PW\nsentinel-user watcher\nsentinel-password env:SENTINEL_PW\nPING\n',
    );
    assert.deepEqual(errors, []);
    assert.equal(target.url, 'rediss-sentinel://10.0.0.5:26379,10.0.0.6/mymaster?db=1');
    assert.equal(target.passwordEnv, 'REDIS_PW');
    assert.equal(target.sentinelUser, 'watcher');
    assert.equal(target.sentinelPasswordEnv, 'SENTINEL_PW');
    const secret = check('### ha\ntarget redis-sentinel://s1/mymaster\nsentinel-password secret\nPING\n').target;
    assert.equal(secret.sentinelPasswordSecret, true);
  });

  it('refuses a password written in the file, and a URL without a primary name, at the line', () => {
    const literal = check('### ha\ntarget redis-sentinel://:hunter2@s1/mymaster\nPING\n').errors;
    assert.equal(literal.length, 1);
    assert.equal(literal[0].code, 'literal-password');
    assert.equal(literal[0].range.start.line, 1);
    assert.doesNotMatch(literal[0].message, /hunter2/);
    const fromEnv = check('### ha\ntarget ${env:HA_URL}\nPING\n', { HA_URL: 'redis-sentinel://:pw@s1/mymaster' });
    assert.deepEqual(fromEnv.errors, [], 'a password from the environment is not in the file');
    const noName = check('### ha\ntarget redis-sentinel://s1:26379\nPING\n').errors;
    assert.equal(noName.length, 1);
    assert.match(noName[0].message, /names no primary: end it with \/NAME/);
    const literalSentinelPassword = check('### ha\ntarget redis-sentinel://s1/m\nsentinel-password hunter2\nPING\n').errors;
    assert.equal(literalSentinelPassword[0]?.code, 'literal-password');
    assert.match(literalSentinelPassword[0].message, /^`sentinel-password`: write `sentinel-password env:NAME`/);
    assert.doesNotMatch(literalSentinelPassword[0].message, /hunter2/);
  });
});

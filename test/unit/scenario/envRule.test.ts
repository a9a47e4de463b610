// Issue 18, seen 5: environment values reached the wire through settings the old rule (commands only)
// missed. The rule now applies where `${env:…}` is expanded, for every line: a value whose variable the
// user did not allow is refused at the reference and never enters the plan.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as path from 'node:path';
import { SETTINGS, type SettingInfo } from '../../../src/scenario/settings';
import { check, errors, repoRoot } from './helpers';

const REFUSALS = new Set(['env-in-setting', 'env-in-command']);
const refusals = (resolved: ReturnType<typeof check>) => resolved.diagnostics.filter((d) => REFUSALS.has(d.code));

/** Lines that are settings with a value (structure lines — phase, prefill, group, end, load — are not expanded). */
const VALUED = SETTINGS.filter((setting) => !['phase', 'prefill', 'group', 'end', 'load'].includes(setting.kind));

/** A scenario holding `line` where the table allows the setting, with the companions some settings need. */
function scenarioWith(setting: SettingInfo, line: string, before = ''): string {
  const companion =
    setting.name === 'tls-cert' ? 'tls-key k.pem\n' : setting.name === 'tls-key' ? 'tls-cert c.crt\n' : setting.name === 'find' ? 'duration 5s\n' : '';
  // A connect-only test has no command lines.
  const command = setting.name === 'connect-only' ? '' : '\nGET k';
  return setting.scopes.includes('scenario') ? `${before}### s\n${companion}${line}${command}` : `${before}### s\nphase p\n${line}${command}`;
}

/** The example's value: its line without the keyword (the `target` example itself reads `${env:…}`: its default). */
function exampleValue(setting: SettingInfo): string {
  const value = setting.example.slice(setting.example.indexOf(' ') + 1);
  return /^\$\{env:\w+:-(.*)\}$/.exec(value)?.[1] ?? value;
}

describe('the environment rule: the four settings seen (issue 18, seen 5)', () => {
  const env = { FILL: 'fill-Zq81-secret', SNI: 'sni-Zq81-secret', RUSER: 'user-Zq81-secret', RHOST: 'host-zq81-secret' };
  const cases: [string, string, string][] = [
    ['value-fill', '### s\nvalue-fill ${env:FILL}\nSET k __value__', 'FILL'],
    ['tls-servername', 'target rediss://10.0.0.1:6380\ntls-servername ${env:SNI}\n### s\nGET k', 'SNI'],
    ['user', 'target redis://10.0.0.1:6379\nuser ${env:RUSER}\n### s\nGET k', 'RUSER'],
    ['a URL user', 'target redis://${env:RUSER}@10.0.0.1:6379\n### s\nGET k', 'RUSER'],
    ['a host counted as loopback', 'target redis://${env:RHOST}.localhost:6379\n### s\nGET k', 'RHOST'],
  ];
  for (const [what, text, name] of cases) {
    it(`refuses \${env:…} in ${what} at the reference, and keeps the value out of the plan`, () => {
      const resolved = check(text, { env });
      const [refusal, ...more] = refusals(resolved);
      assert.ok(refusal, `no refusal in ${JSON.stringify(resolved.diagnostics.map((d) => d.code))}`);
      assert.equal(more.length, 0);
      assert.equal(refusal.severity, 'error');
      assert.match(refusal.message, new RegExp(`environment variable ${name} would`));
      assert.match(refusal.message, new RegExp(`--allow-env ${name}\``));
      assert.match(refusal.message, /rbench\.allowEnvInCommands/);
      assert.match(refusal.message, new RegExp(`password env:${name}`));
      const line = text.split('\n').findIndex((l) => l.includes('${env:'));
      const start = text.split('\n')[line].indexOf('${env:');
      assert.deepEqual([refusal.range.start.line, refusal.range.start.character, refusal.range.end.character], [line, start, start + `\${env:${name}}`.length]);
      assert.ok(!JSON.stringify(resolved).includes(env[name as keyof typeof env]), 'the value is nowhere in the result');
      // The target (whose host decides "loopback") is built without it: no setting of the line is kept.
      const target = resolved.scenarios[0].target;
      assert.ok(!target.url?.includes('localhost'), JSON.stringify(target));
      assert.equal(target.user, undefined);
    });

    it(`lets ${what} take the value when the user allows the variable`, () => {
      const resolved = check(text, { env, allowEnv: [name] });
      assert.deepEqual(errors(resolved), []);
      assert.ok(JSON.stringify(resolved.scenarios).includes(env[name as keyof typeof env]));
    });
  }

  it('a default written in the file is the file’s text: no allowance needed', () => {
    const resolved = check('### s\nvalue-fill ${env:UNSET_FILL:-abc}\nuser ${env:UNSET_USER:-bench}\nSET k __value__', { env });
    assert.deepEqual(errors(resolved), []);
    assert.equal(resolved.scenarios[0].target.user, 'bench');
  });

  it('`password env:NAME` stays the sanctioned way to pass a secret: it is no expansion', () => {
    const resolved = check('target redis://10.0.0.1:6379\npassword env:RUSER\n### s\nGET k', { env });
    assert.deepEqual(errors(resolved), []);
    assert.equal(resolved.scenarios[0].target.passwordEnv, 'RUSER');
    assert.equal(refusals(check('target redis://10.0.0.1:6379\npassword ${env:RUSER}\n### s\nGET k', { env })).length, 1, 'an expansion in it is refused');
  });

  it('reports each refused variable once per line, an allowed one not at all', () => {
    const resolved = check('target redis://${env:RUSER}@${env:RHOST}:6379\n### s\nECHO ${env:FILL} ${env:FILL} ${env:SNI}', { env, allowEnv: ['SNI'] });
    assert.deepEqual(
      refusals(resolved).map((d) => [d.code, d.range.start.line, /variable (\w+)/.exec(d.message)?.[1]]),
      [
        ['env-in-setting', 0, 'RUSER'],
        ['env-in-setting', 0, 'RHOST'],
        ['env-in-command', 2, 'FILL'],
      ],
    );
  });
});

describe('the environment rule over every setting of the table', () => {
  const VALUE = 'Zq81-marker';

  it('every setting refuses `${env:X}` without the allowance, and takes its example value with it', () => {
    for (const setting of VALUED) {
      const value = exampleValue(setting);
      const text = scenarioWith(setting, `${setting.name} \${env:X}`);
      const refused = refusals(check(text, { env: { X: value } }));
      assert.equal(refused.length, 1, `${setting.name}: ${JSON.stringify(check(text, { env: { X: value } }).diagnostics.map((d) => d.code))}`);
      // The data-file examples (`values from data/users.csv …`) name a file of examples/data.
      const allowed = check(text, { env: { X: value }, allowEnv: ['X'], baseDir: path.join(repoRoot(), 'examples') });
      assert.deepEqual(
        errors(allowed).map((d) => `${d.code}: ${d.message}`),
        [],
        `${setting.name} with X allowed`,
      );
    }
  });

  it('property: whatever the setting, the value, where it sits and how it comes in, a value not allowed never enters the result', () => {
    const via = fc.constantFrom('direct', 'inside', 'variable', 'scenario-variable', 'nested-variable');
    fc.assert(
      fc.property(fc.constantFrom(...VALUED), fc.stringMatching(/^[A-Za-z0-9._:/@-]{0,16}$/), via, fc.boolean(), (setting, tail, how, otherAllowed) => {
        const value = `${VALUE}${tail}`;
        const reference = how === 'direct' ? '${env:X}' : how === 'inside' ? 'a${env:X}b' : '{{v}}';
        const before = how === 'variable' ? '@v = ${env:X}\n' : how === 'nested-variable' ? '@w = pre${env:X}\n@v = {{w}}\n' : '';
        let text = scenarioWith(setting, `${setting.name} ${reference}`, before);
        if (how === 'scenario-variable') text = text.replace('### s\n', '### s\n@v = ${env:X}\n');
        const options = { env: { X: value, Y: 'other' }, allowEnv: otherAllowed ? ['Y'] : [] };
        const resolved = check(text, options);
        assert.equal(refusals(resolved).length, 1, `${setting.name} ${how}: ${JSON.stringify(resolved.diagnostics.map((d) => d.code))}`);
        assert.ok(!JSON.stringify(resolved).includes(VALUE), `${setting.name} ${how}: the value is in the result`);
      }),
      { numRuns: 400 },
    );
  });

  it('property: the same for command arguments', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('SET k ', 'GET ', 'ECHO ', 'HSET h f ', 'EVAL "return 1" 0 '),
        fc.stringMatching(/^[A-Za-z0-9]{0,8}$/),
        fc.constantFrom('${env:X}', 'k:${env:X}', '{{v}}'),
        (command, tail, reference) => {
          const resolved = check(`@v = \${env:X}\n### s\n${command}${reference}\n`, { env: { X: `${VALUE}${tail}` } });
          assert.equal(refusals(resolved).length, 1);
          assert.ok(!JSON.stringify(resolved).includes(VALUE));
        },
      ),
      { numRuns: 100 },
    );
  });
});

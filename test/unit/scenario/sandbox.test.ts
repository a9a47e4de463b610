// What a shared scenario file may not do: load code or write files through `server` lines, or send the
// user's environment to the server inside commands.
import assert from 'node:assert/strict';
import { check, errors } from './helpers';

function only(text: string, code: string, options: Parameters<typeof check>[1] = {}) {
  const found = check(text, options).diagnostics.filter((diagnostic) => diagnostic.code === code);
  assert.equal(found.length, 1, `one ${code} in ${JSON.stringify(check(text, options).diagnostics.map((d) => d.code))}`);
  return found[0];
}

describe('throwaway server directives', () => {
  for (const [line, reason] of [
    ['server loadmodule ./evil.so', /load and run a shared library/],
    ['server include ./other.conf', /read another configuration file/],
    ['server logfile /srv/me/.bashrc', /write a file outside/],
    ['server dbfilename authorized_keys', /name the file/],
    ['server enable-protected-configs yes', /managed by rbench/],
    ['server enable-debug-command yes', /managed by rbench/],
    ['server enable-module-command yes', /managed by rbench/],
    ['server rename-command CONFIG ""', /hide or rename/],
  ] as const) {
    it(`refuses \`${line}\` with the reason, at the directive`, () => {
      const resolved = check(`### s\n${line}\nGET k`);
      const [error] = errors(resolved);
      assert.ok(error, 'an error');
      assert.match(error.message, reason);
      assert.equal(error.range.start.line, 1);
      assert.equal(error.range.start.character, 'server '.length);
      assert.equal(resolved.scenarios[0].server.length, 0);
    });
  }

  it('refuses a directive that is not a tuning one, naming what is allowed', () => {
    assert.match(only('### s\nserver replicaof 10.0.0.1 6379\nGET k', 'unsafe-directive').message, /connect the server to another host/);
    assert.match(
      only('### s\nserver unknown-thing 1\nGET k', 'unsafe-directive').message,
      /tuning directives only \(persistence, memory, eviction, threads, encodings\)/,
    );
  });

  it('keeps the tuning directives seeds and users need', () => {
    const resolved = check(
      '### s\nserver save 60 10000\nserver appendonly yes\nserver maxmemory 2mb\nserver maxmemory-policy allkeys-lru\nserver io-threads 4\n' +
        'server hash-max-listpack-entries 512\nserver list-max-listpack-size -2\nserver requirepass x\nGET k',
    );
    assert.deepEqual(errors(resolved), []);
    assert.equal(resolved.scenarios[0].server.length, 8);
  });
});

describe('environment values in commands', () => {
  const env = { GITHUB_TOKEN: 'ghp_secret', AWS_ACCESS_KEY_ID: 'AKIA123', N: '5', REDIS_URL: 'redis://:pw@10.0.0.1:6379' };

  it('refuses ${env:…} in a command, at the reference', () => {
    const error = only('### s\nECHO ${env:GITHUB_TOKEN}', 'env-in-command', { env });
    assert.equal(error.severity, 'error');
    assert.match(error.message, /GITHUB_TOKEN would be sent to the server/);
    assert.match(error.message, /--allow-env GITHUB_TOKEN/);
    assert.deepEqual([error.range.start.character, error.range.end.character], [5, 5 + '${env:GITHUB_TOKEN}'.length]);
  });

  it('refuses it inside an argument and through a variable', () => {
    only('### s\nGET cache:${env:AWS_ACCESS_KEY_ID}', 'env-in-command', { env });
    only('@k = ${env:AWS_ACCESS_KEY_ID}\n### s\nGET cache:{{k}}', 'env-in-command', { env });
    only('### s\ncleanup ${env:AWS_ACCESS_KEY_ID}:*\nGET k', 'env-in-command', { env });
  });

  it('refuses it in the target and numbers too unless the user allows it (the plan and the target name reach the run file)', () => {
    const text = 'target ${env:REDIS_URL}\n### s\nclients ${env:N}\nGET k';
    assert.deepEqual(
      errors(check(text, { env })).map((e) => e.code),
      ['env-in-setting', 'env-in-setting'],
    );
    const resolved = check(text, { env, allowEnv: ['REDIS_URL', 'N'] });
    assert.deepEqual(
      errors(resolved).map((e) => e.code),
      [],
    );
    assert.equal(resolved.scenarios[0].points[0].phases[0].load.clients, 5);
  });

  it('allows a name the user allows, and only that name', () => {
    assert.deepEqual(errors(check('### s\nECHO ${env:GITHUB_TOKEN}', { env, allowEnv: ['GITHUB_TOKEN'] })), []);
    only('### s\nECHO ${env:GITHUB_TOKEN} ${env:AWS_ACCESS_KEY_ID}', 'env-in-command', { env, allowEnv: ['GITHUB_TOKEN'] });
  });

  it('a default written in the file is file text, not environment', () => {
    assert.deepEqual(errors(check('### s\nGET ${env:UNSET_NAME:-plain}', { env })), []);
  });
});

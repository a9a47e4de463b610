import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { SETTINGS, settingInfo } from '../../../src/scenario';
import { clean, repoRoot } from './helpers';

describe('settings table', () => {
  it('documents every setting with syntax, doc and a correct example', () => {
    for (const setting of SETTINGS) {
      assert.ok(setting.doc.length > 40, `${setting.name} has a doc paragraph`);
      assert.ok(setting.syntax.startsWith(setting.name), `${setting.name} syntax starts with its name`);
      assert.ok(setting.example.startsWith(setting.name), `${setting.name} example starts with its name`);
      assert.equal(settingInfo(setting.name), setting);
    }
  });

  it('every example line resolves cleanly where the table allows it', () => {
    for (const setting of SETTINGS) {
      const env = { REDIS_URL: 'redis://127.0.0.1:6379' };
      const scope = setting.scopes.includes('scenario') ? 'scenario' : 'phase';
      // A client certificate needs its key; a rate search a duration; an expect needs no command; a phase line needs a command under it.
      // A group needs its `end`, an `end` its group.
      const companion =
        setting.name === 'tls-cert'
          ? 'tls-key k.pem\n'
          : setting.name === 'tls-key'
            ? 'tls-cert c.crt\n'
            : setting.name === 'find'
              ? 'duration 5s\n'
              : setting.name === 'end'
                ? 'group\nGET k\n'
                : '';
      const after = setting.name === 'group' ? '\nend' : '';
      // A connect-only storm has no command lines.
      const command = setting.name === 'connect-only' ? '' : '\nGET k';
      const text = scope === 'scenario' ? `### s\n${companion}${setting.example}${command}${after}` : `### s\nphase p\n${setting.example}${command}`;
      try {
        // The `target` example reads REDIS_URL: the user allows it (a file alone cannot). The data-file examples name examples/data.
        clean(text, { env, allowEnv: ['REDIS_URL'], baseDir: path.join(repoRoot(), 'examples') });
      } catch (error) {
        assert.fail(`${setting.name}: ${(error as Error).message}`);
      }
    }
  });

  it('every setting appears in the format specification', () => {
    const spec = readFileSync(path.join(repoRoot(), 'docs', 'rbench-format.md'), 'utf8');
    for (const setting of SETTINGS) assert.ok(spec.includes(`\`${setting.name}`), `${setting.name} is documented in docs/rbench-format.md`);
  });
});

describe('TextMate grammar', () => {
  interface Rule {
    match?: string;
    begin?: string;
    include?: string;
  }
  const grammar = JSON.parse(readFileSync(path.join(repoRoot(), 'syntaxes', 'rbench.tmLanguage.json'), 'utf8')) as {
    scopeName: string;
    patterns: Rule[];
    repository: Record<string, Rule & { patterns?: Rule[] }>;
  };

  /** The repository rule that a line starts with, trying the top-level patterns in order as the editor does. */
  function lineRule(line: string): string | undefined {
    for (const { include } of grammar.patterns) {
      const name = include!.slice(1);
      const rule = grammar.repository[name];
      const source = rule.begin ?? rule.match!;
      if (new RegExp(source).test(line)) return name;
    }
    return undefined;
  }

  it('is the source.rbench grammar', () => {
    assert.equal(grammar.scopeName, 'source.rbench');
  });

  it('recognises every keyword of the settings table, and commands apart from settings', () => {
    for (const setting of SETTINGS) {
      const expected =
        setting.kind === 'expect' ? 'expect-line' : ['phase', 'prefill', 'group', 'end', 'load'].includes(setting.kind) ? 'phase-line' : 'setting-line';
      assert.equal(lineRule(setting.example), expected, setting.example);
    }
    assert.equal(lineRule('### name'), 'header');
    assert.equal(lineRule('  # note'), 'comment-line');
    assert.equal(lineRule('@prefix = bench'), 'variable-definition');
    assert.equal(lineRule('KEYS *'), 'command-line');
    assert.equal(lineRule('keys 100k'), 'setting-line');
    assert.equal(lineRule('80% GET k'), 'command-line');
  });

  it('highlights interpolations, placeholders and numbers with units', () => {
    const interpolation = grammar.repository.interpolation.patterns!;
    assert.ok(new RegExp(interpolation[0].match!).test('{{ prefix }}'));
    assert.ok(new RegExp(interpolation[1].match!).test('${env:REDIS_URL:-redis://127.0.0.1:6379}'));
    assert.ok(new RegExp(grammar.repository.placeholder.match!).test('__rand_int__'));
    const number = new RegExp(`^(?:${grammar.repository.number.patterns![1].match!})$`);
    for (const text of ['1M', '100k', '1_000_000', '2.5M', '30s', '500us', '2ms', '1KB', '4MiB', '20k/s', '748']) assert.ok(number.test(text), text);
  });
});

// The snippets in snippets/rbench.json must produce valid scenarios as inserted, with every tabstop
// left at its default.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkText } from '../../../src/scenario';
import { repoRoot } from '../scenario/helpers';

interface Snippet {
  prefix: string;
  description: string;
  body: string[];
}

/**
 * The text VS Code inserts for a snippet body when every tabstop keeps its default: `${1:text}` →
 * text, `${1|a,b|}` → a, `$1` → the default given elsewhere for tabstop 1, `\$` → `$`. Snippet
 * variables (`$NAME`, `${NAME}`) are refused: in `.rbench` text, an unescaped `${env:…}` would be one.
 */
function expandSnippet(body: string): string {
  const defaults = new Map<string, string>();
  let at = 0;
  const parse = (until: string): string => {
    let out = '';
    while (at < body.length && !until.includes(body[at])) {
      const char = body[at];
      if (char === '\\' && '$}\\'.includes(body[at + 1] ?? '')) {
        out += body[at + 1];
        at += 2;
      } else if (char === '$') {
        out += tabstop();
      } else {
        out += char;
        at++;
      }
    }
    return out;
  };
  const tabstop = (): string => {
    const simple = /^\$(\d+)/.exec(body.slice(at));
    if (simple) {
      at += simple[0].length;
      return `\uE000${simple[1]}\uE000`;
    }
    const open = /^\$\{(\d+)([:|}])/.exec(body.slice(at));
    if (!open) throw new Error(`snippet variable at ${JSON.stringify(body.slice(at, at + 20))}: escape \`$\` as \`\\$\``);
    at += open[0].length;
    const index = open[1];
    let text = '';
    if (open[2] === ':') {
      text = parse('}');
      at++;
    } else if (open[2] === '|') {
      const end = body.indexOf('|}', at);
      text = body.slice(at, end).split(',')[0];
      at = end + 2;
    }
    defaults.set(index, text);
    return text;
  };
  const raw = parse('');
  return raw.replace(/\uE000(\d+)\uE000/g, (_, index: string) => defaults.get(index) ?? '');
}

describe('snippets', () => {
  const file = path.join(repoRoot(), 'snippets', 'rbench.json');
  const snippets = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Snippet>;

  it('have unique prefixes and a description', () => {
    const prefixes = Object.values(snippets).map((snippet) => snippet.prefix);
    assert.equal(new Set(prefixes).size, prefixes.length);
    for (const [name, snippet] of Object.entries(snippets)) assert.ok(snippet.description && snippet.body.length > 0, name);
  });

  it('cover the classic redis-benchmark runs', () => {
    const bodies = Object.values(snippets).map((snippet) => snippet.body.join('\n'));
    for (const needle of [
      'suite default',
      'suite ${2:set,get}',
      'value 748',
      'sweep clients',
      'sweep keys',
      'LPUSH',
      'RPOP',
      'sweep value',
      'sweep key-size',
      'sweep pipeline',
      '% GET',
      'rate ${5:20k/s}',
      'expect p99',
    ]) {
      assert.ok(
        bodies.some((body) => body.includes(needle)),
        needle,
      );
    }
  });

  it('expand as VS Code does, refusing unescaped snippet variables', () => {
    assert.equal(expandSnippet('### ${1:a b}\nSET ${2:k}:$1 ${3|x,y|} \\${env:X}$0'), '### a b\nSET k:a b x ${env:X}');
    assert.throws(() => expandSnippet('target ${env:REDIS_URL}'), /escape/);
  });

  for (const [name, snippet] of Object.entries(snippets)) {
    it(`"${name}" resolves with no diagnostics at its defaults`, () => {
      let text = expandSnippet(snippet.body.join('\n'));
      // A snippet of file-level lines (no header) goes above the scenarios: check it with one.
      // A group snippet goes inside a scenario: check it in one.
      const inScenario = text.startsWith('group');
      const fileLevel = !text.includes('###') && !inScenario;
      if (fileLevel) text += '\n### check\nGET key\n';
      if (inScenario) text = `### check\n${text}`;
      const resolved = checkText(text, { env: {} });
      assert.deepEqual(
        resolved.diagnostics.map((diagnostic) => `${diagnostic.range.start.line + 1}: ${diagnostic.message}`),
        [],
        text,
      );
      assert.equal(resolved.scenarios.length, 1);
    });
  }
});

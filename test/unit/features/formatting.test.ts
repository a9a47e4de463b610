import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkText } from '../../../src/scenario';
import { formatText, formattingEdits } from '../../../src/scenario/features';
import { repoRoot } from '../scenario/helpers';
import { applyEdits } from './helpers';
import { meaning } from '../../fuzz/language';

/** An environment in which every generated reference resolves; `QUOTE` opens a quote when substituted. */
const ENV = { REDIS_URL: 'redis://127.0.0.1:6390', QUOTE: '"', SPACED: 'a  b' };

function assertSameMeaning(text: string, label: string): string {
  const formatted = formatText(text);
  assert.deepEqual(
    meaning(checkText(formatted, { env: ENV })),
    meaning(checkText(text, { env: ENV })),
    `${label}: formatting changed the meaning\n--- before\n${text}\n--- after\n${formatted}`,
  );
  assert.equal(formatText(formatted), formatted, `${label}: formatting is not idempotent\n${formatted}`);
  return formatted;
}

/** A deterministic pseudo-random generator, so a failing file can be reproduced from its seed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Line templates covering every kind of line; a space marks where random whitespace goes. */
const TEMPLATES = [
  '###name',
  '### spaced  name ',
  '###',
  '### Phase scenario',
  'clients 4',
  'pipeline 10',
  'value 64 80%, 1KB 20%',
  'value 10..100',
  'keys 1k zipf 0.9',
  'keys 100 sequential',
  'key-size 8',
  'sweep clients 1, 2, 4..8 step 2',
  'sweep value 10, 100',
  'expect p99 < 2ms',
  'expect GET p50<1ms',
  'expect error-rate <= 0.1%',
  'requests {{n}}',
  'requests 1k',
  'duration 1s',
  'rate 1k/s',
  'warmup 1s',
  'repeat 2',
  'seed 7',
  'target ${env:REDIS_URL:-redis://a:1}',
  'target ${env:NOPE:-redis://a  b}',
  'suite set, get',
  'suite default',
  'server save 60 10000',
  'cleanup bench:*',
  'client ioredis',
  'resp 3',
  'password env:REDIS_PASSWORD',
  'password hunter2',
  'set k:__key__ __value__',
  'Get "a  b"',
  'hset h \'x  y\' "q\\" z"',
  'MSET (a __value__)*3',
  'lpush l __value__*10',
  '80% get k',
  '20% SET k v',
  'SET {{pfx}} a b',
  'SET {{q}} a b"',
  'SET {{ pfx }}:x "{{sp}}"',
  'SET ${env:SPACED} x y',
  'SET a"b c"d e',
  '@pfx=bench',
  '@n = 100',
  '@q = "',
  '@sp = a   b',
  '@v=${env:QUOTE}',
  '@e =',
  'phase a',
  'phase b',
  'prefill',
  'prefill warm',
  'phase x y',
  'group',
  'group tx',
  'group a b',
  'end',
  'end x',
  'MULTI',
  'exec',
  'DISCARD',
  'WATCH k',
  'group',
  'end',
  '# comment',
  '#',
  'SET k v # trailing comment',
  'pipeline 4 #tag#1',
  'pipline 10',
  '{{n}} x',
  'SET k "unterminated',
  'GET {{',
  'kEYS *',
  'KEYS *',
];

/** Replaces each space of a template with a random run of spaces and tabs, and pads the line. */
function scramble(template: string, next: () => number): string {
  const gap = () => [' ', ' ', '  ', '\t', ' \t ', '   '][Math.floor(next() * 6)];
  const indent = next() < 0.3 ? gap() : '';
  const trailing = next() < 0.3 ? gap() : '';
  return indent + template.replace(/ /g, () => gap()) + trailing;
}

function generateFile(seed: number): string {
  const next = random(seed);
  const lines: string[] = [];
  const count = 3 + Math.floor(next() * 25);
  for (let i = 0; i < count; i++) {
    if (next() < 0.2) lines.push(['', '  ', '\t'][Math.floor(next() * 3)]);
    else lines.push(scramble(TEMPLATES[Math.floor(next() * TEMPLATES.length)], next));
  }
  return lines.join(next() < 0.2 ? '\r\n' : '\n') + (next() < 0.5 ? '\n' : '');
}

describe('formatting', () => {
  it('normalises spacing, case, headers, variables and blank lines', () => {
    const before = [
      '',
      '  @prefix=bench   ',
      '@sp   =  a   b  # two spaces stay',
      'pipeline    10        # aligned comment',
      '###First',
      '\tclients \t 4',
      '',
      '',
      '',
      'set   {{prefix}}:__key__   __value__',
      'get  "a   b"  \'c  d\'',
      '# a comment   ',
      '###   Second  one  ',
      'expect   p99  <   2ms',
      '80%   hget   h  f',
      'phase   read',
      'pipline   10',
      '',
      '',
    ].join('\n');
    const after = [
      '@prefix = bench',
      '@sp = a   b  # two spaces stay',
      'pipeline 10        # aligned comment',
      '',
      '### First',
      'clients 4',
      '',
      'SET {{prefix}}:__key__   __value__',
      'GET "a   b" \'c  d\'',
      '# a comment',
      '',
      '### Second  one',
      'expect p99 < 2ms',
      '80% HGET h f',
      'phase read',
      'pipline   10',
      '',
    ].join('\n');
    assert.equal(formatText(before), after);
  });

  it('leaves whitespace after an interpolation alone: a substituted quote can make it part of a value', () => {
    const text = '@q = "\n### s\nSET {{q}}  a   b"\n';
    assert.equal(formatText(text), '@q = "\n\n### s\nSET {{q}}  a   b"\n');
    const [plan] = checkText(text, { env: {} }).scenarios;
    assert.deepEqual(plan.points[0].phases[0].tests[0].commands[0].command.args, [['  a   b']]);
  });

  it('keeps the line breaks of the file', () => {
    assert.equal(formatText('### a\r\nGET  k\r\n'), '### a\r\nGET k\r\n');
  });

  it('returns no edit for a formatted file, and one edit that produces the formatted text otherwise', () => {
    assert.deepEqual(formattingEdits('### a\nGET k\n'), []);
    const text = '###a\n  get k  \n\n\n';
    const edits = formattingEdits(text);
    assert.equal(edits.length, 1);
    assert.equal(applyEdits(text, edits), '### a\nGET k\n');
  });

  describe('never changes what a file means, and is idempotent', () => {
    const folder = path.join(repoRoot(), 'examples');
    for (const file of readdirSync(folder).filter((name) => name.endsWith('.rbench'))) {
      it(`on examples/${file}`, () => {
        const text = readFileSync(path.join(folder, file), 'utf8');
        assertSameMeaning(text, file);
        assertSameMeaning(text.replace(/ /g, '  ').replace(/^/gm, '  '), `${file} with doubled spaces and indentation`);
      });
    }

    it("on the format documentation's code blocks", () => {
      const doc = readFileSync(path.join(repoRoot(), 'docs', 'rbench-format.md'), 'utf8');
      const blocks = [...doc.matchAll(/```rbench\n([\s\S]*?)```/g)].map((match) => match[1]);
      assert.ok(blocks.length > 10);
      blocks.forEach((block, index) => assertSameMeaning(block, `docs block ${index}`));
    });

    it('on 500 generated files with scrambled whitespace', () => {
      let changed = 0;
      for (let seed = 1; seed <= 500; seed++) {
        const text = generateFile(seed);
        if (assertSameMeaning(text, `seed ${seed}`) !== text) changed++;
      }
      assert.ok(changed > 400, `the generated files should need formatting (${changed} did)`);
    });
  });
});

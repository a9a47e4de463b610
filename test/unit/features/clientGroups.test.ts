// Issue 43 (client groups) in the editor features: completion offers `load` where a line starts in a scenario
// or phase, hover explains it, and the outline shows each group (in its phase), surviving the worker's encoding.
import assert from 'node:assert/strict';
import { completions, documentOutline, documentSymbols, hover, type SymbolData } from '../../../src/scenario/features';
import { decodeOutline, encodeOutline } from '../../../src/scenario/features/outlineCodec';
import { withCaret } from './helpers';

const TEXT = [
  '### cache',
  'keys 100k',
  'load writers background',
  'clients 8',
  'SET cache:__key__ __value__',
  'load readers',
  'group read-twice',
  'GET cache:__key__',
  'GET cache:__key__',
  'end',
  'phase later',
  'load only',
  'GET x',
].join('\n');

const tree = (symbols: readonly SymbolData[]): unknown[] =>
  symbols.map((symbol) => [symbol.kind, symbol.name, symbol.detail, symbol.range.start.line, symbol.range.end.line, tree(symbol.children)]);

describe('client groups in the editor features', () => {
  it('completion offers `load` in a scenario and a phase, not at file level', () => {
    for (const marked of ['### s\nlo‸', '### s\nphase p\nlo‸']) {
      const { text, position } = withCaret(marked);
      assert.ok(
        completions(text, position).some((item) => item.label === 'load' && item.kind === 'setting'),
        marked,
      );
    }
    const { text, position } = withCaret('lo‸\n### s\nGET a');
    assert.ok(!completions(text, position).some((item) => item.label === 'load'));
  });

  it('hover explains the keyword', () => {
    const shown = hover(TEXT, { line: 2, character: 1 });
    assert.match(JSON.stringify(shown), /load NAME \[background\]/);
    assert.match(JSON.stringify(shown), /at the same time/);
  });

  it('the outline shows each group, in its phase, with its command groups inside', () => {
    const symbols = documentSymbols(TEXT);
    assert.deepEqual(tree(symbols), [
      [
        'scenario',
        'cache',
        '',
        0,
        12,
        [
          ['load', 'writers', 'client group (background)', 2, 4, []],
          ['load', 'readers', 'client group', 5, 9, [['group', 'read-twice', 'group of 2 commands', 6, 9, []]]],
          ['phase', 'later', 'phase', 10, 12, [['load', 'only', 'client group', 11, 12, []]]],
        ],
      ],
    ]);
    const decoded = decodeOutline(structuredClone(encodeOutline(documentOutline(TEXT))));
    assert.deepEqual(tree(decoded.symbols), tree(symbols));
  });
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { documentSymbols, foldingRanges, type Range, type SymbolData } from '../../../src/scenario/features';
import { repoRoot } from '../scenario/helpers';

const TEXT = [
  '@prefix = bench', // 0
  '@api_token = abc', // 1
  '', // 2
  '### Read a pre-loaded keyspace', // 3
  'keys 1M', // 4
  'sweep clients 1, 2', // 5
  'sweep value 10, 100', // 6
  '@local = 1', // 7
  'prefill load', // 8
  'SET {{prefix}}:__key__ __value__', // 9
  '', // 10
  'phase read', // 11
  '# reads', // 12
  '# only', // 13
  'GET {{prefix}}:__key__', // 14
  '', // 15
  '', // 16
  '###', // 17
  'PING', // 18
  '',
].join('\n');

function lines(range: Range): [number, number] {
  return [range.start.line, range.end.line];
}

function contains(outer: Range, inner: Range): boolean {
  const before = (a: Range['start'], b: Range['start']) => a.line < b.line || (a.line === b.line && a.character <= b.character);
  return before(outer.start, inner.start) && before(inner.end, outer.end);
}

describe('document symbols', () => {
  const symbols = documentSymbols(TEXT);

  it('lists file-level variables, then scenarios with their name as the selection', () => {
    assert.deepEqual(
      symbols.map((symbol) => [symbol.kind, symbol.name, symbol.detail]),
      [
        ['variable', '@prefix', 'bench'],
        ['variable', '@api_token', '••••••'],
        ['scenario', 'Read a pre-loaded keyspace', 'sweep clients × value'],
        ['scenario', 'scenario 2', ''],
      ],
    );
    const [, , scenario, unnamed] = symbols;
    assert.deepEqual(lines(scenario.range), [3, 14], 'to the last non-blank line');
    assert.deepEqual([scenario.selectionRange.start.character, scenario.selectionRange.end.character], [4, 30]);
    assert.deepEqual(lines(unnamed.range), [17, 18]);
  });

  it('nests sweeps, variables and phases in source order', () => {
    const scenario = symbols[2];
    assert.deepEqual(
      scenario.children.map((child) => [child.kind, child.name, lines(child.range)]),
      [
        ['sweep', 'sweep clients 1, 2', [5, 5]],
        ['sweep', 'sweep value 10, 100', [6, 6]],
        ['variable', '@local', [7, 7]],
        ['prefill', 'load', [8, 9]],
        ['phase', 'read', [11, 14]],
      ],
    );
  });

  it('keeps every selection range inside its range (VS Code rejects the outline otherwise)', () => {
    const check = (symbol: SymbolData) => {
      assert.ok(contains(symbol.range, symbol.selectionRange), symbol.name);
      for (const child of symbol.children) {
        assert.ok(contains(symbol.range, child.range), `${child.name} inside ${symbol.name}`);
        check(child);
      }
    };
    const examples = path.join(repoRoot(), 'examples');
    for (const file of ['list-push-pop.rbench', 'size-sweeps.rbench']) documentSymbols(readFileSync(path.join(examples, file), 'utf8')).forEach(check);
    symbols.forEach(check);
  });

  it('names the implicit scenario of a file without headers after its first line', () => {
    const [scenario] = documentSymbols('clients 4\nGET k\n');
    assert.equal(scenario.name, 'scenario 1');
    assert.deepEqual(lines(scenario.range), [0, 1]);
  });
});

describe('folding ranges', () => {
  it('folds each scenario and phase to its last non-blank line, and runs of comments', () => {
    assert.deepEqual(foldingRanges(TEXT), [
      { start: 3, end: 14 },
      { start: 8, end: 9 },
      { start: 11, end: 14 },
      { start: 12, end: 13, kind: 'comment' },
      { start: 17, end: 18 },
    ]);
  });

  it('does not fold single lines', () => {
    assert.deepEqual(foldingRanges('### a\n\n### b\n# one comment\n'), [{ start: 2, end: 3 }]);
  });
});

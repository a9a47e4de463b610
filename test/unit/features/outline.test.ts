import assert from 'node:assert/strict';
import { checkText, parseDocument } from '../../../src/scenario';
import { checkWithOutline, documentOutline, documentSymbols, foldingRanges } from '../../../src/scenario/features';
import { decodeOutline, encodeOutline } from '../../../src/scenario/features/outlineCodec';

const TEXT = [
  '# a file comment',
  '# on two lines',
  '@prefix = bench',
  '### read',
  'keys 1M',
  'sweep clients 1, 2',
  '@local = 1',
  'prefill load',
  'SET {{prefix}}:__key__ __value__',
  'phase read',
  '# reads',
  '# only',
  'GET {{prefix}}:__key__',
  '',
  '### write',
  'pipline 4',
  'SET k v',
  '###',
  'PING',
  '# trailing',
  '# comments',
].join('\n');

describe('document outline (CodeLens, symbols, folding, Test Explorer from one parse)', () => {
  it('lists the scenarios as the parser groups them', () => {
    const outline = documentOutline(TEXT);
    const parsed = parseDocument(TEXT).scenarios;
    assert.deepEqual(
      outline.scenarios,
      parsed.map(({ name, index, headerRange, range }) => ({ name, index, headerRange, range })),
    );
    assert.deepEqual(
      outline.scenarios.map((scenario) => [scenario.name, scenario.headerRange.start.line, scenario.range.end.line]),
      [
        ['read', 3, 13],
        ['write', 14, 16],
        ['scenario 3', 17, 20],
      ],
    );
  });

  it('comes with the same diagnostics as checkText, from the same pass', () => {
    const checked = checkWithOutline(TEXT, { env: {} });
    assert.deepEqual(checked.diagnostics, checkText(TEXT, { env: {} }).diagnostics);
    assert.deepEqual(checked.outline, documentOutline(TEXT));
    assert.deepEqual(checked.outline.symbols, documentSymbols(TEXT));
    assert.deepEqual(checked.outline.folding, foldingRanges(TEXT));
    assert.deepEqual(
      checked.outline.folding.filter((fold) => fold.kind === 'comment').map((fold) => [fold.start, fold.end]),
      [
        [0, 1],
        [10, 11],
        [19, 20],
      ],
    );
  });

  it('survives its compact form for the trip from the worker thread', () => {
    for (const text of [
      TEXT,
      '',
      'GET k',
      '# only a comment\n# and another',
      '@a = 1\n@b = 2\n### s\n@c = 3\nsweep pipeline 1, 2\nprefill p\nSET k v\nphase x\nGET k',
    ]) {
      const outline = documentOutline(text);
      const encoded = encodeOutline(outline);
      const decoded = decodeOutline(structuredClone(encoded));
      assert.deepEqual(decoded.scenarios, outline.scenarios, text);
      assert.deepEqual(decoded.folding, outline.folding, text);
      assert.deepEqual(decoded.symbols, outline.symbols, text);
    }
  });
});

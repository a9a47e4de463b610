// Issue 45 (5): the panel's verdict reason in short sentences with its figures apart, not one 200–360
// character line. The verdicts' own texts (from the calibration fixtures) split into claim, figures, meaning, advice.
import { strict as assert } from 'node:assert';
import { asSentence, whyParts } from '../../../src/views/verdictWords';

const CLIENT =
  "the client used its CPU to the full (busiest thread 92 % busy, process 96 % of a core over 1 thread; the server's main thread at 81 % of a core beside it; the client's thread ran 94 %, waited 1 % for a core, slept 6 % of the window, busy at least N/(N+1) = 80 % with 4 connections): these numbers understate the server — run the client elsewhere or add threads";
const FSYNC =
  'appendfsync always: each of the 33,068 writes waited for an fsync of the AOF before its reply (p50 344 µs at the client, 0.94 µs of command time in the server): the disk set the pace — appendfsync everysec, or a faster disk';

describe('a verdict reason in parts (issue 45)', () => {
  it('splits claim, figures, meaning and advice; every sentence short', () => {
    const parts = whyParts(CLIENT);
    assert.ok(parts);
    assert.equal(parts.claim, 'the client used its CPU to the full');
    assert.deepEqual(parts.figures, [
      'busiest thread 92 % busy',
      'process 96 % of a core over 1 thread',
      "the server's main thread at 81 % of a core beside it",
      "the client's thread ran 94 %",
      'waited 1 % for a core',
      'slept 6 % of the window',
      'busy at least N/(N+1) = 80 % with 4 connections',
    ]);
    assert.equal(parts.meaning, 'these numbers understate the server');
    assert.equal(parts.advice, 'run the client elsewhere or add threads');
    const fsync = whyParts(FSYNC);
    assert.deepEqual(fsync?.figures, ['p50 344 µs at the client', '0.94 µs of command time in the server']);
    assert.equal(fsync?.advice, 'appendfsync everysec, or a faster disk');
    for (const text of [parts.claim, parts.meaning, fsync!.claim, fsync!.meaning]) assert.ok(text.split(/\s+/).length <= 20, text);
  });

  it('a mark of 85 % behind many connections stays one figure of its own, the bound a figure after it', () => {
    const many = whyParts(
      "the client used its CPU to the full (busiest thread 100 % busy, process 100 % of a core over 1 thread; the client's thread ran 88 %, waited 3 % for a core, slept 9 % of the window, busy at least 85 % with 50 connections, so more requests in flight could raise throughput by at most 18 %): these numbers understate the server — run the client elsewhere or add threads",
    );
    assert.deepEqual(many?.figures.slice(-2), ['busy at least 85 % with 50 connections', 'so more requests in flight could raise throughput by at most 18 %']);
  });

  it('leaves a reason of another shape whole', () => {
    assert.equal(whyParts('neither side busy'), undefined);
    assert.equal(whyParts('main thread 97 % <img src=x>'), undefined);
  });

  it('makes a sentence of a clause', () => {
    assert.equal(asSentence('the disk set the pace'), 'The disk set the pace.');
    assert.equal(asSentence('Done.'), 'Done.');
  });
});

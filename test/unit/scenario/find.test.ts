// `sweep rate …` and `find rate where METRIC < LIMIT [from RATE] [to RATE]`: plans and diagnostics with their exact ranges.
import assert from 'node:assert/strict';
import { completions, hover } from '../../../src/scenario/features';
import { withCaret } from '../features/helpers';
import { check, clean } from './helpers';

/** The one diagnostic of a scenario whose second line is `line`: [code, start character, end character, message]. */
function problem(line: string): [string, number, number, string] {
  const resolved = check(`### s\nduration 1s\n${line}\nSET k v\n`);
  assert.equal(resolved.diagnostics.length, 1, `one diagnostic for \`${line}\`: ${resolved.diagnostics.map((d) => d.message).join(' | ')}`);
  const [d] = resolved.diagnostics;
  assert.equal(d.range.start.line, 2);
  return [d.code, d.range.start.character, d.range.end.character, d.message];
}

describe('sweep rate and find rate', () => {
  it('`sweep rate` runs each point open loop at its rate, ranges and steps included', () => {
    const plan = clean('### s\nsweep rate 10k/s, 20k/s, 40k/s\nduration 1s\nSET k v\n').scenarios[0];
    assert.deepEqual(
      plan.points.map((p) => [p.label, p.phases[0].load.rate]),
      [
        ['rate=10000', 10000],
        ['rate=20000', 20000],
        ['rate=40000', 40000],
      ],
    );
    assert.deepEqual(
      clean('### s\nsweep rate 5k/s..40k/s step x2\nSET k v\n').scenarios[0].points.map((p) => p.sweep.rate),
      [5000, 10000, 20000, 40000],
    );
    assert.deepEqual(problem('sweep rate 10k/s, fast'), [
      'invalid-value',
      18,
      22,
      '`sweep rate`: `fast` is not a rate — write requests per second such as `20k/s` or `500/s`',
    ]);
  });

  it('`find rate where p99 < 2ms` plans a search with defaults, `from` and `to`', () => {
    const plan = clean('### s\nfind rate where p99 < 2ms\nduration 1s\nSET k v\n').scenarios[0];
    assert.deepEqual(
      { ...plan.rateSearch, range: undefined },
      { metric: 'p99', limitUs: 2000, fromRate: 1000, toRate: 1_000_000, text: 'find rate where p99 < 2ms', range: undefined },
    );
    const bounded = clean('### s\nfind rate where p99.9 <= 500us from 5k/s to 200k\nduration 1s\nSET k v\n').scenarios[0].rateSearch!;
    assert.deepEqual([bounded.metric, bounded.limitUs, bounded.fromRate, bounded.toRate], ['p99.9', 500, 5000, 200_000]);
    assert.equal(clean('### s\nSET k v\n').scenarios[0].rateSearch, undefined);
  });

  it('reports each mistake on the word at fault, with the fix', () => {
    assert.deepEqual(problem('find speed where p99 < 2ms'), [
      'invalid-value',
      5,
      10,
      '`find` searches for a rate — write `find rate where p99 < 2ms`, not `find speed`',
    ]);
    assert.deepEqual(problem('find rate'), ['missing-value', 5, 9, 'write `where` after `find rate`, as in `find rate where p99 < 2ms`']);
    assert.deepEqual(problem('find rate when p99 < 2ms').slice(0, 3), ['invalid-value', 10, 14]);
    assert.deepEqual(problem('find rate where p98 < 2ms').slice(0, 3), ['invalid-value', 16, 19]);
    assert.deepEqual(problem('find rate where p99 > 2ms'), [
      'invalid-value',
      20,
      21,
      '`find rate` looks for the latency under a limit — write `p99 < LIMIT`, not `>` (separate the words with spaces)',
    ]);
    assert.deepEqual(problem('find rate where p99 < 2'), ['invalid-value', 22, 23, '`find rate where p99`: `2` needs a unit — write `2s`, `2ms` or `2us`']);
    assert.deepEqual(problem('find rate where p99 < 2ms upto 5k/s').slice(0, 3), ['invalid-value', 26, 30]);
    assert.deepEqual(problem('find rate where p99 < 2ms from 10k/s to 5k/s'), [
      'out-of-range',
      37,
      39,
      'the search starts at 10,000/s and must end above it (`to` 5,000/s) — raise `to` or lower `from`',
    ]);
    assert.deepEqual(problem('find rate where p99 < 2ms to'), ['missing-value', 26, 28, '`to` needs a rate, such as `to 200k/s`']);
  });

  it('refuses `find` with a sweep, twice, inside a phase, or without a duration', () => {
    assert.deepEqual(
      check('### s\nfind rate where p99 < 2ms\nSET k v\n').diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character, d.range.end.character]),
      [['find-needs-duration', 1, 0, 25]],
    );
    const withSweep = check('### s\nsweep clients 1, 2\nfind rate where p99 < 2ms\nduration 1s\nSET k v\n').diagnostics;
    assert.deepEqual(
      withSweep.map((d) => [d.code, d.range.start.line, d.range.start.character, d.range.end.character]),
      [['find-with-sweep', 2, 0, 25]],
    );
    const twice = check('### s\nfind rate where p99 < 2ms\nfind rate where p50 < 1ms\nduration 1s\nSET k v\n').diagnostics;
    assert.deepEqual(
      twice.map((d) => [d.code, d.range.start.line]),
      [['duplicate-setting', 2]],
    );
    assert.deepEqual(
      check('### s\nduration 1s\nphase a\nfind rate where p99 < 2ms\nSET k v\n').diagnostics.map((d) => d.code),
      ['wrong-scope'],
    );
  });

  it('completes `find` word by word and explains the metric on hover', () => {
    const labels = (marked: string) => {
      const { text, position } = withCaret(marked);
      return completions(text, position).map((item) => item.label);
    };
    assert.deepEqual(labels('### s\nfind ‸'), ['rate']);
    assert.deepEqual(labels('### s\nfind rate ‸'), ['where']);
    assert.deepEqual(labels('### s\nfind rate where ‸'), ['mean', 'p50', 'p90', 'p95', 'p99', 'p99.9', 'max']);
    assert.deepEqual(labels('### s\nfind rate where p99 < 2ms ‸'), ['from', 'to']);
    assert.ok(labels('### s\nsweep ‸').includes('rate'));
    const at = withCaret('### s\nfind rate where p‸99 < 2ms\nSET k v');
    const found = hover(at.text, at.position);
    assert.match(found?.contents ?? '', /\*\*p99\*\* — the latency `find rate` keeps under the limit/);
    const keyword = withCaret('### s\nfi‸nd rate where p99 < 2ms\nSET k v');
    assert.match(hover(keyword.text, keyword.position)?.contents ?? '', /highest open-loop rate/);
  });
});

import assert from 'node:assert/strict';
import { parseCount, parseDuration, parsePercent, parseRate, parseSize } from '../../../src/scenario';
import { editDistance, closest } from '../../../src/scenario/suggest';

function value(result: { ok: boolean; value?: number; message?: string }): number | undefined {
  return result.ok ? result.value : undefined;
}

describe('units', () => {
  it('reads counts with suffixes, separators, decimals and division', () => {
    assert.equal(value(parseCount('100')), 100);
    assert.equal(value(parseCount('100k')), 100_000);
    assert.equal(value(parseCount('100K')), 100_000);
    assert.equal(value(parseCount('1M')), 1_000_000);
    assert.equal(value(parseCount('2.5M')), 2_500_000);
    assert.equal(value(parseCount('2.3M')), 2_300_000);
    assert.equal(value(parseCount('1G')), 1e9);
    assert.equal(value(parseCount('1_000_000')), 1_000_000);
    assert.equal(value(parseCount('1M/100')), 10_000);
    assert.equal(value(parseCount('10/3')), 4, 'division rounds up');
  });

  it('refuses counts that are not whole, ambiguous or malformed, naming the form', () => {
    for (const bad of ['1.5', '1.2345k', 'lots', '', '1_', '-1', '1x', '1e6', '1/0', '1/x']) {
      const result = parseCount(bad);
      assert.equal(result.ok, false, bad);
    }
    const ambiguous = parseCount('1m');
    assert.ok(!ambiguous.ok && /write `1M`/.test(ambiguous.message));
    const word = parseCount('lots');
    assert.ok(!word.ok && word.message.includes('`100k`'));
  });

  it('reads durations into milliseconds and requires a unit', () => {
    assert.equal(value(parseDuration('30s')), 30_000);
    assert.equal(value(parseDuration('5m')), 300_000);
    assert.equal(value(parseDuration('500ms')), 500);
    assert.equal(value(parseDuration('2ms')), 2);
    assert.equal(value(parseDuration('500us')), 0.5);
    assert.equal(value(parseDuration('500µs')), 0.5);
    assert.equal(value(parseDuration('1h')), 3_600_000);
    assert.equal(value(parseDuration('1.5s')), 1500);
    const bare = parseDuration('30');
    assert.ok(!bare.ok && bare.message.includes('`30s`'));
    assert.equal(parseDuration('30d').ok, false);
  });

  it('reads sizes with redis.conf units: k = 1000, kb = 1024, case-insensitive', () => {
    assert.equal(value(parseSize('748')), 748);
    assert.equal(value(parseSize('1k')), 1000);
    assert.equal(value(parseSize('1KB')), 1024);
    assert.equal(value(parseSize('1kb')), 1024);
    assert.equal(value(parseSize('1KiB')), 1024);
    assert.equal(value(parseSize('1m')), 1e6);
    assert.equal(value(parseSize('1MB')), 1024 ** 2);
    assert.equal(value(parseSize('4MiB')), 4 * 1024 ** 2);
    assert.equal(value(parseSize('1gb')), 1024 ** 3);
    assert.equal(value(parseSize('1.5KB')), 1536);
    assert.equal(value(parseSize('10B')), 10);
    assert.equal(parseSize('1.5').ok, false);
    assert.equal(parseSize('1TB').ok, false);
  });

  it('reads rates and percentages', () => {
    assert.equal(value(parseRate('20k/s')), 20_000);
    assert.equal(value(parseRate('500/s')), 500);
    const bare = parseRate('20k');
    assert.ok(!bare.ok && bare.message.includes('`20k/s`'));
    assert.equal(value(parseRate('20k', true)), 20_000);
    assert.equal(value(parsePercent('80%')), 80);
    assert.equal(value(parsePercent('0.1%')), 0.1);
    assert.equal(parsePercent('80').ok, false);
  });
});

describe('did-you-mean', () => {
  it('counts insertions, deletions, substitutions and transpositions', () => {
    assert.equal(editDistance('pipline', 'pipeline'), 1);
    assert.equal(editDistance('gte', 'get'), 1);
    assert.equal(editDistance('clients', 'clients'), 0);
    assert.equal(editDistance('abc', 'xyz'), 3);
    assert.equal(editDistance('a', 'abcdef', 2), 3, 'gives up past the limit');
  });

  it('suggests the nearest candidate only when it is a plausible typo', () => {
    assert.equal(closest('pipline', ['clients', 'pipeline', 'requests']), 'pipeline');
    assert.equal(closest('GTE', ['SET', 'GET']), 'GET');
    assert.equal(closest('banana', ['clients', 'pipeline']), undefined);
    assert.equal(closest('x'.repeat(100), ['x']), undefined);
  });
});

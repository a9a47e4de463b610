// Issue 26, statistics: the bootstrap's pieces (seeded generator, block length, the expanded tail), the one
// significance rule, and what the outputs and the compare panel's model show of an interval.
import assert from 'node:assert/strict';
import { compareRuns } from '../../../src/results/compare';
import { comparisonToMarkdown, comparisonToText } from '../../../src/results/compareFormat';
import { blockLength, bootstrapChange, changeInterval, expandedTail, isSignificant, seededRandom } from '../../../src/results/statistics';
import { buildCompareViewModel } from '../../../src/views/compareModel';
import { loadResult, makeRun } from './fixtures';

const text = '### repeated\nclients 4\nrequests 10000\nrepeat 5\nGET k\n';
const run = (ops: number[]) => makeRun({ text, results: { '': ops.map((o) => [loadResult('main', 'GET', { ops: o, p99: 500 })]) } });

describe('statistics: the bootstrap', () => {
  it('the generator is seeded: the same seed, the same sequence; another seed, another', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const c = seededRandom(8);
    const first = [a(), a(), a()];
    assert.deepEqual(first, [b(), b(), b()]);
    assert.notDeepEqual(first, [c(), c(), c()]);
    assert.ok(first.every((x) => x >= 0 && x < 1));
  });

  it('blocks of n^(1/3) timeline buckets; the tail widens for few pieces, to 2.5% for many', () => {
    assert.deepEqual([1, 8, 27, 100].map(blockLength), [1, 2, 3, 5]);
    assert.ok(expandedTail(3) < 1e-5, `3 pieces: the extremes (${expandedTail(3)})`);
    assert.ok(expandedTail(5) < 0.005);
    assert.ok(Math.abs(expandedTail(200) - 0.025) < 0.003, String(expandedTail(200)));
  });

  it('the interval of a clear drop excludes 0 and holds the drop; of identical samples it is 0', () => {
    const drop = bootstrapChange([100, 102, 98, 101, 99, 100, 103, 97], [60, 61, 59, 62, 58, 60, 61, 59], 1, 1)!;
    assert.ok(drop.high < 0 && drop.low < -35 && drop.high > -45, JSON.stringify(drop));
    assert.deepEqual(bootstrapChange([5, 5, 5], [5, 5, 5], 1, 1), { low: 0, high: 0 });
    assert.equal(bootstrapChange([0, 0, 0], [1, 2, 3], 1, 1), undefined, 'no percentage from 0');
  });

  it('repeats when both sides have 3; else the timeline when both have 8 buckets; else none', () => {
    assert.equal(changeInterval({ repeats: [1, 2, 3] }, { repeats: [1, 2, 3] }, 1)!.test, 'bootstrap-repeats');
    const timeline = Array.from({ length: 10 }, (_, i) => 100 + i);
    assert.equal(changeInterval({ repeats: [1], timeline }, { repeats: [1], timeline }, 1)!.test, 'block-bootstrap-timeline');
    assert.equal(changeInterval({ repeats: [1, 2], timeline: timeline.slice(0, 7) }, { repeats: [1, 2], timeline }, 1), undefined);
  });

  it('THE rule: beyond the noise limit AND an interval excluding 0; without an interval the limit alone', () => {
    const through = { low: -3, high: 30, test: 'bootstrap-repeats' as const, samples: [3, 3] as [number, number] };
    assert.equal(isSignificant(20, 20, 5, through), false);
    assert.equal(isSignificant(20, 20, 5, { ...through, low: 2 }), true);
    assert.equal(isSignificant(4, 4, 5, { ...through, low: 2 }), false);
    assert.equal(isSignificant(20, 20, 5, undefined), true);
    assert.equal(isSignificant(null, 5, 5, undefined), true, 'from 0: never noise');
  });
});

describe('statistics in the outputs and the compare panel', () => {
  const comparison = () => compareRuns([run([1000, 1010, 990, 1005, 995]), run([800, 810, 790, 805, 795])]);

  it('text and Markdown show the interval beside the change and say which test was used', () => {
    const markdown = comparisonToMarkdown(comparison());
    assert.match(markdown, /\| GET \| ops\/s \| 1,000 \| 800 \(-20\.0% \\\[-\d+\.\d%, -\d+\.\d%\\\] ❌\) \|/);
    assert.match(markdown, /- Significance: a change counts only when it exceeds ±5% and its 95% interval \(seeded, reproducible\) excludes 0\./);
    assert.match(markdown, /- \d+ changes: bootstrap over the repeats/);
    const textOut = comparisonToText(comparison());
    assert.match(textOut, /95% interval/);
    assert.match(textOut, /^GET\s+ops\/s\s+1,000\s+800\s+-20\.0%\s+\[-\d+\.\d%, -\d+\.\d%\]\s+worse$/m);
  });

  it("the panel's model carries the interval and its test (additive fields of CompareCell)", () => {
    const model = buildCompareViewModel([run([1000, 1010, 990, 1005, 995]), run([800, 810, 790, 805, 795])]);
    const ops = model.lines.find((line) => line.metric === 'ops')!.cells[1];
    assert.match(ops.interval!, /^\[-\d+\.\d%, -\d+\.\d%\]$/);
    assert.match(ops.intervalTest!, /bootstrap over the repeats/);
  });
});

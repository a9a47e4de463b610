// Compare shows a read's miss rate as a row of its own (issue 43): the change between runs, and nothing for
// rows that count no misses (writes, run files from before misses were counted).
import assert from 'node:assert/strict';
import { compareRuns } from '../../../src/results/compare';
import { comparisonToCsv, comparisonToText, metricsShown } from '../../../src/results/compareFormat';
import { loadResult, makeRun } from './fixtures';

function withMisses(misses: number | undefined, ops: number) {
  const load = loadResult('main', 'GET', { ops, p99: 10 });
  const total = { ...load.total, requests: 1000, errors: 0, ...(misses !== undefined ? { misses } : {}) };
  return { ...load, total, commands: [{ ...total, command: 'GET' }] };
}

describe('compare: the miss rate of a read', () => {
  const text = '### get\nrequests 1000\nGET k:__key__\nSET k:__key__ v\n';

  it('a GET row gains a miss-rate line with its change; a SET row has none', () => {
    const set = loadResult('main', 'SET', { ops: 100, p99: 10 });
    const before = makeRun({ text, results: { '': [[withMisses(500, 1000), set]] } });
    const after = makeRun({ text, results: { '': [[withMisses(20, 900), set]] } });
    const comparison = compareRuns([before, after]);
    const [get, setRow] = comparison.rows;
    assert.equal(get.cells[0]!.metrics['miss-rate'].value, 0.5);
    assert.equal(get.cells[1]!.metrics['miss-rate'].value, 0.02);
    assert.equal(get.cells[1]!.metrics['miss-rate'].delta!.verdict, 'better');
    assert.ok(metricsShown(get).includes('miss-rate'));
    assert.ok(!metricsShown(setRow).includes('miss-rate'));
    assert.match(comparisonToText(comparison), /miss rate\s+50\.0 %\s+2\.0 %/);
    const csv = comparisonToCsv(comparison);
    assert.equal((csv.match(/,"miss-rate",/g) ?? []).length, 2, 'one line per run for GET, none for SET');
  });

  it('a run file without misses (written before they were counted): the metric is absent, never a 0 % change', () => {
    const old = makeRun({ text, results: { '': [[withMisses(undefined, 1000)]] } });
    const now = makeRun({ text, results: { '': [[withMisses(300, 1000)]] } });
    const [get] = compareRuns([old, now]).rows;
    assert.equal(get.cells[0]!.metrics['miss-rate'].absent, true);
    assert.equal(get.cells[1]!.metrics['miss-rate'].delta, undefined);
    assert.equal(get.cells[1]!.metrics['miss-rate'].value, 0.3);
  });
});

// A ramp's steps (`ramp clients A..B step S every T`) in compare: a step's row under its test's total, compared
// with the same step of the other run (its number and clients). The CSV's step lines: test/unit/cli/connectionChurn.test.ts.
import assert from 'node:assert/strict';
import type { LoadResult } from '../../../src/engine/types';
import { compareRuns } from '../../../src/results/compare';
import { commandResult, loadResult, makeRun } from './fixtures';

const text = '### ramp\nramp clients 10..30 step 10 every 1s\nGET k:__key__\n';

/** A ramp load whose steps ran at these throughputs (p99 of 100 µs × the step's number). */
function rampLoad(stepOps: number[], clients = [10, 20, 30]): LoadResult {
  const load = loadResult('main', 'GET', { ops: stepOps.reduce((a, b) => a + b, 0) / stepOps.length, p99: 200 });
  const ramp = stepOps.map((ops, i) => ({
    clients: clients[i],
    fromMs: i * 1000,
    toMs: (i + 1) * 1000,
    replies: ops,
    errors: 0,
    opsPerSec: ops,
    latency: commandResult('step', { ops, p99: 100 * (i + 1) }).latency,
  }));
  return { ...load, ramp };
}

describe('ramp steps in compare', () => {
  it('compare: each step is a row of its own, its change against the same step of the other run', () => {
    const before = makeRun({ text, results: { '': [[rampLoad([1000, 2000, 3000])]] } });
    const after = makeRun({ text, results: { '': [[rampLoad([1000, 1000, 6000])]] } });
    const rows = compareRuns([before, after]).rows;
    assert.deepEqual(
      rows.map((row) => row.command),
      ['total', 'step 1: 10 clients', 'step 2: 20 clients', 'step 3: 30 clients'],
    );
    const ops = (i: number) => rows[i].cells.map((cell) => cell!.metrics.ops.value);
    assert.deepEqual(ops(1), [1000, 1000]);
    assert.deepEqual(ops(2), [2000, 1000]);
    assert.deepEqual(ops(3), [3000, 6000]);
    assert.equal(rows[1].cells[1]!.metrics.ops.delta!.verdict, 'noise');
    assert.equal(rows[2].cells[1]!.metrics.ops.delta!.verdict, 'worse');
    assert.equal(rows[3].cells[1]!.metrics.ops.delta!.verdict, 'better');
  });

  it('compare: a step of other clients pairs with nothing (a different load), never with a step of the same number', () => {
    const before = makeRun({ text, results: { '': [[rampLoad([1000, 2000, 3000])]] } });
    const after = makeRun({ text, results: { '': [[rampLoad([1000, 2000, 3000], [10, 25, 30])]] } });
    const step2 = compareRuns([before, after]).rows.filter((row) => row.command.startsWith('step 2'));
    assert.deepEqual(
      step2.map((row) => [row.command, row.cells.map((cell) => cell !== null)]),
      [
        ['step 2: 20 clients', [true, false]],
        ['step 2: 25 clients', [false, true]],
      ],
    );
  });
});

// Issue 43 (connection behaviour): two ramped runs in the comparison panel — their step curves on one chart,
// a step at the x of its clients, so a step meets the other run's step of the same clients (as the compare
// rows pair `step 2: 20 clients` by number and clients) and a step of other clients stands alone. The
// fixtures are two real CLI runs of test/browser/fixtures/ramp.rbench: clients 2, 4, 6, 8, then 2, 5, 8.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunFile } from '../../../src/results/runFile';
import { buildCompareViewModel } from '../../../src/views/compareModel';
import { repoRoot } from '../scenario/helpers';

const fixture = (name: string) => JSON.parse(readFileSync(join(repoRoot(), 'test', 'browser', 'fixtures', `${name}.rbench-run.json`), 'utf8')) as RunFile;

describe('comparison panel: two ramps on one chart', () => {
  it('both runs ramp: each run’s steps at their clients, the same clients on one x, figures equal to the compare rows', () => {
    const [a, b] = [fixture('ramp'), fixture('ramp-b')];
    const model = buildCompareViewModel([a, b]);
    const ramp = model.ramp!;
    assert.ok(ramp, 'a ramp overlay');
    assert.equal(ramp.axis, 'clients');
    assert.deepEqual(ramp.x, [2, 4, 5, 6, 8]);
    const [labelA, labelB] = model.columns.map((c) => c.label);
    // The columns are named by the ramps that differ, not by the duration they happen to take.
    assert.match(labelA, /^ramp 2\.\.8 step 2 every 1\.0s( · |$)/);
    assert.match(labelB, /^ramp 2\.\.8 step 3 every 1\.0s( · |$)/);
    assert.deepEqual(
      ramp.series.map((s) => [s.label, s.run, s.metric]),
      [
        [`${labelA} ops/s`, 0, 'ops'],
        [`${labelA} p50`, 0, 'p50'],
        [`${labelA} p99`, 0, 'p99'],
        [`${labelB} ops/s`, 1, 'ops'],
        [`${labelB} p50`, 1, 'p50'],
        [`${labelB} p99`, 1, 'p99'],
      ],
    );
    // The compare rows pair a step by its number and clients (only `step 1: 2 clients` is in both runs); on the
    // chart a step stands at its clients, so the two runs' 8-client steps (a's 4th, b's 3rd) share an x as well.
    const stepOps = (run: number, command: string) => model.comparison.rows.find((row) => row.command === command)?.cells[run]?.metrics.ops.value;
    const opsA = ramp.series[0].values;
    const opsB = ramp.series[3].values;
    assert.equal(opsA[0], stepOps(0, 'step 1: 2 clients'));
    assert.equal(opsB[0], stepOps(1, 'step 1: 2 clients'));
    assert.equal(opsA[1], stepOps(0, 'step 2: 4 clients'));
    assert.equal(opsB[1], undefined, 'b has no step of 4 clients: its line runs on past it');
    assert.equal(opsA[2], undefined, 'a has no step of 5 clients');
    assert.equal(opsB[2], stepOps(1, 'step 2: 5 clients'));
    assert.equal(opsA[4], stepOps(0, 'step 4: 8 clients'));
    assert.equal(opsB[4], stepOps(1, 'step 3: 8 clients'));
    const p99 = (run: number, command: string) => model.comparison.rows.find((row) => row.command === command)?.cells[run]?.metrics.p99.value;
    assert.equal(ramp.series[5].values[4], p99(1, 'step 3: 8 clients')! / 1000);
  });

  it('only one run ramps, or neither: no ramp chart', () => {
    assert.equal(buildCompareViewModel([fixture('ramp'), fixture('compare-a')]).ramp, undefined);
    assert.equal(buildCompareViewModel([fixture('compare-a'), fixture('compare-b')]).ramp, undefined);
  });
});

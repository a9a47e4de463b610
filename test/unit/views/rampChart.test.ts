// Issue 43 (connection behaviour): a ramp (`ramp clients A..B step S every T`) in the results panel is a chart
// with a point per step — x the step's connected clients, its throughput, p50 and p99 — whose figures are the
// table's step rows; a run without a ramp has no such chart; a stranger's step list is refused by the run
// file's schema when malformed or longer than any ramp, and a long one is charted in a bounded number of points.
// The fixtures are real CLI runs (test/browser/fixtures/ramp.rbench, regenerate.sh).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadResult } from '../../../src/engine/types';
import type { RunFile } from '../../../src/results/runFile';
import { runFileProblem } from '../../../src/results/runFileSchema';
import { formatLatency, formatOpsShort } from '../../../src/results/format';
import { buildViewModel, MAX_CHART_SERIES, MAX_RAMP_CHART_STEPS, type TableRow } from '../../../src/views/model';
import { MAX_RAMP_CLIENTS } from '../../../src/scenario/settings';
import { parseCompareMessage, parseWebviewMessage, PNG_PREFIX } from '../../../src/views/messages';
import { repoRoot } from '../scenario/helpers';

const fixture = (name: string) => JSON.parse(readFileSync(join(repoRoot(), 'test', 'browser', 'fixtures', `${name}.rbench-run.json`), 'utf8')) as RunFile;
const onlyLoad = (run: RunFile) => run.points[0].repeats[0][0];
const stepRows = (rows: readonly TableRow[]) => rows.filter((row) => row.detail === 'step');

/** The ramp fixture's load with `count` steps of 1, 2, 3… clients (figures from its real first step). */
function longRamp(count: number): RunFile {
  const run = fixture('ramp');
  const load = onlyLoad(run);
  const first = load.ramp![0];
  load.ramp = Array.from({ length: count }, (_, i) => ({ ...first, clients: i + 1, fromMs: i * 1000, toMs: (i + 1) * 1000, opsPerSec: 1000 + i }));
  return run;
}

describe('results panel: the ramp chart (a point per step)', () => {
  it('a ramped run: one chart, a point per step in step order at its clients, figures equal to the step rows', () => {
    const run = fixture('ramp');
    const steps = onlyLoad(run).ramp!;
    assert.deepEqual(
      steps.map((step) => step.clients),
      [2, 4, 6, 8],
    );
    const model = buildViewModel(run);
    const ramp = model.ramp!;
    assert.ok(ramp, 'a ramp chart');
    assert.equal(ramp.axis, 'clients');
    assert.deepEqual(ramp.x, [2, 4, 6, 8]);
    assert.deepEqual(ramp.xLabels, ['2 clients', '4 clients', '6 clients', '8 clients']);
    assert.deepEqual(
      ramp.series.map((s) => [s.label, s.metric]),
      [
        ['ops/s', 'ops'],
        ['p50', 'p50'],
        ['p99', 'p99'],
      ],
    );
    const rows = stepRows(model.rows);
    assert.deepEqual(
      rows.map((row) => row.source?.clients),
      ramp.x,
      'the table has the same steps',
    );
    const [ops, p50, p99] = ramp.series;
    assert.deepEqual(
      ops.median,
      rows.map((row) => row.opsPerSec),
    );
    assert.deepEqual(
      p50.median,
      rows.map((row) => row.p50Us / 1000),
    );
    assert.deepEqual(
      p99.median,
      rows.map((row) => row.p99Us / 1000),
    );
    // One run of the test: no spread to draw.
    for (const s of ramp.series) assert.deepEqual(s.min, s.max);
    // Where throughput stopped rising: the step of the most ops/s, in words under the chart.
    const peak = steps.reduce((best, step) => (step.opsPerSec > best.opsPerSec ? step : best));
    assert.equal(ramp.note, `Most throughput at ${peak.clients} clients (${formatOpsShort(peak.opsPerSec)} ops/s, p99 ${formatLatency(peak.latency.p99Us)}).`);
    // One load at one point: the ramp is its only chart over clients (no sweep chart).
    assert.equal(model.sweep, undefined);
  });

  it('a run without a ramp has no ramp chart', () => {
    for (const name of ['finished', 'sweep', 'repeat', 'compare-a']) assert.equal(buildViewModel(fixture(name)).ramp, undefined, name);
  });

  it('repeats: the representative run’s steps (the rows’), the other repeats’ same steps as the spread', () => {
    const run = fixture('ramp');
    const load = onlyLoad(run);
    const faster: LoadResult = { ...load, ramp: load.ramp!.map((step) => ({ ...step, opsPerSec: step.opsPerSec * 2 })) };
    run.points[0].repeats = [[load], [faster]];
    run.points[0].summary = [{ ...run.points[0].summary[0], runs: 2, representative: 0 }];
    const ramp = buildViewModel(run).ramp!;
    const ops = ramp.series[0];
    assert.deepEqual(
      ops.median,
      load.ramp!.map((step) => step.opsPerSec),
    );
    assert.deepEqual(ops.min, ops.median);
    assert.deepEqual(
      ops.max,
      load.ramp!.map((step) => step.opsPerSec * 2),
    );
  });

  it('several ramped tests: each its own three lines, named by test, on the union of their clients', () => {
    const run = fixture('ramp');
    const load = onlyLoad(run);
    const other: LoadResult = {
      ...load,
      test: 'GET',
      ramp: load.ramp!.slice(0, 2).map((step, i) => ({ ...step, clients: [3, 4][i] })),
    };
    run.points[0].repeats = [[load, other]];
    run.points[0].summary = [run.points[0].summary[0], { ...run.points[0].summary[0], test: 'GET' }];
    const ramp = buildViewModel(run).ramp!;
    assert.deepEqual(ramp.x, [2, 3, 4, 6, 8]);
    assert.deepEqual(
      ramp.series.map((s) => s.label),
      [`${load.test} ops/s`, `${load.test} p50`, `${load.test} p99`, 'GET ops/s', 'GET p50', 'GET p99'],
    );
    assert.deepEqual(ramp.series[3].median, [null, load.ramp![0].opsPerSec, load.ramp![1].opsPerSec, null, null]);
    assert.match(ramp.note ?? '', new RegExp(`^${load.test}: most throughput at \\d clients \\(.+\\); GET: most throughput at [34] clients \\(.+\\)\\.$`));
  });

  it('a stranger’s file: a malformed step or more steps than any ramp has is refused by the schema', () => {
    const malformed = fixture('ramp');
    (onlyLoad(malformed).ramp![1] as unknown as { clients: unknown }).clients = 'four';
    assert.match(runFileProblem(malformed, 'x.json') ?? '', /points\[0\]\.repeats\[0\]\[0\]\.ramp\[1\]\.clients/);
    const notANumber = fixture('ramp');
    onlyLoad(notANumber).ramp![0].opsPerSec = Number.NaN;
    assert.match(runFileProblem(notANumber, 'x.json') ?? '', /ramp\[0\]\.opsPerSec/);
    assert.match(runFileProblem(longRamp(MAX_RAMP_CLIENTS + 1), 'x.json') ?? '', /ramp: at most 100000 steps/);
    assert.equal(runFileProblem(fixture('ramp'), 'x.json'), undefined, 'the real file is read');
  });

  it('a long ramp is charted in a bounded number of points, its last step kept, the rest named; the table keeps every step', () => {
    const count = 4 * MAX_RAMP_CHART_STEPS + 1;
    const run = longRamp(count);
    assert.equal(runFileProblem(run, 'x.json'), undefined, 'a ramp of that many steps is one RBench may write');
    const model = buildViewModel(run);
    const ramp = model.ramp!;
    assert.ok(ramp.x.length <= MAX_RAMP_CHART_STEPS + 1, String(ramp.x.length));
    assert.equal(ramp.x[ramp.x.length - 1], count, 'the last step is charted');
    assert.deepEqual(ramp.x.slice(0, 3), [1, 6, 11], 'one step in 5');
    // Each charted point is a real step's figure (not merged ones).
    assert.deepEqual(ramp.series[0].median.slice(0, 3), [1000, 1005, 1010]);
    assert.match(
      ramp.note ?? '',
      /^Most throughput at 4,001 clients \(.+\)\. .+: one step in 5 of its 4,001 is charted, and the last: the table lists every step\.$/,
    );
    assert.equal(stepRows(model.rows).length, count);
  });

  it('steps whose clients do not climb are not drawn on a clients axis, and the note says so', () => {
    const run = fixture('ramp');
    const steps = onlyLoad(run).ramp!;
    [steps[1].clients, steps[2].clients] = [steps[2].clients, steps[1].clients];
    const model = buildViewModel(run);
    assert.equal(model.ramp, undefined, 'the only ramp cannot be charted');
    const two = fixture('ramp');
    const load = onlyLoad(two);
    const jumbled: LoadResult = { ...load, test: 'GET', ramp: [...load.ramp!].reverse() };
    two.points[0].repeats = [[load, jumbled]];
    two.points[0].summary = [two.points[0].summary[0], { ...two.points[0].summary[0], test: 'GET' }];
    const ramp = buildViewModel(two).ramp!;
    assert.deepEqual(ramp.x, [2, 4, 6, 8]);
    assert.equal(ramp.series.length, 3);
    assert.match(ramp.note ?? '', /^Most throughput at .+\. GET: its steps' clients do not climb, so it is not charted: the table lists every step\.$/);
  });

  it('more ramped tests than the chart has room for: the rest are named as not charted', () => {
    const run = fixture('ramp');
    const load = onlyLoad(run);
    const tests = Array.from({ length: 5 }, (_, i): LoadResult => ({ ...load, test: `T${i}` }));
    run.points[0].repeats = [tests];
    run.points[0].summary = tests.map((t) => ({ ...run.points[0].summary[0], test: t.test }));
    const model = buildViewModel(run);
    assert.equal(model.ramp!.series.length, MAX_CHART_SERIES);
    assert.deepEqual(model.omitted, ['T4 ops/s', 'T4 p50', 'T4 p99']);
  });
});

describe('results panel: the ramp chart’s messages', () => {
  it('the host takes a Save PNG of the ramp chart, and still no chart it does not know', () => {
    const dataUrl = `${PNG_PREFIX}iVBORw0KGgo=`;
    assert.deepEqual(parseWebviewMessage({ type: 'save-png', chart: 'ramp', dataUrl }), { type: 'save-png', chart: 'ramp', dataUrl });
    assert.equal(parseWebviewMessage({ type: 'save-png', chart: 'ramps', dataUrl }), undefined);
    assert.deepEqual(parseCompareMessage({ type: 'save-png', chart: 'ramp', dataUrl }), { type: 'save-png', chart: 'ramp', dataUrl });
  });
});

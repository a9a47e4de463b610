// The results panel's view-model, from real run files (test/browser/fixtures, written by the CLI).
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as hdr from 'hdr-histogram-js';
import { LatencyRecorder } from '../../../src/engine/measure/histogram';
import type { LoadResult } from '../../../src/engine/types';
import { toRedisBenchmarkCsv } from '../../../src/results/export';
import { resultRows } from '../../../src/results/rows';
import type { RunFile } from '../../../src/results/runFile';
import { runWarnings } from '../../../src/results/warnings';
import {
  applyProgress,
  buildLiveViewModel,
  buildViewModel,
  currentLoad,
  decodeHistogram,
  drawnBuckets,
  exportTable,
  histogramBars,
  liveRunFile,
  newLiveRun,
  percentileCurve,
  sortRows,
  valuesAtPercentiles,
} from '../../../src/views/model';
import { repoRoot } from '../scenario/helpers';
import { replay } from './replay';

function fixture(name: string): RunFile {
  return JSON.parse(readFileSync(join(repoRoot(), 'test', 'browser', 'fixtures', `${name}.rbench-run.json`), 'utf8')) as RunFile;
}

describe('results view-model', () => {
  it('turns a finished run into table rows that agree with resultRows', () => {
    const run = fixture('finished');
    const model = buildViewModel(run);
    const expected = resultRows(run);
    assert.equal(model.rows.length, expected.length);
    assert.equal(model.rows.length, 5, 'SET, the mix total and its three commands');
    model.rows.forEach((row, i) => {
      assert.equal(row.requests, expected[i].requests);
      assert.equal(row.opsPerSec, expected[i].opsPerSec);
      assert.equal(row.p999Us, expected[i].p999Us);
    });
    assert.deepEqual(
      model.columns.map((c) => c.header),
      ['Phase', 'Test', 'Requests', 'Ops/s', 'Mean', 'p50', 'p90', 'p99', 'p99.9', 'Max', 'Errors'],
    );
    const mixGet = model.rows.find((r) => r.command === 'GET');
    assert.ok(mixGet);
    assert.equal(model.columns.find((c) => c.key === 'test')?.cell(mixGet), 'mix › GET');
    assert.equal(model.header.status, 'complete');
    assert.match(model.header.server ?? '', /^Redis \d+\.\d+\.\d+ · standalone$/);
  });

  it("names a Sentinel target's primary on the target line, and the new one after a failover", () => {
    const run = fixture('finished');
    assert.doesNotMatch(buildViewModel(run).header.target, /primary/, 'not for a run on one server');
    run.target.primaries = ['127.0.0.1:6380'];
    assert.equal(buildViewModel(run).header.target, `${run.target.display} · primary 127.0.0.1:6380`);
    run.target.primaries.push('127.0.0.1:6381');
    assert.equal(buildViewModel(run).header.target, `${run.target.display} · primary 127.0.0.1:6380, then 127.0.0.1:6381 after a failover`);
  });

  it('lists thresholds and warnings from the run file', () => {
    const run = fixture('finished');
    const model = buildViewModel(run);
    assert.equal(model.thresholds.length, run.thresholds.length);
    assert.equal(model.thresholds.filter((t) => !t.passed).length, run.thresholds.filter((t) => !t.passed).length);
    assert.match(model.thresholds[0].detail, /^write SET: \d/);
    assert.deepEqual(buildViewModel(fixture('oom')).warnings, runWarnings(fixture('oom')));
    assert.match(buildViewModel(fixture('oom')).warnings.join('\n'), /OOM/);
  });

  it('places each load on the run clock, with a gap between loads', () => {
    const run = fixture('finished');
    const model = buildViewModel(run);
    const timeline = model.timeline;
    assert.ok(timeline);
    // A load's last sliver of a bucket is not drawn (issue 22): drawnBuckets.
    const seconds = run.points[0].repeats[0].reduce((sum, load) => sum + drawnBuckets(load.timeline).length, 0);
    assert.equal(timeline.x.length, seconds + 1, 'every second plus one gap');
    assert.equal(timeline.ops.filter((v) => v === null).length, 1);
    assert.deepEqual(
      timeline.segments.map((s) => s.label),
      ['write SET', 'mix'],
    );
    for (let i = 1; i < timeline.x.length; i++) assert.ok(timeline.x[i] > timeline.x[i - 1], 'x ascends');
    const [first, second] = run.points[0].repeats[0];
    assert.ok(timeline.segments[1].start >= (Date.parse(second.startedAt) - Date.parse(run.startedAt)) / 1000);
    assert.ok(timeline.segments[0].end <= timeline.segments[1].start);
    assert.equal(timeline.ops[0], first.timeline[0].ops);
  });

  it('turns persistence events into marks and server samples into series', () => {
    const run = fixture('snapshot');
    const model = buildViewModel(run);
    assert.equal(model.marks.length, run.server.events.length);
    assert.ok(model.marks.length >= 2, 'the fixture ran snapshots');
    assert.equal(model.marks[0].label, 'snapshot started');
    assert.equal(model.marks[0].t, run.server.events[0].t / 1000);
    assert.equal(model.server?.x.length, run.server.samples.length);
    assert.equal(model.server?.usedMemoryMb[0], run.server.samples[0].usedMemory / 1048576);
    assert.match(model.warnings.join('\n'), /background snapshot/);
  });

  it('decodes histograms to the same percentiles the engine stored', () => {
    for (const name of ['finished', 'snapshot', 'sweep', 'oom']) {
      const loads: LoadResult[] = fixture(name).points.flatMap((p) => p.repeats.flat());
      for (const load of loads) {
        for (const result of [load.total, ...load.commands]) {
          const decoded = decodeHistogram(result.histogram);
          assert.equal(decoded.total, result.latency.count, `${name} ${result.command} count`);
          const [p50, p90, p99, p999] = valuesAtPercentiles(decoded, [50, 90, 99, 99.9]);
          assert.deepEqual(
            [p50, p90, p99, p999],
            [result.latency.p50Us, result.latency.p90Us, result.latency.p99Us, result.latency.p999Us],
            `${name} ${result.command}`,
          );
        }
      }
    }
  });

  it("draws the percentile curve from a histogram built with hdr-histogram-js, by the engine recorder's rule", () => {
    const histogram = hdr.build({ bitBucketSize: 64, lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
    const recorder = new LatencyRecorder();
    for (let us = 1; us <= 20_000; us++) {
      histogram.recordValueWithCount(us, us <= 19_000 ? 1 : 3);
      recorder.record(us, us <= 19_000 ? 1 : 3);
    }
    histogram.recordValue(250_000);
    recorder.record(250_000, 1);
    const encoded = hdr.encodeIntoCompressedBase64(histogram);
    const decoded = decodeHistogram(encoded);
    assert.equal(decoded.total, histogram.totalCount);
    const percentiles = [0, 10, 50, 90, 99, 99.9, 99.99, 99.999, 100];
    assert.deepEqual(
      valuesAtPercentiles(decoded, percentiles),
      percentiles.map((p) => recorder.valueAtPercentile(p)),
    );
    const curve = percentileCurve([{ label: 'a', histogram: decoded }]);
    assert.equal(curve.x[0], 1, 'p0 at x = 1');
    assert.ok(Math.abs(curve.x[curve.x.length - 1] - 100_000) < 1e-6, 'p99.999 at x = 100,000');
    const values = curve.series[0].values as number[];
    for (let i = 1; i < values.length; i++) assert.ok(values[i] >= values[i - 1], 'latency never falls with the percentile');
    assert.equal(values[values.length - 1], recorder.valueAtPercentile(99.999) / 1000);
    histogram.destroy();
  });

  it('bins histograms into log-spaced bars that add up to 100%', () => {
    const run = fixture('finished');
    const loads = run.points[0].repeats[0];
    const bars = histogramBars(loads.map((l) => ({ label: l.test, histogram: decodeHistogram(l.total.histogram) })));
    assert.ok(bars);
    for (const series of bars.series) {
      const sum = (series.values as number[]).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 100) < 1e-6, `${series.label} sums to ${sum}`);
    }
    for (let i = 1; i < bars.x.length; i++) assert.ok(Math.abs(bars.x[i] / bars.x[i - 1] - bars.ratio) < 1e-9);
    const maxMs = Math.max(...loads.map((l) => l.total.latency.maxUs)) / 1000;
    assert.ok(bars.x[bars.x.length - 1] <= maxMs && bars.x[bars.x.length - 1] * bars.ratio > maxMs, 'the last bin holds the max');
  });

  it('sorts rows by a column, and exports them in the order shown', () => {
    const run = fixture('sweep');
    const model = buildViewModel(run);
    const byOps = sortRows(model.rows, { key: 'opsPerSec', descending: true });
    for (let i = 1; i < byOps.length; i++) assert.ok(byOps[i - 1].opsPerSec >= byOps[i].opsPerSec);
    const byPointAscending = sortRows(model.rows, { key: 'point', descending: false });
    assert.deepEqual(
      byPointAscending.map((r) => r.point),
      ['value=5', 'value=10', 'value=20', 'value=50', 'value=100', 'value=200', 'value=500', 'value=1000'],
      'numeric-aware text order',
    );
    assert.deepEqual(sortRows(byOps), model.rows, 'no sort: run order');
    assert.equal(exportTable(model.rows, 'csv'), toRedisBenchmarkCsv(resultRows(run)));
    const sortedCsv = exportTable(model.rows, 'csv', { key: 'opsPerSec', descending: true }).split('\n');
    const fastest = byOps[0];
    assert.ok(sortedCsv[1].startsWith(`"RPUSH ${fastest.point}"`), sortedCsv[1]);
    assert.match(exportTable(model.rows, 'markdown'), /^\| point \| command \|/);
  });

  it('shows a sweep against the swept setting, and repeats as median and spread', () => {
    const sweep = buildViewModel(fixture('sweep')).sweep;
    assert.ok(sweep);
    assert.equal(sweep.axis, 'value');
    assert.deepEqual(sweep.x, [5, 10, 20, 50, 100, 200, 500, 1000]);
    assert.equal(sweep.log, true);
    assert.deepEqual(
      sweep.series.map((s) => s.label),
      ['RPUSH ops/s', 'RPUSH p99'],
    );

    const run = fixture('repeat');
    const repeat = buildViewModel(run);
    assert.ok(repeat.sweep);
    assert.equal(repeat.sweep.series.length, 4, 'ops and p99 for SET and GET');
    for (const s of repeat.sweep.series) {
      s.median.forEach((m, i) => assert.ok((s.min[i] as number) <= (m as number) && (m as number) <= (s.max[i] as number)));
    }
    const summary = run.points[0].summary[0];
    assert.equal(repeat.sweep.series[0].min[0], summary.opsPerSec.min);
    assert.equal(repeat.sweep.series[0].max[0], summary.opsPerSec.max);
    assert.match(repeat.sweep.table[0].ops, /^[\d,]+ \([\d,]+–[\d,]+\)$/);
    const opsCell = repeat.columns.find((c) => c.key === 'opsPerSec');
    assert.match(opsCell?.cell(repeat.rows[0]) ?? '', /–/, 'the table shows the spread too');
    assert.equal(buildViewModel(fixture('finished')).sweep, undefined, 'one point, one run: no sweep chart');
  });
});

describe('live run state', () => {
  it('rebuilds a run from its progress events', () => {
    const run = fixture('repeat');
    const state = newLiveRun(run.plan, run.startedAt, { file: run.scenario.file });
    const events = replay(run);
    for (const event of events) applyProgress(state, event);
    const rebuilt = liveRunFile(state);
    assert.deepEqual(
      rebuilt.points.map((p) => p.summary),
      run.points.map((p) => p.summary),
    );
    const live = resultRows(rebuilt);
    const saved = resultRows(run);
    assert.deepEqual(
      live.map((r) => [r.point, r.test, r.requests, r.opsPerSec, r.opsRange]),
      saved.map((r) => [r.point, r.test, r.requests, r.opsPerSec, r.opsRange]),
    );
    assert.equal(currentLoad(state), undefined);
    assert.equal(state.samples.length, run.server.samples.length);
  });

  it('shows the running load from its last completed second', () => {
    const run = fixture('snapshot');
    const state = newLiveRun(run.plan, run.startedAt);
    const events = replay(run).filter((e) => e.event.kind !== 'load-end');
    for (const event of events) applyProgress(state, event);
    const load = currentLoad(state);
    assert.ok(load);
    const timeline = run.points[0].repeats[0][0].timeline;
    assert.equal(load.timeline.length, timeline.length, 'each second once, though ticked twice');
    const model = buildLiveViewModel(state);
    assert.equal(model.header.status, 'running');
    assert.equal(model.rows.length, 1);
    assert.equal(model.rows[0].status, 'running');
    assert.equal(model.rows[0].opsPerSec, timeline[timeline.length - 1].ops);
    assert.match(model.header.progress ?? '', /^1\/1 SET · 100%$/);
    assert.equal(model.timeline?.x.length, drawnBuckets(timeline).length);
    assert.ok(Number.isNaN(model.rows[0].p999Us), 'no p99.9 before the histogram arrives');
    assert.equal(model.columns.find((c) => c.key === 'p999Us')?.cell(model.rows[0]), '—');
    assert.equal(exportTable(model.rows, 'csv').split('\n').length, 2, 'the running load is not exported');
  });

  it('ignores repeated and stale events', () => {
    const run = fixture('finished');
    const state = newLiveRun(run.plan, run.startedAt);
    const events = replay(run);
    for (const event of events) applyProgress(state, event);
    const before = JSON.stringify(state);
    for (const event of events) applyProgress(state, event);
    assert.equal(
      JSON.stringify(state.loads.map((l) => l.timeline.length)),
      JSON.stringify(JSON.parse(before).loads.map((l: { timeline: unknown[] }) => l.timeline.length)),
    );
    assert.equal(state.loads.length, 2);
    assert.equal(state.samples.length, run.server.samples.length);
  });
});

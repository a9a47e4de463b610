// One percentile rule everywhere: the same samples through the timeline, the summary, the panel (table and
// curve), CSV, compare and `expect` give the same figures, and those figures follow redis-benchmark's rule
// (HdrHistogram_c: rank = p/100 × n rounded half up, the highest value of that sample's slot).
import assert from 'node:assert/strict';
import { countsIndex, highestEquivalentValue, LatencyRecorder, valueFromIndex } from '../../../src/engine/measure/histogram';
import { percentileRank } from '../../../src/engine/measure/percentile';
import { Random } from '../../../src/engine/requests/random';
import { summarize } from '../../../src/engine/measure/summary';
import type { LoadResult } from '../../../src/engine/types';
import { compareRuns } from '../../../src/results/compare';
import { comparisonToCsv } from '../../../src/results/compareFormat';
import { toRedisBenchmarkCsv } from '../../../src/results/export';
import { resultRows } from '../../../src/results/rows';
import { metricValue } from '../../../src/results/thresholds';
import { buildViewModel, decodeHistogram, percentileCurve, valuesAtPercentiles } from '../../../src/views/model';
import { loadResult, makeRun } from '../compare/fixtures';

type Samples = [micros: number, count: number][];

/** The rule written out over the raw samples, independently of any histogram code. */
function byTheRule(samples: Samples, percentile: number): number {
  const sorted = samples.flatMap(([value, count]) => new Array<number>(count).fill(value)).sort((a, b) => a - b);
  const value = sorted[percentileRank(percentile, sorted.length) - 1];
  return percentile <= 0 ? valueFromIndex(countsIndex(value)) : highestEquivalentValue(countsIndex(value));
}

function recorderOf(samples: Samples): LatencyRecorder {
  const recorder = new LatencyRecorder();
  for (const [value, count] of samples) recorder.record(value, count);
  return recorder;
}

/** A one-test run whose only load holds these samples: its summary and its one timeline second as the engine makes them. */
function runOf(samples: Samples) {
  const recorder = recorderOf(samples);
  const { latency, histogram } = summarize(recorder);
  const load: LoadResult = loadResult('main', 'SET', { ops: 1000, p99: 0 });
  load.total = { ...load.total, requests: latency.count, latency, histogram };
  load.commands = [{ ...load.total, command: 'SET' }];
  // engine/timelineMerge.ts close: the per-second p50 and p99 come from the second's recorder.
  load.timeline = [
    { t: 0, ops: latency.count, errors: 0, p50Us: recorder.valueAtPercentile(50), p99Us: recorder.valueAtPercentile(99), maxUs: recorder.maxValue() },
  ];
  return { run: makeRun({ text: '### one\nrequests 1000\nSET k v\n', results: { '': [[load]] } }), recorder, load };
}

const csvColumn = (csv: string, column: string) => {
  const [header, line] = csv
    .trim()
    .split('\n')
    .map((l) => l.split(',').map((f) => f.replace(/"/g, '')));
  return Number(line[header.indexOf(column)]);
};

function assertOneRule(samples: Samples, what: string): void {
  const { run, recorder, load } = runOf(samples);
  const expected = {
    p50: byTheRule(samples, 50),
    p90: byTheRule(samples, 90),
    p95: byTheRule(samples, 95),
    p99: byTheRule(samples, 99),
    'p99.9': byTheRule(samples, 99.9),
  };
  const second = load.timeline[0];
  const latency = load.total.latency;
  // Timeline (engine recorder).
  assert.equal(second.p50Us, expected.p50, `${what}: timeline p50`);
  assert.equal(second.p99Us, expected.p99, `${what}: timeline p99`);
  // Summary (run file).
  assert.deepEqual([latency.p50Us, latency.p90Us, latency.p95Us, latency.p99Us, latency.p999Us], Object.values(expected), `${what}: summary`);
  // Panel: table row, and the curve decoded from the stored histogram.
  const row = buildViewModel(run).rows[0];
  assert.deepEqual([row.p50Us, row.p90Us, row.p99Us, row.p999Us], [expected.p50, expected.p90, expected.p99, expected['p99.9']], `${what}: panel table`);
  const decoded = decodeHistogram(load.total.histogram);
  assert.deepEqual(valuesAtPercentiles(decoded, [50, 90, 95, 99, 99.9]), Object.values(expected), `${what}: panel curve`);
  const curve = percentileCurve([{ label: 'SET', histogram: decoded }]);
  curve.percentiles.forEach((p, i) => assert.equal(curve.series[0].values[i], recorder.valueAtPercentile(p) / 1000, `${what}: curve at p${p}`));
  // CSV (redis-benchmark's columns, in ms).
  const csv = toRedisBenchmarkCsv(resultRows(run));
  for (const [column, us] of [
    ['p50_latency_ms', expected.p50],
    ['p95_latency_ms', expected.p95],
    ['p99_latency_ms', expected.p99],
  ] as const) {
    assert.equal(csvColumn(csv, column), Number((us / 1000).toFixed(3)), `${what}: CSV ${column}`);
  }
  // Compare (table cells and its CSV) and `expect`.
  const cells = compareRuns([run, run]).rows[0].cells;
  for (const metric of ['p50', 'p90', 'p99', 'p99.9'] as const) {
    assert.equal(cells[1]!.metrics[metric].value, expected[metric], `${what}: compare ${metric}`);
    assert.equal(metricValue(load.total, metric), expected[metric], `${what}: expect ${metric}`);
  }
  assert.match(comparisonToCsv(compareRuns([run])), new RegExp(`"p99","#1","[^"]*","${expected.p99}"`), `${what}: compare CSV`);
}

describe('one percentile rule (timeline, summary, panel, CSV, compare, expect)', () => {
  it('the issue case: 999 × 100 µs + 1 × 5 ms gives p99.92 = 100 µs in the timeline and in the panel curve', () => {
    const samples: Samples = [
      [100, 999],
      [5000, 1],
    ];
    const recorder = recorderOf(samples);
    assert.equal(recorder.valueAtPercentile(99.92), 100);
    assert.deepEqual(valuesAtPercentiles(decodeHistogram(summarize(recorder).histogram), [99.92]), [100]);
    assert.equal(byTheRule(samples, 99.92), 100);
    assert.equal(recorder.valueAtPercentile(99.96), 5003, 'past the rounding, the outlier (its slot reported by its highest value)');
  });

  it('1059 × 100 µs + 11 × 5 ms: p99 is the same 100 µs on every path (rank 1059.3 rounds down)', () => {
    assertOneRule(
      [
        [100, 1059],
        [5000, 11],
      ],
      'rounding case',
    );
  });

  it('seeded random latencies over six decades agree on every path', () => {
    const random = new Random(7);
    for (let round = 0; round < 5; round++) {
      const samples: Samples = [];
      const n = 200 + Math.floor(random.nextDouble() * 3000);
      for (let i = 0; i < n; i++) samples.push([Math.round(Math.exp(random.nextDouble() * Math.log(5_000_000))), 1 + (i % 3)]);
      assertOneRule(samples, `round ${round}`);
    }
  });
});

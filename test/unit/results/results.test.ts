import assert from 'node:assert/strict';
import type { CommandResult, LoadResult } from '../../../src/engine/types';
import type { Expectation } from '../../../src/scenario/plan';
import { toMarkdown, toRedisBenchmarkCsv, toTextTable } from '../../../src/results/export';
import { formatLatency, formatMetric, formatOpsShort } from '../../../src/results/format';
import type { PointResult } from '../../../src/results/runFile';
import { runId, slug } from '../../../src/results/runFile';
import type { ResultRow } from '../../../src/results/rows';
import { spreadOf, summariseRepeats } from '../../../src/results/summary';
import { evaluateThresholds } from '../../../src/results/thresholds';

function commandResult(command: string, ops: number, p99Us: number, errors = 0): CommandResult {
  return {
    command,
    requests: 1000,
    errors,
    errorsByKind: errors ? { OOM: errors } : {},
    errorExamples: errors ? { OOM: 'OOM command not allowed when used memory > maxmemory.' } : {},
    opsPerSec: ops,
    latency: {
      count: 1000,
      minUs: 10,
      meanUs: p99Us / 2,
      stddevUs: 1,
      p50Us: p99Us / 3,
      p90Us: p99Us / 2,
      p95Us: p99Us / 1.5,
      p99Us,
      p999Us: p99Us * 2,
      maxUs: p99Us * 3,
    },
    histogram: '',
  };
}

function load(test: string, ops: number, p99Us: number, commands: CommandResult[] = []): LoadResult {
  const total = commandResult('total', ops, p99Us);
  return {
    test,
    phase: 'main',
    measured: true,
    client: 'fast',
    status: 'complete',
    startedAt: '2026-11-29T00:00:00.000Z',
    durationMs: 1000,
    total,
    commands: commands.length ? commands : [commandResult(test, ops, p99Us)],
    timeline: [],
    connections: { opened: 1, reconnects: 0 },
    health: { threads: 1, cpuPercent: 50, eventLoopUtilization: 0.5, eventLoopLagP99Ms: 1, bottleneck: 'server' },
    seed: 1,
  };
}

function expectation(metric: Expectation['metric'], op: Expectation['op'], value: number, command?: string): Expectation {
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
  return { metric, op, value, command, text: `expect ${command ? command + ' ' : ''}${metric} ${op} ${value}`, range };
}

describe('results: summaries over repeats', () => {
  it('computes median and spread', () => {
    assert.deepEqual(spreadOf([3, 1, 2]), { median: 2, min: 1, max: 3, stddev: Math.sqrt(2 / 3) });
    assert.equal(spreadOf([1, 2, 3, 10]).median, 2.5);
    assert.deepEqual(spreadOf([]), { median: 0, min: 0, max: 0, stddev: 0 });
  });

  it('groups tests across repeats and picks the repeat closest to the median as representative', () => {
    const summary = summariseRepeats([
      [load('SET', 100, 1000), load('GET', 300, 500)],
      [load('SET', 120, 900), load('GET', 310, 400)],
      [load('SET', 200, 800), load('GET', 305, 450)],
    ]);
    assert.deepEqual(
      summary.map((s) => [s.test, s.runs, s.opsPerSec.median, s.representative]),
      [
        ['SET', 3, 120, 1],
        ['GET', 3, 305, 2],
      ],
    );
  });
});

describe('results: thresholds', () => {
  const points: PointResult[] = [
    { label: 'clients=2', sweep: { clients: 2 }, repeats: [[load('SET', 1000, 2000)]], summary: [] },
    { label: 'clients=4', sweep: { clients: 4 }, repeats: [[load('SET', 3000, 5000)]], summary: [] },
  ];
  for (const point of points) point.summary = summariseRepeats(point.repeats);

  it('evaluates each expectation at every point and test', () => {
    const outcomes = evaluateThresholds([expectation('p99', '<', 3000), expectation('ops', '>=', 1000)], points);
    assert.deepEqual(
      outcomes.map((o) => [o.expectation, o.point, o.passed, o.actual]),
      [
        ['expect p99 < 3000', 'clients=2', true, 2000],
        ['expect p99 < 3000', 'clients=4', false, 5000],
        ['expect ops >= 1000', 'clients=2', true, 1000],
        ['expect ops >= 1000', 'clients=4', true, 3000],
      ],
    );
  });

  it('applies a per-command expectation only where the command ran, and fails one that measured nothing', () => {
    const outcomes = evaluateThresholds([expectation('p99', '<', 10_000, 'set'), expectation('p99', '<', 1, 'GET')], points);
    assert.deepEqual(
      outcomes.map((o) => [o.test, o.passed]),
      [
        ['SET', true],
        ['SET', true],
        ['GET', false],
      ],
    );
    assert.equal(outcomes[2].actual, null);
  });

  it('never passes a load that did not complete', () => {
    const failed = { ...load('SET', 1000, 10), status: 'failed' as const };
    const outcomes = evaluateThresholds(
      [expectation('errors', '=', 0)],
      [{ label: '', sweep: {}, repeats: [[failed]], summary: summariseRepeats([[failed]]) }],
    );
    assert.equal(outcomes[0].passed, false);
  });
});

describe('results: exports', () => {
  const row: ResultRow = {
    point: 'value=100',
    phase: 'main',
    test: 'SET',
    command: 'total',
    requests: 100000,
    clients: 50,
    pipeline: 10,
    keySize: 12,
    valueSize: '100',
    opsPerSec: 412345.678,
    meanUs: 1200,
    minUs: 100,
    p50Us: 1100,
    p90Us: 1500,
    p95Us: 1700,
    p99Us: 1900,
    p999Us: 2500,
    maxUs: 9000,
    errors: 2,
    errorsByKind: { OOM: 2 },
    status: 'complete',
  };

  it('writes redis-benchmark --csv columns', () => {
    assert.equal(
      toRedisBenchmarkCsv([row]),
      '"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms","server_usec_per_call","bottleneck","bottleneck_why","limit","elapsed_s"\n' +
        '"SET value=100","412345.68","1.200","0.100","1.100","1.700","1.900","9.000","","","","",""\n',
    );
  });

  it("CSV: the server's time per call and the verdict after redis-benchmark's columns", () => {
    const csv = toRedisBenchmarkCsv([
      { ...row, serverUsPerCall: 3.14159, bottleneck: { kind: 'round-trip', why: 'p50 410 µs at the client, 3.1 µs in the server' } },
    ]);
    assert.equal(
      csv.split('\n')[1],
      '"SET value=100","412345.68","1.200","0.100","1.100","1.700","1.900","9.000","3.142","round-trip","p50 410 µs at the client, 3.1 µs in the server","round trip",""',
    );
  });

  it('text table: max always, srv µs/call when the server was read', () => {
    const [without] = toTextTable([row]).split('\n');
    assert.match(without, /p99\.9 ms\s+max ms\s+errors/);
    assert.doesNotMatch(without, /srv/);
    const lines = toTextTable([
      { ...row, serverUsPerCall: 3.14 },
      { ...row, command: 'GET', serverUsPerCall: 410.4 },
    ]).split('\n');
    assert.match(lines[0], /max ms\s+srv µs\/call\s+errors/);
    assert.match(lines[2], /9\.000\s+3\.1\s+2 \(OOM 2\)$/);
    assert.match(lines[3], /9\.000\s+410\s+2 \(OOM 2\)$/);
  });

  it('writes a Markdown table with right-aligned numbers', () => {
    const lines = toMarkdown([row]).trim().split('\n');
    assert.equal(
      lines[0],
      '| point | command | requests | clients | pipeline | key size | value size | ops/s | p50 ms | p99 ms | p99.9 ms | max ms | errors |',
    );
    assert.equal(lines[1], '| :--- | :--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    assert.equal(lines[2], '| value=100 | SET | 100,000 | 50 | 10 | 12 | 100 | 412,346 | 1.100 | 1.900 | 2.500 | 9.000 | 2 (OOM 2) |');
  });

  it('aligns a text table', () => {
    const lines = toTextTable([row, { ...row, point: 'value=1000', opsPerSec: 5 }]).split('\n');
    assert.equal(lines[0].indexOf('ops/s') + 'ops/s'.length, lines[2].indexOf('412,346') + '412,346'.length);
  });
});

describe('results: formatting and names', () => {
  it('formats for people', () => {
    assert.equal(formatOpsShort(412_345), '412k');
    assert.equal(formatOpsShort(2_240_000), '2.24M');
    assert.equal(formatLatency(850), '850 µs');
    assert.equal(formatLatency(1900), '1.90 ms');
    assert.equal(formatLatency(2_400_000), '2.40 s');
    assert.equal(formatMetric('error-rate', 0.001), '0.100%');
  });

  it('names run files by time and scenario', () => {
    assert.equal(slug('SET and GET, like redis-benchmark -t set,get'), 'set-and-get-like-redis-benchmark-t-set-get');
    assert.equal(runId(new Date('2026-11-29T22:40:00.123Z'), 'Mixed load!'), '20261129-224000-123-mixed-load');
    assert.equal(slug('Café Crème: ÉTÉ ﬁ'), 'cafe-creme-ete-fi', 'accents and ligatures come apart (NFKD)');
  });
});

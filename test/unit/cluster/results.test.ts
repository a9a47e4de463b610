// A cluster run's per-node figures (LoadResult.cluster) in the rows, the CLI table, the CSV, the headline,
// the run-file check, `rbench compare` and `rbench merge`: fabricated loads, real histograms.
import assert from 'node:assert/strict';
import type { LoadResult, TimelineSecond } from '../../../src/engine/types';
import { breakdownRows } from '../../../src/results/breakdownRows';
import { compareRuns } from '../../../src/results/compare';
import { comparisonToText } from '../../../src/results/compareFormat';
import { toRedisBenchmarkCsv, toTextTable } from '../../../src/results/export';
import { runHeadlines } from '../../../src/results/headlines';
import { mergeHistograms, mergeRuns } from '../../../src/results/merge';
import { rowsWithParts } from '../../../src/results/partRows';
import type { RunFile } from '../../../src/results/runFile';
import { downsampleTimeline } from '../../../src/results/runFileBounds';
import { runFileProblem } from '../../../src/results/runFileSchema';
import { clusterLoad, clusterRun, THREE_MASTERS, type NodeSpec } from './fixtures';

const second = (t: number, moved: number, ask: number): TimelineSecond => ({ t, ops: 1000, errors: 0, p50Us: 100, p99Us: 900, maxUs: 2000, moved, ask });

describe('cluster results: per-node rows', () => {
  it('puts one row per node under the total, adding up to it, with role, slots and redirections', () => {
    const rows = breakdownRows(clusterRun(), { nodes: true });
    assert.deepEqual(
      rows.map((r) => [r.command, r.detail, r.node?.role, r.node?.slots, r.redirections?.moved, r.redirections?.ask]),
      [
        ['total', undefined, undefined, undefined, 3, 1],
        ['node 127.0.0.1:7000', 'node', 'master', '0-5460', 3, 0],
        ['node 127.0.0.1:7001', 'node', 'master', '5461-10922', 0, 0],
        ['node 127.0.0.1:7002', 'node', 'master', '10923-16383', 0, 1],
      ],
    );
    const [total, ...nodes] = rows;
    assert.equal(
      nodes.reduce((sum, r) => sum + r.requests, 0),
      total.requests,
    );
    assert.equal(
      nodes.reduce((sum, r) => sum + r.errors, 0),
      total.errors,
    );
    assert.ok(Math.abs(nodes.reduce((sum, r) => sum + r.opsPerSec, 0) - total.opsPerSec) < 1e-6);
    // Each node's own percentiles: 7001's one slow reply is past its p99.9, 7000's ten are inside its p99.
    assert.ok(nodes[0].p99Us >= 1990 && nodes[0].p99Us <= 2010, String(nodes[0].p99Us));
    assert.ok(nodes[2].p99Us < 100, String(nodes[2].p99Us));
  });

  it('leaves node rows out unless asked, and rows of a run on one server unchanged', () => {
    assert.deepEqual(
      breakdownRows(clusterRun()).map((r) => r.command),
      ['total'],
    );
    const plain = clusterLoad(THREE_MASTERS);
    delete plain.cluster;
    const rows = breakdownRows(clusterRun(plain), { nodes: true });
    assert.deepEqual(
      rows.map((r) => [r.command, r.redirections]),
      [['total', undefined]],
    );
    assert.doesNotMatch(toTextTable(rows), /MOVED|role|slots/);
  });

  it('CLI table (--per-node): node rows indented under the test, role, slots and MOVED / ASK columns', () => {
    const text = toTextTable(breakdownRows(clusterRun(), { nodes: true }));
    const lines = text.split('\n');
    assert.match(lines[0], /command\s+requests.*errors\s+role\s+slots\s+MOVED \/ ASK(?:\s+limit)?$/);
    assert.match(text, /^SET\s+3,011\s+4\s.*\s3 \/ 1(?:\s+\S.*)?$/m);
    assert.match(text, /^ {2}node 127\.0\.0\.1:7000\s+910\s+4\s.*\smaster\s+0-5460\s+3 \/ 0$/m);
    assert.match(text, /^ {2}node 127\.0\.0\.1:7001\s+1,001\s.*\s2 \(CLUSTERDOWN 2\)\s+master\s+5461-10922\s+0 \/ 0$/m);
    // Without --per-node: the total alone, still with its redirections.
    const short = toTextTable(breakdownRows(clusterRun()));
    assert.doesNotMatch(short, /node 127/);
    assert.match(short, /MOVED \/ ASK(?:\s+limit)?\n/);
  });

  it('CSV: a node row is named after its test, as redis-benchmark names rows', () => {
    const csv = toRedisBenchmarkCsv(breakdownRows(clusterRun(), { nodes: true }));
    assert.deepEqual(
      csv
        .trim()
        .split('\n')
        .map((line) => line.split(',')[0]),
      ['"test"', '"SET"', '"SET node 127.0.0.1:7000"', '"SET node 127.0.0.1:7001"', '"SET node 127.0.0.1:7002"'],
    );
  });

  it('headline: masters and replicas that took load, redirections, and "detected" when the target did not say so', () => {
    const declared = runHeadlines(clusterRun(clusterLoad(THREE_MASTERS, { refreshes: 1 })));
    assert.ok(declared.includes("cluster: 3 masters took load · MOVED 3, ASK 1 · slot map reloaded 1× (each node's figures: --per-node)"), declared.join('\n'));
    const replicas: NodeSpec[] = [...THREE_MASTERS, { node: '127.0.0.1:7003', role: 'replica', latencies: [[80, 500]] }];
    const detected = runHeadlines(clusterRun(clusterLoad(replicas, { detected: true })), { perNode: true });
    assert.equal(detected[0], 'cluster: detected (the target did not say `cluster on`; INFO cluster did) · 3 masters, 1 replica took load · MOVED 3, ASK 1');
  });
});

describe('cluster results: run files', () => {
  const asJson = (run: RunFile) => JSON.parse(JSON.stringify(run)) as Record<string, unknown>;

  it('the run-file check accepts a cluster load and refuses a broken node breakdown, saying where', () => {
    assert.equal(runFileProblem(asJson(clusterRun()), 'run.json'), undefined);
    const broken = clusterRun();
    const load = broken.points[0].repeats[0][0] as LoadResult & { cluster: { nodes: unknown[] } };
    delete (load.cluster.nodes[1] as { total?: unknown }).total;
    assert.match(
      runFileProblem(asJson(broken), 'run.json') ?? '',
      /^run\.json: not a valid run file — points\[0\]\.repeats\[0\]\[0\]\.cluster\.nodes\[1\]\.total: /,
    );
    const badRole = clusterRun();
    (badRole.points[0].repeats[0][0].cluster!.nodes[0] as { role: string }).role = 'primary';
    assert.match(runFileProblem(asJson(badRole), 'run.json') ?? '', /cluster\.nodes\[0\]\.role/);
    const badTimeline = clusterRun(clusterLoad(THREE_MASTERS, { timeline: [second(0, -1, 0)] }));
    assert.match(runFileProblem(asJson(badTimeline), 'run.json') ?? '', /timeline\[0\]\.moved/);
  });

  it("a long run's timeline keeps every redirection when its seconds are merged into buckets", () => {
    const timeline = Array.from({ length: 10 }, (_, t) => second(t, t === 3 ? 40 : 1, t === 7 ? 2 : 0));
    const merged = downsampleTimeline(timeline, 5);
    assert.deepEqual(
      merged.map((b) => [b.t, b.moved, b.ask]),
      [
        [0, 44, 0],
        [5, 5, 2],
      ],
    );
    const plain = downsampleTimeline(
      timeline.map(({ moved: _m, ask: _a, ...rest }) => rest),
      5,
    );
    assert.equal('moved' in plain[0], false);
  });
});

describe('cluster results: rbench compare', () => {
  it('compares each node with the same node of the reference run, under its test', () => {
    const slower: NodeSpec[] = THREE_MASTERS.map((node) =>
      node.node === '127.0.0.1:7001'
        ? {
            ...node,
            latencies: [
              [120, 800],
              [9000, 201],
            ],
          }
        : node,
    );
    const comparison = compareRuns([clusterRun(), clusterRun(clusterLoad(slower), { id: 'b' })]);
    const row = comparison.rows.find((r) => r.command === 'node 127.0.0.1:7001');
    assert.ok(row, comparison.rows.map((r) => r.command).join(', '));
    assert.equal(row.cells[1]?.metrics.p99.delta?.verdict, 'worse');
    assert.equal(comparison.rows.find((r) => r.command === 'node 127.0.0.1:7000')?.cells[1]?.metrics.p99.delta?.verdict, 'noise');
    assert.match(comparisonToText(comparison), /^SET › node 127\.0\.0\.1:7001\s+ops\/s\s/m);
    assert.deepEqual(
      comparison.differences.filter((d) => d.field === 'cluster nodes'),
      [],
    );
  });

  it('says when the clusters differ in their nodes (or one run is on one server), before the numbers', () => {
    const six = [0, 1, 2, 3, 4, 5].map((i) => ({ node: `10.0.0.${i}:6379`, latencies: [[100, 500]] as [number, number][] }));
    const plain = clusterLoad(THREE_MASTERS);
    delete plain.cluster;
    const comparison = compareRuns([clusterRun(), clusterRun(clusterLoad(six), { id: 'b' }), clusterRun(plain, { id: 'c' })]);
    assert.deepEqual(
      comparison.differences.filter((d) => d.field === 'cluster nodes').map((d) => [d.kind, d.text]),
      [['setup', 'cluster nodes: 3 masters → 6 masters → —']],
    );
  });
});

describe('cluster results: rbench merge', () => {
  const part = (index: number, nodes: NodeSpec[], measuredFrom: string, timeline: TimelineSecond[]) => {
    const run = clusterRun(clusterLoad(nodes, { measuredFrom, timeline, refreshes: index }), { id: `part-${index}` });
    run.plan.shard = { index, count: 2 };
    run.startedAt = measuredFrom;
    run.finishedAt = new Date(Date.parse(measuredFrom) + 2000).toISOString();
    return run;
  };

  it('joins each node of every machine by histogram: counts and redirections add, percentiles from the sum', () => {
    const later: NodeSpec[] = [
      {
        node: '127.0.0.1:7000',
        slots: '0-5000',
        latencies: [
          [300, 50],
          [40_000, 20],
        ],
        moved: 5,
      },
      { node: '127.0.0.1:7001', slots: '5001-10922', latencies: [[110, 700]], ask: 4 },
      { node: '127.0.0.1:7002', slots: '10923-16383', latencies: [[95, 600]] },
    ];
    const a = part(1, THREE_MASTERS, '2026-11-29T10:00:00.000Z', [second(0, 2, 0), second(1, 1, 1)]);
    const b = part(2, later, '2026-11-29T10:00:01.000Z', [second(0, 5, 4), second(1, 0, 0)]);
    const { run } = mergeRuns([a, b]);
    const load = run.points[0].repeats[0][0];
    const cluster = load.cluster!;
    assert.equal(cluster.moved, 8);
    assert.equal(cluster.ask, 5);
    assert.equal(cluster.topologyRefreshes, 3);
    assert.deepEqual(
      cluster.nodes.map((n) => [n.node, n.slots, n.total.requests, n.moved, n.ask]),
      [
        ['127.0.0.1:7000', '0-5000', 980, 8, 0],
        ['127.0.0.1:7001', '5001-10922', 1701, 0, 4],
        ['127.0.0.1:7002', '10923-16383', 1700, 0, 1],
      ],
    );
    assert.equal(
      cluster.nodes.reduce((sum, n) => sum + n.total.requests, 0),
      load.total.requests,
    );
    const [aLoad, bLoad] = [a, b].map((r) => r.points[0].repeats[0][0]);
    for (const [i, node] of cluster.nodes.entries()) {
      const exact = mergeHistograms([aLoad.cluster!.nodes[i].total.histogram, bLoad.cluster!.nodes[i].total.histogram]).latency;
      assert.deepEqual(node.total.latency, exact);
    }
    // 7000: 20 replies of 40 ms out of 980: its merged p99 is 40 ms, which neither part's p99 average would give.
    assert.ok(cluster.nodes[0].total.latency.p99Us > 39_000);
    // A node's rate is its requests at the merged load's rate per request (the parts' rates over their common window).
    assert.ok(Math.abs(cluster.nodes[0].total.opsPerSec - (980 * load.total.opsPerSec) / load.total.requests) < 1e-6);
    // Timelines line up by wall clock; each bucket's redirections add.
    assert.deepEqual(
      load.timeline.map((s) => [s.t, s.moved, s.ask]),
      [
        [0, 2, 0],
        [1, 6, 5],
        [2, 0, 0],
      ],
    );
    assert.equal(runFileProblem(JSON.parse(JSON.stringify(run)), 'merged.json'), undefined);
  });

  it('keeps every Sentinel primary the machines measured, each once (a failover seen by one part only)', () => {
    const a = part(1, THREE_MASTERS, '2026-11-29T10:00:00.000Z', []);
    const b = part(2, THREE_MASTERS, '2026-11-29T10:00:00.000Z', []);
    a.target.primaries = ['127.0.0.1:6380'];
    b.target.primaries = ['127.0.0.1:6380', '127.0.0.1:6381'];
    assert.deepEqual(mergeRuns([a, b]).run.target.primaries, ['127.0.0.1:6380', '127.0.0.1:6381']);
    assert.equal(mergeRuns([b, a]).run.target.primaries?.length, 2);
  });

  it("judges the merged load again: its bottleneck verdict is the whole's, not a part's", () => {
    const a = part(1, THREE_MASTERS, '2026-11-29T10:00:00.000Z', []);
    const b = part(2, THREE_MASTERS, '2026-11-29T10:00:00.000Z', []);
    a.points[0].repeats[0][0].bottleneck = { kind: 'client-cpu', why: 'stale: one part only' };
    const load = mergeRuns([a, b]).run.points[0].repeats[0][0];
    assert.ok(load.bottleneck, 'the merged load has a verdict');
    assert.notEqual(load.bottleneck.why, 'stale: one part only');
  });

  it("rbench merge's table: each machine's row and each node's row under the merged total", () => {
    const a = part(1, THREE_MASTERS, '2026-11-29T10:00:00.000Z', []);
    const b = part(2, THREE_MASTERS, '2026-11-29T10:00:00.000Z', []);
    const rows = rowsWithParts(mergeRuns([a, b]).run);
    assert.deepEqual(
      rows.map((r) => r.command),
      ['total', 'shard 1/2', 'shard 2/2', 'node 127.0.0.1:7000', 'node 127.0.0.1:7001', 'node 127.0.0.1:7002'],
    );
  });
});

// The results panel's view-model for a cluster run (per-node rows, header, timeline redirections) and a
// merged run (per-machine rows): fabricated loads, the real model the webview renders.
import assert from 'node:assert/strict';
import type { TimelineSecond } from '../../../src/engine/types';
import { breakdownRows } from '../../../src/results/breakdownRows';
import { toRedisBenchmarkCsv } from '../../../src/results/export';
import { mergeRuns } from '../../../src/results/merge';
import { parseWebviewMessage } from '../../../src/views/messages';
import { buildCompareViewModel } from '../../../src/views/compareModel';
import { buildViewModel, exportTable, sortRows } from '../../../src/views/model';
import { clusterLoad, clusterRun, THREE_MASTERS } from './fixtures';

const second = (t: number, moved?: number, ask?: number): TimelineSecond => ({
  t,
  ops: 1000,
  errors: 0,
  p50Us: 100,
  p99Us: 900,
  maxUs: 2000,
  ...(moved !== undefined ? { moved } : {}),
  ...(ask !== undefined ? { ask } : {}),
});

describe('results panel model: cluster runs', () => {
  it('shows each node under its test with role, slots and MOVED / ASK columns, and the cluster in the header', () => {
    const model = buildViewModel(clusterRun(clusterLoad(THREE_MASTERS, { detected: true })));
    assert.deepEqual(
      model.columns.slice(-3).map((c) => c.header),
      ['Role', 'Slots', 'MOVED / ASK'],
    );
    const cells = model.rows.map((row) => model.columns.map((c) => c.cell(row)));
    const header = model.columns.map((c) => c.header);
    const at = (name: string) => header.indexOf(name);
    assert.deepEqual(
      cells.map((row) => [row[at('Test')], row[at('Requests')], row[at('Role')], row[at('Slots')], row[at('MOVED / ASK')]]),
      [
        ['SET', '3,011', '', '', '3 / 1'],
        ['SET › node 127.0.0.1:7000', '910', 'master', '0-5460', '3 / 0'],
        ['SET › node 127.0.0.1:7001', '1,001', 'master', '5461-10922', '0 / 0'],
        ['SET › node 127.0.0.1:7002', '1,100', 'master', '10923-16383', '0 / 1'],
      ],
    );
    assert.deepEqual(
      model.rows.map((r) => r.detail),
      [undefined, 'node', 'node', 'node'],
    );
    assert.equal(model.header.cluster, 'detected (the target did not say `cluster on`; INFO cluster did) · 3 masters took load · MOVED 3, ASK 1');
  });

  it('sorts by redirections and by role; the host accepts those sort keys from the webview', () => {
    const model = buildViewModel(clusterRun());
    assert.deepEqual(
      sortRows(model.rows, { key: 'redirections', descending: true }).map((r) => r.command),
      ['total', 'node 127.0.0.1:7000', 'node 127.0.0.1:7002', 'node 127.0.0.1:7001'],
    );
    assert.deepEqual(parseWebviewMessage({ type: 'export', format: 'csv', to: 'clipboard', sort: { key: 'redirections', descending: true } }), {
      type: 'export',
      format: 'csv',
      to: 'clipboard',
      sort: { key: 'redirections', descending: true },
    });
    assert.equal(parseWebviewMessage({ type: 'export', format: 'csv', to: 'clipboard', sort: { key: 'constructor', descending: true } }), undefined);
  });

  it('exports the table as shown: node rows in the CSV', () => {
    const run = clusterRun();
    const model = buildViewModel(run);
    assert.equal(exportTable(model.rows, 'csv'), toRedisBenchmarkCsv(breakdownRows(run, { nodes: true })));
    assert.match(exportTable(model.rows, 'markdown'), /\| node 127\.0\.0\.1:7001 \|.*\| master \| 5461-10922 \| 0 \/ 0 \|/);
  });

  it("draws each node's latency curve next to the total's for a single test, from the node's own histogram", () => {
    const model = buildViewModel(clusterRun());
    assert.deepEqual(
      model.percentiles?.series.map((s) => s.label),
      ['SET', 'SET › node 127.0.0.1:7000', 'SET › node 127.0.0.1:7001', 'SET › node 127.0.0.1:7002'],
    );
    const p99 = (label: string) => {
      const series = model.percentiles!.series.find((s) => s.label === label)!;
      return series.values[model.percentiles!.percentiles.findIndex((p) => p >= 99)];
    };
    assert.ok(p99('SET › node 127.0.0.1:7000')! > 1.9, String(p99('SET › node 127.0.0.1:7000')));
    assert.ok(p99('SET › node 127.0.0.1:7002')! < 0.1, String(p99('SET › node 127.0.0.1:7002')));
  });

  it('draws redirections per bucket on the timeline; none for a run on one server', () => {
    const withRedirections = buildViewModel(clusterRun(clusterLoad(THREE_MASTERS, { timeline: [second(0, 0, 0), second(1, 7, 2), second(2, 0, 0)] })));
    assert.deepEqual(withRedirections.timeline?.redirections, [0, 9, 0]);
    const plain = buildViewModel(clusterRun(clusterLoad(THREE_MASTERS, { timeline: [second(0), second(1)] })));
    assert.ok(plain.timeline);
    assert.equal(plain.timeline.redirections, undefined);
  });
});

describe('results panel model: merged runs', () => {
  it("shows each load machine's row under the merged total, and says the run is merged", () => {
    const part = (index: number) => {
      const run = clusterRun(clusterLoad(THREE_MASTERS, { measuredFrom: '2026-11-29T10:00:00.000Z' }), { id: `part-${index}` });
      run.plan.shard = { index, count: 2 };
      return run;
    };
    const { run } = mergeRuns([part(1), part(2)]);
    const model = buildViewModel(run);
    assert.deepEqual(
      model.rows.map((r) => [r.command, r.detail, r.requests]),
      [
        ['total', undefined, 6022],
        ['shard 1/2', 'part', 3011],
        ['shard 2/2', 'part', 3011],
        ['node 127.0.0.1:7000', 'node', 1820],
        ['node 127.0.0.1:7001', 'node', 2002],
        ['node 127.0.0.1:7002', 'node', 2200],
      ],
    );
    assert.match(model.header.merged ?? '', /^2 load machines' runs \(shard 1\/2, shard 2\/2\)/);
  });
});

describe('comparison panel model: cluster runs', () => {
  it('lists each node under its test, with its change against the same node of the reference run', () => {
    const slower = THREE_MASTERS.map((node) => (node.node === '127.0.0.1:7002' ? { ...node, latencies: [[400, 1100]] as [number, number][] } : node));
    const model = buildCompareViewModel([clusterRun(), clusterRun(clusterLoad(slower), { id: 'b' })]);
    const p50 = model.lines.filter((line) => line.metric === 'p50').map((line) => [line.test, line.command, line.cells[1].verdict]);
    assert.deepEqual(p50, [
      ['SET', false, 'worse'],
      ['SET › node 127.0.0.1:7000', true, 'noise'],
      ['SET › node 127.0.0.1:7001', true, 'noise'],
      ['SET › node 127.0.0.1:7002', true, 'worse'],
    ]);
  });
});

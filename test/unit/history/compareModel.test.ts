import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Difference } from '../../../src/results/compareDifferences';
import type { RunFile } from '../../../src/results/runFile';
import { buildCompareViewModel, compareTitle, leadSentence, mergeOnX } from '../../../src/views/compareModel';
import { compareLabels } from '../../../src/results/compareLabels';
import { buildViewModel } from '../../../src/views/model';
import { parseCompareMessage, parseCompareState } from '../../../src/views/messages';
import { repoRoot } from '../scenario/helpers';

// Real CLI runs of test/browser/fixtures/compare.rbench: 10 clients, then 50 (regenerate.sh).
const fixture = (name: string) => JSON.parse(readFileSync(join(repoRoot(), 'test', 'browser', 'fixtures', `${name}.rbench-run.json`), 'utf8')) as RunFile;

describe('history: the comparison view-model', () => {
  const a = fixture('compare-a');
  const b = fixture('compare-b');

  it('has a column per run, the first as the reference, labelled by start time when the runs differ in nothing', () => {
    const b = structuredClone(a);
    b.id = 'other';
    b.startedAt = '2026-11-30T00:05:00.000Z';
    const m = buildCompareViewModel([a, b]);
    assert.deepEqual(
      m.columns.map((c) => [c.label, c.id, c.reference]),
      [
        [a.startedAt.slice(5, 19).replace('T', ' '), a.id, true],
        [b.startedAt.slice(5, 19).replace('T', ' '), b.id, false],
      ],
    );
    assert.equal(m.title, `Compare: SET and GET — ${m.columns[1].label} vs ${m.columns[0].label}`);
    assert.match(m.columns[0].facts, /^redis \d+\.\d+\.\d+ standalone · fast client · redis:\/\//);
  });

  it('puts the differences first, with the plain sentence for a changed client count', () => {
    const m = buildCompareViewModel([a, b]);
    assert.equal(
      m.lead,
      'Comparing 10 clients with 50 clients is not a regression: the runs measured different loads. Read these differences before the numbers.',
    );
    assert.deepEqual(m.differences[0], { kind: 'plan', text: 'clients: 10 → 50' });
    assert.ok(
      m.differences.every((d, i) => i === 0 || ['status', 'plan', 'setup'].indexOf(d.kind) >= ['status', 'plan', 'setup'].indexOf(m.differences[i - 1].kind)),
      'status, plan, setup order',
    );
    assert.equal(buildCompareViewModel([a, structuredClone(a)]).lead, undefined, 'a run against itself differs in nothing');
  });

  it("has a line per test × metric, with the reference plain and the other run's change classed", () => {
    const m = buildCompareViewModel([a, b]);
    assert.deepEqual(
      m.lines.filter((l) => l.first).map((l) => l.test),
      ['SET', 'GET'],
    );
    assert.deepEqual(
      m.lines.slice(0, 6).map((l) => l.metricLabel),
      ['ops/s', 'p50 ms', 'p90 ms', 'p99 ms', 'p99.9 ms', 'max ms'],
    );
    const ops = m.lines[0];
    const [before, after] = m.comparison.rows[0].cells;
    assert.equal(ops.cells[0].text, Math.round(before!.metrics.ops.value).toLocaleString('en-US'));
    assert.equal(ops.cells[0].change, undefined);
    const delta = after!.metrics.ops.delta!;
    assert.equal(ops.cells[1].change, `${delta.percent! >= 0 ? '+' : ''}${delta.percent!.toFixed(1)}%`);
    assert.equal(ops.cells[1].verdict, delta.verdict);
    const counted = m.counts.better + m.counts.worse + m.counts.noise + m.counts.differs;
    assert.equal(counted, m.lines.length, 'one verdict per line of the second run');
  });

  it('calls the changes of 10 clients against 50 differences, never better or worse, and says so in the counts (issue 22)', () => {
    const m = buildCompareViewModel([a, b]);
    const verdicts = m.lines.map((l) => l.cells[1].verdict);
    assert.ok(
      verdicts.every((v) => v === 'differs' || v === 'noise'),
      verdicts.join(),
    );
    assert.equal(m.counts.better + m.counts.worse, 0);
    assert.ok(m.counts.differs > 0);
    // The sentence the CLI prints, in parts the panel colours.
    assert.deepEqual(
      m.summary.map((p) => p.verdict),
      ['differs', 'noise'],
    );
    assert.equal(m.summary[0].text, `${m.counts.differs} differ (different loads: not better or worse)`);
    assert.match(m.lead!, /is not a regression/);
  });

  it('names the columns by what differs, the start time second', () => {
    const m = buildCompareViewModel([a, b]);
    assert.deepEqual(
      m.columns.map((c) => [c.label, c.time]),
      [
        ['clients 10', a.startedAt.slice(5, 19).replace('T', ' ')],
        ['clients 50', b.startedAt.slice(5, 19).replace('T', ' ')],
      ],
    );
    assert.equal(m.title, 'Compare: SET and GET — clients 50 vs clients 10');
    assert.ok(m.timeline!.series.every((s) => s.label.startsWith('clients ')));
  });

  it('classes a change below the noise threshold as noise, above it by direction', () => {
    const faster = structuredClone(a);
    const slower = structuredClone(a);
    for (const [run, factor] of [
      [faster, 1.2],
      [slower, 1.02],
    ] as const) {
      for (const load of run.points[0].repeats[0]) load.total.opsPerSec *= factor;
      for (const s of run.points[0].summary)
        s.opsPerSec = { ...s.opsPerSec, median: s.opsPerSec.median * factor, min: s.opsPerSec.min * factor, max: s.opsPerSec.max * factor };
    }
    assert.equal(buildCompareViewModel([a, faster]).lines[0].cells[1].verdict, 'better');
    assert.equal(buildCompareViewModel([a, slower]).lines[0].cells[1].verdict, 'noise');
    assert.equal(buildCompareViewModel([faster, a]).lines[0].cells[1].verdict, 'worse');
  });

  it("overlays the runs' timelines on one time axis and their percentile curves on one grid", () => {
    const m = buildCompareViewModel([a, b]);
    const own = [a, b].map((run) => buildViewModel(run).timeline!);
    assert.deepEqual(
      m.timeline!.series.map((s) => [s.run, s.metric]),
      [
        [0, 'ops'],
        [0, 'p99'],
        [1, 'ops'],
        [1, 'p99'],
      ],
    );
    assert.deepEqual(
      m.timeline!.x,
      [...new Set([...own[0].x, ...own[1].x])].sort((x, y) => x - y),
    );
    // Each run's own points survive the merge, at their own times.
    const opsB = m.timeline!.series[2];
    own[1].x.forEach((t, i) => assert.equal(opsB.values[m.timeline!.x.indexOf(t)], own[1].ops[i]));
    const curves = m.percentiles!;
    assert.deepEqual(
      curves.series.map((s) => [s.label, s.run]),
      [
        [`${m.columns[0].label} SET`, 0],
        [`${m.columns[0].label} GET`, 0],
        [`${m.columns[1].label} SET`, 1],
        [`${m.columns[1].label} GET`, 1],
      ],
    );
    assert.ok(curves.series.every((s) => s.values.length === curves.x.length));
    assert.equal(m.sweep, undefined, 'no sweep in these runs');
  });

  it('overlays sweeps over the same setting on a shared x', () => {
    const sweep = fixture('sweep');
    const m = buildCompareViewModel([sweep, structuredClone(sweep)]);
    const own = buildViewModel(sweep).sweep!;
    assert.equal(m.sweep!.axis, own.axis);
    assert.deepEqual(m.sweep!.x, own.x);
    assert.equal(m.sweep!.series.length, Math.min(12, own.series.length * 2));
  });

  it('merges series on their own x: undefined where a run has no point, its own gaps widened to stay gaps', () => {
    const merged = mergeOnX([
      { x: [1, 2, 3], series: { label: 'a', run: 0, variant: 0, metric: 'ops', values: [10, null, 30] } },
      { x: [1.5, 2.5, 3, 4], series: { label: 'b', run: 1, variant: 0, metric: 'ops', values: [15, 25, 35, 45] } },
    ]);
    assert.deepEqual(merged.x, [1, 1.5, 2, 2.5, 3, 4]);
    assert.deepEqual(
      merged.series.map((s) => s.values),
      [
        [10, null, null, null, 30, undefined],
        [undefined, 15, undefined, 25, 35, 45],
      ],
    );
  });

  it('labels runs of different scenarios by name, and tells same-looking labels apart', () => {
    const named = (name: string, startedAt: string) => {
      const run = structuredClone(a);
      run.scenario.name = name;
      run.startedAt = startedAt;
      return run;
    };
    const runs = [named('x', '2026-11-30T10:00:00.000Z'), named('y', '2026-11-30T11:00:00.000Z'), named('y', '2026-11-30T12:00:00.000Z')];
    assert.deepEqual(compareLabels(runs), ['x', 'y · 11-30 11:00:00', 'y · 11-30 12:00:00']);
    assert.deepEqual(
      compareLabels([a, a]),
      ['11-30 00:03:11 #1', '11-30 00:03:11 #2'].map((l) => l.replace('11-30 00:03:11', a.startedAt.slice(5, 19).replace('T', ' '))),
    );
    assert.equal(compareTitle(runs), 'Compare: x / y — 3 runs');
  });

  it('words the lead by what differs', () => {
    const d = (kind: Difference['kind'], field: string, values: (string | null)[]): Difference => ({ kind, scope: '', field, values, text: '' });
    assert.match(leadSentence([d('plan', 'threads', ['1', '4'])])!, /^Comparing 1 thread with 4 threads is not a regression/);
    assert.match(leadSentence([d('plan', 'pipeline', ['1', '16'])])!, /^The runs measured different loads/);
    assert.match(leadSentence([d('setup', 'server version', ['7.0', '7.2'])])!, /different setups/);
    assert.match(leadSentence([d('status', 'status', ['failed', null])])!, /partial results/);
    assert.equal(leadSentence([]), undefined);
  });
});

describe('history: comparison panel messages', () => {
  it('accepts what the comparison webview sends, and nothing else', () => {
    assert.deepEqual(parseCompareMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseCompareMessage({ type: 'export', format: 'markdown', to: 'clipboard' }), { type: 'export', format: 'markdown', to: 'clipboard' });
    assert.deepEqual(parseCompareMessage({ type: 'open-run', index: 1 }), { type: 'open-run', index: 1 });
    assert.equal(parseCompareMessage({ type: 'export', format: 'json', to: 'file' }), undefined, 'no run JSON from a comparison');
    assert.equal(parseCompareMessage({ type: 'export', format: 'csv', to: 'file', sort: { key: 'opsPerSec', descending: true } }), undefined);
    assert.equal(parseCompareMessage({ type: 'open-run', index: -1 }), undefined);
    assert.equal(parseCompareMessage({ type: 'open-run', index: 1.5 }), undefined);
    assert.equal(parseCompareMessage({ type: 'open-raw' }), undefined, 'a results panel message');
    assert.equal(parseCompareMessage({ type: 'save-png', chart: 'timeline', dataUrl: 'data:image/png;base64,<script>' }), undefined);
  });

  it('restores only a list of run file paths', () => {
    assert.deepEqual(parseCompareState({ paths: ['/a.rbench-run.json', '/b.rbench-run.json'] }), { paths: ['/a.rbench-run.json', '/b.rbench-run.json'] });
    assert.deepEqual(parseCompareState({ paths: ['/a.rbench-run.json', 5] }), { paths: [] });
    assert.deepEqual(parseCompareState('x'), { paths: [] });
  });
});

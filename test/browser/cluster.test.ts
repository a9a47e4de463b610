// The results panel in headless Chromium with a cluster run (per-node rows, the cluster in the header,
// redirections on the timeline) and a merged run (per-machine rows): fabricated loads, the real webview.
import { strict as assert } from 'node:assert';
import type { TimelineSecond } from '../../src/engine/types';
import { mergeRuns } from '../../src/results/merge';
import type { RunFile } from '../../src/results/runFile';
import { buildViewModel } from '../../src/views/model';
import { clusterLoad, clusterRun, THREE_MASTERS } from '../unit/cluster/fixtures';
import { colourInk, firstPaint, launchBrowserForSuite, openPanel, THEMES, type PanelBrowser } from './harness';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

const timeline: TimelineSecond[] = Array.from({ length: 12 }, (_, t) => ({
  t,
  ops: 1500,
  errors: 0,
  p50Us: 100,
  p99Us: 900,
  maxUs: 2000,
  moved: t === 5 ? 400 : 0,
  ask: t === 6 ? 150 : 0,
}));

describe('results panel with a cluster run (browser)', function () {
  this.timeout(120_000);
  let browser: PanelBrowser;
  before(async () => (browser = await launchBrowserForSuite()));
  after(async () => browser?.close());

  async function show(run: RunFile) {
    const panel = await openPanel(browser, 'dark');
    await panel.post({ type: 'run', run });
    await firstPaint(panel.page);
    const rows: string[][] = await panel.page.evaluate(() =>
      [...document.querySelectorAll('#results-table tbody tr')].map((tr: any) => [...tr.children].map((c: any) => c.textContent)),
    );
    const classes: string[] = await panel.page.evaluate(() => [...document.querySelectorAll('#results-table tbody tr')].map((tr: any) => tr.className));
    const meta: string = await panel.page.evaluate(() => document.querySelector('.meta')?.textContent ?? '');
    return { panel, rows, classes, meta };
  }

  it('shows each node under its test, the cluster in the header, and the redirections on the timeline', async () => {
    const run = clusterRun(clusterLoad(THREE_MASTERS, { detected: true, timeline, durationMs: 12_000 }));
    const { panel, rows, classes, meta } = await show(run);
    const model = buildViewModel(run);
    assert.deepEqual(
      rows,
      model.rows.map((row) => model.columns.map((c) => c.cell(row))),
    );
    assert.deepEqual(
      rows.map((row) => row[0]),
      ['SET', 'SET › node 127.0.0.1:7000', 'SET › node 127.0.0.1:7001', 'SET › node 127.0.0.1:7002'],
    );
    assert.deepEqual(
      rows.map((row) => row.slice(-3)),
      [
        ['', '', '3 / 1'],
        ['master', '0-5460', '3 / 0'],
        ['master', '5461-10922', '0 / 0'],
        ['master', '10923-16383', '0 / 1'],
      ],
    );
    assert.deepEqual(classes, ['', 'command detail-node', 'command detail-node', 'command detail-node']);
    assert.match(meta, /Cluster\s*detected \(the target did not say `cluster on`; INFO cluster did\) · 3 masters took load · MOVED 3, ASK 1/);
    const title: string = await panel.page.evaluate(() => document.querySelector('figure[data-chart="timeline"]')?.textContent ?? '');
    assert.match(title, /cluster redirections over time/);
    assert.ok((await colourInk(panel.page, 'timeline', THEMES.dark.variables['charts-red'])) > 20, 'redirection line drawn');
    const plain = clusterRun(clusterLoad(THREE_MASTERS, { timeline: timeline.map(({ moved: _m, ask: _a, ...rest }) => rest), durationMs: 12_000 }));
    delete plain.points[0].repeats[0][0].cluster;
    const { panel: plainPanel } = await show(plain);
    assert.equal(await colourInk(plainPanel.page, 'timeline', THEMES.dark.variables['charts-red']), 0, 'no redirection line for a run on one server');
  });

  it("shows a merged run's machines under the total, and says it is merged", async () => {
    const part = (index: number) => {
      const run = clusterRun(clusterLoad(THREE_MASTERS, { measuredFrom: '2026-11-29T10:00:00.000Z' }), { id: `part-${index}` });
      run.plan.shard = { index, count: 2 };
      delete run.points[0].repeats[0][0].cluster;
      return run;
    };
    const { rows, meta } = await show(mergeRuns([part(1), part(2)]).run);
    assert.deepEqual(
      rows.map((row) => [row[0], row[1]]),
      [
        ['SET', '6,022'],
        ['SET › shard 1/2', '3,011'],
        ['SET › shard 2/2', '3,011'],
      ],
    );
    assert.match(meta, /Merged\s*2 load machines' runs \(shard 1\/2, shard 2\/2\)/);
  });
});

// Issue 43 (client groups) in the results panel, in the bundled webview under chromium: two groups draw two
// throughput lines on the timeline, each in its own colour, and the legend names each group's series.
import { strict as assert } from 'node:assert';
import { groupsRun } from './synthetic';
import { colourInk, firstPaint, launchBrowserForSuite, openPanel, THEMES, type PanelBrowser } from './harness';

/* eslint-disable @typescript-eslint/no-explicit-any */

describe('results panel (browser): a timeline series per client group', function () {
  this.timeout(120_000);
  let browser: PanelBrowser;
  before(async () => {
    browser = await launchBrowserForSuite();
  });
  after(async () => {
    await browser?.close();
  });

  it('two groups: two lines, the legend names each by group', async () => {
    const panel = await openPanel(browser, 'dark');
    await panel.post({ type: 'run', run: groupsRun(), path: '.rbench/runs/groups.rbench-run.json' });
    await firstPaint(panel.page);
    const labels: string[] = await panel.page.$$eval('figure[data-chart="timeline"] .u-legend .u-series .u-label', (cells: any[]) =>
      cells.map((cell) => cell.textContent as string),
    );
    assert.deepEqual(labels, ['time', 'readers ops/s', 'readers p99', 'writers (background) ops/s', 'writers (background) p99']);
    const dark = THEMES.dark.variables;
    assert.ok((await colourInk(panel.page, 'timeline', dark['charts-blue'])) > 100, 'the readers drawn');
    assert.ok((await colourInk(panel.page, 'timeline', dark['charts-orange'])) > 100, 'the writers drawn');
    await panel.page.close();
  });
});

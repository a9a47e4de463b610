// Issue 22: a failed attempt that measured nothing (a refused connection) shows the failure and what to
// do, not an empty results table with export buttons.
import { strict as assert } from 'node:assert';
import type { RunFile } from '../../src/results/runFile';
import { launchBrowserForSuite, openPanel, readFixture, type PanelBrowser } from './harness';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

describe('results panel: an attempt that measured nothing (browser, issue 22)', function () {
  this.timeout(120_000);
  let browser: PanelBrowser;
  before(async () => {
    browser = await launchBrowserForSuite('results');
  });
  after(async () => {
    await browser?.close();
  });

  it('shows the failure and what to do, without an empty table, charts or export buttons', async () => {
    const run = structuredClone(readFixture<RunFile>('compare-a.rbench-run.json'));
    run.status = 'failed';
    run.error = 'connect ECONNREFUSED 127.0.0.1:6390';
    run.points = run.points.map((p) => ({ ...p, repeats: [], summary: [] }));
    const panel = await openPanel(browser, 'light');
    await panel.post({ type: 'run', run, path: 'workspace/.rbench/runs/refused.rbench-run.json' });
    await panel.page.waitForFunction(() => document.body.dataset.rendered === 'true');
    const page = panel.page;
    assert.match((await page.textContent('.error-message')) ?? '', /Failed: connect ECONNREFUSED 127\.0\.0\.1:6390/);
    assert.match((await page.textContent('#nothing-measured h2')) ?? '', /^Nothing was measured/);
    assert.match((await page.textContent('#nothing-measured-advice')) ?? '', /RBench: Test Connection/);
    const shown = await page.evaluate(() => ({
      table: document.querySelectorAll('#results-table').length,
      charts: document.querySelectorAll('figure[data-chart]').length,
      exports: document.querySelectorAll('#copy-markdown, #copy-csv, #save-csv').length,
    }));
    assert.deepEqual(shown, { table: 0, charts: 0, exports: 0 });
    // A run that measured something after all shows its table again in the same panel.
    await panel.post({ type: 'run', run: readFixture<RunFile>('compare-a.rbench-run.json'), path: 'workspace/.rbench/runs/a.rbench-run.json' });
    await page.waitForSelector('#results-table');
    assert.equal(await page.evaluate(() => document.querySelectorAll('#nothing-measured').length), 0);
    await page.close();
  });
});

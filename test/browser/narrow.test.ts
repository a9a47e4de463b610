// The results table in a narrow panel (the side-by-side width next to the scenario): every column can
// be reached by scrolling the table, the test name stays in view, and the page itself never scrolls sideways.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunFile } from '../../src/results/runFile';
import { repoRoot } from '../unit/scenario/helpers';
import { browserUnavailable, firstPaint, launchBrowser, openPanel, readFixture, type PanelBrowser } from './harness';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

const screenshotDir = resolve(process.env.RBENCH_SCREENSHOT_DIR ?? join(tmpdir(), 'rbench-screenshots'));
/** About half of a 1280 px window, minus the editor's own chrome. */
const SIDE_BY_SIDE_WIDTH = 600;

describe('results table in a side-by-side panel (browser)', function () {
  this.timeout(120_000);
  let browser: PanelBrowser;

  before(async function () {
    const why = browserUnavailable();
    if (why) {
      console.log(`    skipping the browser tests: ${why}`);
      this.skip();
    }
    if (!existsSync(join(repoRoot(), 'dist', 'webview', 'results.js'))) throw new Error('dist/webview/results.js is missing: run `npm run build` first');
    mkdirSync(screenshotDir, { recursive: true });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
  });

  it('keeps every column reachable at 600 px: the table scrolls, its first column stays, the page does not', async () => {
    const run = readFixture<RunFile>('finished.rbench-run.json');
    const panel = await openPanel(browser, 'dark');
    await panel.page.setViewportSize({ width: SIDE_BY_SIDE_WIDTH, height: 900 });
    await panel.post({ type: 'run', run, path: '/work/.rbench/runs/finished.rbench-run.json' });
    await firstPaint(panel.page);
    await panel.page.screenshot({ path: join(screenshotDir, 'results-side-by-side.png'), fullPage: true });

    const layout = await panel.page.evaluate(() => {
      const table = document.querySelector('#results-table');
      const wrap = table.closest('.table-wrap');
      const headers = [...table.querySelectorAll('thead th')].map((th: any) => th.textContent.trim());
      wrap.scrollLeft = wrap.scrollWidth;
      const lastHeader = table.querySelector('thead th:last-child').getBoundingClientRect();
      const wrapRect = wrap.getBoundingClientRect();
      // Every row's test name, after scrolling all the way right.
      const labels = [...table.querySelectorAll('tbody th[scope="row"]')].map((th: any) => th.getBoundingClientRect());
      return {
        labelsInView: labels.length > 0 && labels.every((r: any) => r.left >= wrapRect.left - 1 && r.right <= wrapRect.right + 1),
        wrapScrolled: wrap.scrollLeft,
        headers,
        pageScrollWidth: document.documentElement.scrollWidth,
        viewportWidth: document.documentElement.clientWidth,
        wrapRight: wrap.getBoundingClientRect().right,
        scrollable: wrap.scrollWidth > wrap.clientWidth,
        lastHeaderRight: lastHeader.right,
      };
    });
    assert.ok(layout.headers.some((h: string) => /p99/.test(h)), `columns: ${layout.headers.join(', ')}`);
    assert.ok(layout.pageScrollWidth <= layout.viewportWidth, `the page scrolls sideways: ${layout.pageScrollWidth} > ${layout.viewportWidth}`);
    assert.ok(layout.scrollable, 'the table is wider than 600 px here, so it scrolls');
    assert.ok(layout.lastHeaderRight <= layout.wrapRight + 1, `the last column (${layout.headers.at(-1)}) stays out of reach: ${layout.lastHeaderRight} > ${layout.wrapRight}`);
    assert.ok(layout.wrapScrolled > 0);
    assert.ok(layout.labelsInView, 'the test names scrolled out of view with the numbers');
    await panel.page.screenshot({ path: join(screenshotDir, 'results-side-by-side-scrolled.png'), fullPage: true });
    await panel.page.close();
  });
});

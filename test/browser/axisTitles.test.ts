// Issue 45, item 6 (part): every chart of the results panel titles every axis it draws — the x axis, and
// each of the server chart's y axes. Read from each chart's `data-axes` (the axes as uPlot drew them, in
// words: `title: tick, tick | …`), in the bundled webview under chromium.
import { strict as assert } from 'node:assert';
import type { RunFile } from '../../src/results/runFile';
import { firstPaint, launchBrowserForSuite, openPanel, readFixture, type PanelBrowser } from './harness';

// Page code runs in the browser: its elements are typed loosely here (the tests compile without the DOM lib).
/* eslint-disable @typescript-eslint/no-explicit-any */

/** The titles each chart's axes carry, in uPlot's axis order (x first). */
const TITLES: Record<string, RegExp[]> = {
  timeline: [/^time into the run$/, /^ops\/s$/, /^latency$/],
  percentiles: [/^percentile$/, /^latency( \(log\))?$/],
  histogram: [/^latency$/, /^share of requests$/],
  server: [/^time into the run$/, /^used_memory$/, /^clients$/, /^CPU$/],
  sweep: [/.+/, /^ops\/s$/, /^p99$/],
  rate: [/^offered rate$/, /^latency$/, /^achieved ops\/s$/],
  ramp: [/^connected clients$/, /^ops\/s$/, /^p50 · p99$/],
};

describe('results panel (browser): axis titles (issue 45, item 6)', function () {
  this.timeout(120_000);
  let browser: PanelBrowser;
  before(async () => {
    browser = await launchBrowserForSuite();
  });
  after(async () => {
    await browser?.close();
  });

  /** Each drawn chart's axis titles: the text before `: ` in each axis's part of `data-axes` ('' when untitled). */
  async function axisTitles(name: string): Promise<Record<string, string[]>> {
    const run = readFixture<RunFile>(`${name}.rbench-run.json`);
    const panel = await openPanel(browser, 'dark');
    await panel.post({ type: 'run', run, path: `.rbench/runs/${name}.rbench-run.json` });
    await firstPaint(panel.page);
    const charts = await panel.page.$$eval('figure[data-chart]', (figures: any[]) =>
      figures.map((figure) => [figure.dataset.chart as string, (figure.querySelector('.chart')?.dataset.axes ?? '') as string]),
    );
    await panel.page.close();
    // A title is what comes before the first ": " of an axis's part; ticks alone (`0s, 5s`) hold none.
    return Object.fromEntries(charts.map(([chart, axes]) => [chart, axes.split(' | ').map((part) => (part.includes(': ') ? part.split(': ')[0] : ''))]));
  }

  for (const name of ['finished', 'snapshot', 'sweep', 'rate-search', 'ramp']) {
    it(`titles every axis of every chart of the ${name} run`, async () => {
      const titles = await axisTitles(name);
      assert.ok(Object.keys(titles).length > 0, 'charts drawn');
      for (const [chart, drawn] of Object.entries(titles)) {
        const expected = TITLES[chart];
        assert.ok(expected, `a chart this test does not know: ${chart}`);
        assert.ok(drawn.length >= 2 && drawn.length <= expected.length, `${chart}: ${JSON.stringify(drawn)}`);
        for (const [index, title] of drawn.entries()) {
          assert.ok(title !== '', `${chart}: axis ${index} has no title (${JSON.stringify(drawn)})`);
          if (expected[index]) assert.match(title, expected[index], `${chart}: axis ${index}`);
        }
      }
      // The fixtures' servers report no CPU: the server chart's three axes.
      if (name === 'snapshot') assert.deepEqual(titles.server, ['time into the run', 'used_memory', 'clients']);
    });
  }
});

// The comparison panel in headless Chromium, with the HTML and CSP the host serves and two real runs of
// one scenario (test/browser/fixtures/compare-a/-b: 10 clients, then 50). Skips when Chromium is missing.
// Screenshots go to $RBENCH_SCREENSHOT_DIR (default: a temp folder); `RBENCH_SCREENSHOT_DIR=docs/images`
// refreshes the README's.
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunFile } from '../../src/results/runFile';
import { buildCompareViewModel } from '../../src/views/compareModel';
import { parseCompareMessage } from '../../src/views/messages';
import { pngBytes } from '../../src/views/exportFiles';
import { cssColour, parseColour, readableOn } from '../../src/views/contrast';
import { chartInk, colourInk, launchBrowserForSuite, openPanel, readFixture, THEMES, type OpenPanel, type PanelBrowser, type ThemeName } from './harness';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any, getComputedStyle: any;

const screenshotDir = resolve(process.env.RBENCH_SCREENSHOT_DIR ?? join(tmpdir(), 'rbench-screenshots'));
const PATHS = ['.rbench/runs/compare-a.rbench-run.json', '.rbench/runs/compare-b.rbench-run.json'];

/** `#rrggbb` → `rgb(r, g, b)`, as getComputedStyle reports colours. */
function rgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

describe('comparison panel (browser)', function () {
  this.timeout(120_000);
  let browser: PanelBrowser;
  const runs = [readFixture<RunFile>('compare-a.rbench-run.json'), readFixture<RunFile>('compare-b.rbench-run.json')];
  const model = buildCompareViewModel(runs);

  before(async function () {
    mkdirSync(screenshotDir, { recursive: true });
    browser = await launchBrowserForSuite('compare');
  });

  after(async () => {
    await browser?.close();
  });

  async function showComparison(theme: ThemeName): Promise<OpenPanel> {
    const panel = await openPanel(browser, theme, undefined, 'compare');
    await panel.post({ type: 'compare', runs, paths: PATHS });
    await panel.page.waitForFunction(() => document.body.dataset.rendered === 'true');
    return panel;
  }

  async function assertNoCspViolations(panel: OpenPanel): Promise<void> {
    const unexpected = (await panel.violations()).filter((v) => !(v.directive === 'script-src' && v.blocked === 'eval'));
    assert.deepEqual(unexpected, [], 'CSP violations');
  }

  for (const theme of ['dark', 'light'] as const) {
    it(`shows two runs as a diff, differences first, with coloured deltas and overlaid charts (${theme})`, async () => {
      const panel = await showComparison(theme);
      const page = panel.page;
      const colours = THEMES[theme].variables;

      // The differences come before the numbers.
      const order = await page.evaluate(() => [...document.querySelectorAll('#root > *')].map((n: any) => n.id || n.className || n.tagName.toLowerCase()));
      assert.ok(order.indexOf('differences') >= 0 && order.indexOf('differences') < order.indexOf('table-wrap'), order.join(' '));
      assert.equal(await page.textContent('#differences h2'), model.lead);
      assert.match((await page.textContent('#differences li')) ?? '', /clients: 10 → 50/);

      // A column per run, the reference first; a line per test × metric; the second run's deltas coloured.
      const headers = await page.$$eval('#compare-table thead th', (ths: any[]) => ths.map((th) => th.textContent));
      assert.deepEqual(headers, [
        'Test',
        'Metric',
        `${model.columns[0].label} (reference)${model.columns[0].time}`,
        `${model.columns[1].label}${model.columns[1].time}`,
      ]);
      const cells = await page.$$eval('#compare-table tbody tr', (trs: any[]) => trs.map((tr) => [...tr.children].map((c: any) => c.textContent)));
      assert.deepEqual(
        cells,
        // One run a side: each change says its significance is not judged (the tooltip says why).
        model.lines.map((l) => [
          l.first ? l.test : '',
          l.metricLabel,
          l.cells[0].text,
          `${l.cells[1].text} ${l.cells[1].change}${l.cells[1].interval ? ` ${l.cells[1].interval}` : l.cells[1].intervalTest ? ' not judged' : ''}`,
        ]),
      );
      const deltas = await page.$$eval('#compare-table .delta', (spans: any[]) => spans.map((s) => ({ cls: s.className, colour: getComputedStyle(s).color })));
      assert.equal(deltas.length, model.lines.length);
      // The theme's colours, made readable on its background (4.5:1) where they are not.
      const readable = (hex: string) => cssColour(readableOn(parseColour(hex)!, parseColour(colours['editor-background'])!));
      const expected = {
        better: readable(colours['charts-green']),
        worse: readable(colours['charts-red']),
        noise: readable(colours.descriptionForeground),
        differs: rgb(colours['editor-foreground']),
      };
      deltas.forEach((d, i) => {
        const verdict = model.lines[i].cells[1].verdict!;
        assert.equal(d.cls, `delta delta-${verdict}`);
        assert.equal(d.colour, expected[verdict], `${verdict} colour`);
      });

      // Charts: each run's colour drawn in the overlaid timeline and percentile curves.
      assert.deepEqual(Object.keys(await chartInk(page)).sort(), ['percentiles', 'timeline']);
      for (const chart of ['timeline', 'percentiles']) {
        assert.ok((await colourInk(page, chart, colours['charts-blue'])) > 100, `${chart}: reference run drawn`);
        assert.ok((await colourInk(page, chart, colours['charts-orange'])) > 100, `${chart}: second run drawn`);
      }
      const legend = await page.$$eval('figure[data-chart="percentiles"] .u-legend .u-label', (labels: any[]) => labels.map((l) => l.textContent));
      assert.deepEqual(
        legend.slice(1),
        model.percentiles!.series.map((s) => s.label),
      );
      await assertNoCspViolations(panel);
      await page.screenshot({ path: join(screenshotDir, theme === 'dark' ? 'compare-two-runs.png' : 'compare-two-runs-light.png'), fullPage: true });
      await page.close();
    });
  }

  it('shows the changes between two plans (10 clients, 50) as neutral "differs", with columns named by the plan (issue 22)', async () => {
    const panel = await showComparison('light');
    const page = panel.page;
    const headers = await page.$$eval('#compare-table thead th', (ths: any[]) => ths.map((th) => th.firstChild?.nextSibling?.textContent ?? th.textContent));
    assert.deepEqual(headers.slice(2), ['clients 10 (reference)', 'clients 50']);
    const times = await page.$$eval('#compare-table thead .column-time', (spans: any[]) => spans.map((s) => s.textContent));
    assert.deepEqual(times, [runs[0].startedAt.slice(5, 19).replace('T', ' '), runs[1].startedAt.slice(5, 19).replace('T', ' ')]);
    const summary = (await page.textContent('#compare-summary')) ?? '';
    assert.match(summary, /\d+ differ \(different loads: not better or worse\)/);
    assert.doesNotMatch(summary, /better,|worse,/, 'no better/worse count where the plans differ');
    const verdicts = await page.$$eval('#compare-table td[data-verdict]', (tds: any[]) => tds.map((td) => td.dataset.verdict));
    assert.ok(verdicts.length > 0 && verdicts.every((v: string) => v === 'differs' || v === 'noise'), verdicts.join());
    // Neither green nor red: the text colour.
    const colour = await page.$eval('#compare-table .delta-differs', (span: any) => getComputedStyle(span).color);
    assert.equal(colour, rgb(THEMES.light.variables['editor-foreground']));
    // No column clipped: each header and cell shows all its text.
    const clipped = await page.$$eval('#compare-table th, #compare-table td', (cells: any[]) =>
      cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent),
    );
    assert.deepEqual(clipped, []);
    await page.close();
  });

  it("tells ops/s from p99 and SET from GET in the legends: the markers draw each line's dash (issue 22)", async () => {
    const panel = await showComparison('dark');
    const markers = async (chart: string) =>
      panel.page.$$eval(`figure[data-chart="${chart}"] .u-legend .u-series`, (rows: any[]) =>
        rows.slice(1).map((row) => [row.querySelector('.u-label').textContent, getComputedStyle(row.querySelector('.u-marker')).borderBottomStyle]),
      );
    const timeline = await markers('timeline');
    assert.deepEqual(
      timeline.map(([, style]) => style),
      ['solid', 'dashed', 'solid', 'dashed'],
      JSON.stringify(timeline),
    );
    const percentiles = await markers('percentiles');
    assert.deepEqual(
      percentiles.map(([label, style]) => `${label}:${style}`),
      ['clients 10 SET:solid', 'clients 10 GET:dashed', 'clients 50 SET:solid', 'clients 50 GET:dashed'],
    );
    const axes = (await panel.page.getAttribute('figure[data-chart="timeline"] .chart', 'data-axes')) ?? '';
    assert.match(axes, /\| ops\/s \(solid\): 0, .* \| p99 \(dashed\): 0 ms, /);
    await panel.page.close();
  });

  it('draws the percentile curves on a log latency axis when max/p50 is large, and switches to linear on request (issue 22)', async () => {
    assert.ok(model.percentiles!.log, 'the fixture: max/p50 is over 10');
    const panel = await showComparison('light');
    const page = panel.page;
    assert.equal(await page.getAttribute('figure[data-chart="percentiles"]', 'data-axis'), 'log');
    const latencyTicks = async () => ((await page.getAttribute('figure[data-chart="percentiles"] .chart', 'data-axes')) ?? '').split(' | ')[1];
    const numbers = (ticks: string) => [...ticks.matchAll(/([\d.]+) ms/g)].map((m) => Number(m[1]));
    // A log axis's ticks grow by factors (0.1 ms, 1 ms, 10 ms, 100 ms) over at least two decades; a linear one's start at 0 in equal steps.
    const log = await latencyTicks();
    assert.match(log, /^latency \(log\): /, log);
    const logTicks = numbers(log);
    assert.ok(logTicks.length >= 3 && logTicks.every((v, i) => v > 0 && (i === 0 || v / logTicks[i - 1] >= 2)), log);
    assert.ok(logTicks[logTicks.length - 1] / logTicks[0] >= 100, log);
    await page.click('figure[data-chart="percentiles"] .axis-toggle');
    await page.waitForFunction(() => document.querySelector('figure[data-chart="percentiles"]')?.dataset.axis === 'linear');
    const linear = await latencyTicks();
    const linearTicks = numbers(linear);
    assert.equal(linearTicks[0], 0, linear);
    assert.ok(Math.abs(linearTicks[2] - linearTicks[1] - (linearTicks[1] - linearTicks[0])) < 1e-6, linear);
    await page.close();
  });

  it('sends exports, chart PNGs and open requests the host accepts', async () => {
    const panel = await showComparison('dark');
    const page = panel.page;
    await page.click('#copy-markdown');
    await page.click('#save-csv');
    await page.click('figure[data-chart="timeline"] vscode-button');
    await page.click('#compare-runs li:nth-child(2) button.link');
    const accepted = (await panel.posted()).map((m) => parseCompareMessage(m)).filter((m) => m && m.type !== 'ready');
    assert.deepEqual(
      accepted.map((m) => m!.type),
      ['export', 'export', 'save-png', 'open-run'],
    );
    assert.deepEqual(accepted[0], { type: 'export', format: 'markdown', to: 'clipboard' });
    assert.deepEqual(accepted[1], { type: 'export', format: 'csv', to: 'file' });
    const png = accepted[2];
    assert.ok(png?.type === 'save-png' && png.chart === 'timeline' && pngBytes(png.dataUrl), 'a real PNG');
    assert.deepEqual(accepted[3], { type: 'open-run', index: 1 });
    await panel.post({ type: 'notice', text: 'Copied the comparison as Markdown.' });
    // The message reaches the page's listener asynchronously: wait for it rather than read at once.
    await page.waitForFunction(() => document.querySelector('#notice')?.textContent === 'Copied the comparison as Markdown.', undefined, { timeout: 5000 });
    await page.close();
  });

  it('says so when a run file cannot be read', async () => {
    const panel = await openPanel(browser, 'light', undefined, 'compare');
    await panel.post({ type: 'error', message: '/x.rbench-run.json: not a readable run file' });
    await panel.page.waitForSelector('.error-message');
    assert.equal(await panel.page.textContent('.error-message'), '/x.rbench-run.json: not a readable run file');
    await panel.page.close();
  });
});

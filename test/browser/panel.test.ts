// The results panel in headless Chromium, with the HTML and CSP the host serves and real run files.
// Skips (with the reason) when Chromium is missing. Screenshots go to $RBENCH_SCREENSHOT_DIR (default: a
// temp folder); `RBENCH_SCREENSHOT_DIR=docs/images` refreshes the README's.
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunFile } from '../../src/results/runFile';
import { parseWebviewMessage } from '../../src/views/messages';
import { pngBytes } from '../../src/views/exportFiles';
import { buildViewModel, newLiveRun, sortRows } from '../../src/views/model';
import { replay } from '../unit/views/replay';
import {
  chartInk,
  colourInk,
  firstPaint,
  launchBrowserForSuite,
  openPanel,
  readFixture,
  THEMES,
  type OpenPanel,
  type PanelBrowser,
  type ThemeName,
} from './harness';
import { oneHourRun } from './synthetic';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any, window: any;

const screenshotDir = resolve(process.env.RBENCH_SCREENSHOT_DIR ?? join(tmpdir(), 'rbench-screenshots'));
/** First paint of the one-hour, 20-command run must stay under this (the goal is 300 ms on an idle machine). */
const FIRST_PAINT_BUDGET_MS = Number(process.env.RBENCH_FIRST_PAINT_BUDGET_MS ?? 1000);

describe('results panel (browser)', function () {
  this.timeout(120_000);
  let browser: PanelBrowser;

  before(async function () {
    browser = await launchBrowserForSuite();
    mkdirSync(screenshotDir, { recursive: true });
  });

  after(async () => {
    await browser?.close();
  });

  async function showRun(name: string, theme: ThemeName = 'dark'): Promise<{ panel: OpenPanel; run: RunFile; paintMs: number }> {
    const run = readFixture<RunFile>(`${name}.rbench-run.json`);
    const panel = await openPanel(browser, theme);
    await panel.post({ type: 'run', run, path: `.rbench/runs/${name}.rbench-run.json` });
    const paintMs = await firstPaint(panel.page);
    return { panel, run, paintMs };
  }

  async function tableText(panel: OpenPanel, id = 'results-table'): Promise<string[][]> {
    return panel.page.evaluate(
      (id: string) => [...document.querySelectorAll(`#${id} tbody tr`)].map((tr: any) => [...tr.children].map((c: any) => c.textContent)),
      id,
    );
  }

  async function screenshot(panel: OpenPanel, name: string): Promise<void> {
    await panel.page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
  }

  /** Only hdr-histogram-js's guarded `eval('require("zlib")')` probe may be refused (it falls back to pako). */
  async function assertNoCspViolations(panel: OpenPanel): Promise<void> {
    const violations = await panel.violations();
    const unexpected = violations.filter((v) => !(v.directive === 'script-src' && v.blocked === 'eval'));
    assert.deepEqual(unexpected, [], 'CSP violations');
  }

  it('shows a finished run: header, thresholds, table values, charts', async () => {
    const { panel, run } = await showRun('finished');
    const page = panel.page;
    assert.equal(await page.textContent('h1'), `${run.scenario.name}complete`);
    const meta = (await page.textContent('.meta')) ?? '';
    assert.ok(meta.includes(run.target.display) && meta.includes(`Redis ${run.target.server?.version} · standalone`) && /Client\s*fast/.test(meta), meta);
    const model = buildViewModel(run);
    assert.deepEqual(
      await tableText(panel),
      model.rows.map((row) => model.columns.map((c) => c.cell(row))),
    );
    const setRow = (await tableText(panel))[0];
    assert.equal(setRow[2], run.points[0].repeats[0][0].total.requests.toLocaleString('en-US'));
    const thresholds = (await page.textContent('.thresholds')) ?? '';
    assert.equal((thresholds.match(/FAIL/g) ?? []).length, run.thresholds.filter((t) => !t.passed).length);
    assert.deepEqual(Object.keys(await chartInk(page)).sort(), ['histogram', 'percentiles', 'server', 'timeline']);
    const dark = THEMES.dark.variables;
    assert.ok((await colourInk(page, 'timeline', dark['charts-blue'])) > 100, 'throughput line drawn');
    assert.ok((await colourInk(page, 'timeline', dark['charts-orange'])) > 50, 'p99 line drawn');
    assert.ok((await colourInk(page, 'percentiles', dark['charts-blue'])) > 100, 'percentile curve drawn');
    assert.ok((await colourInk(page, 'histogram', dark['charts-blue'], 100)) > 100, 'histogram bars drawn (translucent: several series)');
    assert.ok((await colourInk(page, 'server', dark['charts-purple'])) > 50, 'memory line drawn');
    const roles = await page.evaluate(() =>
      [...document.querySelectorAll('.chart')].map((c: any) => `${c.getAttribute('role')}:${Boolean(c.getAttribute('aria-label'))}`),
    );
    assert.deepEqual(roles, ['img:true', 'img:true', 'img:true', 'img:true']);
    assert.equal(await page.evaluate(() => document.querySelectorAll('#results-table th[scope="col"]').length), model.columns.length);
    await assertNoCspViolations(panel);
    await screenshot(panel, 'results-finished-dark');
    await page.close();
  });

  it('names every load above its stretch of the timeline, the first one too', async () => {
    // A short run as the engine records it: 100 ms buckets, plotted at their ends, so the x axis starts after
    // the first load does; the second load starts 0.8 s after the first.
    const run = readFixture<RunFile>('finished.rbench-run.json');
    const first = Date.parse(run.points[0].repeats[0][0].startedAt);
    for (const [index, load] of run.points[0].repeats[0].entries()) {
      load.startedAt = new Date(first + index * 800).toISOString();
      load.timeline = load.timeline.slice(0, 5).map((bucket, i) => ({ ...bucket, t: i / 10, partialMs: 100 }));
    }
    const panel = await openPanel(browser, 'dark');
    // The names are drawn on the canvas: record what is written there.
    await panel.page.evaluate(() => {
      const proto = window.CanvasRenderingContext2D.prototype;
      const fillText = proto.fillText;
      window.__drawn = [];
      proto.fillText = function (this: unknown, text: string, ...rest: unknown[]) {
        window.__drawn.push(text);
        return fillText.call(this, text, ...rest);
      };
    });
    await panel.post({ type: 'run', run, path: '.rbench/runs/finished.rbench-run.json' });
    await firstPaint(panel.page);
    // A load's label is its test, after its phase when it has one ("write SET").
    const loads = run.points[0].repeats[0].filter((load) => load.measured).map((load) => load.test);
    assert.ok(loads.length >= 2, 'the fixture has two loads (names are drawn only then)');
    const named = (drawn: string[], name: string) => drawn.some((text) => text === name || text.endsWith(` ${name}`));
    // The last load's name was drawn before the fix too: once it is there, the timeline has been drawn.
    const last = loads[loads.length - 1];
    await panel.page
      .waitForFunction((name: string) => window.__drawn.some((text: string) => text === name || text.endsWith(` ${name}`)), last, { timeout: 10_000 })
      .catch(() => undefined);
    const drawn: string[] = await panel.page.evaluate(() => window.__drawn);
    for (const name of loads) assert.ok(named(drawn, name), `"${name}" is not drawn on the timeline (drawn: ${JSON.stringify(drawn.slice(0, 40))})`);
    await panel.page.close();
  });

  it('sorts by clicking a header and with the keyboard', async () => {
    const { panel, run } = await showRun('sweep');
    const page = panel.page;
    const model = buildViewModel(run);
    const column = (key: string) => model.columns.findIndex((c) => c.key === key);
    await page.click('button.sort[data-key="opsPerSec"]');
    const expected = sortRows(model.rows, { key: 'opsPerSec', descending: true }).map((r) => model.columns[column('opsPerSec')].cell(r));
    assert.deepEqual(
      (await tableText(panel)).map((cells) => cells[column('opsPerSec')]),
      expected,
    );
    assert.equal(await page.getAttribute('th:has(button[data-key="opsPerSec"])', 'aria-sort'), 'descending');
    // Keyboard: the header button keeps focus after re-rendering; Enter flips the order.
    await page.keyboard.press('Enter');
    assert.equal(await page.getAttribute('th:has(button[data-key="opsPerSec"])', 'aria-sort'), 'ascending');
    const ascending = sortRows(model.rows, { key: 'opsPerSec', descending: false }).map((r) => r.point);
    assert.deepEqual(
      (await tableText(panel)).map((cells) => cells[0]),
      ascending,
    );
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    assert.equal(await page.getAttribute('th:has(button[data-key="meanUs"])', 'aria-sort'), 'descending', 'Tab moves to the next header');
    // Exports carry the order shown; the host accepts them.
    await page.click('#copy-csv');
    const posted = await panel.posted();
    const exportMessage = posted.find((m) => m.type === 'export');
    assert.deepEqual(parseWebviewMessage(exportMessage), { type: 'export', format: 'csv', to: 'clipboard', sort: { key: 'meanUs', descending: true } });
    await page.close();
  });

  it('sends each chart as a PNG the host accepts', async () => {
    const { panel } = await showRun('snapshot', 'light');
    await panel.page.click('figure[data-chart="server"] vscode-button');
    const message = parseWebviewMessage((await panel.posted()).find((m) => m.type === 'save-png'));
    assert.ok(message && message.type === 'save-png');
    assert.equal(message.chart, 'server');
    assert.ok(pngBytes(message.dataUrl), 'a real PNG');
    await panel.page.close();
  });

  it('marks background saves on the server chart and warns about them', async () => {
    const { panel, run } = await showRun('snapshot', 'light');
    const page = panel.page;
    const notes = await page.$$eval('.chart-note', (nodes: any[]) => nodes.map((n) => n.textContent));
    assert.equal(notes.length, 2, 'under the timeline and the server chart');
    assert.match(notes[0], /background snapshot \(BGSAVE\)/);
    assert.match(
      (await page.textContent('.warnings')) ?? '',
      new RegExp(`${run.server.events.filter((e) => e.kind === 'bgsave-start').length} background snapshots`),
    );
    // The shaded spans use charts-purple at low alpha: pixels of neither background nor purple appear.
    assert.ok((await colourInk(page, 'server', THEMES.light.variables['charts-purple'])) > 50);
    await assertNoCspViolations(panel);
    await screenshot(panel, 'results-snapshot-light');
    await panel.setTheme('dark');
    await page.waitForTimeout(100);
    await screenshot(panel, 'results-snapshot-dark');
    await page.close();
  });

  it('shows a sweep curve beside the sweep table', async () => {
    const { panel, run } = await showRun('sweep', 'light');
    const page = panel.page;
    const rows = await tableText(panel, 'sweep-table');
    assert.equal(rows.length, run.points.length);
    assert.deepEqual(
      rows.map((r) => r[0]),
      run.points.map((p) => p.label),
    );
    assert.ok((await colourInk(page, 'sweep', THEMES.light.variables['charts-blue'])) > 100, 'sweep curve drawn');
    await screenshot(panel, 'results-sweep-light');
    await panel.setTheme('dark');
    await page.waitForTimeout(100);
    await screenshot(panel, 'results-sweep-dark');
    await page.close();
  });

  it('shows a rate search as latency against offered load, with the limit and the found rate', async () => {
    const { panel, run } = await showRun('rate-search', 'light');
    const page = panel.page;
    const model = buildViewModel(run);
    assert.ok(model.rate, 'the view-model has the rate chart');
    const ink = await chartInk(page);
    assert.ok(ink.rate > 0, `rate chart drawn: ${JSON.stringify(ink)}`);
    assert.ok(!('sweep' in ink), 'probes are not drawn as a sweep in search order');
    assert.ok((await colourInk(page, 'rate', THEMES.light.variables['charts-red'])) > 20, 'the limit line drawn');
    const note = (await page.textContent('figure[data-chart="rate"] .chart-note')) ?? '';
    assert.equal(note, model.rate!.note);
    assert.match(
      note,
      /^Highest rate with p90 < 50\.0 ms: [\d,]+\/s, confirmed by a 5\.0s rerun.*; [\d,]+\/s failed, so the limit lies between the two \(\d+ probes, \d+ confirmations?\)\.$/,
    );
    assert.ok(
      (await tableText(panel)).every((cells) => /^(confirm )?rate=/.test(cells[0])),
      'one table row per probe and per confirmation',
    );
    await assertNoCspViolations(panel);
    await screenshot(panel, 'results-rate-search-light');
    await page.close();
  });

  it('shows repeats as median with min–max spread', async () => {
    const { panel, run } = await showRun('repeat');
    const ops = (await tableText(panel)).map((cells) => cells[3]);
    const summary = run.points[0].summary[0];
    assert.equal(
      ops[0],
      `${Math.round(summary.opsPerSec.median).toLocaleString('en-US')} (${Math.round(summary.opsPerSec.min).toLocaleString('en-US')}–${Math.round(summary.opsPerSec.max).toLocaleString('en-US')})`,
    );
    assert.match((await tableText(panel, 'sweep-table'))[0][2], /–/);
    await screenshot(panel, 'results-repeat-dark');
    await panel.page.close();
  });

  it('names errors by kind and explains them', async () => {
    const { panel } = await showRun('oom');
    const errors = (await tableText(panel))[0].at(-1);
    assert.match(errors ?? '', /^OOM [\d,]+$/);
    assert.match((await panel.page.textContent('.warnings')) ?? '', /OOM errors: the server reached maxmemory/);
    await panel.page.close();
  });

  it('follows a live run from progress messages without reloading', async () => {
    const run = readFixture<RunFile>('finished.rbench-run.json');
    const panel = await openPanel(browser, 'dark');
    const page = panel.page;
    await page.evaluate(() => (window.__sameDocument = true));
    await panel.post({
      type: 'live',
      state: newLiveRun(run.plan, run.startedAt, { file: run.scenario.file, target: { display: run.target.display, local: true } }),
    });
    await page.waitForSelector('#run-status');
    assert.equal(await page.textContent('#run-status'), 'running');
    const events = replay(run);
    const firstEnd = events.findIndex((e) => e.event.kind === 'load-end');
    await panel.post({ type: 'progress', events: events.slice(0, firstEnd), serverEvents: [] });
    await page.waitForFunction(() => document.querySelector('tr.running'));
    assert.match((await page.textContent('#progress-text')) ?? '', /^1\/2 write SET · \d+%$/);
    assert.ok((await colourInk(page, 'timeline', THEMES.dark.variables['charts-blue'])) > 50, 'live timeline drawn');
    await panel.post({ type: 'progress', events: events.slice(firstEnd), serverEvents: run.server.events });
    await page.waitForFunction(() => !document.querySelector('tr.running') && document.querySelectorAll('#results-table tbody tr').length === 5);
    const finalRows = (await tableText(panel)).map((cells) => cells.slice(1, 4));
    const model = buildViewModel(run);
    assert.deepEqual(
      finalRows,
      model.rows.map((row) => model.columns.slice(1, 4).map((c) => c.cell(row))),
    );
    await panel.post({ type: 'run', run, path: '.rbench/runs/finished.rbench-run.json' });
    await page.waitForFunction(() => document.querySelector('#run-status')?.textContent === 'complete');
    assert.equal(await page.evaluate(() => window.__sameDocument), true, 'no reload');
    const state = await page.evaluate(() => window.__getState());
    assert.equal(state.runPath, '.rbench/runs/finished.rbench-run.json', 'the serializer can re-read the run file');
    await assertNoCspViolations(panel);
    await page.close();
  });

  it('redraws charts in the new colours when the theme changes', async () => {
    const { panel } = await showRun('finished', 'dark');
    const page = panel.page;
    const darkBlue = THEMES.dark.variables['charts-blue'];
    const lightBlue = THEMES.light.variables['charts-blue'];
    assert.ok((await colourInk(page, 'percentiles', darkBlue)) > 100);
    assert.equal(await colourInk(page, 'percentiles', lightBlue), 0);
    await panel.setTheme('light');
    await page.waitForFunction(() => document.body.className === 'vscode-light');
    await page.waitForTimeout(50);
    assert.ok((await colourInk(page, 'percentiles', lightBlue)) > 100, 'redrawn in the light theme blue');
    assert.equal(await colourInk(page, 'percentiles', darkBlue), 0, 'no dark theme blue left');
    await screenshot(panel, 'results-finished-light');
    await page.close();
  });

  it(`paints a one-hour, 20-command run within ${FIRST_PAINT_BUDGET_MS} ms`, async () => {
    const run = oneHourRun(readFixture<RunFile>('finished.rbench-run.json'));
    const timings: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const panel = await openPanel(browser, 'dark');
      await panel.post({ type: 'run', run });
      timings.push(await firstPaint(panel.page));
      if (attempt === 0) {
        assert.equal((await tableText(panel)).length, 21, 'total plus 20 commands');
        const ink = await chartInk(panel.page);
        for (const [chart, pixels] of Object.entries(ink)) assert.ok(pixels > 1000, `${chart} drew`);
        await screenshot(panel, 'results-one-hour-dark');
      }
      await panel.page.close();
    }
    const best = Math.min(...timings);
    console.log(
      `    first paint, 1 h × 20 commands (3,600 seconds, 21 histograms): ${timings.map((t) => t.toFixed(0)).join(' / ')} ms (best ${best.toFixed(0)} ms)`,
    );
    assert.ok(best < FIRST_PAINT_BUDGET_MS, `first paint ${best.toFixed(0)} ms`);
  });

  it('keeps every column of the table reachable side by side (600 px): the table scrolls, the test names stay, the page does not', async () => {
    // About half of a 1280 px window, minus the editor's own chrome: the panel side by side with the scenario.
    const { panel } = await showRun('finished');
    await panel.page.setViewportSize({ width: 600, height: 900 });
    await screenshot(panel, 'results-side-by-side');

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
    assert.ok(
      layout.headers.some((h: string) => /p99/.test(h)),
      `columns: ${layout.headers.join(', ')}`,
    );
    assert.ok(layout.pageScrollWidth <= layout.viewportWidth, `the page scrolls sideways: ${layout.pageScrollWidth} > ${layout.viewportWidth}`);
    assert.ok(layout.scrollable, 'the table is wider than 600 px here, so it scrolls');
    assert.ok(
      layout.lastHeaderRight <= layout.wrapRight + 1,
      `the last column (${layout.headers.at(-1)}) stays out of reach: ${layout.lastHeaderRight} > ${layout.wrapRight}`,
    );
    assert.ok(layout.wrapScrolled > 0);
    assert.ok(layout.labelsInView, 'the test names scrolled out of view with the numbers');
    await screenshot(panel, 'results-side-by-side-scrolled');
    await panel.page.close();
  });
});

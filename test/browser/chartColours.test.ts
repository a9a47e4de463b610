// Issue 45 (6) in headless Chromium: every chart line keeps 3:1 against the background (WCAG 2.1 1.4.11) in
// VS Code's Light Modern, Dark Modern and High Contrast values, read from what the panel drew (each chart's
// `data-series`, the strokes uPlot was given); the server's CPU and its main thread's are two colours and two
// dashes; the server's share of the latency bar stays visible when it is under 1 %. (The same contrast is
// measured in a real VS Code by test/integration/chartContrast.test.ts.)
import { strict as assert } from 'node:assert';
import type { LoadResult } from '../../src/engine/types';
import type { RunFile } from '../../src/results/runFile';
import { contrastRatio, parseColour } from '../../src/views/contrast';
import { firstPaint, launchBrowserForSuite, openPanel, readFixture, type PanelBrowser, type ThemeName } from './harness';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any, getComputedStyle: any;

interface Drawn {
  chart: string;
  label: string;
  colour: string;
  dash: string;
}

/** A run with the server's counters: CPU of the process and of its main thread every second, and a server time of `usecPerCall`. */
function withServer(run: RunFile, usecPerCall: number): RunFile {
  const copy = structuredClone(run);
  copy.server.samples.forEach((sample, i) => Object.assign(sample, { cpuUser: i * 0.4, cpuSys: i * 0.1, cpuMainThread: i * 0.45 }));
  copy.points[0].repeats[0].forEach((load: LoadResult) => {
    load.server = { nodes: 1, windowMs: load.durationMs, calls: load.total.requests, usec: load.total.requests * usecPerCall, commands: {}, usecPerCall };
  });
  return copy;
}

describe('panel chart colours and the server lines (browser, issue 45)', function () {
  this.timeout(120_000);
  let browser: PanelBrowser;
  before(async () => (browser = await launchBrowserForSuite()));
  after(async () => browser?.close());

  async function drawn(theme: ThemeName, run: RunFile) {
    const panel = await openPanel(browser, theme);
    await panel.post({ type: 'run', run });
    await firstPaint(panel.page);
    const result = await panel.page.evaluate(() => ({
      background: getComputedStyle(document.body).backgroundColor as string,
      series: [...document.querySelectorAll('figure[data-chart]')].flatMap((figure: any) =>
        JSON.parse(figure.querySelector('.chart').dataset.series ?? '[]').map((s: any) => ({ chart: figure.dataset.chart, ...s })),
      ) as Drawn[],
    }));
    return { panel, ...result };
  }

  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    it(`every line keeps 3:1 against the background (${theme})`, async () => {
      const { panel, background, series } = await drawn(theme, withServer(readFixture<RunFile>('finished.rbench-run.json'), 20));
      assert.equal(parseColour(background)?.a, 1, `an opaque background: ${background}`);
      const charts = new Set(series.map((s) => s.chart));
      for (const chart of ['timeline', 'percentiles', 'server']) assert.ok(charts.has(chart), `${chart} drawn: ${[...charts].join(', ')}`);
      const low = series
        .map((s) => ({ ...s, ratio: contrastRatio(parseColour(s.colour)!, parseColour(background)!) }))
        .filter((s) => !(s.ratio >= 3))
        .map((s) => `${s.chart}/${s.label} ${s.colour}: ${s.ratio.toFixed(2)}:1`);
      assert.deepEqual(low, [], `on ${background}`);
      await panel.page.close();
    });
  }

  it("draws the server's CPU and its main thread's in two colours and two dashes, each in the legend", async () => {
    const { panel, series } = await drawn('dark', withServer(readFixture<RunFile>('finished.rbench-run.json'), 20));
    const cpu = series.find((s) => s.chart === 'server' && s.label === 'server CPU');
    const main = series.find((s) => s.chart === 'server' && s.label === 'main thread CPU');
    assert.ok(cpu && main, JSON.stringify(series));
    assert.notEqual(cpu.colour, main.colour);
    assert.notEqual(cpu.dash, main.dash);
    const legend = await panel.page.$$eval('figure[data-chart="server"] .u-legend .u-label', (labels: any[]) => labels.map((l) => l.textContent));
    assert.ok(legend.includes('server CPU') && legend.includes('main thread CPU'), legend.join());
    await panel.page.close();
  });

  it("keeps the server's part of the latency bar visible when it is under 1 % of it", async () => {
    const run = withServer(readFixture<RunFile>('finished.rbench-run.json'), 0.3);
    const p50 = run.points[0].repeats[0][0].total.latency.p50Us;
    assert.ok(0.3 / p50 < 0.01, `the server's share is under 1 %: 0.3 of ${p50} µs`);
    const panel = await openPanel(browser, 'dark');
    await panel.post({ type: 'run', run });
    await firstPaint(panel.page);
    const widths = await panel.page.$$eval('.split-bar .split-server', (parts: any[]) => parts.map((part) => part.getBoundingClientRect().width));
    assert.ok(widths.length >= 2, 'bars drawn');
    for (const width of widths) assert.ok(width >= 2, `server part ${width} px wide`);
    assert.match((await panel.page.textContent('.split-figures')) ?? '', /server 0\.3 µs/);
    await panel.page.close();
  });
});

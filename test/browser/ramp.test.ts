// Issue 43 (connection behaviour): the ramp chart in the bundled webviews under chromium, from real CLI runs of
// test/browser/fixtures/ramp.rbench (clients 2, 4, 6, 8; the pair's second run 2, 5, 8). The results panel
// draws a point per step against the step's clients (throughput, p50, p99), a run without a ramp has no such
// chart, and the comparison panel draws both runs' steps on one clients axis, one colour per run.
import { strict as assert } from 'node:assert';
import type { RunFile } from '../../src/results/runFile';
import { buildCompareViewModel } from '../../src/views/compareModel';
import { colourInk, firstPaint, launchBrowserForSuite, openPanel, readFixture, THEMES, type PanelBrowser } from './harness';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

const ramp = () => readFixture<RunFile>('ramp.rbench-run.json');

/** A chart's figure as drawn: its title, legend labels, axes in words, and the CSP violations of the page. */
async function drawn(page: any, chart: string): Promise<{ title: string; labels: string[]; axes: string; note: string | null }> {
  return page.$eval(`figure[data-chart="${chart}"]`, (figure: any) => ({
    title: figure.querySelector('h2').textContent as string,
    labels: [...figure.querySelectorAll('.u-legend .u-series .u-label')].map((cell: any) => cell.textContent as string),
    axes: figure.querySelector('.chart').dataset.axes as string,
    note: (figure.querySelector('.chart-note')?.textContent ?? null) as string | null,
  }));
}

describe('ramp chart (browser): a point per step', function () {
  this.timeout(120_000);
  let browser: PanelBrowser;
  let compareBrowser: PanelBrowser;
  before(async () => {
    browser = await launchBrowserForSuite();
    compareBrowser = await launchBrowserForSuite('compare');
  });
  after(async () => {
    await browser?.close();
    await compareBrowser?.close();
  });

  it('results panel: throughput, p50 and p99 at each step’s clients, drawn in the first colour, no CSP violation', async () => {
    const panel = await openPanel(browser, 'dark');
    await panel.post({ type: 'run', run: ramp(), path: '.rbench/runs/ramp.rbench-run.json' });
    await firstPaint(panel.page);
    const figure = await drawn(panel.page, 'ramp');
    assert.equal(figure.title, 'Ramp: throughput and latency per step');
    assert.deepEqual(figure.labels, ['clients', 'ops/s', 'p50', 'p99']);
    // The x axis carries each step's clients; the right axis both latencies.
    assert.match(figure.axes, /^connected clients: 2, 4, 6, 8 \| ops\/s: .+ \| p50 · p99: .+ms/);
    assert.ok((await colourInk(panel.page, 'ramp', THEMES.dark.variables['charts-blue'])) > 100, 'the steps drawn');
    assert.match(figure.note ?? '', /^Most throughput at [2468] clients \(.+ ops\/s, p99 .+\)\.$/);
    const unexpected = (await panel.violations()).filter((v) => !(v.directive === 'script-src' && v.blocked === 'eval'));
    assert.deepEqual(unexpected, [], 'CSP violations');
    await panel.page.close();
  });

  it('results panel: a ramp of 2,000 steps is drawn in at most 1,001 points, its axis ticked by the chart, not by each step', async () => {
    const run = ramp();
    const load = run.points[0].repeats[0][0];
    const first = load.ramp![0];
    load.ramp = Array.from({ length: 2000 }, (_, i) => ({ ...first, clients: i + 1, fromMs: i * 1000, toMs: (i + 1) * 1000, opsPerSec: 1000 + i }));
    const panel = await openPanel(browser, 'dark');
    await panel.post({ type: 'run', run, path: '.rbench/runs/long-ramp.rbench-run.json' });
    await firstPaint(panel.page);
    const figure = await drawn(panel.page, 'ramp');
    const ticks = figure.axes
      .split(' | ')[0]
      .replace(/^connected clients: /, '')
      .split(', ');
    assert.ok(ticks.length >= 2 && ticks.length < 30, figure.axes);
    assert.match(figure.note ?? '', /one step in 2 of its 2,000 is charted, and the last: the table lists every step\.$/);
    assert.ok((await colourInk(panel.page, 'ramp', THEMES.dark.variables['charts-blue'])) > 100, 'the steps drawn');
    await panel.page.close();
  });

  it('results panel: a run without a ramp has no ramp chart', async () => {
    const panel = await openPanel(browser, 'light');
    await panel.post({ type: 'run', run: readFixture<RunFile>('finished.rbench-run.json'), path: '.rbench/runs/finished.rbench-run.json' });
    await firstPaint(panel.page);
    const charts: string[] = await panel.page.$$eval('figure[data-chart]', (figures: any[]) => figures.map((f) => f.dataset.chart as string));
    assert.ok(charts.includes('timeline'), charts.join(', '));
    assert.ok(!charts.includes('ramp'), charts.join(', '));
    await panel.page.close();
  });

  it('comparison panel: both runs’ steps on one clients axis, one colour per run', async () => {
    const runs = [ramp(), readFixture<RunFile>('ramp-b.rbench-run.json')];
    const labels = buildCompareViewModel(runs).columns.map((c) => c.label);
    const panel = await openPanel(compareBrowser, 'dark', undefined, 'compare');
    await panel.post({ type: 'compare', runs, paths: ['.rbench/runs/ramp.rbench-run.json', '.rbench/runs/ramp-b.rbench-run.json'] });
    await panel.page.waitForFunction(() => document.body.dataset.rendered === 'true');
    const figure = await drawn(panel.page, 'ramp');
    assert.deepEqual(figure.labels, ['clients', ...labels.flatMap((label) => [`${label} ops/s`, `${label} p50`, `${label} p99`])]);
    assert.match(figure.axes, /^connected clients: 2, 4, 5, 6, 8 \| /);
    const dark = THEMES.dark.variables;
    assert.ok((await colourInk(panel.page, 'ramp', dark['charts-blue'])) > 100, 'the first run drawn');
    assert.ok((await colourInk(panel.page, 'ramp', dark['charts-orange'])) > 100, 'the second run drawn');
    await panel.page.close();
  });
});

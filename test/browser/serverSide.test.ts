// The panels' server side in headless Chromium (issues 20 and 21): a real CLI run file with the new
// fields written in by hand (a stall, the server's counters, a verdict whose words are hostile markup, the
// client's pauses) shows the verdict in the header and the table, the stall shaded and named, the latency
// split as bars, all under the host's CSP and with the stranger's text as text.
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { LoadResult } from '../../src/engine/types';
import type { RunFile } from '../../src/results/runFile';
import { launchBrowserForSuite, openPanel, firstPaint, readFixture, colourInk, THEMES, type PanelBrowser } from './harness';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

const screenshotDir = resolve(process.env.RBENCH_SCREENSHOT_DIR ?? join(tmpdir(), 'rbench-screenshots'));
const HOSTILE = '<img src=x onerror="document.body.dataset.pwned=1">';

function withServerSide(run: RunFile, usecPerCall: number, foreign = 0): RunFile {
  const copy = structuredClone(run);
  copy.points[0].repeats[0].forEach((load: LoadResult, i) => {
    load.server = {
      nodes: 1,
      windowMs: load.durationMs,
      calls: load.total.requests,
      usec: load.total.requests * usecPerCall,
      commands: {},
      usecPerCall,
      ...(foreign ? { foreign: { calls: foreign, commands: { set: foreign } } } : {}),
    };
    load.bottleneck =
      i === 0
        ? { kind: 'server-cpu', why: `main thread 97 % ${HOSTILE}` }
        : {
            kind: 'mixed',
            why: 'two hold',
            parts: [
              { kind: 'round-trip', why: 'neither side busy' },
              { kind: 'persistence', why: 'a fork of 41 ms' },
            ],
          };
  });
  copy.points[0].repeats[0][0].stalls = [{ fromMs: 200, toMs: 1700, connections: 4, of: 4 }];
  // Half a core busy every second.
  copy.server.samples.forEach((sample, i) => Object.assign(sample, { cpuUser: i * 0.4, cpuSys: i * 0.1 }));
  return copy;
}

describe('panels: where the time went (browser)', function () {
  this.timeout(120_000);
  let browser: PanelBrowser;
  before(async () => (browser = await launchBrowserForSuite()));
  after(async () => browser?.close());

  it('shows the verdicts, the stall and the latency split; the run file’s words stay text', async () => {
    const run = withServerSide(readFixture<RunFile>('finished.rbench-run.json'), 20);
    const panel = await openPanel(browser, 'dark');
    const page = panel.page;
    await panel.post({ type: 'run', run });
    await firstPaint(page);
    assert.match((await page.textContent('#run-status')) ?? '', /^complete · stalled 1\.5 s$/);
    assert.match((await page.textContent('#stall-warning')) ?? '', /Not a clean run: the server did not answer for 1\.5 s/);
    const verdicts = (await page.textContent('#verdicts')) ?? '';
    assert.ok(verdicts.includes(`server CPU write SET — main thread 97 % ${HOSTILE}`), verdicts);
    assert.ok(verdicts.includes('mixed: round trip + persistence') && verdicts.includes('a fork of 41 ms'), verdicts);
    assert.equal(await page.evaluate(() => document.querySelectorAll('img').length), 0, 'no element from the verdict’s text');
    assert.equal(await page.evaluate(() => document.body.dataset.pwned), undefined);

    const headers = await page.$$eval('#results-table thead th', (ths: any[]) => ths.map((th) => th.textContent.trim()));
    assert.ok(headers.includes('srv µs/call') && headers.includes('Bottleneck'), headers.join());
    // The split bars: the server's share of p99 as a width the CSP lets a script set.
    const shares = await page.$$eval('.split-bar', (bars: any[]) =>
      bars.map((bar) => bar.querySelector('.split-server').getBoundingClientRect().width / bar.getBoundingClientRect().width),
    );
    const p99 = run.points[0].repeats[0][0].total.latency.p99Us;
    assert.ok(shares.length >= 2);
    assert.ok(Math.abs(shares[1] - Math.min(1, 20 / p99)) < 0.02, `p99 bar: ${shares[1]} against ${20 / p99}`);

    const note = (await page.textContent('figure[data-chart="timeline"] .chart-note')) ?? '';
    assert.match(note, /Shaded red: write SET: no reply 0\.2 s – 1\.7 s \(1\.5 s\) on 4 of 4 connections/);
    assert.ok((await colourInk(page, 'timeline', THEMES.dark.variables['charts-red'], 150)) > 20, 'the stall is drawn');
    assert.equal(await page.textContent('figure[data-chart="server"] h2'), 'Server memory, clients and CPU');
    assert.ok((await colourInk(page, 'server', THEMES.dark.variables['charts-orange'], 150)) > 20, 'the server CPU line is drawn');
    const violations = (await panel.violations()).filter((v) => !(v.directive === 'script-src' && v.blocked === 'eval'));
    assert.deepEqual(violations, [], 'CSP violations');
    mkdirSync(screenshotDir, { recursive: true });
    await page.screenshot({ path: join(screenshotDir, 'results-server-side-dark.png'), fullPage: true });
    await page.close();
  });

  it('compares the server’s time per call and flags foreign load', async () => {
    const compareBrowser = await launchBrowserForSuite('compare');
    try {
      const a = withServerSide(readFixture<RunFile>('compare-a.rbench-run.json'), 20);
      const b = withServerSide(readFixture<RunFile>('compare-b.rbench-run.json'), 21, 38_000);
      const panel = await openPanel(compareBrowser, 'dark', undefined, 'compare');
      await panel.post({ type: 'compare', runs: [a, b], paths: ['/a.rbench-run.json', '/b.rbench-run.json'] });
      await panel.page.waitForFunction(() => document.body.dataset.rendered === 'true');
      const differences = (await panel.page.textContent('#differences')) ?? '';
      assert.match(differences, /the server ran 76,000 commands this run did not send/, '38,000 in each of its two tests');
      const table = (await panel.page.textContent('#compare-table')) ?? '';
      assert.ok(table.includes('srv µs/call') && table.includes('bottleneck') && table.includes('server CPU'), table.slice(0, 400));
      await panel.page.screenshot({ path: join(screenshotDir, 'compare-server-side-dark.png'), fullPage: true });
      await panel.page.close();
    } finally {
      await compareBrowser.close();
    }
  });
});

// Issue 22: the panels' status colours are readable (WCAG AA, 4.5:1) in VS Code's default light and dark
// themes, measured on what the browser renders: each status element's computed colour against the
// page's computed background. VS Code's own "passed" green (#73c991, every theme) is about 2:1 on white.
import { strict as assert } from 'node:assert';
import type { RunFile } from '../../src/results/runFile';
import { contrastRatio, parseColour } from '../../src/views/contrast';
import { launchBrowserForSuite, openPanel, readFixture, type OpenPanel, type PanelBrowser, type ThemeName } from './harness';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any, getComputedStyle: any;

/** Every element of the given classes with text: its class, text colour and the page's background. */
async function statusColours(panel: OpenPanel, selectors: string[]): Promise<{ selector: string; colour: string; background: string }[]> {
  return panel.page.evaluate(
    (wanted: string[]) =>
      wanted.flatMap((selector) =>
        [...document.querySelectorAll(selector)]
          .filter((node: any) => node.textContent.trim() !== '')
          .map((node: any) => ({ selector, colour: getComputedStyle(node).color, background: getComputedStyle(document.body).backgroundColor })),
      ),
    selectors,
  );
}

function assertReadable(found: { selector: string; colour: string; background: string }[], selectors: string[], theme: ThemeName): void {
  for (const selector of selectors)
    assert.ok(
      found.some((f) => f.selector === selector),
      `${selector} rendered (${theme})`,
    );
  for (const { selector, colour, background } of found) {
    const ratio = contrastRatio(parseColour(colour)!, parseColour(background)!);
    assert.ok(ratio >= 4.5, `${selector} ${colour} on ${background}: ${ratio.toFixed(2)}:1 < 4.5:1 (${theme})`);
  }
}

describe('status colours reach WCAG AA contrast in both themes (browser, issue 22)', function () {
  this.timeout(120_000);
  let results: PanelBrowser;

  before(async () => {
    results = await launchBrowserForSuite('results');
  });
  after(async () => {
    await results?.close();
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`results panel: pass, FAIL, the status and the error message (${theme})`, async () => {
      const run = readFixture<RunFile>('finished.rbench-run.json');
      const failed = { ...structuredClone(run), status: 'failed' as const, error: 'connection reset by the server' };
      const selectors = ['.pass', '.fail', '.error-message'];
      const panel = await openPanel(results, theme);
      await panel.post({ type: 'run', run: failed, path: 'workspace/.rbench/runs/finished.rbench-run.json' });
      await panel.page.waitForFunction(() => document.body.dataset.rendered === 'true');
      assertReadable(await statusColours(panel, selectors), selectors, theme);
      await panel.page.close();

      const ok = await openPanel(results, theme);
      await ok.post({ type: 'run', run, path: 'workspace/.rbench/runs/finished.rbench-run.json' });
      await ok.page.waitForFunction(() => document.body.dataset.rendered === 'true');
      // The badge sits on its own background: the header's status words are checked in the comparison's run list below.
      assertReadable(await statusColours(ok, ['.pass']), ['.pass'], theme);
      await ok.page.close();
    });
  }
});

describe('comparison status colours reach WCAG AA contrast (browser, issue 22)', function () {
  this.timeout(120_000);
  let compare: PanelBrowser;
  before(async () => {
    compare = await launchBrowserForSuite('compare');
  });
  after(async () => {
    await compare?.close();
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`better, worse, noise, differs and each run's status (${theme})`, async () => {
      const a = readFixture<RunFile>('compare-a.rbench-run.json');
      const b = readFixture<RunFile>('compare-b.rbench-run.json');
      // Same plan, some changes: better and worse; then different plans: differs.
      const faster = structuredClone(a);
      faster.id = 'faster';
      for (const s of faster.points[0].summary) {
        s.opsPerSec = { ...s.opsPerSec, median: s.opsPerSec.median * 1.5 };
        s.p99Us = { ...s.p99Us, median: s.p99Us.median * 2 };
      }
      for (const load of faster.points[0].repeats[0])
        load.total = { ...load.total, opsPerSec: load.total.opsPerSec * 1.5, latency: { ...load.total.latency, p99Us: load.total.latency.p99Us * 2 } };
      const found: Awaited<ReturnType<typeof statusColours>> = [];
      for (const runs of [
        [a, faster],
        [a, b],
      ]) {
        const panel = await openPanel(compare, theme, undefined, 'compare');
        await panel.post({ type: 'compare', runs, paths: ['/a.rbench-run.json', '/b.rbench-run.json'] });
        await panel.page.waitForFunction(() => document.body.dataset.rendered === 'true');
        found.push(...(await statusColours(panel, ['.delta-better', '.delta-worse', '.delta-noise', '.delta-differs', '.status-complete'])));
        await panel.page.close();
      }
      assertReadable(found, ['.delta-better', '.delta-worse', '.delta-differs', '.status-complete'], theme);
    });
  }
});

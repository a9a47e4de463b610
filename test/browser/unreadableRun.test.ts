// A run file that cannot be read (cut short, hand-edited, another version) opened in the results
// panel: the host's check (parseRunFileText, as the run viewer calls it) gives a message, and the
// panel shows it instead of staying on "Loading results…". Headless Chromium, as panel.test.ts.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRunFileText, RunFileError } from '../../src/results/runFile';
import { repoRoot } from '../unit/scenario/helpers';
import { launchBrowserForSuite, openPanel, type PanelBrowser } from './harness';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

describe('results panel with an unreadable run file (browser)', function () {
  this.timeout(120_000);
  let browser: PanelBrowser;

  before(async function () {
    browser = await launchBrowserForSuite();
  });

  after(async () => {
    await browser?.close();
  });

  const good = readFileSync(join(repoRoot(), 'test', 'browser', 'fixtures', 'finished.rbench-run.json'), 'utf8');
  const edit = (change: (run: any) => void) => {
    const run = JSON.parse(good);
    change(run);
    return JSON.stringify(run);
  };
  const CASES: [string, string, RegExp][] = [
    ['cut short', good.slice(0, Math.floor(good.length / 2)), /ends too early/],
    ['hand-edited', edit((run) => (run.points[0].repeats[0][0].total = 'n/a')), /points\[0\]\.repeats\[0\]\[0\]\.total: /],
    ['newer version', edit((run) => (run.version = 2)), /written by a newer RBench/],
  ];

  for (const [name, text, expected] of CASES) {
    it(`${name}: shows the reason, not "Loading…"`, async () => {
      let message = '';
      try {
        parseRunFileText(text, '/ws/.rbench/runs/x.rbench-run.json');
        assert.fail('the file should be refused');
      } catch (error) {
        assert.ok(error instanceof RunFileError);
        message = error.message;
      }
      const panel = await openPanel(browser, 'dark');
      try {
        await panel.post({ type: 'error', message });
        await panel.page.waitForSelector('.error-message');
        const shown = await panel.page.evaluate(() => document.querySelector('#root').textContent as string);
        assert.match(shown, /^Cannot show this run/);
        assert.match(shown, expected);
        assert.doesNotMatch(shown, /Loading/);
      } finally {
        await panel.page.close();
      }
    });
  }
});

// Issue 45 (5): the results panel's verdict says what held, what it means and what to try in short
// sentences, with the figures as a list apart, instead of the verdict's one 360-character line.
import { strict as assert } from 'node:assert';
import type { LoadResult } from '../../src/engine/types';
import type { RunFile } from '../../src/results/runFile';
import { firstPaint, launchBrowserForSuite, openPanel, readFixture, type PanelBrowser } from './harness';

/* eslint-disable @typescript-eslint/no-explicit-any */

const WHY =
  "the client used its CPU to the full (busiest thread 92 % busy, process 96 % of a core over 1 thread; the server's main thread at 81 % of a core beside it): these numbers understate the server — run the client elsewhere or add threads";

describe('results panel: the verdict in short sentences and a list of figures (browser, issue 45)', function () {
  this.timeout(120_000);
  let browser: PanelBrowser;
  before(async () => (browser = await launchBrowserForSuite()));
  after(async () => browser?.close());

  it('shows claim, meaning and advice as sentences and the figures one a line', async () => {
    const run = structuredClone(readFixture<RunFile>('finished.rbench-run.json'));
    run.points[0].repeats[0].forEach((load: LoadResult) => (load.bottleneck = { kind: 'client-cpu', why: WHY }));
    const panel = await openPanel(browser, 'dark');
    await panel.post({ type: 'run', run });
    await firstPaint(panel.page);
    const items = await panel.page.$$eval('#verdicts > li', (lis: any[]) =>
      lis.map((li) => ({
        sentences: li.querySelector(':scope > .detail')?.textContent ?? '',
        figures: [...li.querySelectorAll('.verdict-figures li')].map((f: any) => f.textContent),
      })),
    );
    assert.ok(items.length >= 1, 'a verdict shown');
    for (const item of items) {
      assert.equal(
        item.sentences,
        ' — The client used its CPU to the full. These numbers understate the server. Try: run the client elsewhere or add threads.',
      );
      assert.deepEqual(item.figures, [
        'busiest thread 92 % busy',
        'process 96 % of a core over 1 thread',
        "the server's main thread at 81 % of a core beside it",
      ]);
    }
    await panel.page.close();
  });
});

// Issue 45 (5): the comparison's "Client and server side" is a table of figures (the client's p99 and the
// server's time per call, per test) and short sentences saying what they mean, not one long bullet a test.
import { strict as assert } from 'node:assert';
import type { LoadResult } from '../../src/engine/types';
import type { RunFile } from '../../src/results/runFile';
import { launchBrowserForSuite, openPanel, readFixture, type PanelBrowser } from './harness';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

function withServerTime(run: RunFile, usecPerCall: number, bottleneck: 'round-trip' | 'server-cpu'): RunFile {
  const copy = structuredClone(run);
  copy.points[0].repeats[0].forEach((load: LoadResult) => {
    load.server = { nodes: 1, windowMs: load.durationMs, calls: load.total.requests, usec: load.total.requests * usecPerCall, commands: {}, usecPerCall };
    load.bottleneck =
      bottleneck === 'server-cpu'
        ? { kind: 'server-cpu', why: 'the main thread was busy 97 % of the time, while the clients waited on its replies' }
        : { kind: 'round-trip', why: 'neither side busy' };
  });
  return copy;
}

describe('comparison: client and server side in a table and short sentences (browser, issue 45)', function () {
  this.timeout(120_000);
  let browser: PanelBrowser;
  before(async () => (browser = await launchBrowserForSuite('compare')));
  after(async () => browser?.close());

  it('puts the figures in a table, one row a test, and says what they mean in short sentences', async () => {
    const a = withServerTime(readFixture<RunFile>('compare-a.rbench-run.json'), 20, 'round-trip');
    const b = withServerTime(readFixture<RunFile>('compare-b.rbench-run.json'), 45, 'server-cpu');
    const panel = await openPanel(browser, 'dark', undefined, 'compare');
    await panel.post({ type: 'compare', runs: [a, b], paths: ['/a.rbench-run.json', '/b.rbench-run.json'] });
    await panel.page.waitForFunction(() => document.body.dataset.rendered === 'true');
    const table = await panel.page.evaluate(() => {
      const node = document.querySelector('#explained-table');
      if (!node) return undefined;
      return {
        head: [...node.querySelectorAll('thead th')].map((th: any) => th.textContent),
        rows: [...node.querySelectorAll('tbody tr')].map((tr: any) => [...tr.children].map((cell: any) => cell.textContent)),
      };
    });
    assert.ok(table, 'a table of the figures');
    assert.deepEqual(table.head, ['test', 'client p99', 'server time per call', 'server µs/call']);
    const tests = a.points[0].repeats[0].length;
    assert.equal(table.rows.length, tests, JSON.stringify(table.rows));
    for (const row of table.rows) {
      assert.match(row[2], /^rose \d+\.\d%$/);
      assert.match(row[3], /^20\.0 → 45\.0 µs$/);
    }
    const readings: string[] = await panel.page.$$eval('#explained .explained-readings li', (items: any[]) => items.map((li) => li.textContent));
    assert.ok(readings.length >= tests, readings.join('\n'));
    for (const reading of readings) {
      const [, text] = reading.split(': ');
      // Each sentence short: the figures are in the table.
      for (const sentence of text.split(/(?<=\.)\s+/)) assert.ok(sentence.split(/\s+/).length <= 20, `a long sentence: ${sentence}`);
      assert.doesNotMatch(reading, /\d+\.\d →/, 'no figures repeated in the sentences');
    }
    assert.ok(
      readings.some((r) => /The bottleneck moved from round-trip to server-cpu\./.test(r)),
      readings.join('\n'),
    );
    await panel.page.close();
  });
});

// What the host accepts from the results webview, and the HTML it serves.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunFile } from '../../../src/results/runFile';
import { exportContent, exportFileName, pngBytes } from '../../../src/views/exportFiles';
import { contentSecurityPolicy, newNonce, panelHtml } from '../../../src/views/html';
import { MAX_PNG_DATA_URL, parsePanelState, parseWebviewMessage } from '../../../src/views/messages';
import { repoRoot } from '../scenario/helpers';

// The 8-byte PNG signature and an IHDR chunk start: enough for the signature check.
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).toString('base64');

describe('webview messages', () => {
  it('accepts the messages the panel sends', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseWebviewMessage({ type: 'open-raw', extra: 1 }), { type: 'open-raw' });
    assert.deepEqual(parseWebviewMessage({ type: 'export', format: 'csv', to: 'clipboard' }), { type: 'export', format: 'csv', to: 'clipboard' });
    assert.deepEqual(parseWebviewMessage({ type: 'export', format: 'markdown', to: 'file', sort: { key: 'p99Us', descending: true } }), {
      type: 'export',
      format: 'markdown',
      to: 'file',
      sort: { key: 'p99Us', descending: true },
    });
    const png = parseWebviewMessage({ type: 'save-png', chart: 'timeline', dataUrl: `data:image/png;base64,${PNG}` });
    assert.equal(png?.type, 'save-png');
  });

  it('rejects junk', () => {
    const junk: unknown[] = [
      null,
      undefined,
      'ready',
      42,
      [],
      ['ready'],
      {},
      { type: 'READY' },
      { type: 'run' },
      { type: 'export' },
      { type: 'export', format: 'exe', to: 'file' },
      { type: 'export', format: 'csv' },
      { type: 'export', format: 'csv', to: 'disk' },
      { type: 'export', format: 'csv', to: 'file', sort: { key: 'constructor', descending: true } },
      { type: 'export', format: 'csv', to: 'file', sort: { key: 'p99Us', descending: 'yes' } },
      { type: 'export', format: 'csv', to: 'file', sort: 'p99Us' },
      { type: 'save-png', chart: 'timeline' },
      { type: 'save-png', chart: '../../etc/passwd', dataUrl: `data:image/png;base64,${PNG}` },
      { type: 'save-png', chart: 'timeline', dataUrl: 'javascript:alert(1)' },
      { type: 'save-png', chart: 'timeline', dataUrl: `data:image/svg+xml;base64,${PNG}` },
      { type: 'save-png', chart: 'timeline', dataUrl: 'data:image/png;base64,<script>' },
      { type: 'save-png', chart: 'timeline', dataUrl: `data:image/png;base64,${'A'.repeat(MAX_PNG_DATA_URL)}` },
    ];
    for (const value of junk) assert.equal(parseWebviewMessage(value), undefined, JSON.stringify(value)?.slice(0, 80));
  });

  it('writes only real PNG bytes', () => {
    assert.ok(pngBytes(`data:image/png;base64,${PNG}`));
    assert.equal(pngBytes(`data:image/png;base64,${Buffer.from('GIF89a not a png').toString('base64')}`), undefined);
    assert.equal(pngBytes('data:image/png;base64,'), undefined);
  });

  it('reads back only a well-formed panel state', () => {
    assert.deepEqual(parsePanelState({ runPath: '/w/.rbench/runs/a.rbench-run.json', key: { file: 'a.rbench', scenario: 'S' }, sort: 1 }), {
      runPath: '/w/.rbench/runs/a.rbench-run.json',
      key: { file: 'a.rbench', scenario: 'S' },
    });
    assert.deepEqual(parsePanelState({ runPath: '/etc/passwd', key: { scenario: 3 } }), {});
    assert.deepEqual(parsePanelState('x'), {});
  });
});

describe('panel HTML', () => {
  it('has a strict CSP with a fresh nonce and nothing inline', () => {
    const nonce = newNonce();
    assert.match(nonce, /^[A-Za-z0-9+/]{22}==$/);
    assert.notEqual(nonce, newNonce());
    const csp = contentSecurityPolicy('https://x.vscode-cdn.net', nonce);
    assert.equal(
      csp,
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src https://x.vscode-cdn.net 'nonce-${nonce}'; img-src https://x.vscode-cdn.net data:; font-src https://x.vscode-cdn.net`,
    );
    const html = panelHtml({
      cspSource: 'https://x.vscode-cdn.net',
      nonce,
      scriptUri: 'https://x.vscode-cdn.net/dist/webview/results.js',
      title: 'A <b>"run"</b>',
    });
    assert.ok(html.includes(`<script nonce="${nonce}" src="https://x.vscode-cdn.net/dist/webview/results.js"></script>`));
    assert.ok(html.includes('<title>A &lt;b&gt;&quot;run&quot;&lt;/b&gt;</title>'));
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval|style=|<style/);
    assert.equal(html.match(/<script/g)?.length, 1);
  });
});

describe('exports', () => {
  const run = JSON.parse(readFileSync(join(repoRoot(), 'test', 'browser', 'fixtures', 'finished.rbench-run.json'), 'utf8')) as RunFile;

  it('exports the table and the run', () => {
    const csv = exportContent('csv', { run });
    assert.equal(csv?.extension, 'csv');
    assert.equal(
      csv?.text.split('\n')[0],
      '"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms","server_usec_per_call","bottleneck","bottleneck_why","limit","elapsed_s"',
    );
    assert.equal(csv?.text.trim().split('\n').length, 6);
    const json = exportContent('json', { run });
    assert.deepEqual(JSON.parse(json?.text ?? ''), run);
    assert.equal(exportContent('json', { rows: [] }), undefined, 'no JSON before the run file exists');
    assert.equal(exportFileName(run.id, 'x', 'timeline', 'png'), `${run.id}-timeline.png`);
    assert.equal(exportFileName(undefined, 'set-and-get', '', 'json'), 'set-and-get.json');
  });
});

describe('the chart colours a results panel reports (issue 45)', () => {
  const good = {
    type: 'chart-colours',
    theme: 'dark',
    background: 'rgb(31, 31, 31)',
    series: [{ chart: 'timeline', label: 'p99', colour: 'rgb(209, 134, 22)' }],
  };

  it('accepts the report the webview sends', () => {
    assert.deepEqual(parseWebviewMessage(good), good);
  });

  it('refuses a report with an unknown theme, chart or colour text, or too many series', () => {
    assert.equal(parseWebviewMessage({ ...good, theme: 'sepia' }), undefined);
    assert.equal(parseWebviewMessage({ ...good, background: 'url(javascript:1)' }), undefined);
    assert.equal(parseWebviewMessage({ ...good, series: [{ chart: 'pie', label: 'x', colour: '#fff' }] }), undefined);
    assert.equal(parseWebviewMessage({ ...good, series: [{ chart: 'timeline', label: 'x'.repeat(500), colour: '#fff' }] }), undefined);
    assert.equal(parseWebviewMessage({ ...good, series: Array.from({ length: 65 }, () => good.series[0]) }), undefined);
  });
});

// The results panels (src/views/resultsPanels.ts) against a fake editor (test/helpers/fakeVscode.ts): a panel
// per scenario that follows a run and then shows its run file, the typed messages of src/views/messages.ts
// its webview gets, the refusal of what the webview sends in any other shape, and the HTML's nonce-only CSP.
// (test/browser renders what the webview does with these messages; test/integration/results.test.ts opens
// the panels in a real VS Code.)
import { extensionContext, FAKE_CSP_SOURCE, Uri, useFakeVscode, waitFor, window, type WebviewPanel } from '../../helpers/fakeVscode';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type * as vscode from 'vscode';
import { RESULTS_PANEL_VIEW_TYPE, RESULTS_SHOWN_CONTEXT, ResultsPanels, runTabTitle } from '../../../src/views/resultsPanels';
import type { HostMessage } from '../../../src/views/messages';
import type { LoadPosition } from '../../../src/runner/runScenario';
import { writeRunFile } from '../../../src/results/runFileWriter';
import { loadResult, planOf, runFileOf } from '../editor/fixtures';

const REPO = resolve(__dirname, '../../../..');
const PLAN = planOf('### gets\nrequests 1000\nGET k\n');
const KEY = { file: 'bench/a.rbench', scenario: 'gets' };
const AT: LoadPosition = { point: '', phase: 'main', test: 'GET', repeat: 0, measured: true, index: 0, total: 1 };

describe('editor glue: the results panels with a fake editor', function () {
  this.timeout(20_000);
  const editor = useFakeVscode();
  let panels: ResultsPanels;
  let folder: string;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'rbench-glue-panels-'));
    editor.setWorkspaceFolders(folder);
    panels = new ResultsPanels(extensionContext(REPO) as unknown as vscode.ExtensionContext);
  });
  afterEach(() => {
    panels.dispose();
    rmSync(folder, { recursive: true, force: true });
  });

  const posted = (panel: WebviewPanel) => panel.webview.posted as HostMessage[];

  function onlyPanel(): WebviewPanel {
    assert.equal(editor.state.panels.length, 1, 'one panel');
    return editor.state.panels[0];
  }

  it('opens a panel for the scenario whose HTML loads the bundled script under a CSP with a fresh nonce', () => {
    panels.runStarted(KEY, PLAN);
    panels.runStarted({ scenario: 'other' }, planOf('### other\nPING\n'));
    const [panel, other] = editor.state.panels;
    assert.equal(panel.viewType, RESULTS_PANEL_VIEW_TYPE);
    assert.equal(panel.title, 'gets · running', 'the tab says the scenario and that it runs');
    assert.deepEqual(panel.webview.options, { enableScripts: true, localResourceRoots: [Uri.file(join(REPO, 'dist', 'webview'))] });

    const html = panel.webview.html;
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]?.replace(/&#39;/g, "'");
    assert.ok(csp, 'the HTML has a CSP');
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce && nonce.length >= 16, csp);
    assert.match(csp, /^default-src 'none'; /);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    assert.deepEqual(scripts, [` nonce="${nonce}" src="${FAKE_CSP_SOURCE}${Uri.file(join(REPO, 'dist', 'webview', 'results.js')).path}"`]);
    // Every document its own nonce.
    const otherNonce = /<script nonce="([^"]+)"/.exec(other.webview.html)?.[1];
    assert.ok(otherNonce);
    assert.notEqual(otherNonce, nonce);
  });

  it('sends nothing before the webview is ready, then the live run, its progress batched, and the finished run', async () => {
    panels.runStarted(KEY, PLAN, { target: { display: 'redis://127.0.0.1:6379', local: true } });
    const panel = onlyPanel();
    panels.progress(KEY, { kind: 'load-start', at: AT });
    assert.deepEqual(panel.webview.posted, []);

    await panel.webview.send({ type: 'ready' });
    assert.equal(posted(panel).length, 1);
    const live = posted(panel)[0];
    assert.equal(live.type, 'live');
    assert.equal(live.type === 'live' && live.state.plan.name, 'gets');
    assert.equal(live.type === 'live' && live.state.file, 'bench/a.rbench');

    // A test's end goes out at once, not with the next second's batch: the panel keeps up with the notification (issue 22).
    const result = loadResult('GET', 40_000, 900);
    panels.progress(KEY, { kind: 'load-end', at: AT, result });
    assert.equal(posted(panel).length, 2);
    const progress = posted(panel)[1];
    assert.equal(progress?.type, 'progress');
    assert.deepEqual(progress.type === 'progress' && progress.events.map((event) => event.event.kind), ['load-end']);
    assert.ok(await waitFor('nothing more', () => posted(panel).length === 2));

    const run = runFileOf(PLAN, [result], { file: 'bench/a.rbench' });
    const path = writeRunFile(folder, run);
    panels.runFinished(KEY, run, path);
    const shown = posted(panel).at(-1);
    assert.equal(shown?.type, 'run');
    assert.equal(shown.type === 'run' && shown.path, path);
    assert.equal(shown.type === 'run' && shown.run.id, run.id);
    assert.equal(panel.title, runTabTitle(run));
    assert.match(panel.title, /^gets · \d\d-\d\d \d\d:\d\d$/, 'the scenario and when it ran, not a file name');
    // The walkthrough's "Read the results panel" step completes on this, not when a view opens.
    assert.deepEqual(
      editor.state.executed.filter((c) => c.id === 'setContext'),
      [{ id: 'setContext', args: [RESULTS_SHOWN_CONTEXT, true] }],
    );
  });

  it('completes the walkthrough\'s "Read the results panel" step on a finished run shown, never on a view opening or a run starting (issue 22)', async () => {
    const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
      contributes: { walkthroughs: { steps: { id: string; completionEvents: string[] }[] }[] };
    };
    const step = manifest.contributes.walkthroughs.flatMap((w) => w.steps).find((s) => s.id === 'results');
    assert.deepEqual(step?.completionEvents, [`onContext:${RESULTS_SHOWN_CONTEXT}`]);
    panels.runStarted(KEY, PLAN);
    await onlyPanel().webview.send({ type: 'ready' });
    assert.deepEqual(editor.state.executed, [], 'a run that has not ended ticks nothing');
  });

  it("reuses the scenario's panel for its next run, and says when a run file was not saved", async () => {
    panels.runStarted(KEY, PLAN);
    const panel = onlyPanel();
    await panel.webview.send({ type: 'ready' });
    panels.runFinished(KEY, runFileOf(PLAN, [loadResult('GET', 40_000, 900)]), undefined, 'the disk is full');
    assert.deepEqual(posted(panel).slice(-1), [{ type: 'notice', text: 'Not saved: the disk is full' }]);
    panels.runStarted(KEY, PLAN);
    assert.equal(onlyPanel(), panel);
    assert.equal(panel.revealed, 1);
    assert.equal(posted(panel).at(-1)?.type, 'live');
  });

  it('refuses messages of any other shape from the webview, and acts on the ones it knows', async () => {
    const run = runFileOf(PLAN, [loadResult('GET', 40_000, 900)]);
    panels.runStarted(KEY, PLAN);
    panels.runFinished(KEY, run, writeRunFile(folder, run));
    const panel = onlyPanel();
    await panel.webview.send({ type: 'ready' });
    const before = panel.webview.posted.length;
    for (const malformed of [
      { type: 'export', format: 'exe', to: 'clipboard' },
      { type: 'export', format: 'csv', to: '/etc/passwd' },
      { type: 'export', format: 'csv', to: 'clipboard', sort: { key: 'constructor', descending: false } },
      { type: 'save-png', chart: '../../x', dataUrl: 'data:image/png;base64,AAAA' },
      { type: 'save-png', chart: 'timeline', dataUrl: 'javascript:alert(1)' },
      { type: 'open-file', path: '/etc/passwd' },
      'ready',
      null,
    ]) {
      await panel.webview.send(malformed);
    }
    assert.equal(panel.webview.posted.length, before, 'nothing answered');
    assert.equal(editor.state.clipboard, '');
    assert.deepEqual(editor.state.saveDialogs, []);
    assert.deepEqual(
      editor.state.executed.filter((c) => c.id !== 'setContext'),
      [],
    );

    await panel.webview.send({ type: 'export', format: 'csv', to: 'clipboard' });
    await waitFor('the export', () => panel.webview.posted.length > before);
    assert.match(editor.state.clipboard, /^"test","rps",/);
    assert.match(editor.state.clipboard, /^"GET","40000\.00",/m);
    assert.deepEqual(posted(panel).at(-1), { type: 'notice', text: 'Copied the table as CSV.' });
  });

  it('offers no scenario file outside the workspace to open', async () => {
    const run = runFileOf(PLAN, [loadResult('GET', 40_000, 900)], { file: '/etc/passwd' });
    panels.runStarted(KEY, PLAN);
    panels.runFinished(KEY, run, undefined);
    const panel = onlyPanel();
    await panel.webview.send({ type: 'ready' });
    await panel.webview.send({ type: 'open-scenario' });
    await waitFor('the notice', () => posted(panel).at(-1)?.type === 'notice');
    assert.match(JSON.stringify(posted(panel).at(-1)), /Cannot open the scenario file \/etc\/passwd/);
    assert.deepEqual(editor.state.shownDocuments, []);
  });

  it('restores a panel after a reload from the state its webview saved, and explains a state without a run file', async () => {
    const run = runFileOf(PLAN, [loadResult('GET', 40_000, 900)]);
    const path = writeRunFile(folder, run);
    const restored = window.createWebviewPanel(RESULTS_PANEL_VIEW_TYPE, 'RBench: gets', 1);
    await panels.restore(restored as unknown as vscode.WebviewPanel, { runPath: path, key: KEY });
    await restored.webview.send({ type: 'ready' });
    assert.deepEqual(
      posted(restored).map((m) => [m.type, m.type === 'run' && m.path]),
      [['run', path]],
    );

    const followed = window.createWebviewPanel(RESULTS_PANEL_VIEW_TYPE, 'RBench: gets', 1);
    await panels.restore(followed as unknown as vscode.WebviewPanel, { runPath: 42 });
    await followed.webview.send({ type: 'ready' });
    assert.equal(posted(followed)[0]?.type, 'error');

    const missing = join(folder, 'gone.rbench-run.json');
    writeFileSync(join(folder, 'not-a-run.json'), '{"hello": 1}');
    for (const runPath of [missing, join(folder, 'not-a-run.json')]) {
      const broken = window.createWebviewPanel(RESULTS_PANEL_VIEW_TYPE, 'RBench: gets', 1);
      await panels.restore(broken as unknown as vscode.WebviewPanel, { runPath });
      await broken.webview.send({ type: 'ready' });
      assert.equal(posted(broken)[0]?.type, 'error', runPath);
    }
  });
});

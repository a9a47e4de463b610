// Issue 45, item 8: one tab per run, comparisons beside the editor. The Benchmark Runs view, the results
// panels and the comparison panel wired as src/extension.ts wires them, against the fake editor, whose
// `vscode.openWith` opens a tab in a group as VS Code does (a group holds one tab per input; without a
// column it opens in the active group).
import { commands, TabInputCustom, Uri, ViewColumn, type WebviewPanel } from '../../helpers/fakeVscode';
import { useGlueWorkspace } from '../editor/glueWorkspace';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { HISTORY_COMMANDS, registerHistory, type HistoryNode } from '../../../src/editor/history';
import { writeRunFile } from '../../../src/results/runFileWriter';
import { ComparePanel, COMPARE_PANEL_VIEW_TYPE } from '../../../src/views/comparePanel';
import { RESULTS_PANEL_VIEW_TYPE, ResultsPanels, RUN_FILE_EDITOR_VIEW_TYPE } from '../../../src/views/resultsPanels';
import { loadResult, planOf, runFileOf } from '../editor/fixtures';

const GETS = planOf('### gets\nrequests 1000\nGET k\n');

describe('one tab per run, comparisons beside the editor (issue 45, item 8)', () => {
  const glue = useGlueWorkspace('one-tab');
  const editor = glue.editor;
  let panels: ResultsPanels;
  let compare: ComparePanel;
  let runs: string;

  beforeEach(() => {
    const context = glue.context() as unknown as vscode.ExtensionContext;
    runs = join(glue.root(), '.rbench', 'runs');
    mkdirSync(runs, { recursive: true });
    panels = new ResultsPanels(context);
    const showRun = (uri: vscode.Uri) => panels.showRun(uri);
    compare = new ComparePanel(context.extensionUri, showRun);
    registerHistory(
      context,
      glue.service(),
      (paths) => compare.show(paths),
      () => undefined,
      showRun,
    );
  });
  afterEach(() => {
    compare.dispose();
    panels.dispose();
  });

  function saveRun(finishedAt: string): string {
    const run = runFileOf(GETS, [loadResult(GETS.name, 50_000, 500)], { file: 'bench/a.rbench', finishedAt });
    return writeRunFile(runs, run);
  }

  /** Clicks the run in the Benchmark Runs view. */
  async function openFromHistory(path: string): Promise<void> {
    const provider = editor.state.treeViews[0].options.treeDataProvider as {
      getChildren(node?: HistoryNode): Promise<HistoryNode[]>;
    };
    const [file] = await provider.getChildren();
    const [scenario] = await provider.getChildren(file);
    const run = (await provider.getChildren(scenario)).find((node) => node.kind === 'run' && node.run.entry.path === path);
    assert.ok(run, `the view lists ${path}`);
    await commands.executeCommand(HISTORY_COMMANDS.open, run);
  }

  /** Every tab showing the run file: the run viewer's tabs and the results panels showing it. */
  function viewsOf(path: string): string[] {
    const viewerTabs = editor.state.tabGroups.flatMap((group) =>
      group.tabs
        .filter((tab) => tab.input instanceof TabInputCustom && tab.input.viewType === RUN_FILE_EDITOR_VIEW_TYPE && tab.input.uri.fsPath === path)
        .map(() => `viewer in group ${group.viewColumn}`),
    );
    const resultsPanels = editor.state.panels
      .filter((panel) => panel.viewType === RESULTS_PANEL_VIEW_TYPE && !panel.disposed && panelShows(panel, path))
      .map((panel) => `results panel in group ${panel.viewColumn}`);
    return [...resultsPanels, ...viewerTabs];
  }

  function panelShows(panel: WebviewPanel, path: string): boolean {
    // The panel's webview is sent the run once it is ready.
    return panel.webview.posted.some((message) => (message as { type: string; path?: string }).type === 'run' && (message as { path?: string }).path === path);
  }

  it('a run its results panel shows comes forward there when opened from the history: no second tab beside it', async () => {
    const path = saveRun('2026-11-29T10:00:00.000Z');
    const key = { file: join(glue.root(), 'bench', 'a.rbench'), scenario: GETS.name };
    panels.runStarted(key, GETS);
    const [panel] = editor.state.panels;
    await panel.webview.send({ type: 'ready' });
    panels.runFinished(key, runFileOf(GETS, [loadResult(GETS.name, 50_000, 500)], { file: 'bench/a.rbench' }), path);
    assert.deepEqual(viewsOf(path), ['results panel in group 2']);
    const revealedBefore = panel.revealed;

    await openFromHistory(path);
    assert.deepEqual(viewsOf(path), ['results panel in group 2'], 'the same run twice side by side');
    assert.equal(panel.revealed, revealedBefore + 1, 'the panel showing the run comes forward');
    assert.deepEqual(panel.revealedIn.at(-1), ViewColumn.Two, 'in its own group');
  });

  it('a run open in the run viewer in another group comes forward there; opened twice from the history it is one tab', async () => {
    const path = saveRun('2026-11-29T10:00:00.000Z');
    await openFromHistory(path);
    assert.deepEqual(viewsOf(path), ['viewer in group 1']);
    await openFromHistory(path);
    assert.deepEqual(viewsOf(path), ['viewer in group 1']);

    // The user moved the viewer to the right and went back to the scenario in group 1.
    const [group] = editor.state.tabGroups;
    const tab = group.tabs.pop();
    assert.ok(tab);
    const right = { viewColumn: 2, tabs: [] as typeof group.tabs };
    right.tabs.push({ ...tab, group: right });
    editor.state.tabGroups.push(right);
    await openFromHistory(path);
    assert.deepEqual(viewsOf(path), ['viewer in group 2'], 'a second viewer of the run opened in the active group');
  });

  it('a run opened from the comparison comes forward in its results panel, not in a second tab over the comparison', async () => {
    const older = saveRun('2026-11-29T10:00:00.000Z');
    const newer = saveRun('2026-11-29T11:00:00.000Z');
    const key = { file: join(glue.root(), 'bench', 'a.rbench'), scenario: GETS.name };
    panels.runStarted(key, GETS);
    const [results] = editor.state.panels;
    await results.webview.send({ type: 'ready' });
    panels.runFinished(key, runFileOf(GETS, [loadResult(GETS.name, 50_000, 500)], { file: 'bench/a.rbench' }), newer);

    compare.show([older, newer]);
    const comparison = editor.state.panels.find((panel) => panel.viewType === COMPARE_PANEL_VIEW_TYPE);
    assert.ok(comparison);
    await comparison.webview.send({ type: 'ready' });
    await comparison.webview.send({ type: 'open-run', index: 1 });
    assert.deepEqual(viewsOf(newer), ['results panel in group 2']);
  });

  it('a comparison opens beside the editor, and the next one reuses its tab', async () => {
    const older = saveRun('2026-11-29T10:00:00.000Z');
    const newer = saveRun('2026-11-29T11:00:00.000Z');
    // The scenario editor is in group 1 and active.
    await commands.executeCommand(HISTORY_COMMANDS.compareRuns, [Uri.file(older), Uri.file(newer)]);
    const opened = () => editor.state.panels.filter((panel) => panel.viewType === COMPARE_PANEL_VIEW_TYPE);
    assert.equal(opened().length, 1);
    assert.equal(opened()[0].viewColumn, ViewColumn.Two, 'the comparison opened over the scenario editor');

    await commands.executeCommand(HISTORY_COMMANDS.compareRuns, [Uri.file(newer), Uri.file(older)]);
    assert.equal(opened().length, 1, 'one comparison tab');
    assert.equal(opened()[0].revealed, 1, 'the comparison tab comes forward');
  });
});

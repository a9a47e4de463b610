// The editor's behaviour around a run, in a real VS Code (issue: first impressions): no folder ever
// becomes a Test Explorer item, focus stays in the scenario after Run, the history view shows a failed
// `expect` as failed, and two throwaway runs compare as the same setup.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RBenchEditorApi } from '../../src/editor';
import type { RunOutcome } from '../../src/editor/runService';
import { readRunFile } from '../../src/results/runFile';
import { buildCompareViewModel } from '../../src/views/compareModel';
import { tabs, waitFor } from './helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isResultsPanel = (tab: vscode.Tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('rbench.results');

/**
 * The extension host's log, where VS Code writes `Unhandled error in resolveHandler …`. code-server keeps
 * it under its user-data folder (next to its IPC socket): logs/<session>/exthost<N>/remoteexthost.log.
 */
function extensionHostLog(): string {
  const socket = process.env.CODE_SERVER_SESSION_SOCKET;
  assert.ok(socket, 'not running in code-server: cannot find the extension host log (run scripts/test-e2e.sh)');
  const logs = path.join(path.dirname(socket), 'logs');
  const session = readdirSync(logs)
    .filter((name) => statSync(path.join(logs, name)).isDirectory())
    .sort()
    .at(-1);
  assert.ok(session, `no log session in ${logs}`);
  const hosts = readdirSync(path.join(logs, session)).filter((name) => name.startsWith('exthost'));
  const files = hosts.flatMap((host) =>
    readdirSync(path.join(logs, session, host))
      .filter((f) => /exthost\.log$/.test(f))
      .map((f) => path.join(logs, session, host, f)),
  );
  assert.ok(files.length > 0, `no extension host log in ${path.join(logs, session)}`);
  return files.map((file) => readFileSync(file, 'utf8')).join('\n');
}

function finished(outcome: RunOutcome | undefined): Extract<RunOutcome, { kind: 'finished' }> {
  assert.ok(outcome, 'the command returned no outcome');
  assert.equal(outcome.kind, 'finished', outcome.kind === 'not-run' ? outcome.message : '');
  return outcome as Extract<RunOutcome, { kind: 'finished' }>;
}

describe('Editor behaviour around runs', function () {
  this.timeout(60_000);
  let api: RBenchEditorApi;
  let root: string;
  let scratch: string;
  let rbenchFolderExisted: boolean;

  before(async () => {
    const extension = vscode.extensions.getExtension<RBenchEditorApi>('rbench.rbench');
    assert.ok(extension, 'the extension is not loaded');
    api = await extension.activate();
    root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    assert.ok(root, 'the harness opens a workspace folder');
    rbenchFolderExisted = existsSync(path.join(root, '.rbench'));
    scratch = mkdtempSync(path.join(root, 'rbench-editor-it-'));
    // Throwaway servers, and the default runs folder (.rbench/runs in the workspace): the first run creates `.rbench/`.
    const config = vscode.workspace.getConfiguration('rbench');
    await config.update('target', 'local', vscode.ConfigurationTarget.Workspace);
    await config.update('runsFolder', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration('rbench');
    await config.update('target', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (!rbenchFolderExisted) rmSync(path.join(root, '.rbench'), { recursive: true, force: true });
  });

  async function openScenario(name: string, text: string, column = vscode.ViewColumn.One): Promise<vscode.TextEditor> {
    const file = path.join(scratch, name);
    writeFileSync(file, text);
    return vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(file)), { viewColumn: column, preview: false });
  }

  async function run(uri: vscode.Uri): Promise<Extract<RunOutcome, { kind: 'finished' }>> {
    return finished(await vscode.commands.executeCommand<RunOutcome>('rbench.runScenario', uri, 0));
  }

  it('never lists a folder (.rbench/, a folder named x.rbench) as a test item, and resolving every item succeeds', async () => {
    const logBefore = extensionHostLog().length;
    const editor = await openScenario('listed.rbench', '### listed\nrequests 200\nPING\n');
    const outcome = await run(editor.document.uri);
    assert.ok(outcome.path?.startsWith(path.join(root, '.rbench', 'runs')), outcome.path);
    mkdirSync(path.join(scratch, 'folder.rbench'));
    // File watcher events arrive asynchronously; give them time to land before looking.
    await sleep(1500);
    await api.testController.resolveHandler?.(undefined);
    const items: vscode.TestItem[] = [];
    api.testController.items.forEach((item) => items.push(item));
    assert.ok(
      items.some((item) => item.uri?.fsPath === editor.document.uri.fsPath),
      'the scenario file is listed',
    );
    const folders = items.filter((item) => item.uri && existsSync(item.uri.fsPath) && statSync(item.uri.fsPath).isDirectory());
    assert.deepEqual(
      folders.map((item) => item.uri?.fsPath),
      [],
    );
    assert.ok(!items.some((item) => item.uri?.fsPath.startsWith(path.join(root, '.rbench') + path.sep)), 'nothing from the runs folder');
    // What the Test Explorer does when an item is expanded: it must not throw (EntryIsADirectory).
    for (const item of items) await api.testController.resolveHandler?.(item);
    const logged = extensionHostLog().slice(logBefore).split('\n');
    assert.deepEqual(
      logged.filter((line) => /Unhandled error|EntryIsADirectory|\[error\].*rbench/i.test(line)),
      [],
      'errors in the extension host log during the run',
    );
  });

  it('keeps focus in the scenario after Run, and uses one results group', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const first = await openScenario('focus-a.rbench', '### focus a\nrequests 200\nPING\n');
    await run(first.document.uri);
    await waitFor('the results panel', () => tabs().find(isResultsPanel));
    // The webview loads after the run has started; a grab of focus would come with its load.
    await sleep(2500);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, first.document.uri.fsPath, 'focus left the scenario');
    assert.equal(vscode.window.tabGroups.activeTabGroup.viewColumn, vscode.ViewColumn.One);

    const second = await openScenario('focus-b.rbench', '### focus b\nrequests 200\nPING\n');
    assert.equal(second.viewColumn, vscode.ViewColumn.One);
    await run(second.document.uri);
    await waitFor('two results panels', () => (tabs().filter(isResultsPanel).length === 2 ? true : undefined));
    await sleep(2500);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, second.document.uri.fsPath, 'focus left the scenario');
    const groups = vscode.window.tabGroups.all;
    assert.equal(groups.length, 2, `groups: ${groups.map((g) => g.tabs.map((t) => t.label).join('|')).join(' / ')}`);
    const resultsGroups = new Set(groups.filter((g) => g.tabs.some(isResultsPanel)).map((g) => g.viewColumn));
    assert.deepEqual([...resultsGroups], [vscode.ViewColumn.Two], 'both results panels share one group');

    // The next file opens next to the scenarios, not in the results group.
    const third = path.join(scratch, 'next.rbench');
    writeFileSync(third, '### next\nPING\n');
    const opened = await vscode.window.showTextDocument(vscode.Uri.file(third));
    assert.equal(opened.viewColumn, vscode.ViewColumn.One);
  });

  it('shows a run whose expect failed as failed in the Benchmark Runs view', async () => {
    const editor = await openScenario('expect.rbench', '### impossible\nrequests 200\nPING\nexpect ops > 1000000000\n');
    const outcome = await run(editor.document.uri);
    assert.equal(outcome.run.status, 'complete');
    assert.equal(outcome.run.thresholds[0]?.passed, false);
    const provider = api.history.provider;
    provider.refresh();
    const file = vscode.workspace.asRelativePath(editor.document.uri, false);
    const files = await provider.getChildren();
    const fileNode = files.find((n) => n.kind === 'file' && n.file.file === file);
    assert.ok(fileNode, `the scenario file is listed; got ${files.map((n) => provider.getTreeItem(n).label).join(', ')}`);
    const [scenarioNode] = await provider.getChildren(fileNode);
    const [runNode] = await provider.getChildren(scenarioNode);
    const item = provider.getTreeItem(runNode);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'error', 'a failed expect is not a pass');
    assert.match(String(item.description), /1 of 1 expectation failed/);
    assert.match(String(item.tooltip), /1 of 1 expectation failed/);
  });

  it('compares two throwaway runs without a different-setup warning', async () => {
    const editor = await openScenario('twice.rbench', '### twice\nrequests 300\nPING\n');
    const a = await run(editor.document.uri);
    const b = await run(editor.document.uri);
    const runs = [readRunFile(a.path!), readRunFile(b.path!)];
    assert.ok(
      runs.every((r) => r.target.local),
      'both ran on a throwaway server',
    );
    assert.notEqual(runs[0].target.display, runs[1].target.display, 'each throwaway server had its own port');
    const model = buildCompareViewModel(runs);
    assert.deepEqual(
      model.differences.map((d) => d.text),
      [],
    );
    assert.equal(model.lead, undefined);
    // And the comparison opens from the history view like any other.
    const compared = await vscode.commands.executeCommand<string[]>('rbench.compareRuns', vscode.Uri.file(b.path!), [
      vscode.Uri.file(b.path!),
      vscode.Uri.file(a.path!),
    ]);
    assert.deepEqual(compared, [a.path!, b.path!]);
  });
});

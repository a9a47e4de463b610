// The results panel in a real VS Code: a run opens its panel, and a saved run file opens in the custom
// editor. (What the panel draws is checked in headless chromium by test/browser.)
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RBenchEditorApi } from '../../src/editor';
import type { RunOutcome } from '../../src/editor/runService';
import { startLocalServer, type LocalServer } from '../../src/redis/localServer';
import { answerConsent, restoreConsentDialog, tabs, waitFor } from './helpers';

const SCENARIO = ['### panel check', 'clients 2', 'duration 3s', 'SET rbench:panel:__key__ x', ''].join('\n');

describe('Results panel', function () {
  this.timeout(40_000);
  let server: LocalServer;
  let scratch: string;

  before(async () => {
    const extension = vscode.extensions.getExtension<RBenchEditorApi>('rbench.rbench');
    assert.ok(extension);
    await extension.activate();
    server = await startLocalServer();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root);
    scratch = mkdtempSync(path.join(root, 'rbench-results-it-'));
    const config = vscode.workspace.getConfiguration('rbench');
    await config.update('target', server.url, vscode.ConfigurationTarget.Workspace);
    // Every run on this server asks first (consent): answered "Run", as the user would.
    await answerConsent('Run');
    await config.update('runsFolder', path.join(scratch, 'runs'), vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration('rbench');
    await restoreConsentDialog();
    await config.update('target', undefined, vscode.ConfigurationTarget.Workspace);
    await config.update('runsFolder', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await server?.stop();
  });

  it("opens the scenario's panel while the run goes, reuses it, and opens the saved run file in the run viewer", async () => {
    const file = path.join(scratch, 'panel.rbench');
    writeFileSync(file, SCENARIO);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(document);

    const running = vscode.commands.executeCommand<RunOutcome>('rbench.runScenario', document.uri, 0);
    const isPanel = (tab: vscode.Tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('rbench.results');
    // The panel opens when the run starts, before it ends.
    const panel = await waitFor('the results panel', () => tabs().find(isPanel));
    assert.match(panel.label, /panel check/);
    const outcome = await running;
    assert.equal(outcome.kind, 'finished', outcome.kind === 'not-run' ? outcome.message : '');
    if (outcome.kind !== 'finished') return;
    assert.equal(tabs().filter(isPanel).length, 1, 'one panel per scenario');

    await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(outcome.path!));
    const viewer = await waitFor('the run viewer', () =>
      tabs().find((tab) => tab.input instanceof vscode.TabInputCustom && tab.input.viewType === 'rbench.runViewer'),
    );
    assert.equal((viewer.input as vscode.TabInputCustom).uri.fsPath, outcome.path);
  });
});

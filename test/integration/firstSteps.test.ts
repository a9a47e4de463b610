// First steps in a real VS Code: the Get Started walkthrough and its media, the RBench view container,
// Run in the editor's run menu, and the commands the empty Benchmark Runs view offers: New Scenario File
// (writes benchmark.rbench into the workspace, never over a file) and Open Example Scenario.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from './helpers';

const EXTENSION_ID = 'rbench.rbench';

interface Contributes {
  walkthroughs: { id: string; steps: { id: string; media: { svg?: string; image?: string }; completionEvents?: string[] }[] }[];
  viewsContainers: { activitybar: { id: string; icon: string }[] };
  views: Record<string, { id: string }[]>;
  viewsWelcome: { view: string; contents: string }[];
  menus: Record<string, { command: string; when?: string }[]>;
  languages: { id: string; icon?: { light: string; dark: string } }[];
}

describe('First steps', function () {
  this.timeout(30_000);
  let extension: vscode.Extension<unknown>;
  let contributes: Contributes;
  let root: string;
  const created: string[] = [];

  before(async () => {
    const found = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(found, `extension ${EXTENSION_ID} is not loaded`);
    extension = found;
    await extension.activate();
    contributes = extension.packageJSON.contributes as Contributes;
    root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    assert.ok(root, 'the harness opens a workspace folder');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Other suites look for .rbench files in the workspace: leave none behind.
    for (const file of created) rmSync(file, { force: true });
  });

  it('registers the walkthrough, with media that exist, and the first-steps commands', async () => {
    const walkthrough = contributes.walkthroughs.find((w) => w.id === 'rbench.firstSteps');
    assert.ok(walkthrough, 'walkthrough rbench.firstSteps');
    assert.deepEqual(
      walkthrough.steps.map((step) => step.id),
      ['write', 'run', 'results', 'compare'],
    );
    for (const step of walkthrough.steps) {
      const media = step.media.svg ?? step.media.image;
      assert.ok(media && existsSync(path.join(extension.extensionPath, media)), `media of step ${step.id}: ${media}`);
      assert.ok((step.completionEvents ?? []).length > 0, `step ${step.id} has a completion event`);
    }
    const commands = await vscode.commands.getCommands(true);
    for (const command of ['rbench.newScenario', 'rbench.openExample', 'workbench.view.extension.rbench', 'rbench.history.focus']) {
      assert.ok(commands.includes(command), `command ${command} is registered`);
    }
    // The walkthrough opens (a wrong id would open the generic Welcome page without complaint, so the id is checked above).
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${EXTENSION_ID}#rbench.firstSteps`, false);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('puts the Benchmark Runs view in its own RBench view container, with New Scenario and Open Example when empty', async () => {
    const container = contributes.viewsContainers.activitybar.find((c) => c.id === 'rbench');
    assert.ok(container, 'an RBench view container in the activity bar');
    assert.ok(existsSync(path.join(extension.extensionPath, container.icon)), `container icon ${container.icon}`);
    assert.deepEqual(
      contributes.views.rbench?.map((view) => view.id),
      ['rbench.history'],
    );
    assert.equal(contributes.views.explorer, undefined, 'no longer in the Explorer');
    const welcome = contributes.viewsWelcome.find((w) => w.view === 'rbench.history')?.contents ?? '';
    assert.match(welcome, /\(command:rbench\.newScenario\)/);
    assert.match(welcome, /\(command:rbench\.openExample\)/);
    await vscode.commands.executeCommand('workbench.view.extension.rbench');
    await vscode.commands.executeCommand('rbench.history.focus');
  });

  it('offers Run in the editor run menu for .rbench files, and the file icon', () => {
    const run = contributes.menus['editor/title/run'] ?? [];
    assert.ok(
      run.some((item) => item.command === 'rbench.runScenario' && /resourceLangId == rbench/.test(item.when ?? '')),
      JSON.stringify(run),
    );
    assert.ok(!contributes.menus['editor/title'].some((item) => item.command === 'rbench.runScenario'), 'Run is not also a separate title button');
    const icon = contributes.languages.find((language) => language.id === 'rbench')?.icon;
    assert.ok(
      icon && existsSync(path.join(extension.extensionPath, icon.light)) && existsSync(path.join(extension.extensionPath, icon.dark)),
      JSON.stringify(icon),
    );
  });

  it('New Scenario File writes benchmark.rbench into the workspace and opens it; the next one gets a new name', async () => {
    const first = path.join(root, 'benchmark.rbench');
    assert.ok(!existsSync(first), 'the scratch workspace starts without benchmark.rbench');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('rbench.newScenario');
    created.push(first);
    assert.equal(uri?.fsPath, first);
    const editor = await waitFor('the new scenario in the active editor', () =>
      vscode.window.activeTextEditor?.document.uri.fsPath === first ? vscode.window.activeTextEditor : undefined,
    );
    assert.equal(editor.document.languageId, 'rbench');
    assert.equal(editor.document.getText(editor.selection), 'SET and GET', 'the scenario name is selected, ready to retype');
    const text = readFileSync(first, 'utf8');
    assert.match(text, /^### SET and GET$/m);

    const second = await vscode.commands.executeCommand<vscode.Uri>('rbench.newScenario');
    created.push(path.join(root, 'benchmark-2.rbench'));
    assert.equal(second?.fsPath, path.join(root, 'benchmark-2.rbench'));
    assert.equal(readFileSync(first, 'utf8'), text, 'the first file is not overwritten');
  });

  it('Open Example Scenario copies a shipped example into the workspace, and refuses an unknown name', async () => {
    const uri = await vscode.commands.executeCommand<vscode.Uri>('rbench.openExample', 'list-push-pop.rbench');
    const shipped = path.join(extension.extensionPath, 'examples', 'list-push-pop.rbench');
    assert.ok(uri, 'a URI for the copy');
    created.push(uri.fsPath);
    assert.notEqual(uri.fsPath, shipped, 'the installed example is not opened for editing');
    assert.equal(path.dirname(uri.fsPath), vscode.workspace.workspaceFolders![0].uri.fsPath);
    assert.equal(readFileSync(uri.fsPath, 'utf8'), readFileSync(shipped, 'utf8'));
    const editor = await waitFor('the example in the active editor', () =>
      vscode.window.activeTextEditor?.document.uri.fsPath === uri.fsPath ? vscode.window.activeTextEditor : undefined,
    );
    assert.equal(editor.document.languageId, 'rbench');
    assert.equal(await vscode.commands.executeCommand('rbench.openExample', 'no-such-example.rbench'), undefined);
  });

  it('Open Example Scenario copies the data files an example reads along with it, never over a file', async () => {
    const data = path.join(root, 'data', 'users.csv');
    const hadData = existsSync(data);
    const uri = await vscode.commands.executeCommand<vscode.Uri>('rbench.openExample', 'hash-from-csv.rbench');
    assert.ok(uri, 'a URI for the copy');
    created.push(uri.fsPath);
    assert.equal(readFileSync(data, 'utf8'), readFileSync(path.join(extension.extensionPath, 'examples', 'data', 'users.csv'), 'utf8'));
    // A second copy finds a file of the user's there: it is left as it is (a warning names it).
    writeFileSync(data, 'name,email\nmine,me@example.invalid\n');
    const again = await vscode.commands.executeCommand<vscode.Uri>('rbench.openExample', 'hash-from-csv.rbench');
    assert.ok(again);
    created.push(again.fsPath);
    assert.notEqual(again.fsPath, uri.fsPath);
    assert.equal(readFileSync(data, 'utf8'), 'name,email\nmine,me@example.invalid\n');
    if (!hadData) rmSync(path.dirname(data), { recursive: true, force: true });
  });
});

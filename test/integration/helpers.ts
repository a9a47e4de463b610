// Helpers shared by the integration tests (they run inside the extension host).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RBenchEditorApi } from '../../src/editor';
import { startLocalServer, type LocalServer } from '../../src/redis/localServer';

/** Every open tab, across editor groups. */
export function tabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs);
}

/** Polls until `find` returns something, or fails naming what it waited for and the open tabs. */
export async function waitFor<T>(what: string, find: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}; tabs: ${tabs()
          .map((t) => t.label)
          .join(', ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface ConsentAsked {
  message: string;
  detail: string;
  /** In order: VS Code makes the first its default button (Enter presses it) and adds Cancel itself. */
  buttons: string[];
}

async function editorApi(): Promise<RBenchEditorApi> {
  const extension = vscode.extensions.getExtension<RBenchEditorApi>('rbench.rbench');
  if (!extension) throw new Error('the extension is not loaded');
  return extension.activate();
}

/**
 * Under the extension test harness VS Code refuses modal dialogs, so the consent question is answered here
 * as the user's click would answer it: `Run`, or undefined for Cancel. Returns the questions asked. A batch's
 * one question (Run All, a folder) says `Run all` where a single run's says `Run`: `Run` presses it there.
 */
export async function answerConsent(answer: string | undefined): Promise<ConsentAsked[]> {
  const api = await editorApi();
  if (!api.testing) throw new Error('the extension does not run in test mode');
  const asked: ConsentAsked[] = [];
  api.testing.answerConsent(async (message, options, ...buttons) => {
    asked.push({ message, detail: options.detail, buttons });
    return answer === 'Run' && !buttons.includes('Run') && buttons.includes('Run all') ? 'Run all' : answer;
  });
  return asked;
}

/** Puts the consent dialog back. */
export async function restoreConsentDialog(): Promise<void> {
  (await editorApi()).testing?.answerConsent(undefined);
}

/** What a suite that runs scenarios gets from useRunSuite: read its fields inside tests (they are set in `before`). */
export interface RunSuite {
  api: RBenchEditorApi;
  server: LocalServer;
  /** A fresh folder inside the workspace for the suite's scenario files; its `runs` folder holds the run files. */
  scratch: string;
  runsFolder: string;
  /** Writes `text` to `name` in the scratch folder and shows it in an editor. */
  openScenario(name: string, text: string): Promise<vscode.TextDocument>;
}

/**
 * The set-up of a suite that runs scenarios: the extension activated, a throwaway redis-server as the workspace's
 * target, a scratch folder (`prefix` + random) with its runs folder, every consent question answered "Run"; all
 * undone after the suite.
 */
export function useRunSuite(prefix: string): RunSuite {
  const suite = {} as RunSuite;
  before(async function () {
    this.timeout(30_000);
    const extension = vscode.extensions.getExtension<RBenchEditorApi>('rbench.rbench');
    assert.ok(extension, 'the extension is not loaded');
    suite.api = await extension.activate();
    suite.server = await startLocalServer();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the harness opens a workspace folder');
    suite.scratch = mkdtempSync(path.join(root, prefix));
    suite.runsFolder = path.join(suite.scratch, 'runs');
    const config = vscode.workspace.getConfiguration('rbench');
    await config.update('target', suite.server.url, vscode.ConfigurationTarget.Workspace);
    // Every run on this server asks first (consent): answered "Run", as the user would.
    await answerConsent('Run');
    await config.update('runsFolder', suite.runsFolder, vscode.ConfigurationTarget.Workspace);
  });
  after(async () => {
    await restoreConsentDialog();
    const config = vscode.workspace.getConfiguration('rbench');
    await config.update('target', undefined, vscode.ConfigurationTarget.Workspace);
    await config.update('runsFolder', undefined, vscode.ConfigurationTarget.Workspace);
    await suite.server?.stop();
  });
  suite.openScenario = async (name, text) => {
    const file = path.join(suite.scratch, name);
    // A document of this file already open keeps its old text until VS Code's watcher reloads it (seen: the second
    // of two scenarios written to one name ran the first's text): its text is set and saved, so editor and disk agree.
    // Its file is then left to that save: written under it too, the watcher's reload raced the edit, and VS Code
    // refused the edit (seen: "could not put the new text into plans.rbench").
    const uri = vscode.Uri.file(file);
    const open = vscode.workspace.textDocuments.find((candidate) => candidate.uri.fsPath === uri.fsPath);
    if (!open) writeFileSync(file, text);
    const document = open ?? (await vscode.workspace.openTextDocument(uri));
    if (document.getText() !== text) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), text);
      assert.ok(await vscode.workspace.applyEdit(edit), `could not put the new text into ${name}`);
      assert.ok(await document.save(), `could not save ${name}`);
    }
    assert.equal(document.getText(), text);
    await vscode.window.showTextDocument(document);
    return document;
  };
  return suite;
}

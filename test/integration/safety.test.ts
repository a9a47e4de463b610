// What a shared scenario may not do, seen from the editor in a real VS Code: a workspace-supplied target asks
// first (and a "no" contacts nothing), admin commands and environment values in commands are refused, a runs
// folder that cannot be written still gives the results, and the throwaway server (started through its
// watchdog from the extension host) works and goes away.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunOutcome } from '../../src/editor/runService';
import { answerConsent, restoreConsentDialog } from './helpers';

describe('Safety of shared scenarios in the editor', function () {
  let scratch: string;

  before(async function () {
    this.timeout(30_000);
    const extension = vscode.extensions.getExtension('rbench.rbench');
    assert.ok(extension, 'the extension is not loaded');
    await extension.activate();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the harness opens a workspace folder');
    scratch = mkdtempSync(path.join(root, 'rbench-safety-it-'));
    const config = vscode.workspace.getConfiguration('rbench');
    await config.update('target', 'local', vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration('rbench');
    await config.update('target', undefined, vscode.ConfigurationTarget.Workspace);
    await config.update('runsFolder', undefined, vscode.ConfigurationTarget.Workspace);
  });

  async function run(name: string, text: string): Promise<RunOutcome | undefined> {
    const file = path.join(scratch, name);
    writeFileSync(file, text);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(document);
    return vscode.commands.executeCommand<RunOutcome>('rbench.runScenario', document.uri, 0);
  }

  it('runs on a throwaway server started through its watchdog, and the server goes away after', async function () {
    this.timeout(30_000);
    const outcome = await run('local.rbench', '### local\nrequests 500\nPING\n');
    assert.equal(outcome?.kind, 'finished', outcome?.kind === 'not-run' ? outcome.message : '');
    if (outcome?.kind !== 'finished') return;
    assert.equal(outcome.run.target.local, true);
    assert.equal(outcome.run.status, 'complete');
    assert.ok(outcome.path && existsSync(outcome.path));
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(outcome.run.target.display)?.[1]);
    assert.ok(port > 0, outcome.run.target.display);
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('connect', () => (socket.destroy(), resolve(false)));
      socket.on('error', () => resolve(true));
    });
    assert.equal(refused, true, 'the throwaway server is stopped once the run is saved');
  });

  it('asks first for a target from the workspace settings (a run, Test Connection) and, answered Cancel, contacts nothing', async function () {
    this.timeout(40_000);
    let connections = 0;
    const listener = createServer((socket) => (connections++, socket.destroy()));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const url = `redis://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    const config = vscode.workspace.getConfiguration('rbench');
    try {
      // As a cloned repository's .vscode/settings.json would: the workspace selects the target.
      await config.update('target', url, vscode.ConfigurationTarget.Workspace);
      const asked = await answerConsent(undefined);
      const read = '### read\nrequests 10\nGET k\n';
      const cancelled = await run('workspace-target.rbench', read);
      assert.equal(cancelled?.kind === 'not-run' && cancelled.reason, 'declined', JSON.stringify(cancelled));
      assert.equal(asked.length, 1, 'a question was asked');
      assert.match(asked[0].message, /^Run "read" from .*workspace-target\.rbench against redis:\/\/127\.0\.0\.1:\d+\?$/);
      assert.match(asked[0].detail, /^Target: redis:\/\/127\.0\.0\.1:\d+ \(from the workspace settings: the workspace settings select it/);
      assert.match(asked[0].detail, /\nReads: GET\n/);
      assert.equal(asked[0].buttons.length, 2);
      assert.notEqual(asked[0].buttons[0], 'Run', 'the default button (the first) does not run');

      await run('workspace-target.rbench', read);
      assert.equal(asked.length, 2, 'a "no" is not remembered: it asks again');

      // Test Connection is a contact like a run: the same question first, and Cancel contacts nothing.
      const tested = await vscode.commands.executeCommand<string>('rbench.testConnection');
      assert.equal(asked.length, 3, 'Test Connection asked too');
      assert.match(asked[2].detail, /^Target: redis:\/\/127\.0\.0\.1:\d+ \(from the workspace settings/);
      assert.match(tested ?? '', /^Connection not tested: /);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(connections, 0, 'the listener saw no connection');
    } finally {
      await restoreConsentDialog();
      await config.update('target', 'local', vscode.ConfigurationTarget.Workspace);
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });

  it('declines when VS Code cannot show the question (as under this test harness): nothing runs unasked', async function () {
    this.timeout(40_000);
    let connections = 0;
    const listener = createServer((socket) => (connections++, socket.destroy()));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const config = vscode.workspace.getConfiguration('rbench');
    try {
      await config.update('target', `redis://127.0.0.1:${(listener.address() as AddressInfo).port}`, vscode.ConfigurationTarget.Workspace);
      await restoreConsentDialog();
      const outcome = await run('no-dialog.rbench', '### read\nrequests 10\nGET k\n');
      assert.equal(outcome?.kind === 'not-run' && outcome.reason, 'declined', JSON.stringify(outcome));
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(connections, 0);
    } finally {
      await config.update('target', 'local', vscode.ConfigurationTarget.Workspace);
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });

  it('refuses admin commands and environment values in commands, with a diagnostic for the latter', async function () {
    this.timeout(20_000);
    const admin = await run('admin.rbench', '### admin\nrequests 10\nCONFIG GET maxmemory\n');
    assert.equal(admin?.kind === 'not-run' && admin.reason, 'error');
    assert.match(admin?.kind === 'not-run' ? admin.message : '', /admin command.*rbench\.allowAdminCommands/);

    const exfil = await run('exfil.rbench', '### exfil\nrequests 10\nECHO ${env:PATH}\n');
    assert.equal(exfil?.kind === 'not-run' && exfil.reason, 'error');
    const uri = vscode.Uri.file(path.join(scratch, 'exfil.rbench'));
    let diagnostics: vscode.Diagnostic[] = [];
    for (let attempt = 0; attempt < 40 && diagnostics.length === 0; attempt++) {
      diagnostics = vscode.languages.getDiagnostics(uri).filter((d) => d.code === 'env-in-command');
      if (diagnostics.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0].range.start.line, 2);
  });

  it('still gives the results when the runs folder cannot be written, and says why', async function () {
    this.timeout(30_000);
    writeFileSync(path.join(scratch, 'blocker'), 'a file where the runs folder should be');
    await vscode.workspace.getConfiguration('rbench').update('runsFolder', path.join(scratch, 'blocker', 'runs'), vscode.ConfigurationTarget.Workspace);
    const outcome = await run('unsaved.rbench', '### unsaved\nrequests 300\nPING\n');
    assert.equal(outcome?.kind, 'finished', outcome?.kind === 'not-run' ? outcome.message : '');
    if (outcome?.kind !== 'finished') return;
    assert.equal(outcome.path, undefined);
    assert.match(outcome.saveError ?? '', /could not be saved in .*blocker.runs: .*blocker: not a folder \(it is a file\)/);
    assert.equal(outcome.run.points[0].repeats[0][0].total.requests, 300);
  });
});

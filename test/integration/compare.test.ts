// The Benchmark Runs view and the comparison panel in a real VS Code: two runs of a tiny scenario
// against a throwaway redis-server the test starts, listed under their scenario; compared from the tree,
// the explorer and the CodeLens; a baseline pinned into .rbench/baselines.json.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RBenchEditorApi } from '../../src/editor';
import type { HistoryNode } from '../../src/editor/history';
import type { RunOutcome } from '../../src/editor/runService';
import { startLocalServer, type LocalServer } from '../../src/redis/localServer';
import { answerConsent, restoreConsentDialog, tabs, waitFor } from './helpers';

const SCENARIO = ['### tiny compare', 'clients 1', 'requests 300', 'PING', ''].join('\n');

const isComparePanel = (tab: vscode.Tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('rbench.compare');

describe('Benchmark Runs view and comparison', function () {
  this.timeout(60_000);
  let api: RBenchEditorApi;
  let server: LocalServer;
  let root: string;
  let scratch: string;
  let scenario: vscode.Uri;
  let baselinesExisted: boolean;
  const runPaths: string[] = [];

  before(async () => {
    const extension = vscode.extensions.getExtension<RBenchEditorApi>('rbench.rbench');
    assert.ok(extension);
    api = await extension.activate();
    server = await startLocalServer();
    root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    assert.ok(root);
    baselinesExisted = existsSync(path.join(root, '.rbench', 'baselines.json'));
    scratch = mkdtempSync(path.join(root, 'rbench-compare-it-'));
    const config = vscode.workspace.getConfiguration('rbench');
    await config.update('target', server.url, vscode.ConfigurationTarget.Workspace);
    // Every run on this server asks first (consent): answered "Run", as the user would.
    await answerConsent('Run');
    await config.update('runsFolder', path.join(scratch, 'runs'), vscode.ConfigurationTarget.Workspace);
    scenario = vscode.Uri.file(path.join(scratch, 'tiny.rbench'));
    writeFileSync(scenario.fsPath, SCENARIO);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(scenario));
    for (let i = 0; i < 2; i++) {
      const outcome = await vscode.commands.executeCommand<RunOutcome>('rbench.runScenario', scenario, 0);
      assert.equal(outcome.kind, 'finished', outcome.kind === 'not-run' ? outcome.message : '');
      if (outcome.kind === 'finished') runPaths.push(outcome.path!);
    }
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration('rbench');
    await restoreConsentDialog();
    await config.update('target', undefined, vscode.ConfigurationTarget.Workspace);
    await config.update('runsFolder', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (!baselinesExisted) rmSync(path.join(root, '.rbench', 'baselines.json'), { force: true });
    await server?.stop();
  });

  /** The run nodes of the scenario, as the view lists them (newest first). */
  async function scenarioRuns(): Promise<Extract<HistoryNode, { kind: 'run' }>[]> {
    const provider = api.history.provider;
    const files = await provider.getChildren();
    const file = files.find((node) => node.kind === 'file' && node.file.file === vscode.workspace.asRelativePath(scenario, false));
    assert.ok(file, `the scenario file is listed; got ${files.map((n) => provider.getTreeItem(n).label).join(', ')}`);
    const scenarios = await provider.getChildren(file);
    assert.deepEqual(
      scenarios.map((n) => provider.getTreeItem(n).label),
      ['tiny compare'],
    );
    return (await provider.getChildren(scenarios[0])) as Extract<HistoryNode, { kind: 'run' }>[];
  }

  it('lists both runs under their scenario, newest first, with their headlines', async () => {
    const runs = await scenarioRuns();
    assert.deepEqual(
      runs.map((n) => n.run.entry.path),
      [...runPaths].reverse(),
    );
    const item = api.history.provider.getTreeItem(runs[0]);
    assert.match(String(item.label), /ops\/s · p99 /);
    assert.equal(item.description, 'just now');
    assert.equal(item.contextValue, 'rbenchRun.pinnable');
  });

  it('compares the runs selected in the tree in the comparison panel, the older one as the reference', async () => {
    const runs = await scenarioRuns();
    const compared = await vscode.commands.executeCommand<string[]>('rbench.history.compare', runs[0], runs);
    assert.deepEqual(compared, runPaths);
    const tab = await waitFor('the comparison panel', () => tabs().find(isComparePanel));
    assert.match(tab.label, /^Compare: tiny compare — /);
  });

  it('compares two run files picked in the explorer, in the same reused panel', async () => {
    const [older, newer] = runPaths.map((p) => vscode.Uri.file(p));
    const compared = await vscode.commands.executeCommand<string[]>('rbench.compareRuns', newer, [newer, older]);
    assert.deepEqual(compared, runPaths);
    await waitFor('the comparison panel', () => tabs().find(isComparePanel));
    assert.equal(tabs().filter(isComparePanel).length, 1, 'one comparison panel, reused');
  });

  it('pins a baseline into .rbench/baselines.json and offers the compare lenses', async () => {
    const runs = await scenarioRuns();
    const older = runs[1];
    await vscode.commands.executeCommand('rbench.history.pinBaseline', older);
    const key = `${vscode.workspace.asRelativePath(scenario, false)}#tiny compare`;
    const baselines = JSON.parse(readFileSync(path.join(root, '.rbench', 'baselines.json'), 'utf8')) as Record<string, string>;
    assert.equal(baselines[key], path.relative(root, runPaths[0]).split(path.sep).join('/'));

    const after = await scenarioRuns();
    assert.deepEqual(
      after.map((n) => [n.run.isBaseline, api.history.provider.getTreeItem(n).contextValue]),
      [
        [false, 'rbenchRun.pinnable.hasBaseline'],
        [true, 'rbenchRun.pinnable.baseline'],
      ],
    );
    assert.match(String(api.history.provider.getTreeItem(after[1]).description), /^just now · baseline$/);

    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', scenario, 20);
    const compare = lenses.filter((lens) => lens.command?.command === 'rbench.compareRuns');
    assert.deepEqual(
      compare.map((lens) => lens.command!.title),
      ['Compare with last', 'Compare with baseline'],
    );
    const viaBaseline = await vscode.commands.executeCommand<string[]>('rbench.compareRuns', ...(compare[1].command!.arguments ?? []));
    assert.deepEqual(viaBaseline, runPaths, 'the baseline first, then the newest run');
    const withBaseline = await vscode.commands.executeCommand<string[]>('rbench.history.compareWithBaseline', after[0]);
    assert.deepEqual(withBaseline, runPaths);
    await waitFor('the comparison panel', () => tabs().find(isComparePanel));
  });
});

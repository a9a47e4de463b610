// Issue 45 in a real VS Code (the parts the unit tests check with fakes): the editor's context menu offers
// Run Scenario and Run File, both registered; two runs on the throwaway server (`local`) queue, the second
// saying whom it waits for; a comparison of two runs with different plans says in its header why they are
// not comparable (the view-model the comparison panel renders, from the run files the runs wrote).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RunOutcome } from '../../src/editor/runService';
import { readRunFile } from '../../src/results/runFile';
import { buildCompareViewModel } from '../../src/views/compareModel';
import { useRunSuite } from './helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(what: string, condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

function finished(outcome: RunOutcome | undefined): Extract<RunOutcome, { kind: 'finished' }> {
  assert.ok(outcome?.kind === 'finished', JSON.stringify(outcome).slice(0, 300));
  return outcome;
}

describe('Editor conventions (issue 45)', function () {
  this.timeout(60_000);
  const suite = useRunSuite('rbench-conventions-it-');

  it("the editor's context menu has Run Scenario and Run File for .rbench files, both registered", async () => {
    const extension = vscode.extensions.getExtension('rbench.rbench');
    assert.ok(extension);
    const menu = (extension.packageJSON.contributes.menus['editor/context'] ?? []) as { command: string; when?: string }[];
    const registered = await vscode.commands.getCommands(true);
    for (const command of ['rbench.runScenario', 'rbench.runFile']) {
      assert.ok(
        menu.some((item) => item.command === command && /editorLangId == rbench/.test(item.when ?? '')),
        `${command} in editor/context: ${JSON.stringify(menu)}`,
      );
      assert.ok(registered.includes(command), `${command} is registered`);
    }
  });

  it('a second run on the throwaway server waits for the first and says so', async function () {
    this.timeout(60_000);
    const config = vscode.workspace.getConfiguration('rbench');
    await config.update('target', 'local', vscode.ConfigurationTarget.Workspace);
    const long = await suite.openScenario('long.rbench', ['### long', 'clients 1', 'duration 60s', 'rate 500/s', 'GET rbench:conv:long', ''].join('\n'));
    const short = await suite.openScenario('short.rbench', ['### short', 'clients 1', 'requests 200', 'GET rbench:conv:short', ''].join('\n'));
    const waiting: string[] = [];
    const started: string[] = [];
    const subscriptions = [suite.api.onRunWaiting((event) => waiting.push(event.message)), suite.api.onRunStarted((event) => started.push(event.plan.name))];
    try {
      const first = vscode.commands.executeCommand<RunOutcome>('rbench.runScenario', long.uri, 0);
      await waitUntil('the long run to start', () => started.includes('long'));
      const second = vscode.commands.executeCommand<RunOutcome>('rbench.runScenario', short.uri, 0);
      await waitUntil('the second run to say it waits', () => waiting.length > 0);
      assert.match(waiting[0], /waiting for the run of "long" \(long\.rbench\)/);
      await sleep(300);
      assert.deepEqual(started, ['long'], 'the second throwaway run has not started beside the first');
      await vscode.commands.executeCommand('rbench.cancelRun', long.uri, 0);
      assert.equal(finished(await first).run.status, 'cancelled');
      assert.equal(finished(await second).run.status, 'complete');
      assert.deepEqual(started, ['long', 'short']);
    } finally {
      subscriptions.forEach((subscription) => subscription.dispose());
      if (suite.api.runningCount() > 0) await vscode.commands.executeCommand('rbench.cancelRun');
      await config.update('target', suite.server.url, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('a comparison of two runs with different plans says why in its header', async () => {
    const one = await suite.openScenario('plans.rbench', ['### plans', 'clients 1', 'requests 300', 'PING', ''].join('\n'));
    const a = finished(await vscode.commands.executeCommand<RunOutcome>('rbench.runScenario', one.uri, 0));
    const four = await suite.openScenario('plans.rbench', ['### plans', 'clients 4', 'requests 300', 'PING', ''].join('\n'));
    const b = finished(await vscode.commands.executeCommand<RunOutcome>('rbench.runScenario', four.uri, 0));
    const model = buildCompareViewModel([readRunFile(a.path!), readRunFile(b.path!)]);
    assert.match(model.lead ?? '', /^Comparing 1 client with 4 clients is not a regression/);
    assert.ok(
      model.differences.some((d) => /clients/.test(d.text)),
      JSON.stringify(model.differences),
    );
    const compared = await vscode.commands.executeCommand<string[]>('rbench.compareRuns', vscode.Uri.file(b.path!), [
      vscode.Uri.file(b.path!),
      vscode.Uri.file(a.path!),
    ]);
    assert.deepEqual(compared, [a.path!, b.path!]);
  });
});

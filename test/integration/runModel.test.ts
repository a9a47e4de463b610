// Issue 22 in a real VS Code: one run per server at a time (the second waits and says so), every run a
// Testing run (a lens run lands in the Testing view with its result), the remote prompt's default button
// (what Enter presses) runs nothing, for one run and for Run All, and the status bar names the target the
// open scenario's own target line chooses.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { RunOutcome } from '../../src/editor/runService';
import { answerConsent, useRunSuite } from './helpers';

const LONG = ['### long', 'clients 2', 'duration 60s', 'rate 2000/s', 'GET rbench:model:long', ''].join('\n');
const SHORT = ['### short', 'clients 1', 'requests 200', 'GET rbench:model:short', ''].join('\n');
const CHECKED = ['### checked', 'clients 1', 'requests 200', 'PING', 'expect ops > 1000M/s', ''].join('\n');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(what: string, condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

describe('One run model in the editor (issue 22)', function () {
  const suite = useRunSuite('rbench-model-it-');
  const openScenario = (name: string, text: string) => suite.openScenario(name, text);

  it('a second run on the same target waits for the first and says so, then runs', async function () {
    this.timeout(60_000);
    const long = await openScenario('long.rbench', LONG);
    const short = await openScenario('short.rbench', SHORT);
    const waiting: string[] = [];
    const started: string[] = [];
    const subscriptions = [suite.api.onRunWaiting((event) => waiting.push(event.message)), suite.api.onRunStarted((event) => started.push(event.plan.name))];
    try {
      const first = vscode.commands.executeCommand<RunOutcome>('rbench.runScenario', long.uri, 0);
      await waitUntil('the long run to start', () => started.includes('long'));
      const second = vscode.commands.executeCommand<RunOutcome>('rbench.runScenario', short.uri, 0);
      await waitUntil('the second run to say it waits', () => waiting.length > 0);
      assert.equal(waiting[0], `waiting for the run of "long" (long.rbench) on ${suite.server.url} to finish`);
      await sleep(500);
      assert.deepEqual(started, ['long'], 'the second run has not started while the first runs');
      await vscode.commands.executeCommand('rbench.cancelRun', long.uri, 0);
      const firstOutcome = await first;
      assert.equal(firstOutcome.kind === 'finished' && firstOutcome.run.status, 'cancelled');
      const secondOutcome = await second;
      assert.equal(secondOutcome.kind === 'finished' && secondOutcome.run.status, 'complete', JSON.stringify(secondOutcome).slice(0, 300));
      assert.deepEqual(started, ['long', 'short']);
    } finally {
      subscriptions.forEach((subscription) => subscription.dispose());
      if (suite.api.runningCount() > 0) await vscode.commands.executeCommand('rbench.cancelRun');
    }
  });

  it('a run from its lens is a Testing run: the Testing view gets the scenario and its result, expected and actual', async function () {
    this.timeout(60_000);
    assert.ok(suite.api.testing, 'test mode');
    const document = await openScenario('checked.rbench', CHECKED);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri, 10);
    const run = lenses.find((lens) => lens.command?.title === '▶ Run');
    assert.ok(run?.command, 'a Run lens');
    const before = suite.api.testing.testResults().length;
    const outcome = await vscode.commands.executeCommand<RunOutcome>(run.command.command, ...(run.command.arguments ?? []));
    assert.equal(outcome.kind, 'finished');
    const reported = suite.api.testing.testResults().slice(before);
    assert.deepEqual(
      reported.map((entry) => [entry.label, entry.status]),
      [
        ['checked', 'enqueued'],
        ['checked', 'started'],
        ['checked', 'failed'],
      ],
    );
    const failed = reported[2];
    assert.equal(failed.expected, 'ops > 1000M/s');
    assert.match(failed.actual ?? '', /^ops = /);
    assert.match(failed.message ?? '', /FAIL {2}expect ops > 1000M\/s/);
  });

  it('Enter on the remote prompt (its default button) runs nothing, for one run and for Run All, and contacts nothing', async function () {
    this.timeout(60_000);
    let connections = 0;
    const listener = createServer((socket) => (connections++, socket.destroy()));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const url = `redis://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    const config = vscode.workspace.getConfiguration('rbench');
    const asked: { message: string; buttons: string[] }[] = [];
    assert.ok(suite.api.testing);
    // Enter presses the first button.
    suite.api.testing.answerConsent(async (message, _options, ...buttons) => (asked.push({ message, buttons }), buttons[0]));
    try {
      await config.update('target', url, vscode.ConfigurationTarget.Workspace);
      const document = await openScenario('writes.rbench', ['### writes', 'requests 10', 'SET rbench:model:k v', 'DEL rbench:model:k', ''].join('\n'));
      const outcome = await vscode.commands.executeCommand<RunOutcome>('rbench.runScenario', document.uri, 0);
      assert.equal(outcome.kind === 'not-run' && outcome.reason, 'declined', JSON.stringify(outcome));
      assert.equal(asked.length, 1);
      assert.notEqual(asked[0].buttons[0], 'Run');
      const all = await vscode.commands.executeCommand<RunOutcome[]>('rbench.runAll');
      assert.deepEqual(all, [], 'Run All ran nothing');
      assert.equal(asked.length, 2, 'Run All asked once, first');
      assert.match(asked[1].message, /^Run \d+ scenarios from \d+ files in the workspace, one after another\?/);
      assert.deepEqual(asked[1].buttons, ["Don't Run", 'Run all']);
      await sleep(300);
      assert.equal(connections, 0, 'the listener saw no connection');
    } finally {
      await answerConsent('Run');
      await config.update('target', suite.server.url, vscode.ConfigurationTarget.Workspace);
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });

  it('the status bar shows the target the open scenario runs on: its own target line wins', async function () {
    this.timeout(30_000);
    assert.ok(suite.api.testing);
    await openScenario('own.rbench', ['### own', 'target redis://10.11.12.13:6390', 'requests 10', 'GET k', ''].join('\n'));
    await waitUntil("the status bar to name the file's target", () => suite.api.testing!.statusBarText().includes('10.11.12.13:6390'));
    await openScenario('selected.rbench', SHORT);
    const port = new URL(suite.server.url).port;
    await waitUntil('the status bar to name the selected target', () => suite.api.testing!.statusBarText().includes(`:${port}`));
  });
});

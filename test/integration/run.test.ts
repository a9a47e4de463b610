// Running scenarios from the editor in a real VS Code: commands, CodeLens, cancel, the host's
// responsiveness during a run, and the Test Explorer. Against a throwaway redis-server the test starts
// itself (the extension host has redis-server on PATH).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RBenchEditorApi } from '../../src/editor';
import { watchHostLag } from '../../src/editor/hostLag';
import type { RunOutcome } from '../../src/editor/runService';
import { useRunSuite } from './helpers';
import { resultRows } from '../../src/results/rows';
import { readRunFile } from '../../src/results/runFile';

const SMALL = [
  '# two tests of 1000 requests each',
  'clients 2',
  'requests 1000',
  '',
  '### small',
  'SET rbench:it:__key__ x',
  'GET rbench:it:__key__',
  '',
  '### pings',
  'PING',
  '',
].join('\n');
// Open loop at a modest rate: the test machine may have two cores, and a closed loop saturating them
// would measure CPU contention with chromium and code-server rather than what the host thread does.
const LONG = ['### long', 'clients 2', 'duration 60s', 'rate 5000/s', 'GET rbench:it:long', ''].join('\n');
const CHECKED = ['### checked', 'clients 1', 'requests 200', 'PING', 'expect errors = 0', ''].join('\n');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(what: string, condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * Waits until the extension host's event loop is quiet (p99 lag under 10 ms over 300 ms): right after
 * start-up other extensions still activate and index, and their pauses are not the run's.
 */
async function hostSettled(timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let p99Ms = Infinity;
  while (Date.now() < deadline && p99Ms >= 10) {
    const lag = watchHostLag();
    await sleep(300);
    p99Ms = lag.stop().p99Ms;
  }
  return p99Ms;
}

/**
 * Starts `rbench.runScenario` and returns once the run is going (wrapped: an async function returning
 * the promise itself would wait for it), failing with its outcome when it never starts.
 */
async function startRun(api: RBenchEditorApi, uri: vscode.Uri): Promise<{ outcome: Thenable<RunOutcome> }> {
  const running = vscode.commands.executeCommand<RunOutcome>('rbench.runScenario', uri, 0);
  let early: RunOutcome | undefined;
  void running.then((outcome) => (early = outcome));
  await waitUntil('the run to start', () => api.runningCount() > 0 || early !== undefined);
  assert.equal(early, undefined, `the run did not start: ${JSON.stringify(early)}`);
  return { outcome: running };
}

function finished(outcome: RunOutcome | undefined): Extract<RunOutcome, { kind: 'finished' }> {
  assert.ok(outcome, 'the command returned no outcome');
  assert.equal(outcome.kind, 'finished', outcome.kind === 'not-run' ? outcome.message : '');
  return outcome as Extract<RunOutcome, { kind: 'finished' }>;
}

describe('Running scenarios from the editor', function () {
  const suite = useRunSuite('rbench-run-it-');
  const openScenario = (name: string, text: string) => suite.openScenario(name, text);

  async function rbenchLenses(uri: vscode.Uri): Promise<{ line: number; title: string; command: string }[]> {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10);
    return lenses
      .filter((lens) => lens.command?.command.startsWith('rbench.'))
      .map((lens) => ({ line: lens.range.start.line, title: lens.command!.title, command: lens.command!.command }))
      .sort((a, b) => a.line - b.line);
  }

  it('shows Run lenses above each scenario header, and Run all on the first', async () => {
    const document = await openScenario('lenses.rbench', SMALL);
    const lenses = await rbenchLenses(document.uri);
    assert.deepEqual(
      lenses.map((lens) => [lens.line, lens.title]),
      [
        [4, '▶ Run'],
        [4, 'Run all'],
        [8, '▶ Run'],
      ],
    );
  });

  it('runs the scenario a CodeLens names and writes a run file with the exact request counts', async function () {
    this.timeout(30_000);
    const document = await openScenario('small.rbench', SMALL);
    const outcome = finished(await vscode.commands.executeCommand<RunOutcome>('rbench.runScenario', document.uri, 0));
    assert.ok(outcome.path, outcome.saveError);
    assert.equal(path.dirname(outcome.path), suite.runsFolder);
    assert.ok(existsSync(outcome.path));
    assert.deepEqual(
      readdirSync(suite.runsFolder).filter((file) => file.endsWith('.rbench-run.json')),
      [path.basename(outcome.path)],
    );

    const run = readRunFile(outcome.path);
    assert.equal(run.status, 'complete');
    assert.equal(run.scenario.name, 'small');
    assert.equal(run.target.display, suite.server.url);
    assert.equal(run.target.local, false);
    assert.equal(run.scenario.file, vscode.workspace.asRelativePath(document.uri, false));
    assert.deepEqual(
      resultRows(run).map((row) => [row.test, row.requests, row.errors]),
      [
        ['SET', 1000, 0],
        ['GET', 1000, 0],
      ],
    );

    // The summary lens appears over the scenario that ran, and only there.
    const lenses = await rbenchLenses(document.uri);
    const summaries = lenses.filter((lens) => lens.command === 'rbench.openRunFile');
    assert.equal(summaries.length, 1, JSON.stringify(lenses));
    assert.equal(summaries[0].line, 4);
    assert.match(summaries[0].title, /^2 results · .* ops\/s · p99 ≤ .* · just now$/);
  });

  it('runs the scenario under the cursor from the palette', async function () {
    this.timeout(30_000);
    const document = await openScenario('cursor.rbench', SMALL);
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(9, 0, 9, 0); // the PING line of "pings"
    const run = readRunFile(finished(await vscode.commands.executeCommand<RunOutcome>('rbench.runScenario')).path!);
    assert.equal(run.scenario.name, 'pings');
    assert.deepEqual(
      resultRows(run).map((row) => [row.test, row.requests]),
      [['PING', 1000]],
    );
  });

  it('cancels a long run within 2 s, keeps partial results, and the host stays responsive', async function () {
    this.timeout(40_000);
    const document = await openScenario('long.rbench', LONG);
    const idleP99Ms = await hostSettled();
    const running = await startRun(suite.api, document.uri);
    await sleep(2500); // a couple of measured seconds
    assert.equal(suite.api.runningCount(), 1);

    const cancelledAt = Date.now();
    assert.equal(await vscode.commands.executeCommand<number>('rbench.cancelRun'), 1);
    const outcome = finished(await running.outcome);
    const stopMs = Date.now() - cancelledAt;
    assert.ok(stopMs < 2000, `the run took ${stopMs} ms to stop`);
    assert.equal(suite.api.runningCount(), 0);

    const run = readRunFile(outcome.path!);
    assert.equal(run.status, 'cancelled');
    const [row] = resultRows(run);
    assert.ok(row && row.requests > 0, 'the partial results were saved');
    assert.ok(run.durationMs < 10_000);
    console.log(
      `rbench-e2e|     host event-loop lag p99 ${idleP99Ms.toFixed(1)} ms before the run, ${outcome.hostLag.p99Ms.toFixed(1)} ms during it ` +
        `(max ${outcome.hostLag.maxMs.toFixed(1)} ms); stopped ${stopMs} ms after cancel`,
    );
    // A blocked host thread shows as lag of a whole load (seconds); on a 2-core machine shared with
    // chromium, code-server and redis-server, scheduling alone adds tens of ms, hence the margin.
    assert.ok(outcome.hostLag.p99Ms < 100, `host event-loop lag p99 ${outcome.hostLag.p99Ms} ms`);
  });

  it('refuses to start the same scenario twice at once', async function () {
    this.timeout(30_000);
    const document = await openScenario('twice.rbench', LONG);
    const first = await startRun(suite.api, document.uri);
    const second = await vscode.commands.executeCommand<RunOutcome>('rbench.runScenario', document.uri, 0);
    assert.equal(second?.kind, 'not-run');
    assert.equal(second?.kind === 'not-run' && second.reason, 'busy');
    await vscode.commands.executeCommand('rbench.cancelRun');
    assert.equal(finished(await first.outcome).run.status, 'cancelled');
  });

  it('runs every scenario of every .rbench file under a folder, in path order', async function () {
    this.timeout(30_000);
    const folder = path.join(suite.scratch, 'batch');
    mkdirSync(path.join(folder, 'nested'), { recursive: true });
    writeFileSync(path.join(folder, 'a.rbench'), 'requests 100\n### a1\nPING\n');
    writeFileSync(path.join(folder, 'nested', 'b.rbench'), 'requests 100\n### b1\nPING\n### b2\nGET k\n');
    const folderUri = vscode.Uri.file(folder);
    const outcomes = await vscode.commands.executeCommand<RunOutcome[]>('rbench.runFile', folderUri, [folderUri]);
    assert.deepEqual(
      outcomes.map((outcome) => finished(outcome).run.scenario.name),
      ['a1', 'b1', 'b2'],
    );
  });

  it('tests the connection to the selected target, and reports a refused one', async function () {
    this.timeout(20_000);
    const message = await vscode.commands.executeCommand<string>('rbench.testConnection');
    assert.match(
      message,
      new RegExp(
        `^${suite.server.url}: Redis \\d+\\.\\d+\\.\\d+ standalone · used memory .+ · save "" · appendonly no · maxmemory (?:\\d+|[\\d.]+ [KMGT]iB) · round trip \\d+\\.\\d+ ms$`,
      ),
    );

    const config = vscode.workspace.getConfiguration('rbench');
    await config.update('target', 'redis://127.0.0.1:1', vscode.ConfigurationTarget.Workspace);
    try {
      const refused = await vscode.commands.executeCommand<string>('rbench.testConnection');
      assert.match(refused, /^Connection failed: redis:\/\/127\.0\.0\.1:1: cannot connect to 127\.0\.0\.1:1: connection refused/);
    } finally {
      await config.update('target', suite.server.url, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('lists the scenarios of a file in the Test Explorer, on their header lines, and runs them', async function () {
    this.timeout(30_000);
    const document = await openScenario('tests.rbench', SMALL + '\n' + CHECKED);
    const controller = suite.api.testController;
    await controller.resolveHandler?.(undefined);
    const file = controller.items.get(document.uri.toString());
    assert.ok(file, 'the file is a test item');
    const scenarios: vscode.TestItem[] = [];
    file.children.forEach((child) => scenarios.push(child));
    assert.deepEqual(
      scenarios.map((item) => [item.label, item.range?.start.line]),
      [
        ['small', 4],
        ['pings', 8],
        ['checked', 11],
      ],
    );

    const written: string[] = [];
    const listener = suite.api.onRunFinished((event) => written.push(event.run.scenario.name));
    try {
      const checked = scenarios[2];
      const tokenSource = new vscode.CancellationTokenSource();
      await suite.api.runProfile.runHandler(new vscode.TestRunRequest([checked]), tokenSource.token);
      assert.deepEqual(written, ['checked']);
    } finally {
      listener.dispose();
    }
  });
});

// Issue 45 (10): "RBench: Show Last Results" reopens the last finished run's file in its one tab, and the
// palette offers it only once there are results (`rbench.hasLastResults`). Against the fake editor, with a
// real run on a real redis-server writing the run file it reopens.
import { Memento, Uri } from '../../helpers/fakeVscode';
import { useGlueWorkspace } from './glueWorkspace';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { useRedisServer } from '../../helpers/redis';
import { repoRoot } from '../../helpers/cli';
import { HAS_LAST_RESULTS_CONTEXT, LastResults, SHOW_LAST_RESULTS_COMMAND } from '../../../src/editor/lastResults';

interface MenuItem {
  command: string;
  when?: string;
}

describe('editor glue: Show Last Results (issue 45)', function () {
  this.timeout(60_000);
  const server = useRedisServer();
  const glue = useGlueWorkspace('last-results', () => server().url);
  const editor = glue.editor;

  const contextValues = () =>
    editor.state.executed.filter((call) => call.id === 'setContext' && call.args[0] === HAS_LAST_RESULTS_CONTEXT).map((call) => call.args[1]);

  it('is in the palette only while there are results', () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      contributes: { commands: { command: string; title: string }[]; menus: { commandPalette: MenuItem[] } };
    };
    assert.equal(manifest.contributes.commands.find((c) => c.command === SHOW_LAST_RESULTS_COMMAND)?.title, 'Show Last Results');
    assert.equal(manifest.contributes.menus.commandPalette.find((c) => c.command === SHOW_LAST_RESULTS_COMMAND)?.when, HAS_LAST_RESULTS_CONTEXT);
  });

  it('reopens the run file of the last finished run; before any run it says there is none', async () => {
    const state = new Memento();
    const shown: string[] = [];
    const last = new LastResults({ state, showRun: (uri: vscode.Uri) => shown.push(uri.fsPath) });
    assert.equal(await last.show(), undefined);
    assert.equal(shown.length, 0);
    assert.match(editor.messages('information').at(-1)?.message ?? '', /No results yet/);
    assert.deepEqual(contextValues(), [false, false], 'not offered before a run');

    const service = glue.service();
    const finished = service.onRunFinished(({ path }) => void last.remember(path));
    const file = join(glue.root(), 'two.rbench');
    writeFileSync(file, '### first\nrequests 100\nPING\n\n### second\nrequests 100\nPING\n');
    const outcomes = await service.runWithProgress([
      { uri: Uri.file(file), index: 0 },
      { uri: Uri.file(file), index: 1 },
    ]);
    finished.dispose();
    const paths = outcomes.map((outcome) => (outcome.kind === 'finished' ? outcome.path : undefined));
    assert.ok(paths[0] && paths[1] && paths[0] !== paths[1], JSON.stringify(paths));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(contextValues().at(-1), true, 'offered once a run wrote its file');

    assert.equal(await last.show(), paths[1], 'the last run, not the first');
    assert.deepEqual(shown, [paths[1]]);
    // A new window (a new LastResults over the same workspace state) still knows it.
    const reloaded = new LastResults({ state, showRun: (uri: vscode.Uri) => shown.push(uri.fsPath) });
    assert.equal(await reloaded.path(), paths[1]);

    // The file deleted: a message that says so, and the command leaves the palette.
    rmSync(paths[1]!);
    assert.equal(await reloaded.show(), undefined);
    assert.match(editor.messages('information').at(-1)?.message ?? '', /no longer there/);
    assert.equal(contextValues().at(-1), false);
  });
});

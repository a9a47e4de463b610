// The "Benchmark Runs" view (src/editor/history.ts) against a fake editor (test/helpers/fakeVscode.ts): the
// tree it builds from real run files in a temporary workspace's runs folder, its refreshes, and what its
// compare, pin and delete commands do, as test/integration/compare.test.ts sees them in a real VS Code.
import { commands, ConfigurationTarget, Uri, workspace, type TreeItem } from '../../helpers/fakeVscode';
import { useGlueWorkspace } from './glueWorkspace';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { HISTORY_COMMANDS, registerHistory, SHOWING_UNMEASURED, type HistoryApi, type HistoryNode } from '../../../src/editor/history';
import { writeRunFile } from '../../../src/results/runFileWriter';
import { loadResult, planOf, runFileOf } from './fixtures';

const WRITES = planOf('### writes\nrequests 1000\nSET k v\nexpect p99 < 1ms\n');
const READS = planOf('### reads\nrequests 1000\nGET k\n');

type RunNode = Extract<HistoryNode, { kind: 'run' }>;

describe('editor glue: the Benchmark Runs view with a fake editor', () => {
  const glue = useGlueWorkspace('history');
  const editor = glue.editor;
  let root: string;
  let runs: string;
  let history: HistoryApi;
  const compared: string[][] = [];
  let pinned = 0;

  /** A run file of `plan` finished at `finishedAt`, written by the run-file writer into `folder`. */
  function saveRun(plan: typeof WRITES, finishedAt: string, p99Us: number, folder = runs): string {
    return writeRunFile(folder, runFileOf(plan, [loadResult(plan.name, 50_000, p99Us)], { file: 'bench/a.rbench', finishedAt }));
  }

  beforeEach(() => {
    root = glue.root();
    runs = join(root, '.rbench', 'runs');
    mkdirSync(runs, { recursive: true });
    compared.length = 0;
    pinned = 0;
    history = registerHistory(
      glue.context() as unknown as vscode.ExtensionContext,
      glue.service(),
      (paths) => compared.push(paths),
      () => pinned++,
      async () => undefined,
    );
  });

  const item = (node: HistoryNode) => history.provider.getTreeItem(node) as unknown as TreeItem;

  async function tree(): Promise<{ file: string; scenarios: { name: string; runs: RunNode[] }[] }[]> {
    const files = await history.provider.getChildren();
    return Promise.all(
      files.map(async (file) => ({
        file: item(file).label,
        scenarios: await Promise.all(
          (await history.provider.getChildren(file)).map(async (scenario) => ({
            name: item(scenario).label,
            runs: (await history.provider.getChildren(scenario)) as RunNode[],
          })),
        ),
      })),
    );
  }

  /** Resolves when the view next asks VS Code to redraw it. */
  const redrawn = () => new Promise<void>((done) => history.provider.onDidChangeTreeData(() => done()));

  it('lists the run files of the runs folder by scenario file and scenario, newest first, with verdict icons', async () => {
    const older = saveRun(WRITES, '2026-11-29T10:00:00.000Z', 500);
    const newer = saveRun(WRITES, '2026-11-29T11:00:00.000Z', 5000);
    const reads = saveRun(READS, '2026-11-29T12:00:00.000Z', 500);
    const listed = await tree();
    assert.deepEqual(
      listed.map((file) => [file.file, file.scenarios.map((s) => [s.name, s.runs.map((n) => n.run.entry.path)])]),
      [
        [
          'bench/a.rbench',
          [
            ['reads', [reads]],
            ['writes', [newer, older]],
          ],
        ],
      ],
    );
    const [file] = await history.provider.getChildren();
    assert.equal(item(file).description, '2 scenarios');
    const writes = listed[0].scenarios.find((s) => s.name === 'writes')!.runs;
    // The newer run missed its `expect p99 < 1ms`: the failed icon; the older one passed.
    assert.deepEqual(
      writes.map((n) => [item(n).iconPath?.id, item(n).iconPath?.color?.id]),
      [
        ['error', 'testing.iconFailed'],
        ['pass', 'testing.iconPassed'],
      ],
    );
    assert.deepEqual(
      writes.map((n) => item(n).contextValue),
      ['rbenchRun.pinnable', 'rbenchRun.pinnable'],
    );
    assert.deepEqual(item(writes[0]).command, { command: HISTORY_COMMANDS.open, title: 'Open', arguments: [writes[0]] });
    assert.equal(item(writes[0]).resourceUri?.fsPath, newer);
  });

  it('hides failed attempts that measured nothing, counts them in the view, and shows them on request (issue 22)', async () => {
    const measured = saveRun(WRITES, '2026-11-29T10:00:00.000Z', 500);
    const refused = writeRunFile(
      runs,
      runFileOf(WRITES, [], { file: 'bench/a.rbench', finishedAt: '2026-11-29T11:00:00.000Z', status: 'failed', error: 'connect ECONNREFUSED 127.0.0.1:6390' }),
    );
    const view = editor.state.treeViews.at(-1) as unknown as { description?: string; message?: string };
    assert.deepEqual(
      (await tree())[0].scenarios[0].runs.map((n) => n.run.entry.path),
      [measured],
    );
    const [file] = await history.provider.getChildren();
    const [scenario] = await history.provider.getChildren(file);
    assert.match(String(item(scenario).description), /^1 run · .* · 1 failed attempt that measured nothing hidden$/);
    assert.equal(view.description, '1 failed attempt that measured nothing hidden');

    await commands.executeCommand(HISTORY_COMMANDS.showUnmeasured);
    assert.deepEqual(
      (await tree())[0].scenarios[0].runs.map((n) => n.run.entry.path),
      [refused, measured],
    );
    assert.ok(editor.state.executed.some((c) => c.id === 'setContext' && c.args[0] === SHOWING_UNMEASURED && c.args[1] === true));
    await commands.executeCommand(HISTORY_COMMANDS.hideUnmeasured);
    assert.equal((await tree())[0].scenarios[0].runs.length, 1);
  });

  it('refreshes when a run file appears in the runs folder, and follows a changed rbench.runsFolder', async () => {
    saveRun(WRITES, '2026-11-29T10:00:00.000Z', 500);
    assert.equal((await tree())[0].scenarios[0].runs.length, 1);
    const watcher = editor.state.watchers.find((w) => typeof w.pattern !== 'string' && w.pattern.baseUri.fsPath === runs);
    assert.ok(watcher, 'the view watches its runs folder');
    const written = saveRun(WRITES, '2026-11-29T11:00:00.000Z', 500);
    const redraw = redrawn();
    watcher.created.fire(Uri.file(written));
    await redraw;
    assert.deepEqual((await tree())[0].scenarios[0].runs.map((n) => n.run.entry.path)[0], written);

    const elsewhere = join(root, 'other-runs');
    mkdirSync(elsewhere);
    const moved = saveRun(READS, '2026-11-29T12:00:00.000Z', 500, elsewhere);
    const redrawAgain = redrawn();
    await workspace.getConfiguration('rbench').update('runsFolder', 'other-runs', ConfigurationTarget.Workspace);
    await redrawAgain;
    assert.deepEqual(
      (await tree()).flatMap((f) => f.scenarios.flatMap((s) => s.runs.map((n) => n.run.entry.path))),
      [moved],
    );
  });

  it('the refresh command redraws the view', async () => {
    const redraw = redrawn();
    await editor.state.commands.get(HISTORY_COMMANDS.refresh)!();
    await redraw;
  });

  it('compares the selected runs, the oldest as the reference; one run alone is not compared', async () => {
    const older = saveRun(WRITES, '2026-11-29T10:00:00.000Z', 500);
    const newer = saveRun(WRITES, '2026-11-29T11:00:00.000Z', 500);
    const nodes = (await tree())[0].scenarios[0].runs;
    assert.deepEqual(await commands.executeCommand(HISTORY_COMMANDS.compare, nodes[0], nodes), [older, newer]);
    assert.deepEqual(compared, [[older, newer]]);
    assert.deepEqual(await commands.executeCommand(HISTORY_COMMANDS.compare, nodes[0], [nodes[0]]), []);
    assert.deepEqual(compared.length, 1);
    assert.match(editor.messages('information').at(-1)?.message ?? '', /Select two runs or more/);
  });

  it('compares runs picked from the palette, oldest first', async () => {
    const older = saveRun(WRITES, '2026-11-29T10:00:00.000Z', 500);
    const newer = saveRun(WRITES, '2026-11-29T11:00:00.000Z', 500);
    saveRun(READS, '2026-11-29T12:00:00.000Z', 500);
    editor.state.pick = (items) => (items as { entry: { path: string } }[]).filter((pick) => pick.entry.path === newer || pick.entry.path === older);
    assert.deepEqual(await commands.executeCommand(HISTORY_COMMANDS.compareRuns), [older, newer]);
    assert.equal(editor.state.quickPicks[0]?.items.length, 3);
    assert.deepEqual(compared, [[older, newer]]);
  });

  it('pins a baseline into .rbench/baselines.json, then compares another run with it', async () => {
    const older = saveRun(WRITES, '2026-11-29T10:00:00.000Z', 500);
    const newer = saveRun(WRITES, '2026-11-29T11:00:00.000Z', 500);
    const [, oldest] = (await tree())[0].scenarios[0].runs;
    await commands.executeCommand(HISTORY_COMMANDS.pinBaseline, oldest);
    assert.equal(pinned, 1);
    const baselines = JSON.parse(readFileSync(join(root, '.rbench', 'baselines.json'), 'utf8')) as Record<string, string>;
    assert.deepEqual(Object.values(baselines), ['.rbench/runs/' + older.split('/').pop()]);
    const after = (await tree())[0].scenarios[0].runs;
    assert.deepEqual(
      after.map((n) => item(n).contextValue),
      ['rbenchRun.pinnable.hasBaseline', 'rbenchRun.pinnable.baseline'],
    );
    assert.equal(item(after[1]).iconPath?.id, 'pinned');
    assert.deepEqual(await commands.executeCommand(HISTORY_COMMANDS.compareWithBaseline, after[0]), [older, newer]);
    assert.deepEqual(await commands.executeCommand(HISTORY_COMMANDS.compareWithBaseline, after[1]), []);
    assert.match(editor.messages('information').at(-1)?.message ?? '', /This run is the baseline/);
    assert.deepEqual(compared, [[older, newer]]);
  });

  it('deletes a run file after "Move to Trash", and keeps it when the question is dismissed', async () => {
    const older = saveRun(WRITES, '2026-11-29T10:00:00.000Z', 500);
    const newer = saveRun(WRITES, '2026-11-29T11:00:00.000Z', 500);
    const [newest] = (await tree())[0].scenarios[0].runs;

    assert.equal(await commands.executeCommand(HISTORY_COMMANDS.delete, newest), 0);
    assert.ok(existsSync(newer));
    const question = editor.messages('warning').at(-1);
    assert.equal(question?.options?.modal, true);
    assert.match(question?.message ?? '', /^Delete the run file .*\.rbench-run\.json\?$/);

    editor.answerWith((call) => (call.items.includes('Move to Trash') ? 'Move to Trash' : undefined));
    const redraw = redrawn();
    assert.equal(await commands.executeCommand(HISTORY_COMMANDS.delete, newest), 1);
    assert.ok(!existsSync(newer));
    assert.ok(existsSync(older));
    assert.deepEqual(editor.state.deleted, [{ path: newer, useTrash: true }]);
    await redraw;
    assert.deepEqual(
      (await tree())[0].scenarios[0].runs.map((n) => n.run.entry.path),
      [older],
    );
  });
});

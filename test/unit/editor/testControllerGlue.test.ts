// The Test Explorer (src/editor/testController.ts) against a fake editor (test/helpers/fakeVscode.ts) and a
// real redis-server: one item per .rbench file of the workspace, one child per scenario on its header line,
// and a run that marks each scenario passed or failed from its `expect` lines, pointing at the line that failed.
import { CancellationTokenSource, TestRunRequest, Uri, waitFor, type TestController, type TestItem } from '../../helpers/fakeVscode';
import type * as vscode from 'vscode';
import { useGlueWorkspace } from './glueWorkspace';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useRedisServer } from '../../helpers/redis';
import { ScenarioTestController } from '../../../src/editor/testController';

// Reads only, on a target you chose: no consent question (docs/safety.md).
const CHECKS = [
  '# two checked scenarios',
  'clients 1',
  'requests 200',
  '',
  '### meets its expectation',
  'PING',
  'expect errors = 0',
  '',
  '### misses its expectation',
  'PING',
  'expect errors = 0',
  'expect ops > 1000M/s',
  '',
].join('\n');

function children(item: TestItem): TestItem[] {
  const list: TestItem[] = [];
  item.children.forEach((child) => list.push(child));
  return list;
}

describe('editor glue: the Test Explorer with a fake editor', function () {
  this.timeout(60_000);
  const server = useRedisServer();
  const glue = useGlueWorkspace('tests', () => server().url);
  const editor = glue.editor;
  let root: string;
  let tests: ScenarioTestController;
  let controller: TestController;

  beforeEach(() => {
    root = glue.root();
    tests = new ScenarioTestController(glue.service());
    controller = editor.state.testControllers[0];
  });
  afterEach(() => tests.dispose());

  function write(relative: string, text: string): string {
    const file = join(root, relative);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
    return file;
  }

  async function fileItem(file: string): Promise<TestItem> {
    await controller.resolveHandler?.(undefined);
    const item = [...controller.items].map(([, i]) => i).find((i) => i.uri?.fsPath === file);
    assert.ok(item, `${file} is a test item`);
    await controller.resolveHandler?.(item);
    return item;
  }

  it('lists each scenario file of the workspace, not those in the runs folder, .rbench/ or node_modules', async () => {
    const a = write('bench/a.rbench', CHECKS);
    const b = write('b.rbench', '### one\nPING\n');
    write('.rbench/runs/stray.rbench', '### no\nPING\n');
    write('node_modules/pkg/dep.rbench', '### no\nPING\n');
    mkdirSync(join(root, 'folder.rbench'));
    await controller.resolveHandler?.(undefined);
    assert.deepEqual([...controller.items].map(([, item]) => [item.label, item.uri?.fsPath, item.canResolveChildren]).sort(), [
      ['a.rbench', a, true],
      ['b.rbench', b, true],
    ]);
  });

  it('gives a file one child per scenario, ranged on its header line', async () => {
    const item = await fileItem(write('a.rbench', CHECKS));
    assert.equal(item.canResolveChildren, false);
    assert.deepEqual(
      children(item).map((child) => [child.label, child.range?.start.line, child.parent === item]),
      [
        ['meets its expectation', 4, true],
        ['misses its expectation', 8, true],
      ],
    );
  });

  it("follows an open document's unsaved edits", async () => {
    const file = write('a.rbench', CHECKS);
    const item = await fileItem(file);
    const document = editor.openDocument(file, '### renamed\nPING\n\n### added\nPING\n');
    await waitFor('the edited scenarios', () => children(item)[0]?.label === 'renamed');
    assert.deepEqual(
      children(item).map((child) => [child.label, child.range?.start.line]),
      [
        ['renamed', 0],
        ['added', 3],
      ],
    );
    document.edit('### only\nPING\n');
    await waitFor('the edit to be followed', () => children(item).length === 1);
    assert.deepEqual(
      children(item).map((child) => child.label),
      ['only'],
    );
  });

  it('runs a file: passed where every expect held, failed with a message at the expect line that did not', async () => {
    const file = write('a.rbench', CHECKS);
    const item = await fileItem(file);
    const [meets, misses] = children(item);
    await controller.profiles[0].runHandler(new TestRunRequest([item]), new CancellationTokenSource().token);
    const [run] = controller.runs;
    assert.ok(run.ended, 'the run ended');
    assert.deepEqual(
      run.events.map((event) => [event.item.label, event.status]),
      [
        ['meets its expectation', 'enqueued'],
        ['misses its expectation', 'enqueued'],
        ['meets its expectation', 'started'],
        ['meets its expectation', 'passed'],
        ['misses its expectation', 'started'],
        ['misses its expectation', 'failed'],
      ],
    );
    assert.ok((run.last(meets)?.duration ?? 0) > 0, 'the passed scenario has its duration');
    const failed = run.last(misses)?.messages ?? [];
    assert.equal(failed.length, 1, JSON.stringify(failed));
    assert.match(failed[0].message, /ops > 1000M\/s/);
    assert.equal(failed[0].location?.uri.fsPath, file);
    assert.equal(failed[0].location?.range.start.line, 11);
    assert.ok(
      run.output.some((line) => line.item === meets && /^Run file: .*\.rbench-run\.json\r\n$/.test(line.text)),
      'the output names the run file',
    );
  });

  it('a Test Explorer run (Run Test at Cursor, the gutter) shows a cancellable progress notification per scenario, with its figures', async () => {
    const item = await fileItem(write('a.rbench', CHECKS));
    const [meets] = children(item);
    await controller.profiles[0].runHandler(new TestRunRequest([meets]), new CancellationTokenSource().token);
    assert.equal(controller.runs[0].last(meets)?.status, 'passed');
    assert.deepEqual(
      editor.state.progress.map((call) => [call.options.title, call.options.cancellable, call.done]),
      [['RBench: meets its expectation', true, true]],
    );
    assert.ok(
      editor.state.progress[0].reports.some((report) => /starting/.test(report.message ?? '')),
      JSON.stringify(editor.state.progress[0].reports),
    );
  });

  it("the notification's Cancel stops a Test Explorer run, which keeps what it measured", async () => {
    const item = await fileItem(write('long.rbench', '### long\nclients 1\nduration 60s\nPING\n'));
    const [long] = children(item);
    const running = controller.profiles[0].runHandler(new TestRunRequest([long]), new CancellationTokenSource().token);
    await waitFor('a progress tick', () => editor.state.progress[0]?.reports.some((report) => /ops\/s/.test(report.message ?? '')) ?? false);
    editor.state.progress[0].cancel();
    await running;
    const [run] = controller.runs;
    assert.ok(run.ended);
    assert.equal(run.last(long)?.status, 'skipped', 'a cancelled run is skipped, not passed');
    assert.ok(
      run.output.some((line) => line.item === long && /^Run file: /.test(line.text)),
      JSON.stringify(run.output.map((line) => line.text)),
    );
  });

  it('runs only the scenarios asked for, and skips all once cancelled', async () => {
    const item = await fileItem(write('a.rbench', CHECKS));
    const [meets, misses] = children(item);
    await controller.profiles[0].runHandler(new TestRunRequest([misses]), new CancellationTokenSource().token);
    assert.deepEqual(
      controller.runs[0].events.map((event) => [event.item.label, event.status]),
      [
        ['misses its expectation', 'enqueued'],
        ['misses its expectation', 'started'],
        ['misses its expectation', 'failed'],
      ],
    );
    const cancelled = new CancellationTokenSource();
    cancelled.cancel();
    await controller.profiles[0].runHandler(new TestRunRequest([item], [meets]), cancelled.token);
    assert.deepEqual(
      controller.runs[1].events.map((event) => [event.item.label, event.status]),
      [
        ['misses its expectation', 'enqueued'],
        ['misses its expectation', 'skipped'],
      ],
    );
  });

  it('a run from the lens, the menu or a keybinding is a Testing run: its result lands on the scenario, expected and actual in the message', async () => {
    const file = write('a.rbench', CHECKS);
    const uri = Uri.file(file) as unknown as vscode.Uri;
    // The lens's command: rbench.runScenario(uri, index) → RunService.runWithProgress.
    const [outcome] = await glue.service().runWithProgress([{ uri, index: 1 }]);
    assert.equal(outcome.kind, 'finished');
    const [run] = controller.runs;
    assert.ok(run, 'the run reached the Testing view');
    assert.ok(run.ended, 'the Testing run ended');
    const item = [...controller.items].map(([, i]) => i).find((i) => i.uri?.fsPath === file)!;
    const [, misses] = children(item);
    assert.deepEqual(
      run.events.map((event) => [event.item.label, event.status]),
      [
        ['misses its expectation', 'enqueued'],
        ['misses its expectation', 'started'],
        ['misses its expectation', 'failed'],
      ],
    );
    const [message] = run.last(misses)?.messages ?? [];
    assert.equal(message.expectedOutput, 'ops > 1000M/s');
    assert.match(message.actualOutput ?? '', /^ops = [\d.,]+[kM]? ops\/s$/);
    assert.equal(message.location?.range.start.line, 11);
    assert.ok(
      run.output.some((line) => line.item === misses && /\[1\/1\] /.test(line.text)),
      'the progress lines are in its output',
    );
  });

  it('Run All is one Testing run: every scenario enqueued first, each result on its item', async () => {
    const file = write('a.rbench', CHECKS);
    const uri = Uri.file(file) as unknown as vscode.Uri;
    await glue.service().runBatch(
      [
        { uri, index: 0 },
        { uri, index: 1 },
      ],
      '2 scenarios in the workspace',
    );
    assert.equal(controller.runs.length, 1);
    assert.deepEqual(
      controller.runs[0].events.map((event) => [event.item.label, event.status]),
      [
        ['meets its expectation', 'enqueued'],
        ['misses its expectation', 'enqueued'],
        ['meets its expectation', 'started'],
        ['meets its expectation', 'passed'],
        ['misses its expectation', 'started'],
        ['misses its expectation', 'failed'],
      ],
    );
    assert.ok(controller.runs[0].ended);
  });

  it('errors a scenario that is gone from its file since it was listed', async () => {
    const file = write('a.rbench', CHECKS);
    const item = await fileItem(file);
    const [, misses] = children(item);
    writeFileSync(file, '### something else\nPING\n');
    await controller.profiles[0].runHandler(new TestRunRequest([misses]), new CancellationTokenSource().token);
    const last = controller.runs[0].last(misses);
    assert.equal(last?.status, 'errored');
    assert.match(last?.messages?.[0].message ?? '', /the scenario "misses its expectation" is no longer in a\.rbench/);
  });
});

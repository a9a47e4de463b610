// The editor's run service (src/editor/runService.ts) against a fake editor (test/helpers/fakeVscode.ts) and
// a real redis-server: the progress notification, Cancel, the consent modal and the error notifications, as
// the real-VS-Code suite (test/integration/run.test.ts) sees them, without starting VS Code.
import { Uri, waitFor, type MessageCall } from '../../helpers/fakeVscode';
import { useGlueWorkspace } from './glueWorkspace';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import type * as vscode from 'vscode';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';
import type { RunOutcome, RunService } from '../../../src/editor/runService';
import { DEFAULT_BUTTON, RUN_BUTTON } from '../../../src/editor/sessionPorts';
import { readRunFile } from '../../../src/results/runFile';
import { resultRows } from '../../../src/results/rows';

const WRITES = ['### writes', 'clients 2', 'requests 2000', 'SET rbench:glue:__key__ x', 'expect errors = 0', ''].join('\n');
const LONG = ['### long', 'clients 2', 'duration 30s', 'rate 2000/s', 'GET rbench:glue:long', ''].join('\n');

function finished(outcome: RunOutcome | undefined): Extract<RunOutcome, { kind: 'finished' }> {
  assert.ok(outcome, 'no outcome');
  assert.equal(outcome.kind, 'finished', outcome.kind === 'not-run' ? outcome.message : '');
  return outcome as Extract<RunOutcome, { kind: 'finished' }>;
}

/** The control characters (C0, DEL, bidi overrides) in `text`: none reach a notification or the output channel. */
function controlCharacters(text: string): string {
  return [...text].filter((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || (c.charCodeAt(0) >= 0x202a && c.charCodeAt(0) <= 0x202e)).join('');
}

const isConsent = (call: MessageCall) => call.options?.modal === true && call.items.includes(RUN_BUTTON);

describe('editor glue: the run service with a fake editor', function () {
  this.timeout(60_000);
  const server = useRedisServer();
  const glue = useGlueWorkspace('run', () => server().url);
  const editor = glue.editor;
  let folder: string;
  let service: RunService;
  beforeEach(() => {
    folder = glue.root();
    service = glue.service();
  });

  function scenario(name: string, text: string): vscode.Uri {
    const file = join(folder, name);
    writeFileSync(file, text);
    return fakeUri(file);
  }

  const runsIn = () => join(folder, '.rbench', 'runs');
  const runFiles = () => (existsSync(runsIn()) ? readdirSync(runsIn()) : []);

  it('runs a scenario after a "Run" answer, with a cancellable progress notification, and saves the run file', async () => {
    editor.answerWith((call) => (isConsent(call) ? RUN_BUTTON : undefined));
    const before = await withRedis(server(), (redis) => commandCalls(redis, 'set'));
    const [outcome] = await service.runWithProgress([{ uri: scenario('writes.rbench', WRITES), index: 0 }]);
    const run = finished(outcome);
    assert.equal(run.run.status, 'complete');
    assert.ok(run.path, run.saveError);
    assert.deepEqual(runFiles(), [run.path.slice(runsIn().length + 1)]);
    assert.equal(readRunFile(run.path).status, 'complete');
    assert.deepEqual(
      resultRows(run.run).map((row) => [row.command, row.requests]),
      [['total', 2000]],
    );
    assert.ok((await withRedis(server(), (redis) => commandCalls(redis, 'set'))) - before >= 2000, 'the server got the writes');

    const [progress] = editor.state.progress;
    assert.equal(editor.state.progress.length, 1);
    assert.equal(progress.options.title, 'RBench: writes');
    assert.equal(progress.options.cancellable, true);
    assert.equal(progress.done, true);
    assert.ok(
      progress.reports.some((report) => /starting/.test(report.message ?? '')),
      JSON.stringify(progress.reports),
    );
    const increments = progress.reports.reduce((sum, report) => sum + (report.increment ?? 0), 0);
    assert.ok(increments <= 100.0001, `progress went past 100%: ${increments}`);

    // Asked once, modal, the default button first (it does not run); then told it finished.
    const consent = editor.messages().filter(isConsent);
    assert.equal(consent.length, 1);
    assert.deepEqual(consent[0].items, [DEFAULT_BUTTON, RUN_BUTTON]);
    assert.match(consent[0].options?.detail ?? '', /SET/);
    const notice = editor.messages('information').at(-1);
    assert.ok(notice, 'a notification says the run finished');
    assert.deepEqual(notice.items, ['Open run file']);
    assert.match(editor.outputChannel('RBench').text, /writes/);
  });

  it("opens the run file when the notification's button is pressed", async () => {
    editor.answerWith((call) => (isConsent(call) ? RUN_BUTTON : call.items.includes('Open run file') ? 'Open run file' : undefined));
    const run = finished((await service.runWithProgress([{ uri: scenario('writes.rbench', WRITES), index: 0 }]))[0]);
    await waitFor('the run file to open', () => editor.state.executed.some((call) => call.id === 'vscode.open'));
    const open = editor.state.executed.find((call) => call.id === 'vscode.open');
    assert.equal((open?.args[0] as vscode.Uri).fsPath, run.path);
  });

  it('Cancel on the progress notification ends the run as cancelled, keeping what was measured', async () => {
    const running = service.runWithProgress([{ uri: scenario('long.rbench', LONG), index: 0 }]);
    // A read on a target you chose asks nothing.
    await waitFor(
      'a progress tick',
      () => editor.state.progress[0]?.reports.some((report) => /\d/.test(report.message ?? '') && !/starting/.test(report.message ?? '')) ?? false,
    );
    assert.equal(service.runningCount, 1);
    const cancelledAt = Date.now();
    editor.state.progress[0].cancel();
    const run = finished((await running)[0]);
    assert.ok(Date.now() - cancelledAt < 5000, 'the run stopped soon after Cancel');
    assert.equal(run.run.status, 'cancelled');
    assert.equal(service.runningCount, 0);
    assert.ok(run.path, run.saveError);
    const saved = readRunFile(run.path);
    assert.equal(saved.status, 'cancelled');
    const measured = saved.points.flatMap((point) => point.repeats.flat()).reduce((sum, load) => sum + load.total.requests, 0);
    assert.ok(measured > 0, 'the cancelled run kept its requests');
    assert.deepEqual(editor.messages().filter(isConsent), []);
  });

  for (const [what, answer] of [
    ['"Don\'t Run"', DEFAULT_BUTTON],
    ['a dismissed question', undefined],
  ] as const) {
    it(`${what} to the consent question runs nothing: no command reaches the server, no run file, no error`, async () => {
      editor.answerWith((call) => (isConsent(call) ? answer : undefined));
      const before = await withRedis(server(), (redis) => commandCalls(redis, 'set'));
      const [outcome] = await service.runWithProgress([{ uri: scenario('writes.rbench', WRITES), index: 0 }]);
      assert.equal(outcome.kind, 'not-run');
      assert.equal(outcome.kind === 'not-run' && outcome.reason, 'declined');
      assert.equal(editor.messages().filter(isConsent).length, 1);
      assert.equal(await withRedis(server(), (redis) => commandCalls(redis, 'set')), before);
      assert.deepEqual(runFiles(), []);
      assert.deepEqual(editor.state.progress, []);
      assert.deepEqual(editor.messages('error'), []);
      // Not remembered: the next run asks again.
      await service.runWithProgress([{ uri: scenario('writes.rbench', WRITES), index: 0 }]);
      assert.equal(editor.messages().filter(isConsent).length, 2);
    });
  }

  it('Run All asks one question first, listing every remote run with its commands, then shows one progress for all and one summary', async () => {
    const asked: MessageCall[] = [];
    editor.answerWith((call) => {
      if (call.options?.modal !== true) return undefined;
      asked.push({ ...call, message: `${call.message} · runs so far: ${runFiles().length}` });
      return 'Run all';
    });
    const uri = scenario(
      'two.rbench',
      `${WRITES}\n${['### other writes', 'requests 500', 'SET rbench:other:__key__ y', 'DEL rbench:other:__key__', ''].join('\n')}`,
    );
    const outcomes = await service.runBatch(
      [
        { uri, index: 0 },
        { uri, index: 1 },
      ],
      'two.rbench',
      'Run 2 scenarios from 1 file in the workspace, one after another?',
    );
    assert.deepEqual(
      outcomes.map((outcome) => finished(outcome).run.scenario.name),
      ['writes', 'other writes'],
    );
    // One question, before the first run: the count, then each remote run's effects, "Don't Run" first.
    assert.equal(asked.length, 1, JSON.stringify(asked.map((call) => call.message)));
    assert.equal(asked[0].message, 'Run 2 scenarios from 1 file in the workspace, one after another? · runs so far: 0');
    assert.deepEqual(asked[0].items, [DEFAULT_BUTTON, 'Run all']);
    const detail = asked[0].options?.detail ?? '';
    assert.match(detail, /Run "writes" from two\.rbench against redis:\/\/127\.0\.0\.1:\d+\?\n {2}Target: /);
    assert.match(detail, /Run "other writes" from two\.rbench against/);
    assert.match(detail, /\n {2}Writes: SET, DEL\n/);
    assert.equal(editor.state.progress.length, 1);
    assert.equal(editor.state.progress[0].options.title, 'RBench: two.rbench');
    assert.deepEqual(
      editor.state.progress[0].reports.filter((r) => r.increment).map((r) => r.message),
      ['1/2 writes', '2/2 other writes'],
    );
    assert.equal(runFiles().length, 2);
    const summary = editor.messages().filter((call) => call.options?.modal !== true);
    assert.deepEqual(
      summary.map((call) => [call.severity, call.message, call.items]),
      [['information', 'RBench: 2 scenarios: 2 passed', ['Show output']]],
    );
  });

  it("Enter on Run All's question (its default button) runs nothing and contacts nothing", async () => {
    editor.answerWith((call) => (call.options?.modal === true ? call.items[0] : undefined));
    const before = await withRedis(server(), (redis) => commandCalls(redis, 'set'));
    const uri = scenario('two.rbench', `${WRITES}\n${['### more', 'requests 50', 'SET rbench:more:__key__ y', ''].join('\n')}`);
    const outcomes = await service.runBatch(
      [
        { uri, index: 0 },
        { uri, index: 1 },
      ],
      'two.rbench',
      'Run 2 scenarios?',
    );
    assert.deepEqual(outcomes, []);
    assert.equal(await withRedis(server(), (redis) => commandCalls(redis, 'set')), before);
    assert.deepEqual(runFiles(), []);
    assert.deepEqual(editor.state.progress, []);
  });

  it('the Run All summary names the failures, with buttons to the first one and its run', async () => {
    const uri = scenario(
      'checks.rbench',
      ['### fine', 'requests 100', 'GET k', '', '### misses', 'requests 100', 'GET k', 'expect ops > 1000M/s', ''].join('\n'),
    );
    editor.answerWith((call) => (call.options?.modal === true ? 'Run all' : undefined));
    await service.runBatch(
      [
        { uri, index: 0 },
        { uri, index: 1 },
      ],
      'checks.rbench',
      'Run 2 scenarios?',
    );
    const summary = editor.messages('warning').filter((call) => call.options?.modal !== true);
    assert.equal(summary.length, 1);
    assert.equal(summary[0].message, 'RBench: 2 scenarios: 1 passed, 1 failed — failed: "misses" (checks.rbench)');
    assert.deepEqual(summary[0].items, ['Open scenario', 'Open run', 'Show output']);
    assert.match(editor.outputChannel('RBench').text, /✗ failed "misses" .*checks\.rbench:5 — 1 of 1 expectation failed — run: .*\.rbench-run\.json/);
  });

  it('refuses to start a scenario that is already running', async () => {
    const uri = scenario('long.rbench', LONG);
    const first = service.run({ uri, index: 0 });
    await waitFor('the first run to start', () => service.runningCount === 1);
    const [second] = await service.runWithProgress([{ uri, index: 0 }]);
    assert.equal(second.kind === 'not-run' && second.reason, 'busy');
    assert.match(editor.messages('information').at(-1)?.message ?? '', /"long" is already running/);
    assert.equal(service.cancelAll(), 1);
    assert.equal(finished(await first).run.status, 'cancelled');
  });

  it('a second run on the same server waits for the first and says so; cancelled while waiting it never starts; it runs once the first ends', async () => {
    const starts: string[] = [];
    service.onRunStarted((started) => starts.push(started.plan.name));
    const first = service.runWithProgress([{ uri: scenario('long.rbench', LONG), index: 0 }]);
    await waitFor('the first run to start', () => starts.length === 1);
    const other = scenario('other.rbench', ['### other', 'clients 1', 'requests 200', 'GET rbench:glue:other', ''].join('\n'));
    const waitingText = `waiting for the run of "long" (long.rbench) on ${server().url} to finish`;
    const waitingOn = (index: number) => editor.state.progress[index]?.reports.some((report) => report.message === waitingText) ?? false;

    // Cancelled while it waits: it never starts and says why.
    const cancelled = service.runWithProgress([{ uri: other, index: 0 }]);
    await waitFor('the second run to say it waits', () => waitingOn(1));
    assert.deepEqual(starts, ['long'], 'the second run has not started');
    editor.state.progress[1].cancel();
    const [notRun] = await cancelled;
    assert.equal(notRun.kind === 'not-run' && notRun.reason, 'busy');
    assert.match(notRun.kind === 'not-run' ? notRun.message : '', /"other" was not run: cancelled while waiting for the run of "long"/);
    assert.deepEqual(starts, ['long']);

    // Waiting again, then running as soon as the first is cancelled.
    const queued = service.runWithProgress([{ uri: other, index: 0 }]);
    await waitFor('the third run to say it waits', () => waitingOn(2));
    assert.deepEqual(starts, ['long']);
    assert.match(editor.outputChannel('RBench').text, /"other" is waiting for the run of "long" \(long\.rbench\) on redis:\/\/127\.0\.0\.1:\d+ to finish/);
    editor.state.progress[0].cancel();
    assert.equal(finished((await first)[0]).run.status, 'cancelled');
    const run = finished((await queued)[0]);
    assert.equal(run.run.status, 'complete');
    assert.deepEqual(starts, ['long', 'other']);
    // Whatever the run files say, the second never shared the server with the first.
    assert.equal(run.run.otherRuns, undefined);
  });

  it("Test Connection tests the open scenario's own target, asking first as for a run; answered Cancel it contacts nothing", async () => {
    let connections = 0;
    const listener = createServer((socket) => (connections++, socket.destroy()));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const url = `redis://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    try {
      const uri = scenario('own.rbench', `### own\ntarget ${url}\nrequests 10\nGET k\n`);
      const own = { text: `### own\ntarget ${url}\nrequests 10\nGET k\n`, line: 1 };
      const declined = await service.prepareConnectionTest(uri, own);
      assert.equal('kind' in declined && declined.reason, 'declined', JSON.stringify(declined));
      const asked = editor.messages().filter(isConsent);
      assert.equal(asked.length, 1);
      assert.equal(asked[0].message, `Run "Test Connection" from own.rbench against ${url}?`);
      assert.match(asked[0].options?.detail ?? '', new RegExp(`^Target: ${url.replace(/[/.]/g, '\\$&')} \\(from the file`));
      editor.answerWith((call) => (isConsent(call) ? RUN_BUTTON : undefined));
      const ready = await service.prepareConnectionTest(uri, own);
      assert.ok(!('kind' in ready), JSON.stringify(ready));
      if (!('kind' in ready)) assert.equal(ready.session.connectionOf(ready.prepared).display, url);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(connections, 0, 'preparing contacts nothing');
    } finally {
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });

  it('remembers a "Run" for the same effects: the second run does not ask', async () => {
    editor.answerWith((call) => (isConsent(call) ? RUN_BUTTON : undefined));
    const uri = scenario('writes.rbench', WRITES);
    finished((await service.runWithProgress([{ uri, index: 0 }]))[0]);
    finished((await service.runWithProgress([{ uri, index: 0 }]))[0]);
    assert.equal(editor.messages().filter(isConsent).length, 1);
  });

  it('a scenario with errors ends as one plain error notification, its control characters shown as text', async () => {
    const [outcome] = await service.runWithProgress([{ uri: scenario('bad.rbench', '### bad\nrequests \u001b[31mlots\u202e\nSET k v\n'), index: 0 }]);
    assert.equal(outcome.kind, 'not-run');
    assert.equal(outcome.kind === 'not-run' && outcome.reason, 'error');
    const errors = editor.messages('error');
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, /requests/);
    assert.equal(controlCharacters(errors[0].message), '');
    assert.equal(controlCharacters(editor.outputChannel('RBench').text.replace(/\n/g, '')), '');
    assert.deepEqual(editor.state.progress, []);
    assert.deepEqual(runFiles(), []);
  });

  it('a scenario number the file does not have, and a missing file, end as error notifications naming them', async () => {
    const [missingScenario] = await service.runWithProgress([{ uri: scenario('one.rbench', WRITES), index: 3 }]);
    assert.equal(missingScenario.kind === 'not-run' && missingScenario.reason, 'error');
    assert.match(editor.messages('error')[0]?.message ?? '', /one\.rbench has no scenario number 4 \(it has 1\)/);
    const [missingFile] = await service.runWithProgress([{ uri: fakeUri(join(folder, 'gone.rbench')), index: 0 }]);
    assert.equal(missingFile.kind === 'not-run' && missingFile.reason, 'error');
    assert.match(editor.messages('error')[1]?.message ?? '', /cannot read .*gone\.rbench/);
  });

  it('runs nothing in a restricted workspace, and says so', async () => {
    editor.state.trusted = false;
    const [outcome] = await service.runWithProgress([{ uri: scenario('writes.rbench', WRITES), index: 0 }]);
    assert.equal(outcome.kind === 'not-run' && outcome.reason, 'restricted');
    assert.match(editor.messages('error')[0]?.message ?? '', /trust/);
    assert.deepEqual(editor.messages().filter(isConsent), []);
    assert.deepEqual(runFiles(), []);
  });
});

function fakeUri(path: string): vscode.Uri {
  return Uri.file(path) as unknown as vscode.Uri;
}

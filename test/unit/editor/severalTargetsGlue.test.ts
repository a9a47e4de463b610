// "RBench: Run on Several Targets…" against a fake editor (test/helpers/fakeVscode.ts) and two real
// redis-servers: the targets picked, each asking first, each server sent its share, the comparison panel
// opened on the two run files and the comparison saved; the same server twice refused before anything runs.
import { ConfigurationTarget, Uri, workspace } from '../../helpers/fakeVscode';
import { useGlueWorkspace } from './glueWorkspace';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';
import { runOnSeveralTargetsCommand } from '../../../src/editor/severalTargets';
import { RUN_BUTTON } from '../../../src/editor/sessionPorts';
import { readRunFile } from '../../../src/results/runFile';

const SCENARIO = ['### writes', 'clients 2', 'requests 1500', 'SET rbench:several:__key__ x', ''].join('\n');
const setCalls = (server: { host: string; port: number }) => withRedis(server, (redis) => commandCalls(redis, 'set'));

describe('editor glue: Run on Several Targets', function () {
  this.timeout(60_000);
  const first = useRedisServer();
  const second = useRedisServer();
  const glue = useGlueWorkspace('several');
  const editor = glue.editor;

  async function run(profiles: Record<string, { url: string }>): Promise<{ paths: string[] | undefined; compared: string[][]; uri: vscode.Uri }> {
    await workspace.getConfiguration('rbench').update('profiles', profiles, ConfigurationTarget.Global);
    editor.state.pick = (items) => (items as { value: unknown }[]).filter((item) => typeof item.value === 'string' && Object.hasOwn(profiles, item.value));
    editor.answerWith((call) => (call.options?.modal === true && call.items.includes(RUN_BUTTON) ? RUN_BUTTON : undefined));
    const file = join(glue.root(), 'writes.rbench');
    writeFileSync(file, SCENARIO);
    const uri = Uri.file(file) as unknown as vscode.Uri;
    const compared: string[][] = [];
    const service = glue.service();
    const paths = await runOnSeveralTargetsCommand(glue.context() as unknown as vscode.ExtensionContext, service.output, (p) => compared.push(p), uri, 0);
    return { paths, compared, uri };
  }

  it('runs the scenario on each picked target, each asking first, and opens the comparison on their runs', async () => {
    const before = [await setCalls(first()), await setCalls(second())];
    const { paths, compared } = await run({ a: { url: first().url }, b: { url: second().url } });
    assert.ok(paths, JSON.stringify(editor.messages().map((m) => m.message)));
    assert.equal(paths.length, 2);
    assert.deepEqual(compared, [paths], 'the comparison panel opened on the two runs');
    assert.equal((await setCalls(first())) - before[0], 1500);
    assert.equal((await setCalls(second())) - before[1], 1500);
    assert.deepEqual(
      paths.map((path) => readRunFile(path).target.display),
      [first().url, second().url],
    );
    // Each target asked in its own question, as a run on it alone would.
    assert.equal(editor.messages().filter((m) => m.options?.modal === true).length, 2);
    const runs = join(glue.root(), '.rbench', 'runs');
    assert.equal(readdirSync(runs).filter((name) => name.endsWith('.comparison.md')).length, 1);
  });

  it('refuses the same server picked twice, before anything runs', async () => {
    const before = await setCalls(first());
    const { paths, compared } = await run({ a: { url: first().url }, b: { url: first().url.replace('127.0.0.1', 'localhost') } });
    assert.equal(paths, undefined);
    assert.deepEqual(compared, []);
    assert.ok(
      editor.messages('error').some((m) => /are the same server/.test(m.message)),
      JSON.stringify(editor.messages().map((m) => m.message)),
    );
    assert.equal(await setCalls(first()), before);
    assert.equal(existsSync(join(glue.root(), '.rbench', 'runs')), false);
  });

  type Item = { label: string; description?: string; value: unknown; picked: boolean };

  it('offers the target the status bar shows, first and ticked, and runs on it (issue 45, item 9)', async () => {
    const before = [await setCalls(first()), await setCalls(second())];
    await workspace.getConfiguration('rbench').update('target', second().url, ConfigurationTarget.Global);
    await workspace.getConfiguration('rbench').update('profiles', { a: { url: first().url } }, ConfigurationTarget.Global);
    editor.state.pick = (items) => (items as Item[]).filter((item) => item.picked || item.value === 'a');
    editor.answerWith((call) => (call.options?.modal === true && call.items.includes(RUN_BUTTON) ? RUN_BUTTON : undefined));
    const file = join(glue.root(), 'writes.rbench');
    writeFileSync(file, SCENARIO);
    const paths = await runOnSeveralTargetsCommand(
      glue.context() as unknown as vscode.ExtensionContext,
      glue.service().output,
      () => undefined,
      Uri.file(file) as unknown as vscode.Uri,
      0,
    );
    const [offered] = editor.state.quickPicks.map((call) => call.items as Item[]);
    assert.equal(offered[0].value, second().url, 'the selected target comes first');
    assert.equal(offered[0].picked, true, 'ticked');
    assert.ok(paths, JSON.stringify(editor.messages().map((m) => m.message)));
    assert.equal((await setCalls(first())) - before[0], 1500);
    assert.equal((await setCalls(second())) - before[1], 1500);
  });

  it('Enter with one target ticked shows the picker again with that tick kept and says one more is needed (issue 45, item 9)', async () => {
    const answers: Item[][] = [];
    await workspace.getConfiguration('rbench').update('profiles', { a: { url: first().url }, b: { url: second().url } }, ConfigurationTarget.Global);
    editor.state.pick = (items) => {
      const list = items as Item[];
      // First Enter with "a" alone; then "b" ticked too, "a" still ticked from before.
      const picked = answers.length === 0 ? list.filter((item) => item.value === 'a') : list.filter((item) => item.picked || item.value === 'b');
      answers.push(picked);
      return picked;
    };
    editor.answerWith((call) => (call.options?.modal === true && call.items.includes(RUN_BUTTON) ? RUN_BUTTON : undefined));
    const file = join(glue.root(), 'writes.rbench');
    writeFileSync(file, SCENARIO);
    const paths = await runOnSeveralTargetsCommand(
      glue.context() as unknown as vscode.ExtensionContext,
      glue.service().output,
      () => undefined,
      Uri.file(file) as unknown as vscode.Uri,
      0,
    );
    assert.deepEqual(
      editor.messages('error').map((m) => m.message),
      [],
    );
    assert.equal(editor.state.quickPicks.length, 2, 'the picker showed again');
    const again = editor.state.quickPicks[1];
    assert.deepEqual(
      (again.items as Item[]).filter((item) => item.picked).map((item) => item.value),
      ['a'],
      'the tick was kept',
    );
    assert.match((again.options as { placeHolder: string }).placeHolder, /^1 target ticked: tick one more/);
    assert.deepEqual(
      answers[1].map((item) => item.value),
      ['a', 'b'],
    );
    assert.ok(paths);
    assert.equal(paths.length, 2);
  });

  it('its progress names the target running and gives its figures (issue 45, item 9)', async () => {
    const { paths } = await run({ a: { url: first().url }, b: { url: second().url } });
    assert.ok(paths);
    const [progress] = editor.state.progress;
    const messages = progress.reports.map((report) => report.message ?? '');
    for (const target of ['a', 'b']) {
      assert.ok(
        messages.some((message) => message.startsWith(`${target} · `) && /ops\/s/.test(message) && /p99/.test(message)),
        `no figures for ${target}: ${JSON.stringify(messages)}`,
      );
    }
    const total = progress.reports.reduce((sum, report) => sum + (report.increment ?? 0), 0);
    assert.ok(Math.abs(total - 100) < 1e-6, `the bar fills to 100 %, not ${total}`);
  });
});

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
});

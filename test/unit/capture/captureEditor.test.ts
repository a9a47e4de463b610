// "RBench: Capture Workload from Server…" with a fake editor (test/helpers/fakeVscode.ts) and a real server:
// the selected target's traffic written where the user chose, under a cancellable progress, and opened; a
// workspace's target asks first; the throwaway target is refused in plain words.
import { ConfigurationTarget, Uri, extensionContext, useFakeVscode, workspace } from '../../helpers/fakeVscode';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { captureWorkloadCommand } from '../../../src/editor/captureWorkload';
import { DEFAULT_BUTTON } from '../../../src/editor/sessionPorts';
import { useRedisServer, withRedis } from '../../helpers/redis';
import { populate, startTraffic } from './knownWorkload';

describe('editor: Capture Workload from Server…', function () {
  this.timeout(60_000);
  const server = useRedisServer();
  const editor = useFakeVscode();
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'rbench-capture-editor-'));
    editor.setWorkspaceFolders(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const context = () => extensionContext(root) as unknown as vscode.ExtensionContext;
  const pickFiveSeconds = () => (editor.state.pick = (items) => (items as { label: string }[]).find((item) => item.label === '5 seconds'));

  it('captures the selected target into the chosen file, with a cancellable progress, and opens it', async () => {
    await withRedis(server(), populate);
    await workspace.getConfiguration('rbench').update('target', `redis://${server().host}:${server().port}`, ConfigurationTarget.Global);
    pickFiveSeconds();
    const destination = join(root, 'captured.rbench');
    editor.state.saveTo = () => Uri.file(destination);
    const traffic = startTraffic(server(), 4);
    let written;
    try {
      written = await captureWorkloadCommand(context());
    } finally {
      await traffic.stop();
    }
    assert.equal(written?.fsPath, destination, JSON.stringify(editor.messages()));
    const text = readFileSync(destination, 'utf8');
    assert.match(text, /% GET user:__key__:profile/);
    assert.doesNotMatch(text, /secretvalue/);
    const [progress] = editor.state.progress;
    assert.equal((progress.options as { cancellable?: boolean }).cancellable, true);
    assert.ok(progress.reports.some((report) => /watching the traffic/.test(report.message ?? '')));
    assert.equal(editor.state.shownDocuments.length, 1);
  });

  it("asks before capturing a workspace's target, and captures nothing on a no", async () => {
    await workspace.getConfiguration('rbench').update('target', `redis://${server().host}:${server().port}`, ConfigurationTarget.Workspace);
    pickFiveSeconds();
    editor.answerWith(() => DEFAULT_BUTTON);
    editor.state.saveTo = () => Uri.file(join(root, 'never.rbench'));
    assert.equal(await captureWorkloadCommand(context()), undefined);
    const question = editor.messages('warning').find((call) => call.options?.modal === true);
    assert.ok(question, JSON.stringify(editor.messages()));
    assert.match(question.options?.detail ?? '', /Reads: INFO, MONITOR, DBSIZE, SCAN/);
    assert.equal(editor.state.progress.length, 0);
  });

  it('refuses the throwaway target with the fix', async () => {
    await workspace.getConfiguration('rbench').update('target', 'local', ConfigurationTarget.Global);
    assert.equal(await captureWorkloadCommand(context()), undefined);
    assert.match(editor.messages('error')[0]?.message ?? '', /throwaway local server, which has no traffic to capture .*Select Target/);
  });
});

// Issue 45 (4): two runs on the throwaway server (`local`) no longer start side by side on the same CPUs
// without a word: the second waits for the first and says so, as on a server of the user's; and every
// completion message names its scenario.
import { Uri, waitFor } from '../../helpers/fakeVscode';
import { useGlueWorkspace } from './glueWorkspace';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import type { RunOutcome } from '../../../src/editor/runService';

const LONG = ['### long', 'clients 1', 'duration 30s', 'rate 500/s', 'GET rbench:queue:long', ''].join('\n');
const SHORT = ['### short', 'clients 1', 'requests 300', 'GET rbench:queue:short', ''].join('\n');

describe('editor glue: runs on the throwaway server queue (issue 45)', function () {
  this.timeout(90_000);
  const glue = useGlueWorkspace('throwaway-queue', () => 'local');
  const editor = glue.editor;

  function scenario(name: string, text: string): vscode.Uri {
    const file = join(glue.root(), name);
    writeFileSync(file, text);
    return Uri.file(file) as unknown as vscode.Uri;
  }

  it('a second throwaway-server run waits for the first, says so, runs after it, and its message names it', async () => {
    const service = glue.service();
    const starts: string[] = [];
    service.onRunStarted((started) => starts.push(started.plan.name));
    const first = service.runWithProgress([{ uri: scenario('long.rbench', LONG), index: 0 }]);
    await waitFor('the first run to start', () => starts.length === 1);
    const second = service.runWithProgress([{ uri: scenario('short.rbench', SHORT), index: 0 }]);
    const waitingText = 'waiting for the run of "long" (long.rbench) on a throwaway redis-server on this machine (they share its CPUs) to finish';
    await waitFor('the second run to say it waits', () => editor.state.progress[1]?.reports.some((report) => report.message === waitingText) ?? false);
    assert.deepEqual(starts, ['long'], 'the second has not started its server');
    editor.state.progress[0].cancel();
    const [long] = (await first) as RunOutcome[];
    assert.equal(long.kind === 'finished' && long.run.status, 'cancelled');
    const [short] = (await second) as RunOutcome[];
    assert.equal(short.kind === 'finished' && short.run.status, 'complete', short.kind === 'not-run' ? short.message : '');
    assert.deepEqual(starts, ['long', 'short']);
    const messages = editor.messages('information').map((call) => call.message);
    assert.ok(
      messages.some((message) => message.startsWith('"short" — Run complete: ')),
      messages.join('\n'),
    );
    assert.ok(
      messages.some((message) => message.startsWith('"long" — Run cancelled: ')),
      messages.join('\n'),
    );
  });
});

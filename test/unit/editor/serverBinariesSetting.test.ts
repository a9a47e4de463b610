// Issue 44: the editor's machine setting rbench.serverBinaries (name → path). Read from the user's settings only
// (a workspace's .vscode/settings.json came with the repository: it could point a name at any executable), and
// handed to the session, whose check lets a file's `server binary NAME` name only what it defines.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { ConfigurationTarget, useFakeVscode, workspace } from '../../helpers/fakeVscode';
import { readSettings } from '../../../src/editor/settings';
import { editorSessionSettings } from '../../../src/editor/sessionSettings';
import { RunSession } from '../../../src/runner/session';

const installed = execFileSync('sh', ['-c', 'command -v redis-server']).toString().trim();
const FILE = { display: 'named.rbench', text: '### named\nserver binary mine\nPING\n' };

function session(): RunSession {
  const settings = editorSessionSettings(readSettings(), { folder: '/tmp/rbench-runs-unused' }, undefined);
  return new RunSession(settings, { confirm: async () => false, secret: async () => undefined, log: () => undefined });
}

describe('rbench.serverBinaries (issue 44)', () => {
  useFakeVscode();

  it("the user's setting defines the names a file may give; a workspace's value is ignored", async () => {
    const config = workspace.getConfiguration('rbench');
    await config.update('serverBinaries', { other: installed }, ConfigurationTarget.Workspace);
    assert.deepEqual({ ...readSettings().serverBinaries }, {});
    const unknown = session()
      .resolve(FILE)
      .diagnostics.filter((d) => d.severity === 'error');
    assert.equal(unknown.length, 1);
    assert.match(unknown[0].message, /no server binary is named `mine`: define it in the machine setting rbench\.serverBinaries/);

    await config.update('serverBinaries', { mine: installed, 'bad/name': installed, empty: '' }, ConfigurationTarget.Global);
    assert.deepEqual({ ...readSettings().serverBinaries }, { mine: installed }, 'only names a file can write, with a path');
    assert.deepEqual(
      session()
        .resolve(FILE)
        .diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
  });
});

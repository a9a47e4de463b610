// The extension in a real VS Code: activation on `.rbench` files and live diagnostics.
// Runs inside the extension host (see index.ts); `vscode` exists only there.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';

const EXTENSION_ID = 'rbench.rbench';

/** Polls `condition` until it returns a value other than undefined/false, or fails after `timeoutMs` with `what`. */
async function waitFor<T>(what: string, condition: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let listener: vscode.Disposable | undefined;
  try {
    while (true) {
      const value = condition();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      // Wake on the next diagnostics change or after 50 ms, whichever comes first.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        listener = vscode.languages.onDidChangeDiagnostics(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      listener?.dispose();
    }
  } finally {
    listener?.dispose();
  }
}

function rbenchDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'rbench');
}

function describeDiagnostics(diagnostics: readonly vscode.Diagnostic[]): string {
  return diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.message}`).join('\n');
}

function codeOf(diagnostic: vscode.Diagnostic): string | number | undefined {
  const code = diagnostic.code;
  return typeof code === 'object' ? code.value : code;
}

const VALID = ['# written by the integration tests', 'clients 2', 'requests 100', 'pipeline 10', 'GET rbench:e2e', ''].join('\n');

describe('RBench in VS Code', function () {
  let scratch: string;

  before(() => {
    // The workspace folder when there is one (the harness opens a scratch folder), else the temp dir.
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.tmpdir();
    scratch = mkdtempSync(path.join(root, 'rbench-it-'));
  });

  /** Writes `text` to a new file in the scratch folder and opens it. */
  async function openScratch(name: string, text: string): Promise<vscode.TextDocument> {
    const file = path.join(scratch, name);
    writeFileSync(file, text);
    return vscode.workspace.openTextDocument(vscode.Uri.file(file));
  }

  /**
   * Opens a file with a known error and waits for its diagnostic. The extension checks documents in
   * the order they open, so afterwards every document opened earlier has been checked too: this is
   * how the tests know an empty diagnostics list means "checked, nothing wrong" and not "not yet".
   */
  let sentinels = 0;
  async function barrier(): Promise<void> {
    const document = await openScratch(`sentinel-${++sentinels}.rbench`, 'pipline 10\n');
    await waitFor('the diagnostic of a sentinel document', () => rbenchDiagnostics(document.uri).length > 0);
  }

  it('is installed and activates when a .rbench file opens', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `extension ${EXTENSION_ID} is not loaded`);
    const document = await openScratch('activate.rbench', VALID);
    assert.equal(document.languageId, 'rbench');
    await vscode.window.showTextDocument(document);
    await waitFor('the extension to activate', () => extension.isActive);
  });

  it('reports no diagnostics for a valid scenario', async () => {
    const document = await openScratch('valid.rbench', VALID);
    await barrier();
    assert.deepEqual(rbenchDiagnostics(document.uri), []);
  });

  describe('examples/', () => {
    const folder = path.resolve(__dirname, '../../../examples');
    const files = (() => {
      try {
        return readdirSync(folder)
          .filter((file) => file.endsWith('.rbench'))
          .sort();
      } catch {
        return [];
      }
    })();

    it('has example scenarios', () => {
      assert.ok(files.length > 0, `no .rbench files in ${folder}`);
    });

    for (const file of files) {
      it(`${file} opens with no rbench diagnostics`, async () => {
        const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(folder, file)));
        assert.equal(document.languageId, 'rbench');
        await barrier();
        // A module's commands (FT.*) are warnings against the built-in table until a server's table is read: the
        // RediSearch example has those, and nothing else, with no target selected.
        const diagnostics = rbenchDiagnostics(document.uri).filter(
          (diagnostic) => !(file === 'redisearch.rbench' && /^"FT\.[A-Z]+" is not in the built-in table/.test(diagnostic.message)),
        );
        assert.equal(diagnostics.length, 0, `unexpected diagnostics in ${file}:\n${describeDiagnostics(diagnostics)}`);
      });
    }
  });

  describe('while editing', () => {
    it('flags a misspelled setting at the word, and clears it once fixed', async () => {
      const document = await openScratch('edit.rbench', VALID);
      const editor = await vscode.window.showTextDocument(document);
      await barrier();
      assert.deepEqual(rbenchDiagnostics(document.uri), []);

      // `pipeline 10` (line 3) becomes `pipline 10`.
      const line = 3;
      assert.equal(document.lineAt(line).text, 'pipeline 10');
      assert.ok(await editor.edit((edit) => edit.replace(new vscode.Range(line, 0, line, 'pipeline'.length), 'pipline')));
      const [diagnostic, ...rest] = await waitFor('a diagnostic for `pipline`', () => {
        const found = rbenchDiagnostics(document.uri);
        return found.length > 0 ? found : undefined;
      });
      assert.deepEqual(rest, [], `one diagnostic expected, got:\n${describeDiagnostics([diagnostic, ...rest])}`);
      assert.equal(diagnostic.source, 'rbench');
      assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
      assert.deepEqual(
        [diagnostic.range.start.line, diagnostic.range.start.character, diagnostic.range.end.line, diagnostic.range.end.character],
        [line, 0, line, 'pipline'.length],
      );
      assert.equal(document.getText(diagnostic.range), 'pipline');
      assert.match(diagnostic.message, /pipline/);
      assert.match(diagnostic.message, /pipeline/, 'the message suggests the right spelling');
      assert.equal(codeOf(diagnostic), 'unknown-keyword');

      assert.ok(await editor.edit((edit) => edit.replace(diagnostic.range, 'pipeline')));
      await waitFor('the diagnostic to clear', () => rbenchDiagnostics(document.uri).length === 0);
      await document.save(); // no unsaved editors left to prompt about when the window closes
    });

    it('places the range on an indented word in an inserted line', async () => {
      const document = await openScratch('insert.rbench', VALID);
      const editor = await vscode.window.showTextDocument(document);
      assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(2, 0), '  pipline 10\n')));
      const diagnostic = await waitFor('a diagnostic for the inserted line', () => rbenchDiagnostics(document.uri)[0]);
      assert.deepEqual(
        [diagnostic.range.start.line, diagnostic.range.start.character, diagnostic.range.end.line, diagnostic.range.end.character],
        [2, 2, 2, 9],
      );
      assert.equal(document.getText(diagnostic.range), 'pipline');
      await document.save();
    });
  });
});

// The set-up the editor-glue tests share: the fake editor (test/helpers/fakeVscode.ts) with one temporary
// workspace folder, the extension's context and a RunService on them, all new for each test.
import { ConfigurationTarget, extensionContext, useFakeVscode, workspace, type fake } from '../../helpers/fakeVscode';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type * as vscode from 'vscode';
import { disposeDocumentChecks } from '../../../src/editor/documentChecks';
import { RunService } from '../../../src/editor/runService';

/** The repository: the extension's folder (panels load their scripts from its dist/webview). */
export const REPO = resolve(__dirname, '../../../..');

export interface GlueWorkspace {
  editor: typeof fake;
  /** The workspace folder. */
  root(): string;
  context(): ReturnType<typeof extensionContext>;
  service(): RunService;
}

/**
 * Call inside a `describe`. `target` (a URL, read once the servers have started) becomes the user's own
 * rbench.target: a run that writes on it asks first, one that only reads does not (docs/safety.md).
 */
export function useGlueWorkspace(name: string, target?: () => string): GlueWorkspace {
  const editor = useFakeVscode();
  let root: string | undefined;
  let context: ReturnType<typeof extensionContext> | undefined;
  let service: RunService | undefined;
  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), `rbench-glue-${name}-`));
    editor.setWorkspaceFolders(root);
    if (target) await workspace.getConfiguration('rbench').update('target', target(), ConfigurationTarget.Global);
    context = extensionContext(REPO);
    service = new RunService(context as unknown as vscode.ExtensionContext);
  });
  afterEach(() => {
    for (const disposable of context?.subscriptions ?? []) disposable.dispose();
    service?.dispose();
    if (root) rmSync(root, { recursive: true, force: true });
  });
  // Runs check their files in the check worker thread: ended with the suite.
  after(() => disposeDocumentChecks());
  const get = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the glue workspace exists only inside a test or hook');
    return value;
  };
  return { editor, root: () => get(root), context: () => get(context), service: () => get(service) };
}

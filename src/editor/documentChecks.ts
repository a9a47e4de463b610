// One check per document version, shared by everything that reads a `.rbench` document: diagnostics,
// CodeLens, outline, folding, the Test Explorer and the run commands. A small document is checked on
// the spot; a large one in the worker thread (backgroundCheck.ts), so no feature parses a big file on
// the extension host's thread, and an edit is parsed once, not once per feature.
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { checkText, type ResolvedFile, type ResolveOptions } from '../scenario';
import { memoryLimits } from '../runner/budget';
import { checkWithOutline, type CheckedDocument, type DocumentOutline } from '../scenario/features/outline';
import { BackgroundChecker, checkWorkerPath } from './backgroundCheck';
import { readSettings } from './settings';
import { selectedCommandTable } from './commandTables';

/** Documents up to this size are checked on the spot (a few milliseconds); larger ones in a worker thread. */
export const INLINE_CHECK_MAX_CHARS = 256 * 1024;

const EMPTY_OUTLINE: DocumentOutline = { scenarios: [], symbols: [], folding: [] };

interface Entry {
  version: number;
  checked: Promise<CheckedDocument | undefined>;
}

export class DocumentChecks implements vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  /** The newest outline each document had: answered while a newer version is being checked. */
  private readonly lastOutline = new Map<string, DocumentOutline>();

  constructor(private readonly background: BackgroundChecker | undefined) {}

  /**
   * The check of the document as it is now, or undefined when an edit made it stale before it
   * finished (the newer version's check follows).
   */
  check(document: vscode.TextDocument): Promise<CheckedDocument | undefined> {
    const key = document.uri.toString();
    const known = this.entries.get(key);
    if (known?.version === document.version) return known.checked;
    const checked = this.checkText(key, document.getText(), optionsFor(document));
    this.entries.set(key, { version: document.version, checked });
    return checked;
  }

  /** The outline of the document as it is now; while an edit is being checked, the last one known. */
  async outline(document: vscode.TextDocument): Promise<DocumentOutline> {
    const key = document.uri.toString();
    const checked = await this.check(document);
    if (checked) this.lastOutline.set(key, checked.outline);
    return checked?.outline ?? this.lastOutline.get(key) ?? EMPTY_OUTLINE;
  }

  /** The outline of a text that is not an open document (a file on disk), off the thread when large. */
  async outlineOfText(key: string, text: string): Promise<DocumentOutline> {
    return (await this.checkText(`${key}#text`, text, { env: {} }))?.outline ?? EMPTY_OUTLINE;
  }

  /** The plans of a text for a run (Run, Run All): in the worker thread whatever the size, so no run parses on this thread. */
  resolve(text: string, options: ResolveOptions): Promise<ResolvedFile> {
    if (!this.background) return Promise.resolve(checkText(text, options));
    return this.background.resolve(text, { ...options, env: { ...options.env } });
  }

  /** Forgets every check (the command table changed): the next ask checks again. */
  forgetAll(): void {
    for (const key of [...this.entries.keys()]) this.background?.forget(key);
    this.entries.clear();
  }

  forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.entries.delete(key);
    this.lastOutline.delete(key);
    this.background?.forget(key);
  }

  dispose(): void {
    this.entries.clear();
    this.lastOutline.clear();
    this.background?.dispose();
  }

  private checkText(key: string, text: string, options: ResolveOptions): Promise<CheckedDocument | undefined> {
    if (!this.background || text.length <= INLINE_CHECK_MAX_CHARS) return Promise.resolve(checkWithOutline(text, options));
    // The worker gets a copy of the environment: process.env itself cannot be posted.
    return this.background.check(key, text, { ...options, env: { ...options.env } });
  }
}

/** What the check of a document reads besides its text: the environment, the user's allowed variables, its folder. */
function optionsFor(document: vscode.TextDocument): ResolveOptions {
  const settings = readSettings(document.uri);
  return {
    env: process.env,
    // The same rules as a run: environment values reach commands only when the user allowed them; the user's memory limit.
    allowEnv: settings.allowEnvInCommands,
    memory: memoryLimits(settings.maxMemory),
    // `server binary NAME` names one of the machine's binaries: the names only (the paths stay with the session).
    serverBinaries: Object.keys(settings.serverBinaries),
    baseDir: document.uri.scheme === 'file' ? dirname(document.uri.fsPath) : undefined,
    // The selected target's table (plain data: it goes to the worker as is); the built-in one without it.
    commandTable: selectedCommandTable(),
  };
}

let shared: DocumentChecks | undefined;

/** The extension's one instance (diagnostics, language features, CodeLens and Test Explorer share its results). */
export function documentChecks(): DocumentChecks {
  if (!shared) {
    const script = checkWorkerPath();
    shared = new DocumentChecks(script ? new BackgroundChecker(script) : undefined);
  }
  return shared;
}

/** Ends the shared instance's worker (extension deactivation). */
export function disposeDocumentChecks(): void {
  shared?.dispose();
  shared = undefined;
}

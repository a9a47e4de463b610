// Live diagnostics for open `.rbench` documents, from the same parser and resolver the CLI uses.
import { readSettings } from './settings';
import * as vscode from 'vscode';
import { dirname } from 'node:path';
import { checkText, type ResolveOptions } from '../scenario';
import type { Diagnostic, Severity } from '../scenario/plan';
import { plainText } from './plainText';
import { BackgroundChecker, checkWorkerPath } from './backgroundCheck';

/** Documents up to this size are checked on the spot (well under 100 ms); larger ones in a worker thread. */
export const INLINE_CHECK_MAX_CHARS = 256 * 1024;

const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

export function toVscodeRange(range: Diagnostic['range']): vscode.Range {
  return new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
}

export function toVscodeDiagnostic(diagnostic: Diagnostic): vscode.Diagnostic {
  const result = new vscode.Diagnostic(toVscodeRange(diagnostic.range), plainText(diagnostic.message), SEVERITY[diagnostic.severity]);
  result.source = 'rbench';
  result.code = diagnostic.code;
  return result;
}

export function registerDiagnostics(context: vscode.ExtensionContext): vscode.DiagnosticCollection {
  const collection = vscode.languages.createDiagnosticCollection('rbench');
  const pending = new Map<string, NodeJS.Timeout>();
  const script = checkWorkerPath();
  const background = script ? new BackgroundChecker(script) : undefined;
  const refresh = (document: vscode.TextDocument) => {
    if (document.languageId !== 'rbench') return;
    const text = document.getText();
    const options: ResolveOptions = {
      env: process.env,
      // The same rule as a run: environment values reach commands only when the user allowed them.
      allowEnv: readSettings(document.uri).allowEnvInCommands,
      baseDir: document.uri.scheme === 'file' ? dirname(document.uri.fsPath) : undefined,
    };
    if (!background || text.length <= INLINE_CHECK_MAX_CHARS) {
      collection.set(document.uri, checkText(text, options).diagnostics.map(toVscodeDiagnostic));
      return;
    }
    // A large file: checked off the extension host's thread; a result made stale by an edit is dropped.
    const version = document.version;
    void background.check(document.uri.toString(), text, { ...options, env: { ...process.env } }).then((diagnostics) => {
      if (diagnostics && !document.isClosed && document.version === version) collection.set(document.uri, diagnostics.map(toVscodeDiagnostic));
    });
  };
  // Typing fires a change per keystroke: check once the typing pauses (longer for large files).
  const refreshSoon = (document: vscode.TextDocument) => {
    const key = document.uri.toString();
    clearTimeout(pending.get(key));
    const delay = document.getText().length > INLINE_CHECK_MAX_CHARS ? 400 : 150;
    pending.set(key, setTimeout(() => {
      pending.delete(key);
      refresh(document);
    }, delay));
  };
  context.subscriptions.push(
    collection,
    vscode.workspace.onDidOpenTextDocument(refresh),
    vscode.workspace.onDidChangeTextDocument((event) => refreshSoon(event.document)),
    vscode.workspace.onDidCloseTextDocument((document) => {
      collection.delete(document.uri);
      background?.forget(document.uri.toString());
    }),
    { dispose: () => pending.forEach((timer) => clearTimeout(timer)) },
    { dispose: () => background?.dispose() },
  );
  vscode.workspace.textDocuments.forEach(refresh);
  return collection;
}

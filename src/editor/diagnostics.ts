// Live diagnostics for open `.rbench` documents, from the same parser and resolver the CLI uses.
import * as vscode from 'vscode';
import type { Diagnostic, Severity } from '../scenario/plan';
import { disposeDocumentChecks, documentChecks, INLINE_CHECK_MAX_CHARS } from './documentChecks';
import { plainText } from './plainText';
import { onDidChangeCommandTable } from './commandTables';

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
  const checks = documentChecks();
  const refresh = (document: vscode.TextDocument) => {
    if (document.languageId !== 'rbench') return;
    // A large file is checked off the extension host's thread; a result made stale by an edit is dropped.
    const version = document.version;
    void checks.check(document).then((checked) => {
      if (checked && !document.isClosed && document.version === version) collection.set(document.uri, checked.diagnostics.map(toVscodeDiagnostic));
    });
  };
  // Typing fires a change per keystroke: check once the typing pauses (longer for large files).
  const refreshSoon = (document: vscode.TextDocument) => {
    const key = document.uri.toString();
    clearTimeout(pending.get(key));
    const delay = document.getText().length > INLINE_CHECK_MAX_CHARS ? 400 : 150;
    pending.set(
      key,
      setTimeout(() => {
        pending.delete(key);
        refresh(document);
      }, delay),
    );
  };
  context.subscriptions.push(
    collection,
    vscode.workspace.onDidOpenTextDocument(refresh),
    vscode.workspace.onDidChangeTextDocument((event) => refreshSoon(event.document)),
    vscode.workspace.onDidCloseTextDocument((document) => {
      collection.delete(document.uri);
      checks.forget(document.uri);
    }),
    // Another command table (a target selected, refreshed): every open document is checked again.
    onDidChangeCommandTable(() => {
      checks.forgetAll();
      vscode.workspace.textDocuments.forEach(refresh);
    }),
    { dispose: () => pending.forEach((timer) => clearTimeout(timer)) },
    { dispose: disposeDocumentChecks },
  );
  vscode.workspace.textDocuments.forEach(refresh);
  return collection;
}

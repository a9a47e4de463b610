// Live diagnostics for open `.rbench` documents, from the same parser and resolver the CLI uses.
import { readSettings } from './settings';
import * as vscode from 'vscode';
import { dirname } from 'node:path';
import { checkText } from '../scenario';
import type { Diagnostic, Severity } from '../scenario/plan';

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
  const result = new vscode.Diagnostic(toVscodeRange(diagnostic.range), diagnostic.message, SEVERITY[diagnostic.severity]);
  result.source = 'rbench';
  result.code = diagnostic.code;
  return result;
}

export function registerDiagnostics(context: vscode.ExtensionContext): vscode.DiagnosticCollection {
  const collection = vscode.languages.createDiagnosticCollection('rbench');
  const pending = new Map<string, NodeJS.Timeout>();
  const refresh = (document: vscode.TextDocument) => {
    if (document.languageId !== 'rbench') return;
    const resolved = checkText(document.getText(), {
      env: process.env,
      // The same rule as a run: environment values reach commands only when the user allowed them.
      allowEnv: readSettings(document.uri).allowEnvInCommands,
      baseDir: document.uri.scheme === 'file' ? dirname(document.uri.fsPath) : undefined,
    });
    collection.set(document.uri, resolved.diagnostics.map(toVscodeDiagnostic));
  };
  // Typing fires a change per keystroke: check once the typing pauses.
  const refreshSoon = (document: vscode.TextDocument) => {
    const key = document.uri.toString();
    clearTimeout(pending.get(key));
    pending.set(key, setTimeout(() => {
      pending.delete(key);
      refresh(document);
    }, 150));
  };
  context.subscriptions.push(
    collection,
    vscode.workspace.onDidOpenTextDocument(refresh),
    vscode.workspace.onDidChangeTextDocument((event) => refreshSoon(event.document)),
    vscode.workspace.onDidCloseTextDocument((document) => collection.delete(document.uri)),
    { dispose: () => pending.forEach((timer) => clearTimeout(timer)) },
  );
  vscode.workspace.textDocuments.forEach(refresh);
  return collection;
}

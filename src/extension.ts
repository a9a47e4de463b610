// Wires RBench's features into VS Code. Logic lives in the modules it calls.
import type * as vscode from 'vscode';
import { registerDiagnostics } from './editor/diagnostics';
import { registerEditor, type RBenchEditorApi } from './editor';
import { registerLanguageFeatures } from './editor/language';

export function activate(context: vscode.ExtensionContext): RBenchEditorApi {
  registerDiagnostics(context);
  registerLanguageFeatures(context);
  return registerEditor(context);
}

export function deactivate(): void {}

// Wires RBench's features into VS Code. Logic lives in the modules it calls.
import type * as vscode from 'vscode';
import { registerDiagnostics } from './editor/diagnostics';

export function activate(context: vscode.ExtensionContext): void {
  registerDiagnostics(context);
}

export function deactivate(): void {}

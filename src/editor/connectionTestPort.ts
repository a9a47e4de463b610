// The port through which Test Connection and the command-table reader prepare a contact with the selected
// target: a run's gates (consent, password, network rule), implemented by RunService.prepareConnectionTest.
import type * as vscode from 'vscode';
import type { PreparedRun, RunSession } from '../runner/session';

/** Prepares the connection test through a run's gates (RunService.prepareConnectionTest). */
export type PrepareConnectionTest = (
  scope: vscode.Uri | undefined,
  own?: { text: string; line: number },
) => Promise<{ session: RunSession; prepared: PreparedRun } | { kind: 'not-run'; reason: string; message: string }>;

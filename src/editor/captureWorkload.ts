// "RBench: Capture Workload from Server…": the selected target's traffic as a scenario file, through the same
// capture module as `rbench capture` (src/capture): the target rules and consent of a run, a cancellable
// progress, the file written through the file gate where the user chose, then opened.
import * as vscode from 'vscode';
import { captureWorkload, CaptureError } from '../capture/capture';
import { captureTarget } from '../capture/captureTarget';
import { scenarioText } from '../capture/scenarioText';
import { DEFAULT_CAPTURE } from '../capture/types';
import { buildWorkload } from '../capture/workload';
import { writeFileSafely } from '../gates/files';
import { RESTRICTED_MESSAGE } from '../runner/session';
import { parseActiveTarget, secretKey } from '../runner/targets';
import { plainText } from './plainText';
import { consentConfirmer } from './sessionPorts';
import { readSettings, workspaceRoot } from './settings';

/** How long to watch: a few choices, as a capture is bounded (rbench capture --duration takes any). */
const DURATIONS = [
  { label: '30 seconds', ms: 30_000 },
  { label: '10 seconds', ms: 10_000 },
  { label: '1 minute', ms: 60_000 },
  { label: '5 minutes', ms: 300_000 },
  { label: '5 seconds', ms: 5_000 },
];

export async function captureWorkloadCommand(context: vscode.ExtensionContext): Promise<vscode.Uri | undefined> {
  if (!vscode.workspace.isTrusted) return void vscode.window.showErrorMessage(`RBench: ${RESTRICTED_MESSAGE}`);
  const settings = readSettings(vscode.workspace.workspaceFolders?.[0]?.uri);
  const active = parseActiveTarget(settings.target, settings.profiles);
  if (active.kind !== 'url' && active.kind !== 'profile') {
    const why = active.kind === 'invalid' ? active.error : 'the selected target is the throwaway local server, which has no traffic to capture';
    return void vscode.window.showErrorMessage(`RBench: ${plainText(why)} — pick a server with "RBench: Select Target".`);
  }
  const picked = await vscode.window.showQuickPick(DURATIONS, {
    title: 'Capture Workload from Server: how long to watch the traffic',
    placeHolder: 'MONITOR costs a busy server throughput: it stays off above 50k commands/s',
  });
  if (!picked) return undefined;
  const durationMs = picked.ms;
  const key = secretKey(active.kind === 'url' ? { url: active.url } : { profile: active.name });
  const target = captureTarget({
    target: settings.target ?? '',
    supplier: settings.targetSupplier,
    via: settings.targetSupplier === 'workspace' ? 'the workspace settings select it (rbench.target)' : 'you selected it (rbench.target in your settings)',
    profiles: settings.profiles,
    workspaceProfiles: settings.workspaceProfiles,
    storedPassword: key ? await context.secrets.get(key) : undefined,
    env: process.env,
  });
  if (typeof target === 'string') return void vscode.window.showErrorMessage(`RBench: ${plainText(target)}`);
  if (target.consent) {
    const ask = (message: string, options: { modal: true; detail: string }, ...buttons: string[]) =>
      vscode.window.showWarningMessage(message, options, ...buttons);
    if (!(await consentConfirmer(context.globalState, ask)(target.consent))) return undefined;
  }
  const root = workspaceRoot();
  const destination = await vscode.window.showSaveDialog({
    title: 'Save the captured workload',
    defaultUri: root ? vscode.Uri.joinPath(vscode.Uri.file(root), 'workload.rbench') : undefined,
    filters: { 'RBench scenarios': ['rbench'] },
  });
  if (!destination) return undefined;
  const written = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `RBench: capturing ${plainText(target.display)}`, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      let done = 0;
      try {
        const capture = await captureWorkload(target.connection, target.display, {
          ...DEFAULT_CAPTURE,
          durationMs,
          signal: abort.signal,
          onProgress: (fraction, message) => {
            progress.report({ message: plainText(message), increment: Math.max(0, fraction * 100 - done) });
            done = Math.max(done, fraction * 100);
          },
        });
        writeFileSafely(destination.fsPath, scenarioText(capture, buildWorkload(capture)), { userNamed: true });
        for (const note of capture.notes) void vscode.window.showWarningMessage(`RBench capture: ${plainText(note)}`);
        return capture.partial ? `partial: ${capture.partial}` : 'complete';
      } catch (error) {
        void vscode.window.showErrorMessage(
          `RBench: the capture failed: ${plainText(error instanceof CaptureError ? error.message : (error as Error).message)}`,
        );
        return undefined;
      }
    },
  );
  if (!written) return undefined;
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(destination));
  if (written !== 'complete') void vscode.window.showWarningMessage(`RBench: the capture is ${plainText(written)}`);
  return destination;
}

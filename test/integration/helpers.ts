// Helpers shared by the integration tests (they run inside the extension host).
import * as vscode from 'vscode';
import type { RBenchEditorApi } from '../../src/editor';

/** Every open tab, across editor groups. */
export function tabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs);
}

/** Polls until `find` returns something, or fails naming what it waited for and the open tabs. */
export async function waitFor<T>(what: string, find: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}; tabs: ${tabs()
          .map((t) => t.label)
          .join(', ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface ConsentAsked {
  message: string;
  detail: string;
  /** In order: VS Code makes the first its default button (Enter presses it) and adds Cancel itself. */
  buttons: string[];
}

async function editorApi(): Promise<RBenchEditorApi> {
  const extension = vscode.extensions.getExtension<RBenchEditorApi>('rbench.rbench');
  if (!extension) throw new Error('the extension is not loaded');
  return extension.activate();
}

/**
 * Under the extension test harness VS Code refuses modal dialogs, so the consent question is answered here
 * as the user's click would answer it: `Run`, or undefined for Cancel. Returns the questions asked. A batch's
 * one question (Run All, a folder) says `Run all` where a single run's says `Run`: `Run` presses it there.
 */
export async function answerConsent(answer: string | undefined): Promise<ConsentAsked[]> {
  const api = await editorApi();
  if (!api.testing) throw new Error('the extension does not run in test mode');
  const asked: ConsentAsked[] = [];
  api.testing.answerConsent(async (message, options, ...buttons) => {
    asked.push({ message, detail: options.detail, buttons });
    return answer === 'Run' && !buttons.includes('Run') && buttons.includes('Run all') ? 'Run all' : answer;
  });
  return asked;
}

/** Puts the consent dialog back. */
export async function restoreConsentDialog(): Promise<void> {
  (await editorApi()).testing?.answerConsent(undefined);
}

// Helpers shared by the integration tests (they run inside the extension host).
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';

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
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; tabs: ${tabs().map((t) => t.label).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Must match test/e2e/driver.ts. */
const DIALOG_PREFIX = 'rbench-e2e-dialog| ';

export interface DialogSeen {
  /** The dialog's whole text: message, detail and buttons. */
  text: string;
  /** The label of the button that has the focus (Enter presses it). */
  focused: string;
}

/**
 * Tells the driver (test/e2e/driver.ts, outside the extension host) how to answer the window's modal
 * dialogs from now on: click the button `answer`, press `Enter` or `Escape`, or `none`. Resolves once the
 * driver has taken the policy; `seen()` lists the dialogs answered under it.
 */
export async function answerDialogs(answer: string): Promise<{ seen(): DialogSeen[] }> {
  const log = path.join(tmpdir(), `rbench-dialogs-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.jsonl`);
  appendFileSync(log, '');
  console.log(`${DIALOG_PREFIX}${JSON.stringify({ answer, log })}`);
  const lines = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, string>) : []);
  await waitFor(`the e2e driver to take the dialog policy "${answer}"`, () => (lines().some((line) => line.policy === answer) ? true : undefined));
  return { seen: () => lines().filter((line): line is Record<string, string> & DialogSeen => typeof line.text === 'string') };
}

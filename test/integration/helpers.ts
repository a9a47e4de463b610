// Helpers shared by the integration tests (they run inside the extension host).
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

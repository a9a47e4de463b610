// The "RBench" output channel, escaped once where it is created: every line written to it (run reports,
// progress, a server's error replies, notes naming scenarios) shows control characters as text
// (src/gates/output.ts), so no caller can forget to.
import type * as vscode from 'vscode';
import { escapeControl } from '../gates/output';

/** `channel` with append, appendLine and replace escaping their text; everything else passed through. */
export function escapedOutputChannel(channel: vscode.OutputChannel): vscode.OutputChannel {
  return {
    get name() {
      return channel.name;
    },
    append: (value: string) => channel.append(escapeControl(value)),
    appendLine: (value: string) => channel.appendLine(escapeControl(value)),
    replace: (value: string) => channel.replace(escapeControl(value)),
    clear: () => channel.clear(),
    show: (columnOrPreserveFocus?: vscode.ViewColumn | boolean, preserveFocus?: boolean) =>
      typeof columnOrPreserveFocus === 'boolean' || columnOrPreserveFocus === undefined
        ? channel.show(columnOrPreserveFocus)
        : channel.show(columnOrPreserveFocus, preserveFocus),
    hide: () => channel.hide(),
    dispose: () => channel.dispose(),
  };
}

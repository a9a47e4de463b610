// What the results and comparison panels share as webview hosts: the webview's options (scripts on, local
// resources only from dist/webview), its HTML with a fresh nonce, and the save dialog for exports.
import * as vscode from 'vscode';
import { basename } from 'node:path';
import { FileGateError, writeFileSafely } from '../gates/files';
import { newNonce, panelHtml } from './html';

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview')] };
}

/** Sets the webview's options and HTML, loading the bundled `script` (`results.js`, `compare.js`). */
export function setWebviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, script: string, title: string): void {
  webview.options = webviewOptions(extensionUri);
  webview.html = panelHtml({
    cspSource: webview.cspSource,
    nonce: newNonce(),
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', script)).toString(),
    title,
  });
}

/** Asks where to save `bytes` (starting in `folder`, named `fileName`) and writes them; undefined when cancelled. */
export async function saveWithDialog(
  folder: vscode.Uri | undefined,
  fileName: string,
  filterName: string,
  extension: string,
  bytes: Uint8Array,
): Promise<vscode.Uri | undefined> {
  const target = await vscode.window.showSaveDialog({
    defaultUri: folder ? vscode.Uri.joinPath(folder, basename(fileName)) : undefined,
    filters: { [filterName]: [extension] },
    saveLabel: 'Save',
  });
  if (!target) return undefined;
  // On disk through the file gate (the user chose the path): a link's file replaced atomically, the link
  // kept; a device written in place; a folder refused.
  if (target.scheme !== 'file') await vscode.workspace.fs.writeFile(target, bytes);
  else {
    try {
      writeFileSafely(target.fsPath, bytes, { userNamed: true });
    } catch (error) {
      if (!(error instanceof FileGateError)) throw error;
      void vscode.window.showErrorMessage(`Not saved: ${error.message}`);
      return undefined;
    }
  }
  return target;
}

// First steps for someone who just installed RBench: "New Scenario File" and "Open Example Scenario…",
// offered by the empty Benchmark Runs view and by the Get Started walkthrough (package.json).
import * as vscode from 'vscode';
import { exampleSummary, NEW_SCENARIO_TEMPLATE, newScenarioFileName } from './firstStepsText';

export const FIRST_STEPS_COMMANDS = {
  newScenario: 'rbench.newScenario',
  openExample: 'rbench.openExample',
} as const;

export function registerFirstSteps(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(FIRST_STEPS_COMMANDS.newScenario, () => newScenario()),
    vscode.commands.registerCommand(FIRST_STEPS_COMMANDS.openExample, (name?: string) => openExample(context.extensionUri, name)),
  );
}

/**
 * Writes the template to benchmark.rbench (or the next free name: never over a file) in the first
 * workspace folder and opens it with the scenario's name selected; without a folder, an untitled
 * scenario. Returns the document's URI.
 */
export async function newScenario(): Promise<vscode.Uri> {
  const document = (await createInWorkspace()) ?? (await vscode.workspace.openTextDocument({ language: 'rbench', content: NEW_SCENARIO_TEMPLATE }));
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  const header = document.getText().split('\n').findIndex((line) => line.startsWith('### '));
  if (header >= 0) editor.selection = new vscode.Selection(header, 4, header, document.lineAt(header).text.length);
  return document.uri;
}

async function createInWorkspace(): Promise<vscode.TextDocument | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) return undefined;
  const taken = new Set((await vscode.workspace.fs.readDirectory(folder)).map(([name]) => name));
  const name = newScenarioFileName((candidate) => taken.has(candidate));
  if (!name) return undefined;
  const uri = vscode.Uri.joinPath(folder, name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(NEW_SCENARIO_TEMPLATE));
  return vscode.workspace.openTextDocument(uri);
}

/**
 * Opens one of the examples shipped in the extension's examples/ folder: `name` (a file name such as
 * `list-push-pop.rbench`), or the one picked from a list. Returns its URI; undefined when dismissed.
 */
export async function openExample(extensionUri: vscode.Uri, name?: string): Promise<vscode.Uri | undefined> {
  const folder = vscode.Uri.joinPath(extensionUri, 'examples');
  const files = await exampleFiles(folder);
  if (files.length === 0) {
    void vscode.window.showErrorMessage('RBench found no example scenarios in its examples folder. Reinstall the extension to restore them.');
    return undefined;
  }
  if (name !== undefined && !files.includes(name)) {
    void vscode.window.showErrorMessage(`RBench has no example named "${name}". The examples are: ${files.join(', ')}.`);
    return undefined;
  }
  const chosen = name ?? (await pickExample(folder, files));
  if (!chosen) return undefined;
  const uri = vscode.Uri.joinPath(folder, chosen);
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
  return uri;
}

async function exampleFiles(folder: vscode.Uri): Promise<string[]> {
  try {
    const entries = await vscode.workspace.fs.readDirectory(folder);
    return entries.filter(([file, type]) => file.endsWith('.rbench') && type & vscode.FileType.File).map(([file]) => file).sort();
  } catch {
    return [];
  }
}

async function pickExample(folder: vscode.Uri, files: string[]): Promise<string | undefined> {
  const items = await Promise.all(files.map(async (file) => {
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, file)));
    return { label: file, detail: exampleSummary(text) };
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Open an example scenario',
    placeHolder: 'Examples shipped with RBench: run one as it is, or File > Save As… to keep your changes',
    matchOnDetail: true,
  });
  return picked?.label;
}

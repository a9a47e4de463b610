// First steps for someone who just installed RBench: "New Scenario File" and "Open Example Scenario…",
// offered by the empty Benchmark Runs view and by the Get Started walkthrough (package.json).
import * as vscode from 'vscode';
import { dataFilesOf, exampleSummary, NEW_SCENARIO_TEMPLATE, freeScenarioFileName } from './firstStepsText';

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
  const document = await createScenarioFile('benchmark.rbench', NEW_SCENARIO_TEMPLATE);
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  const header = document
    .getText()
    .split('\n')
    .findIndex((line) => line.startsWith('### '));
  if (header >= 0) editor.selection = new vscode.Selection(header, 4, header, document.lineAt(header).text.length);
  return document.uri;
}

/** Writes `content` to `base` (or the next free name) in the first workspace folder; without one, an untitled document. */
async function createScenarioFile(base: string, content: string): Promise<vscode.TextDocument> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (folder) {
    const taken = new Set((await vscode.workspace.fs.readDirectory(folder)).map(([name]) => name));
    const name = freeScenarioFileName((candidate) => taken.has(candidate), base);
    if (name) {
      const uri = vscode.Uri.joinPath(folder, name);
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(content));
      return vscode.workspace.openTextDocument(uri);
    }
  }
  return vscode.workspace.openTextDocument({ language: 'rbench', content });
}

/**
 * Copies one of the examples shipped in the extension's examples/ folder into the workspace (never over
 * a file; untitled without a folder) and opens it: `name` (a file name such as `list-push-pop.rbench`),
 * or the one picked from a list. The copy is the user's to edit, run and commit; the installed example
 * stays as shipped. Returns the copy's URI; undefined when dismissed.
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
  const content = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, chosen)));
  const document = await createScenarioFile(chosen, content);
  await vscode.window.showTextDocument(document, { preview: false });
  if (document.uri.scheme === 'file') await copyDataFiles(folder, document.uri, dataFilesOf(content));
  return document.uri;
}

/**
 * Copies the data files an example reads (its `values from` / `fields from` files, shipped beside it) next
 * to the copy, at the same relative place: never over a file (one that differs is named in a warning).
 * The names come from RBench's own examples; the checker still refuses any that leaves the folder.
 */
async function copyDataFiles(examples: vscode.Uri, copy: vscode.Uri, files: readonly string[]): Promise<void> {
  const target = vscode.Uri.joinPath(copy, '..');
  const kept: string[] = [];
  for (const file of files) {
    if (file.split('/').some((part) => part === '..' || part === '' || part.startsWith('.'))) continue;
    let bytes: Uint8Array;
    try {
      bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(examples, file));
    } catch {
      continue;
    }
    const destination = vscode.Uri.joinPath(target, file);
    const existing = await vscode.workspace.fs.readFile(destination).then(
      (found) => found,
      () => undefined,
    );
    if (existing === undefined) {
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(destination, '..'));
      await vscode.workspace.fs.writeFile(destination, bytes);
    } else if (Buffer.compare(Buffer.from(existing), Buffer.from(bytes)) !== 0) kept.push(file);
  }
  if (kept.length > 0) {
    void vscode.window.showWarningMessage(
      `The example reads ${kept.join(', ')}: your workspace already has a different file there, which it will read. Rename yours to run the example on its own data.`,
    );
  }
}

async function exampleFiles(folder: vscode.Uri): Promise<string[]> {
  try {
    const entries = await vscode.workspace.fs.readDirectory(folder);
    return entries
      .filter(([file, type]) => file.endsWith('.rbench') && type & vscode.FileType.File)
      .map(([file]) => file)
      .sort();
  } catch {
    return [];
  }
}

async function pickExample(folder: vscode.Uri, files: string[]): Promise<string | undefined> {
  const items = await Promise.all(
    files.map(async (file) => {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, file)));
      return { label: file, detail: exampleSummary(text) };
    }),
  );
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Open an example scenario',
    placeHolder: 'Examples shipped with RBench: a copy opens in your workspace, yours to edit and run',
    matchOnDetail: true,
  });
  return picked?.label;
}

// The run commands: which scenarios a click, a menu or the palette means, handed to RunService.
import * as vscode from 'vscode';
import type { ScenarioPlan } from '../scenario';
import { scenarioFileRefusal } from '../runner/budget';
import { estimateRuns } from '../runner/estimate';
import { RESTRICTED_MESSAGE } from '../runner/session';
import { batchQuestion } from './batch';
import { documentChecks } from './documentChecks';
import type { RunOutcome, RunService, ScenarioRef } from './runService';
import { scenarioAtLine } from './scenarios';

const RBENCH_GLOB = '**/*.rbench';
const EXCLUDE_GLOB = '**/{node_modules,.git}/**';

/**
 * `rbench.runScenario`: from a CodeLens (uri, index), from a menu (uri: the scenario under the cursor
 * when that file is the active editor, else its first), or from the palette (the active editor's cursor).
 */
export async function runScenarioCommand(runs: RunService, target?: vscode.Uri | string, index?: number): Promise<RunOutcome | undefined> {
  const uri = typeof target === 'string' ? vscode.Uri.parse(target) : target;
  if (uri && typeof index === 'number') return first(await runs.runWithProgress([{ uri, index }]));
  const editor = vscode.window.activeTextEditor;
  const document = uri && editor?.document.uri.toString() !== uri.toString() ? await vscode.workspace.openTextDocument(uri) : editor?.document;
  if (!document) {
    void vscode.window.showInformationMessage('Open a .rbench file and put the cursor in a scenario to run it.');
    return undefined;
  }
  const line = editor?.document === document ? editor.selection.active.line : 0;
  const scenario = scenarioAtLine((await documentChecks().outline(document)).scenarios, line);
  if (!scenario) {
    void vscode.window.showInformationMessage(
      `${vscode.workspace.asRelativePath(document.uri)} has no scenario to run: add a "### name" line followed by commands.`,
    );
    return undefined;
  }
  return first(await runs.runWithProgress([{ uri: document.uri, index: scenario.index }]));
}

/**
 * `rbench.runFile`: every scenario of a file; from the explorer, of each selected file, and of every
 * `.rbench` file under a selected folder.
 */
export async function runFileCommand(runs: RunService, target?: vscode.Uri, selected?: vscode.Uri[]): Promise<RunOutcome[]> {
  const chosen = selected && selected.length > 0 ? selected : target ? [target] : [];
  if (chosen.length === 0) {
    const document = vscode.window.activeTextEditor?.document;
    if (document?.languageId === 'rbench') chosen.push(document.uri);
  }
  if (chosen.length === 0) {
    void vscode.window.showInformationMessage('Pick a .rbench file or a folder to run.');
    return [];
  }
  const files: vscode.Uri[] = [];
  for (const uri of chosen) files.push(...(await rbenchFilesAt(uri)));
  return runFiles(runs, files, 'the selection');
}

/** `rbench.runAll`: every scenario of every `.rbench` file in the workspace, after a question with the count and an estimate. */
export async function runAllCommand(runs: RunService): Promise<RunOutcome[]> {
  const files = await vscode.workspace.findFiles(RBENCH_GLOB, EXCLUDE_GLOB);
  return runFiles(runs, files, 'the workspace', true);
}

async function runFiles(runs: RunService, files: vscode.Uri[], where: string, ask = false): Promise<RunOutcome[]> {
  const refs: ScenarioRef[] = [];
  const plans: ScenarioPlan[] = [];
  for (const uri of sortByPath(files)) {
    const text = (await vscode.workspace.openTextDocument(uri)).getText();
    // A file past the size a run accepts is not checked here: its run says why.
    if (scenarioFileRefusal(uri.fsPath, text)) {
      refs.push({ uri, index: 0 });
      continue;
    }
    // Off this thread: a costly file never blocks the extension host.
    const resolved = await documentChecks().resolve(text, { env: process.env });
    for (const scenario of resolved.scenarios) {
      refs.push({ uri, index: scenario.index });
      plans.push(scenario);
    }
  }
  if (refs.length === 0) {
    void vscode.window.showInformationMessage(`No scenarios to run in ${where}.`);
    return [];
  }
  if (refs.length === 1) return runs.runWithProgress(refs);
  // The session refuses each run too; asking "Run 20 scenarios?" first would be a question without a choice.
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showErrorMessage(`RBench: ${RESTRICTED_MESSAGE}`);
    return [];
  }
  // Run All's question is the batch's first and only one: the count, the estimate and every remote run's effects.
  const fileCount = new Set(refs.map((ref) => ref.uri.toString())).size;
  const question = ask ? batchQuestion(refs.length, fileCount, estimateRuns(plans), where) : undefined;
  return runs.runBatch(refs, `${refs.length} scenarios in ${where}`, question);
}

/** A `.rbench` file itself, or every one under a folder. */
async function rbenchFilesAt(uri: vscode.Uri): Promise<vscode.Uri[]> {
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.type & vscode.FileType.Directory) return vscode.workspace.findFiles(new vscode.RelativePattern(uri, RBENCH_GLOB), EXCLUDE_GLOB);
  return [uri];
}

function sortByPath(uris: vscode.Uri[]): vscode.Uri[] {
  const unique = new Map(uris.map((uri) => [uri.toString(), uri]));
  return [...unique.values()].sort((a, b) => a.path.localeCompare(b.path));
}

function first(outcomes: RunOutcome[]): RunOutcome | undefined {
  return outcomes[0];
}

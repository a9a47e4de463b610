// CodeLenses above scenario headers (placement decided in codeLenses.ts). They refresh when the setting
// changes, when a run finishes and when run files appear in the runs folder.
import * as vscode from 'vscode';
import { dirname } from 'node:path';
import { baselineKey, readableBaselines, BASELINES_FILE, readBaselinesAsync, type Baselines } from '../results/baselines';
import { resolve } from 'node:path';
import { codeLensesFor, type LensSpec } from './codeLenses';
import { documentChecks } from './documentChecks';
import { scenarioRuns } from './historyModel';
import type { RunService } from './runService';
import { newestRun, recordedScenarioFile, runsFolderPlace } from './runsIndex';
import { readSettings, SECTION, workspaceRoot } from './settings';

export const COMMANDS = {
  runScenario: 'rbench.runScenario',
  cancelRun: 'rbench.cancelRun',
  runFile: 'rbench.runFile',
  openRun: 'rbench.openRunFile',
  compareRuns: 'rbench.compareRuns',
} as const;

export class ScenarioCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private watcher: vscode.FileSystemWatcher | undefined;
  private watchedFolder: string | undefined;

  constructor(private readonly runs: RunService) {
    this.disposables.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`${SECTION}.codeLens.enabled`) || event.affectsConfiguration(`${SECTION}.runsFolder`)) this.changed.fire();
      }),
      runs.onRunFinished(() => this.changed.fire()),
      // "▶ Run" turns into "Running…" and back.
      runs.onActiveRunsChanged(() => this.changed.fire()),
      { dispose: () => this.watcher?.dispose() },
    );
    // Pinning a baseline (here, in another window or with `rbench run --pin`) adds "Compare with baseline".
    const root = workspaceRoot();
    if (root) {
      const baselines = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), BASELINES_FILE));
      this.disposables.push(
        baselines,
        baselines.onDidCreate(() => this.changed.fire()),
        baselines.onDidChange(() => this.changed.fire()),
        baselines.onDidDelete(() => this.changed.fire()),
      );
    }
  }

  /** Asks the editor for fresh lenses (after a baseline was pinned, a run deleted…). */
  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const settings = readSettings(document.uri);
    if (!settings.codeLensEnabled) return [];
    const { scenarios } = await documentChecks().outline(document);
    let newestRunOf: (scenario: string) => ReturnType<typeof newestRun> = () => undefined;
    let previousRunOf: (scenario: string) => ReturnType<typeof newestRun> = () => undefined;
    let baselineOf: (scenario: string) => string | undefined = () => undefined;
    if (document.uri.scheme === 'file') {
      const root = workspaceRoot();
      const place = runsFolderPlace(settings.runsFolder, settings.runsFolderScope, root, dirname(document.uri.fsPath));
      this.watchRunsFolder(place.folder);
      const entries = await this.runs.runsIndex.entries(place.folder, place.root);
      const file = recordedScenarioFile(document.uri.fsPath, root);
      newestRunOf = (scenario) => newestRun(entries, file, scenario);
      previousRunOf = (scenario) => scenarioRuns(entries, file, scenario)[1];
      const baselines = root ? await pinnedBaselines(root) : {};
      baselineOf = (scenario) => {
        const pinned = root ? baselines[baselineKey(root, document.uri.fsPath, scenario)] : undefined;
        return pinned === undefined || !root ? undefined : resolve(root, pinned);
      };
    }
    const running = (index: number) => this.runs.isRunning({ uri: document.uri, index });
    return codeLensesFor(scenarios, newestRunOf, { enabled: true, now: Date.now(), previousRunOf, baselineOf, running }).map((spec) =>
      toCodeLens(spec, document.uri),
    );
  }

  /** Run files written by the CLI (or another window) show up without a reload. */
  private watchRunsFolder(folder: string): void {
    if (this.watchedFolder === folder) return;
    this.watcher?.dispose();
    this.watchedFolder = folder;
    this.watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), '*.rbench-run.json'));
    this.watcher.onDidCreate(() => this.changed.fire());
    this.watcher.onDidDelete((uri) => {
      this.runs.runsIndex.forget(uri.fsPath);
      this.changed.fire();
    });
  }
}

/**
 * The baselines for "Compare with baseline": none in a restricted workspace (its files are not read), else
 * read once per refresh without blocking, entries outside the workspace dropped.
 */
async function pinnedBaselines(root: string): Promise<Baselines> {
  if (!vscode.workspace.isTrusted) return {};
  try {
    return await readableBaselines(root, await readBaselinesAsync(root));
  } catch {
    return {}; // A broken or refused baselines.json: the Benchmark Runs view says so.
  }
}

function toCodeLens(spec: LensSpec, uri: vscode.Uri): vscode.CodeLens {
  const range = new vscode.Range(spec.line, 0, spec.line, 0);
  switch (spec.kind) {
    case 'run':
      return new vscode.CodeLens(range, {
        title: spec.title,
        command: COMMANDS.runScenario,
        arguments: [uri, spec.scenarioIndex],
        tooltip: 'Run this scenario',
      });
    case 'running':
      return new vscode.CodeLens(range, { title: spec.title, command: COMMANDS.cancelRun, arguments: [uri, spec.scenarioIndex], tooltip: 'Cancel this run' });
    case 'runAll':
      return new vscode.CodeLens(range, { title: spec.title, command: COMMANDS.runFile, arguments: [uri], tooltip: 'Run every scenario of this file' });
    case 'lastRun':
      return new vscode.CodeLens(range, { title: spec.title, command: COMMANDS.openRun, arguments: [vscode.Uri.file(spec.runPath)], tooltip: spec.tooltip });
    case 'compare':
      return new vscode.CodeLens(range, {
        title: spec.title,
        command: COMMANDS.compareRuns,
        arguments: [spec.runPaths.map((path) => vscode.Uri.file(path))],
        tooltip: spec.tooltip,
      });
  }
}

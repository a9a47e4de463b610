// The "Benchmark Runs" view: every run file in `rbench.runsFolder`, grouped by scenario file → scenario,
// newest first (grouping and labels in historyModel.ts). Refreshes when run files appear or go (the CLI's
// too) and when a run from the editor finishes. Actions: open, compare, compare with the baseline, pin as
// baseline (.rbench/baselines.json), reveal in the explorer, delete. Also the `rbench.compareRuns` command.
import * as vscode from 'vscode';
import { plainText } from './plainText';
import { escapeControl } from '../gates/output';
import { basename } from 'node:path';
import { BASELINES_FILE, BaselinesError, pinBaseline, readableBaselines, readBaselinesAsync, type Baselines } from '../results/baselines';
import { RUN_FILE_SUFFIX } from '../results/runFile';
import { groupRuns, oldestFirst, type HistoryFile, type HistoryRun, type HistoryScenario, type RunIcon } from './historyModel';
import { formatAge } from './runSummary';
import type { RunService } from './runService';
import { runsFolderPlace, type RunEntry, type RunsFolderPlace } from './runsIndex';
import { readSettings, SECTION, workspaceRoot } from './settings';

export const HISTORY_VIEW_ID = 'rbench.history';

export const HISTORY_COMMANDS = {
  refresh: 'rbench.history.refresh',
  open: 'rbench.history.open',
  compare: 'rbench.history.compare',
  compareWithBaseline: 'rbench.history.compareWithBaseline',
  pinBaseline: 'rbench.history.pinBaseline',
  reveal: 'rbench.history.reveal',
  delete: 'rbench.history.delete',
  showUnmeasured: 'rbench.history.showUnmeasured',
  hideUnmeasured: 'rbench.history.hideUnmeasured',
  compareRuns: 'rbench.compareRuns',
} as const;

/** The context key the view's title buttons switch on: failed attempts that measured nothing are shown. */
export const SHOWING_UNMEASURED = 'rbench.history.showingUnmeasured';

export type HistoryNode =
  { kind: 'file'; file: HistoryFile } | { kind: 'scenario'; scenario: HistoryScenario } | { kind: 'run'; run: HistoryRun; scenario: HistoryScenario };

/** Opens a comparison of run files, the reference first. */
export type CompareRuns = (paths: string[]) => void;

/** Shows a run file in one tab (the results views' ResultsPanels.showRun): a tab already showing it comes forward. */
export type ShowRun = (uri: vscode.Uri) => Promise<void>;

const ICONS: Record<RunIcon, vscode.ThemeIcon> = {
  baseline: new vscode.ThemeIcon('pinned', new vscode.ThemeColor('charts.blue')),
  passed: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  error: new vscode.ThemeIcon('warning', new vscode.ThemeColor('testing.iconErrored')),
  cancelled: new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground')),
};

export class HistoryProvider implements vscode.TreeDataProvider<HistoryNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<HistoryNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** Fires after each listing: the view's message and description follow what it found (the problem, the hidden count). */
  private readonly listed = new vscode.EventEmitter<void>();
  readonly onDidList = this.listed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed, this.listed];
  private watcher: vscode.FileSystemWatcher | undefined;
  private watchedFolder: string | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set when .rbench/baselines.json cannot be read; shown as the view's message. */
  problem: string | undefined;
  /** Failed attempts that measured nothing are listed too (the view's filter; hidden by default). */
  showUnmeasured = false;
  /** How many such attempts the last listing left out, for the view's description. */
  hidden = 0;

  constructor(private readonly runs: RunService) {
    this.disposables.push(
      runs.onRunFinished(() => this.refresh()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`${SECTION}.runsFolder`)) this.refresh();
      }),
      { dispose: () => this.watcher?.dispose() },
      { dispose: () => clearTimeout(this.refreshTimer) },
    );
    const root = workspaceRoot();
    if (root) {
      const baselines = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), BASELINES_FILE));
      this.disposables.push(
        baselines,
        baselines.onDidCreate(() => this.refresh()),
        baselines.onDidChange(() => this.refresh()),
        baselines.onDidDelete(() => this.refresh()),
      );
    }
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }

  /** Redraws the tree soon (events come in bursts: a run writes, a watcher fires, a baseline is pinned). */
  refresh(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => this.changed.fire(undefined), 100);
  }

  /** The runs folder the view follows: `rbench.runsFolder`, relative to the first workspace folder. */
  folder(): string | undefined {
    return this.place()?.folder;
  }

  /** The runs folder and the folder its files must be read inside (runsIndex.ts: runsFolderPlace). */
  place(): RunsFolderPlace | undefined {
    const root = workspaceRoot();
    if (!root && !readSettings().runsFolder) return undefined;
    const settings = readSettings(root ? vscode.Uri.file(root) : undefined);
    return runsFolderPlace(settings.runsFolder, settings.runsFolderScope, root, root ?? '.');
  }

  /** Every run file in the runs folder. */
  async entries(): Promise<RunEntry[]> {
    const place = this.place();
    if (!place) return [];
    this.watch(place.folder);
    return this.runs.runsIndex.entries(place.folder, place.root);
  }

  /** The runs grouped as the view shows them. */
  async groups(): Promise<HistoryFile[]> {
    const root = workspaceRoot();
    let baselines: Baselines = {};
    this.problem = undefined;
    // A restricted workspace's baselines.json is not read at all; a trusted one's without blocking, through the file gate.
    if (root && vscode.workspace.isTrusted) {
      try {
        baselines = await readableBaselines(root, await readBaselinesAsync(root));
      } catch (error) {
        if (!(error instanceof BaselinesError)) throw error;
        this.problem = error.message;
      }
    }
    const runsProblem = this.place()?.problem;
    if (runsProblem) this.problem = this.problem ? `${this.problem}\n${runsProblem}` : runsProblem;
    const groups = groupRuns(await this.entries(), { now: Date.now(), root, baselines, showUnmeasured: this.showUnmeasured });
    this.hidden = groups.reduce((sum, file) => sum + file.scenarios.reduce((n, scenario) => n + scenario.hidden, 0), 0);
    const unreadable = this.runs.runsIndex.unreadable;
    if (unreadable.length > 0) {
      const first = unreadable[0].message;
      const problem =
        unreadable.length === 1 ? `A run file could not be read — ${first}` : `${unreadable.length} run files could not be read; the first: ${first}`;
      this.problem = this.problem ? `${this.problem}\n${problem}` : problem;
    }
    this.listed.fire();
    return groups;
  }

  async getChildren(node?: HistoryNode): Promise<HistoryNode[]> {
    if (!node) return (await this.groups()).map((file) => ({ kind: 'file', file }));
    if (node.kind === 'file') return node.file.scenarios.map((scenario) => ({ kind: 'scenario', scenario }));
    if (node.kind === 'scenario') return node.scenario.runs.map((run) => ({ kind: 'run', run, scenario: node.scenario }));
    return [];
  }

  getTreeItem(node: HistoryNode): vscode.TreeItem {
    switch (node.kind) {
      case 'file': {
        // Labels come from run files: their control characters (bidi overrides reorder a label) are shown as text.
        const item = new vscode.TreeItem(escapeControl(node.file.label), vscode.TreeItemCollapsibleState.Expanded);
        item.iconPath = vscode.ThemeIcon.File;
        if (node.file.file) item.resourceUri = vscode.Uri.file(node.file.file);
        item.description = `${node.file.scenarios.length} scenario${node.file.scenarios.length === 1 ? '' : 's'}`;
        item.contextValue = 'rbenchFile';
        return item;
      }
      case 'scenario': {
        const { runs, baselinePath } = node.scenario;
        const item = new vscode.TreeItem(escapeControl(node.scenario.name), vscode.TreeItemCollapsibleState.Expanded);
        item.iconPath = new vscode.ThemeIcon('beaker');
        const hidden = node.scenario.hidden > 0 ? ` · ${unmeasuredCount(node.scenario.hidden)} hidden` : '';
        item.description = `${runs.length} run${runs.length === 1 ? '' : 's'}${runs[0] ? ` · last ${formatAge(Date.now() - Date.parse(runs[0].entry.finishedAt))}` : ''}${baselinePath ? ' · baseline pinned' : ''}${hidden}`;
        item.contextValue = 'rbenchScenario';
        return item;
      }
      case 'run': {
        const { run, scenario } = node;
        const item = new vscode.TreeItem(escapeControl(run.label), vscode.TreeItemCollapsibleState.None);
        item.id = run.entry.path;
        item.description = escapeControl(run.description);
        item.tooltip = escapeControl(run.tooltip);
        item.iconPath = ICONS[run.icon];
        item.resourceUri = vscode.Uri.file(run.entry.path);
        item.command = { command: HISTORY_COMMANDS.open, title: 'Open', arguments: [node] };
        // Menus key on these: a run of a scenario file can be pinned; "with baseline" needs another run pinned.
        item.contextValue = [
          'rbenchRun',
          run.entry.file !== undefined ? 'pinnable' : '',
          run.isBaseline ? 'baseline' : '',
          scenario.baselinePath && !run.isBaseline ? 'hasBaseline' : '',
        ]
          .filter(Boolean)
          .join('.');
        return item;
      }
    }
  }

  /** Run files written by the CLI (or another window), deleted or rewritten, show up without a reload. */
  private watch(folder: string): void {
    if (this.watchedFolder === folder) return;
    this.watcher?.dispose();
    this.watchedFolder = folder;
    this.watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), `*${RUN_FILE_SUFFIX}`));
    const changed = (uri: vscode.Uri) => {
      this.runs.runsIndex.forget(uri.fsPath);
      this.refresh();
    };
    this.watcher.onDidCreate(() => this.refresh());
    this.watcher.onDidChange(changed);
    this.watcher.onDidDelete(changed);
  }
}

/** `3 failed attempts that measured nothing`. */
export function unmeasuredCount(n: number): string {
  return `${n} failed attempt${n === 1 ? '' : 's'} that measured nothing`;
}

/** The run nodes a command means: the selection when the clicked node is part of it, else the clicked node. */
function runNodes(
  node: HistoryNode | undefined,
  selected: readonly HistoryNode[] | undefined,
  view: vscode.TreeView<HistoryNode>,
): Extract<HistoryNode, { kind: 'run' }>[] {
  const nodes = selected && selected.length > 0 ? selected : node ? [node] : view.selection;
  return nodes.flatMap((n) =>
    n.kind === 'run' ? [n] : n.kind === 'scenario' ? n.scenario.runs.slice(0, 2).map((run) => ({ kind: 'run' as const, run, scenario: n.scenario })) : [],
  );
}

function isRunFile(uri: vscode.Uri): boolean {
  return uri.scheme === 'file' && uri.path.endsWith(RUN_FILE_SUFFIX);
}

/**
 * `rbench.compareRuns`: from a CodeLens (one array of run files, the reference first), from the explorer
 * (the clicked file and the selection: compared oldest first), or from the palette (a multi-pick over
 * the history). Returns the run files compared, reference first (nothing when cancelled).
 */
export async function compareRunsCommand(
  provider: HistoryProvider,
  compare: CompareRuns,
  target?: vscode.Uri | vscode.Uri[],
  selected?: vscode.Uri[],
): Promise<string[]> {
  let paths: string[];
  if (Array.isArray(target)) {
    paths = target.filter(isRunFile).map((uri) => uri.fsPath);
  } else {
    const chosen = (selected && selected.length > 0 ? selected : target ? [target] : []).filter(isRunFile);
    paths = oldestFirst(chosen.map((uri) => ({ id: basename(uri.fsPath, RUN_FILE_SUFFIX), path: uri.fsPath }))).map((c) => c.path);
  }
  if (paths.length < 2) {
    const entries = (await provider.entries()).sort((a, b) => (a.id < b.id ? 1 : -1));
    if (entries.length < 2) {
      void vscode.window.showInformationMessage(
        `Comparing needs two runs or more; ${entries.length === 0 ? 'there are none' : 'there is one'} in ${provider.folder() ?? 'the runs folder'}.`,
      );
      return [];
    }
    const now = Date.now();
    const picked = await vscode.window.showQuickPick(
      entries.map((entry) => ({
        label: escapeControl(entry.named ?? entry.headline),
        description: escapeControl(`${entry.scenario} · ${formatAge(now - Date.parse(entry.finishedAt))}`),
        detail: escapeControl(`${entry.file ?? 'no scenario file'} — ${basename(entry.path)}`),
        picked: paths.includes(entry.path),
        entry,
      })),
      {
        canPickMany: true,
        title: 'Compare runs',
        placeHolder: 'Pick two runs or more (the oldest is the reference)',
        matchOnDescription: true,
        matchOnDetail: true,
      },
    );
    if (!picked) return [];
    if (picked.length < 2) {
      void vscode.window.showInformationMessage('Pick two runs or more to compare.');
      return [];
    }
    paths = oldestFirst(picked.map((item) => item.entry)).map((entry) => entry.path);
  }
  compare(paths);
  return paths;
}

export interface HistoryApi {
  provider: HistoryProvider;
  view: vscode.TreeView<HistoryNode>;
}

export function registerHistory(
  context: vscode.ExtensionContext,
  runs: RunService,
  compare: CompareRuns,
  onBaselinePinned: () => void,
  showRun: ShowRun,
): HistoryApi {
  const provider = new HistoryProvider(runs);
  const view = vscode.window.createTreeView(HISTORY_VIEW_ID, { treeDataProvider: provider, canSelectMany: true, showCollapseAll: true });
  const command = vscode.commands.registerCommand;
  const showProblem = () => {
    view.message = provider.problem;
    view.description = provider.hidden > 0 ? `${unmeasuredCount(provider.hidden)} hidden` : undefined;
  };
  const setShowUnmeasured = (show: boolean) => {
    provider.showUnmeasured = show;
    void vscode.commands.executeCommand('setContext', SHOWING_UNMEASURED, show);
    provider.refresh();
  };
  // Ages in descriptions ("2 min ago") go stale: redraw once a minute while the view is visible.
  const ageTimer = setInterval(() => {
    if (view.visible) provider.refresh();
  }, 60_000);

  context.subscriptions.push(
    provider,
    view,
    { dispose: () => clearInterval(ageTimer) },
    provider.onDidChangeTreeData(() => setTimeout(showProblem, 200)),
    provider.onDidList(showProblem),
    command(HISTORY_COMMANDS.refresh, () => provider.refresh()),
    command(HISTORY_COMMANDS.showUnmeasured, () => setShowUnmeasured(true)),
    command(HISTORY_COMMANDS.hideUnmeasured, () => setShowUnmeasured(false)),
    command(HISTORY_COMMANDS.open, async (node?: HistoryNode) => {
      const [run] = runNodes(node, undefined, view);
      if (run) await showRun(vscode.Uri.file(run.run.entry.path));
    }),
    command(HISTORY_COMMANDS.compare, (node?: HistoryNode, selected?: HistoryNode[]) => {
      const nodes = runNodes(node, selected, view);
      // One run of a `sweep server` scenario compares its server setups (the panel expands it).
      if (nodes.length === 1 && nodes[0].run.entry.serverSweep) {
        compare([nodes[0].run.entry.path]);
        return [nodes[0].run.entry.path];
      }
      if (nodes.length < 2) {
        void vscode.window.showInformationMessage('Select two runs or more to compare (Ctrl/Cmd+click in the Benchmark Runs view).');
        return [];
      }
      const paths = oldestFirst(nodes.map((n) => n.run.entry)).map((entry) => entry.path);
      compare([...new Set(paths)]);
      return paths;
    }),
    command(HISTORY_COMMANDS.compareWithBaseline, (node?: HistoryNode) => {
      const [run] = runNodes(node, undefined, view);
      if (!run) return [];
      const baseline = run.scenario.baselinePath;
      if (!baseline) {
        void vscode.window.showInformationMessage(plainText(`No baseline is pinned for "${run.scenario.name}": use Pin as Baseline on one of its runs.`));
        return [];
      }
      if (run.run.isBaseline) {
        void vscode.window.showInformationMessage('This run is the baseline: pick another run of the scenario to compare with it.');
        return [];
      }
      const paths = [baseline, run.run.entry.path];
      compare(paths);
      return paths;
    }),
    command(HISTORY_COMMANDS.pinBaseline, (node?: HistoryNode) => {
      const [run] = runNodes(node, undefined, view);
      const root = workspaceRoot();
      if (!run) return undefined;
      if (!root || run.run.entry.file === undefined) {
        void vscode.window.showWarningMessage(
          'A baseline is pinned per scenario file in the workspace: this run names no scenario file, or no folder is open.',
        );
        return undefined;
      }
      let pinned;
      try {
        pinned = pinBaseline(root, { scenarioFile: run.run.entry.file, scenarioName: run.scenario.name, runFile: run.run.entry.path });
      } catch (error) {
        if (!(error instanceof BaselinesError)) throw error;
        void vscode.window.showErrorMessage(`Not pinned: ${error.message}`);
        return undefined;
      }
      provider.refresh();
      onBaselinePinned();
      void vscode.window.showInformationMessage(plainText(`Pinned ${pinned.runFile} as the baseline of ${pinned.key} in ${BASELINES_FILE}.`));
      return pinned;
    }),
    command(HISTORY_COMMANDS.reveal, async (node?: HistoryNode) => {
      const [run] = runNodes(node, undefined, view);
      if (run) await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(run.run.entry.path));
    }),
    command(HISTORY_COMMANDS.delete, async (node?: HistoryNode, selected?: HistoryNode[]) => {
      // Only runs picked one by one: deleting never expands a scenario into its runs.
      const nodes = (selected && selected.length > 0 ? selected : node ? [node] : view.selection).filter(
        (n): n is Extract<HistoryNode, { kind: 'run' }> => n.kind === 'run',
      );
      if (nodes.length === 0) return 0;
      const pinned = nodes.filter((n) => n.run.isBaseline).length;
      const answer = await vscode.window.showWarningMessage(
        nodes.length === 1 ? plainText(`Delete the run file ${basename(nodes[0].run.entry.path)}?`) : `Delete ${nodes.length} run files?`,
        {
          modal: true,
          detail: `They go to the trash.${pinned ? ' A pinned baseline is among them: its entry in .rbench/baselines.json will point at a missing file.' : ''}`,
        },
        'Move to Trash',
      );
      if (answer !== 'Move to Trash') return 0;
      for (const n of nodes) {
        await vscode.workspace.fs.delete(vscode.Uri.file(n.run.entry.path), { useTrash: true });
        runs.runsIndex.forget(n.run.entry.path);
      }
      provider.refresh();
      return nodes.length;
    }),
    command(HISTORY_COMMANDS.compareRuns, (target?: vscode.Uri | vscode.Uri[], selected?: vscode.Uri[]) =>
      compareRunsCommand(provider, compare, target, selected),
    ),
  );
  return { provider, view };
}

// The results views in VS Code: one reused panel per scenario that follows a run live and then shows its
// run file; a read-only custom editor for *.rbench-run.json; a serializer that restores panels after a
// window reload. The webview renders (webview/results.ts); this side owns files, dialogs and the clipboard,
// and checks every message the webview sends.
import { escapeControl } from '../gates/output';
import * as vscode from 'vscode';
import { persistenceEvents } from '../redis/monitor';
import { parseRunFileText, readRunFileTextAsync, RunFileError, slug, type RunFile } from '../results/runFile';
import { runFileSizeProblem } from '../results/runFileSchema';
import type { RunProgress } from '../runner/runScenario';
import type { ScenarioPlan } from '../scenario/plan';
import { exportContent, exportFileName, pngBytes } from './exportFiles';
import { FocusReturn } from './focusReturn';
import { saveWithDialog, setWebviewHtml, webviewOptions } from './webviewHost';
import { parsePanelState, parseWebviewMessage, type ChartColoursReport, type HostMessage, type WebviewMessage } from './messages';
import { applyProgress, buildLiveViewModel, newLiveRun, panelKeyId, type LiveRunState, type PanelKey, type StampedProgress } from './model';
import { scenarioCandidates } from './scenarioLink';

export const RESULTS_PANEL_VIEW_TYPE = 'rbench.results';
export const RUN_FILE_EDITOR_VIEW_TYPE = 'rbench.runViewer';
export const OPEN_RUN_FILE_AS_JSON_COMMAND = 'rbench.openRunFileAsJson';
/** Live panels get at most one update a second. */
const FLUSH_INTERVAL_MS = 1000;

/** What one webview shows: a run file, or a run in progress. */
interface ViewSource {
  run?: RunFile;
  /** The run file on disk. */
  path?: string;
  live?: LiveRunState;
  /** Progress not yet sent to the webview. */
  pending: StampedProgress[];
  /** Date.now() when the live run started. */
  liveStartMs: number;
  error?: string;
}

function setHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): void {
  setWebviewHtml(webview, extensionUri, 'results.js', title);
}

async function readRun(uri: vscode.Uri): Promise<RunFile> {
  // A file on disk through the file gate: a regular file only, at most 64 MB, never blocking (a FIFO or a
  // device named like a run file cannot hang the extension host).
  if (uri.scheme === 'file') return parseRunFileText(await readRunFileTextAsync(uri.fsPath, { userNamed: true }), uri.fsPath);
  const tooLarge = runFileSizeProblem((await vscode.workspace.fs.stat(uri)).size, uri.fsPath);
  if (tooLarge) throw new RunFileError(tooLarge);
  const bytes = await vscode.workspace.fs.readFile(uri);
  return parseRunFileText(Buffer.from(bytes).toString('utf8'), uri.fsPath);
}

/** The last chart colours the panels reported, newest last (a few: the extension's tests read them). */
const drawnColours: ChartColoursReport[] = [];
function noteDrawnColours(report: ChartColoursReport): void {
  drawnColours.push(report);
  if (drawnColours.length > 20) drawnColours.shift();
}
export const drawnChartColours = (): readonly ChartColoursReport[] => [...drawnColours];

/** Connects one webview to its source: answers `ready`, runs exports, opens files. */
class ResultsWebview implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private ready = false;

  /** Called when the webview has loaded and asked for its content. */
  onReady: (() => void) | undefined;

  constructor(
    readonly webview: vscode.Webview,
    readonly source: ViewSource,
  ) {
    this.subscriptions.push(webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw)));
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }

  post(message: HostMessage): void {
    if (this.ready) void this.webview.postMessage(message);
  }

  /** Sends everything the webview should show now (after `ready`, or when the source changes). */
  sendAll(): void {
    if (!this.ready) return;
    const { run, path, live, error } = this.source;
    this.source.pending = [];
    if (error) void this.webview.postMessage({ type: 'error', message: error } satisfies HostMessage);
    else if (run) void this.webview.postMessage({ type: 'run', run, path } satisfies HostMessage);
    else if (live) void this.webview.postMessage({ type: 'live', state: live } satisfies HostMessage);
  }

  /** Sends queued live progress, if any. */
  flush(): void {
    const { live, pending } = this.source;
    if (!this.ready || !live || pending.length === 0) return;
    this.source.pending = [];
    void this.webview.postMessage({ type: 'progress', events: pending, serverEvents: live.events, target: live.target } satisfies HostMessage);
  }

  private async receive(raw: unknown): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (!message) return; // Not a message this panel sends: ignored.
    try {
      await this.handle(message);
    } catch (error) {
      this.post({ type: 'notice', text: `Failed: ${(error as Error).message}` });
    }
  }

  private async handle(message: WebviewMessage): Promise<void> {
    const { run, path, live } = this.source;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.onReady?.();
        this.sendAll();
        return;
      case 'export': {
        const rows = live && !run ? buildLiveViewModel(live).rows : undefined;
        const content = exportContent(message.format, { run, rows }, message.sort);
        if (!content) {
          this.post({ type: 'notice', text: 'The run file is written when the run ends.' });
          return;
        }
        const what = message.format === 'json' ? 'run' : message.format === 'csv' ? 'CSV' : 'Markdown';
        if (message.to === 'clipboard') {
          await vscode.env.clipboard.writeText(content.text);
          this.post({ type: 'notice', text: `Copied the ${message.format === 'json' ? 'run' : 'table'} as ${what}.` });
          return;
        }
        const saved = await this.saveAs(
          exportFileName(run?.id, slug(run?.scenario.name ?? live?.plan.name ?? 'scenario'), message.format === 'json' ? '' : 'table', content.extension),
          content.filterName,
          content.extension,
          Buffer.from(content.text, 'utf8'),
        );
        if (saved) this.post({ type: 'notice', text: `Saved ${vscode.workspace.asRelativePath(saved)}.` });
        return;
      }
      case 'save-png': {
        const bytes = pngBytes(message.dataUrl);
        if (!bytes) return;
        const saved = await this.saveAs(
          exportFileName(run?.id, slug(run?.scenario.name ?? live?.plan.name ?? 'scenario'), message.chart, 'png'),
          'PNG image',
          'png',
          bytes,
        );
        if (saved) this.post({ type: 'notice', text: `Saved ${vscode.workspace.asRelativePath(saved)}.` });
        return;
      }
      case 'open-raw':
        // Through the command: in the run viewer the JSON takes the viewer's tab.
        if (path) await vscode.commands.executeCommand(OPEN_RUN_FILE_AS_JSON_COMMAND, vscode.Uri.file(path));
        return;
      case 'chart-colours':
        noteDrawnColours(message);
        return;
      case 'open-scenario': {
        const file = run?.scenario.file ?? live?.file;
        const uri = file ? await locateScenario(file) : undefined;
        if (uri) await vscode.window.showTextDocument(uri);
        else this.post({ type: 'notice', text: `Cannot open the scenario file ${file ?? ''}: only .rbench files inside the workspace open from a run.` });
        return;
      }
    }
  }

  private async saveAs(fileName: string, filterName: string, extension: string, bytes: Uint8Array): Promise<vscode.Uri | undefined> {
    const folder = this.source.path ? vscode.Uri.file(this.source.path.replace(/[^/\\]+$/, '')) : vscode.workspace.workspaceFolders?.[0]?.uri;
    return saveWithDialog(folder, fileName, filterName, extension, bytes);
  }
}

/** The scenario file a run names: absolute, or relative to a workspace folder. */
async function locateScenario(file: string): Promise<vscode.Uri | undefined> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
  for (const candidate of scenarioCandidates(file, folders).map((path) => vscode.Uri.file(path))) {
    try {
      await vscode.workspace.fs.stat(candidate);
      return candidate;
    } catch {
      // Not here; try the next folder.
    }
  }
  return undefined;
}

interface PanelEntry {
  key: PanelKey;
  panel: vscode.WebviewPanel;
  view: ResultsWebview;
  timer?: ReturnType<typeof setInterval>;
}

/** The editor that had focus: its document and group (the editor object itself can go stale). */
interface EditorPlace {
  document: vscode.TextDocument;
  viewColumn?: vscode.ViewColumn;
}

function focusedEditor(): EditorPlace | undefined {
  const editor = vscode.window.activeTextEditor;
  // Only when focus is in the editor area: a run from the Test Explorer leaves the view alone.
  if (!editor || editor.viewColumn !== vscode.window.tabGroups.activeTabGroup.viewColumn) return undefined;
  return { document: editor.document, viewColumn: editor.viewColumn };
}

/** The per-scenario results panels. The editor's run service calls runStarted / progress / runFinished. */
export class ResultsPanels implements vscode.Disposable {
  private readonly panels = new Map<string, PanelEntry>();
  /** Where keyboard focus goes back to if opening a panel takes it (the panel opened last). */
  private readonly focus = new FocusReturn<EditorPlace>();
  private loading: PanelEntry | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly context: vscode.ExtensionContext) {
    // Opening a webview in the results group can activate that group, and a loading webview can take
    // focus: either way the active group changes, and the editor the run came from gets it back.
    this.subscriptions = [
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.keepFocus()),
      vscode.window.onDidChangeActiveTextEditor(() => this.keepFocus()),
    ];
  }

  private keepFocus(): void {
    const active = vscode.window.tabGroups.activeTabGroup.viewColumn;
    const back = this.focus.returnTo();
    if (back && active !== back.viewColumn) void vscode.window.showTextDocument(back.document, { viewColumn: back.viewColumn, preserveFocus: false });
  }

  /** Opens (or reuses) the scenario's panel and shows the run from its start. */
  runStarted(key: PanelKey, plan: ScenarioPlan, options: { target?: LiveRunState['target'] } = {}): void {
    const entry = this.panelFor(key, true);
    const source = entry.view.source;
    source.run = undefined;
    source.path = undefined;
    source.error = undefined;
    source.liveStartMs = Date.now();
    source.live = newLiveRun(plan, new Date(source.liveStartMs).toISOString(), { file: key.file, target: options.target });
    source.pending = [];
    entry.panel.title = escapeControl(`${plan.name} · running`);
    entry.view.sendAll();
    if (!entry.timer) entry.timer = setInterval(() => entry.view.flush(), FLUSH_INTERVAL_MS);
  }

  /** Records a progress event; the panel gets the batch within a second. */
  progress(key: PanelKey, event: RunProgress): void {
    const entry = this.panels.get(panelKeyId(key));
    const source = entry?.view.source;
    if (!entry || !source?.live) return;
    const stamped: StampedProgress = { atMs: Date.now() - source.liveStartMs, event };
    applyProgress(source.live, stamped);
    if (event.kind === 'server-sample') source.live.events = persistenceEvents(source.live.samples);
    source.pending.push(stamped);
    // A test starting or ending goes out at once, as the notification's does: batching it for a second left the panel a test behind.
    if (event.kind === 'load-start' || event.kind === 'load-end') entry.view.flush();
  }

  /**
   * Shows the finished run (its file written at `path`) in the scenario's panel, opening one if it was closed.
   * A run whose file could not be saved still shows, with `saveError` as a notice.
   */
  runFinished(key: PanelKey, run: RunFile, path: string | undefined, saveError?: string): void {
    const entry = this.panelFor(key, false);
    this.stopTimer(entry);
    const source = entry.view.source;
    source.live = undefined;
    source.pending = [];
    source.error = undefined;
    source.run = run;
    source.path = path;
    entry.panel.title = escapeControl(runTabTitle(run));
    entry.view.sendAll();
    void vscode.commands.executeCommand('setContext', RESULTS_SHOWN_CONTEXT, true);
    if (saveError) entry.view.post({ type: 'notice', text: `Not saved: ${saveError}` });
  }

  /**
   * Shows a finished run's file in one tab: the results panel or the run viewer tab already showing it comes
   * forward (opening the viewer beside a panel showed the same run twice), else the run viewer opens it.
   */
  async showRun(uri: vscode.Uri): Promise<void> {
    const shown = [...this.panels.values()].find(({ view }) => view.source.run && !view.source.live && view.source.path === uri.fsPath);
    if (shown) {
      shown.panel.reveal(shown.panel.viewColumn);
      return;
    }
    // With a column the viewer's tab in that group comes forward; without one VS Code opens another in the active group.
    const [tab] = runViewerTabs(uri);
    await vscode.commands.executeCommand('vscode.openWith', uri, RUN_FILE_EDITOR_VIEW_TYPE, tab ? { viewColumn: tab.group.viewColumn } : undefined);
  }

  /** Restores a panel after a window reload from the state its webview saved. */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const { runPath, key } = parsePanelState(state);
    const entry = this.adopt(panel, key ?? { scenario: panel.title });
    const source = entry.view.source;
    if (runPath) {
      try {
        source.run = await readRun(vscode.Uri.file(runPath));
        source.path = runPath;
      } catch (error) {
        source.error = (error as Error).message;
      }
    } else {
      source.error = 'This panel followed a run when the window reloaded; the run stopped with the window, so there are no results to show.';
    }
    entry.view.sendAll();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    for (const entry of [...this.panels.values()]) entry.panel.dispose();
    this.panels.clear();
  }

  private panelFor(key: PanelKey, reveal: boolean): PanelEntry {
    const existing = this.panels.get(panelKeyId(key));
    const focus = focusedEditor();
    if (existing) {
      if (reveal) {
        // Already loaded: only the reveal itself may move focus.
        this.loading = existing;
        this.focus.opened(focus);
        this.focus.ready();
        existing.panel.reveal(undefined, true);
      }
      return existing;
    }
    this.focus.opened(focus);
    const panel = vscode.window.createWebviewPanel(
      RESULTS_PANEL_VIEW_TYPE,
      escapeControl(key.scenario),
      { viewColumn: this.resultsColumn(focus?.viewColumn), preserveFocus: true },
      { ...webviewOptions(this.context.extensionUri), retainContextWhenHidden: true, enableFindWidget: true },
    );
    const entry = this.adopt(panel, key);
    this.loading = entry;
    entry.view.onReady = () => {
      // Only the panel opened last counts: its load is the one focus is guarded for.
      if (this.loading === entry) this.focus.ready();
    };
    return entry;
  }

  /** One results group: where the other results panels are (unless that is the scenario's group), else beside the editor. */
  private resultsColumn(editorColumn: vscode.ViewColumn | undefined): vscode.ViewColumn {
    for (const { panel } of this.panels.values()) if (panel.viewColumn !== undefined && panel.viewColumn !== editorColumn) return panel.viewColumn;
    return vscode.ViewColumn.Beside;
  }

  private adopt(panel: vscode.WebviewPanel, key: PanelKey): PanelEntry {
    const id = panelKeyId(key);
    const view = new ResultsWebview(panel.webview, { pending: [], liveStartMs: 0 });
    const entry: PanelEntry = { key, panel, view };
    setHtml(panel.webview, this.context.extensionUri, panel.title);
    this.panels.set(id, entry);
    panel.onDidDispose(() => {
      if (this.loading === entry) this.loading = undefined;
      this.stopTimer(entry);
      view.dispose();
      if (this.panels.get(id) === entry) this.panels.delete(id);
    });
    return entry;
  }

  private stopTimer(entry: PanelEntry): void {
    if (entry.timer) clearInterval(entry.timer);
    entry.timer = undefined;
  }
}

/** Set once a results panel has shown a finished run: the walkthrough's "Read the results panel" step completes on it. */
export const RESULTS_SHOWN_CONTEXT = 'rbench.resultsShown';

/** `SET and GET · 12-01 09:50`: a tab named by its scenario and when it ran. */
export function runTabTitle(run: Pick<RunFile, 'scenario' | 'startedAt'>): string {
  const started = new Date(run.startedAt);
  const pad = (n: number) => String(n).padStart(2, '0');
  const when = Number.isNaN(started.getTime())
    ? run.startedAt
    : `${pad(started.getMonth() + 1)}-${pad(started.getDate())} ${pad(started.getHours())}:${pad(started.getMinutes())}`;
  return `${run.scenario.name} · ${when}`;
}

/** The run viewer's tabs of a run file. */
function runViewerTabs(uri: vscode.Uri): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) =>
    group.tabs.filter(
      (tab) => tab.input instanceof vscode.TabInputCustom && tab.input.viewType === RUN_FILE_EDITOR_VIEW_TYPE && tab.input.uri.toString() === uri.toString(),
    ),
  );
}

/** Opens *.rbench-run.json files in the results view (read-only). */
export class RunFileEditorProvider implements vscode.CustomReadonlyEditorProvider {
  /** The run file of the custom editor last focused (for "Open as JSON" from the title bar). */
  activeUri: vscode.Uri | undefined;

  constructor(private readonly context: vscode.ExtensionContext) {}

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    const view = new ResultsWebview(panel.webview, { pending: [], liveStartMs: 0, path: document.uri.scheme === 'file' ? document.uri.fsPath : undefined });
    setHtml(panel.webview, this.context.extensionUri, document.uri.path.split('/').pop() ?? 'RBench run');
    const load = async () => {
      try {
        view.source.run = await readRun(document.uri);
        view.source.error = undefined;
        // The scenario and when it ran, not the run file's long name (VS Code may keep the file name on the tab; the panel's own title says it).
        panel.title = escapeControl(runTabTitle(view.source.run));
        void vscode.commands.executeCommand('setContext', RESULTS_SHOWN_CONTEXT, true);
      } catch (error) {
        view.source.error = (error as Error).message;
      }
      view.sendAll();
    };
    // A re-run can rewrite the file; show the new content.
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.joinPath(document.uri, '..'), document.uri.path.split('/').pop() ?? '*'),
    );
    const track = () => {
      if (panel.active) this.activeUri = document.uri;
    };
    track();
    const subscriptions = [watcher, watcher.onDidChange(() => void load()), watcher.onDidCreate(() => void load()), panel.onDidChangeViewState(track)];
    panel.onDidDispose(() => {
      for (const s of subscriptions) s.dispose();
      view.dispose();
      if (this.activeUri?.toString() === document.uri.toString()) this.activeUri = undefined;
    });
    await load();
  }
}

/**
 * Registers the results views: the run-file editor, the panel serializer and the "Open as JSON" command.
 * Returns the panels, for the run service to report runs to.
 */
export function registerResultsViews(context: vscode.ExtensionContext): ResultsPanels {
  const panels = new ResultsPanels(context);
  const editor = new RunFileEditorProvider(context);
  context.subscriptions.push(
    panels,
    vscode.window.registerCustomEditorProvider(RUN_FILE_EDITOR_VIEW_TYPE, editor, {
      webviewOptions: { retainContextWhenHidden: true, enableFindWidget: true },
      supportsMultipleEditorsPerDocument: true,
    }),
    vscode.window.registerWebviewPanelSerializer(RESULTS_PANEL_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state) => panels.restore(panel, state),
    }),
    vscode.commands.registerCommand(OPEN_RUN_FILE_AS_JSON_COMMAND, async (uri?: vscode.Uri) => {
      const target = uri instanceof vscode.Uri ? uri : editor.activeUri;
      if (!target) {
        void vscode.window.showInformationMessage('Open a run file (*.rbench-run.json) first.');
        return;
      }
      // The JSON takes the viewer's place (as Reopen Editor With does): two tabs of one long file name cannot be told apart.
      const viewerTabs = runViewerTabs(target);
      await vscode.commands.executeCommand('vscode.openWith', target, 'default');
      if (viewerTabs.length > 0) await vscode.window.tabGroups.close(viewerTabs, true);
    }),
  );
  return panels;
}

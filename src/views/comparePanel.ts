// The comparison panel in VS Code: one reused webview panel ("Compare: …") that shows two or more run
// files side by side. The webview renders (webview/compare.ts, from src/views/compareModel); this side
// reads the run files, owns the clipboard and the save dialogs, and checks every message the webview sends.
import { escapeControl } from '../gates/output';
import * as vscode from 'vscode';
import { dirname } from 'node:path';
import { comparisonToCsv, comparisonToMarkdown } from '../results/compareFormat';
import { readRunFile, type RunFile } from '../results/runFile';
import { comparisonOf, compareTitle } from './compareModel';
import { runsToCompare } from '../runner/serverSetups';
import { pngBytes } from './exportFiles';
import { saveWithDialog, setWebviewHtml, webviewOptions } from './webviewHost';
import { parseCompareMessage, parseCompareState, type CompareHostMessage, type CompareWebviewMessage } from './messages';

export const COMPARE_PANEL_VIEW_TYPE = 'rbench.compare';
/** Shows a run file in one tab (ResultsPanels.showRun). */
export type ShowRun = (uri: vscode.Uri) => Promise<void>;

interface Shown {
  runs: RunFile[];
  paths: string[];
  error?: string;
}

/**
 * Reads the run files; a file that cannot be read is an error message naming it. A `sweep server` run on its
 * own shows its server setups side by side (each setup opens the same run file).
 */
function readRuns(paths: readonly string[]): Shown {
  try {
    const runs = runsToCompare(paths.map((path) => readRunFile(path)));
    if (runs.length < 2) return { runs: [], paths: [...paths], error: 'Nothing to compare: pick two runs or more, or one run of a `sweep server` scenario.' };
    return { runs, paths: runs.length === paths.length ? [...paths] : runs.map(() => paths[0]) };
  } catch (error) {
    return { runs: [], paths: [...paths], error: (error as Error).message };
  }
}

export class ComparePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private subscriptions: vscode.Disposable[] = [];
  private shown: Shown = { runs: [], paths: [] };
  private ready = false;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly showRun: ShowRun,
  ) {}

  /** Compares the run files (the first is the reference) in the panel beside the editor, opening it or reusing it. */
  show(paths: readonly string[]): void {
    this.shown = readRuns(paths);
    if (!this.panel) {
      this.adopt(
        vscode.window.createWebviewPanel(COMPARE_PANEL_VIEW_TYPE, 'Compare', vscode.ViewColumn.Beside, {
          ...webviewOptions(this.extensionUri),
          retainContextWhenHidden: true,
          enableFindWidget: true,
        }),
      );
    } else {
      this.panel.reveal();
    }
    this.send();
  }

  /** Restores the panel after a window reload from the run files its webview saved. */
  restore(panel: vscode.WebviewPanel, state: unknown): void {
    this.panel?.dispose();
    const { paths } = parseCompareState(state);
    this.shown = paths.length > 0 ? readRuns(paths) : { runs: [], paths: [], error: 'Nothing to compare: pick runs in the Benchmark Runs view.' };
    this.adopt(panel);
  }

  dispose(): void {
    this.panel?.dispose();
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    this.ready = false;
    setWebviewHtml(panel.webview, this.extensionUri, 'compare.js', 'RBench comparison');
    this.subscriptions = [panel.webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw))];
    panel.onDidDispose(() => {
      for (const s of this.subscriptions) s.dispose();
      if (this.panel === panel) this.panel = undefined;
    });
    this.updateTitle();
  }

  private updateTitle(): void {
    if (this.panel) this.panel.title = this.shown.runs.length > 0 ? escapeControl(compareTitle(this.shown.runs)) : 'Compare';
  }

  private post(message: CompareHostMessage): void {
    if (this.ready) void this.panel?.webview.postMessage(message);
  }

  private send(): void {
    this.updateTitle();
    const { runs, paths, error } = this.shown;
    if (error) this.post({ type: 'error', message: error });
    else this.post({ type: 'compare', runs, paths });
  }

  private async receive(raw: unknown): Promise<void> {
    const message = parseCompareMessage(raw);
    if (!message) return; // Not a message this panel sends: ignored.
    try {
      await this.handle(message);
    } catch (error) {
      this.post({ type: 'notice', text: `Failed: ${(error as Error).message}` });
    }
  }

  private async handle(message: CompareWebviewMessage): Promise<void> {
    const { runs, paths } = this.shown;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.send();
        return;
      case 'export': {
        if (runs.length === 0) return;
        const comparison = comparisonOf(runs);
        const markdown = message.format === 'markdown';
        const text = markdown ? comparisonToMarkdown(comparison) : comparisonToCsv(comparison);
        if (message.to === 'clipboard') {
          await vscode.env.clipboard.writeText(text);
          this.post({ type: 'notice', text: `Copied the comparison as ${markdown ? 'Markdown' : 'CSV'}.` });
          return;
        }
        const saved = await this.saveAs(
          `${this.fileStem()}.${markdown ? 'md' : 'csv'}`,
          markdown ? 'Markdown' : 'CSV',
          markdown ? 'md' : 'csv',
          Buffer.from(text, 'utf8'),
        );
        if (saved) this.post({ type: 'notice', text: `Saved ${vscode.workspace.asRelativePath(saved)}.` });
        return;
      }
      case 'save-png': {
        const bytes = pngBytes(message.dataUrl);
        if (!bytes) return;
        const saved = await this.saveAs(`${this.fileStem()}-${message.chart}.png`, 'PNG image', 'png', bytes);
        if (saved) this.post({ type: 'notice', text: `Saved ${vscode.workspace.asRelativePath(saved)}.` });
        return;
      }
      case 'open-run': {
        const path = paths[message.index];
        if (path) await this.showRun(vscode.Uri.file(path));
        return;
      }
    }
  }

  /** `compare-<first id>-vs-<last id>`. */
  private fileStem(): string {
    const ids = this.shown.runs.map((run) => run.id);
    return `compare-${ids[0]}-vs-${ids[ids.length - 1]}`;
  }

  private async saveAs(fileName: string, filterName: string, extension: string, bytes: Uint8Array): Promise<vscode.Uri | undefined> {
    const folder = this.shown.paths[0] ? vscode.Uri.file(dirname(this.shown.paths[0])) : vscode.workspace.workspaceFolders?.[0]?.uri;
    return saveWithDialog(folder, fileName, filterName, extension, bytes);
  }
}

/** Registers the comparison panel's serializer; returns the panel for the commands that open it. */
export function registerComparePanel(context: vscode.ExtensionContext, showRun: ShowRun): ComparePanel {
  const panel = new ComparePanel(context.extensionUri, showRun);
  context.subscriptions.push(
    panel,
    vscode.window.registerWebviewPanelSerializer(COMPARE_PANEL_VIEW_TYPE, {
      deserializeWebviewPanel: async (webviewPanel, state) => panel.restore(webviewPanel, state),
    }),
  );
  return panel;
}

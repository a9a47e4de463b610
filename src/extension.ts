// Wires RBench's features into VS Code. Logic lives in the modules it calls.
import type * as vscode from 'vscode';
import { registerDiagnostics } from './editor/diagnostics';
import { registerEditor, type RBenchEditorApi } from './editor';
import { registerFirstSteps } from './editor/firstSteps';
import { registerLanguageFeatures } from './editor/language';
import { registerComparePanel } from './views/comparePanel';
import { drawnChartColours, registerResultsViews } from './views/resultsPanels';
import type { ChartColoursReport } from './views/messages';

/** The extension's API: the editor's, and in test mode what the results panels drew. */
export type RBenchApi = RBenchEditorApi & {
  readonly testing?: NonNullable<RBenchEditorApi['testing']> & {
    /** The colours the results panels' charts were drawn in, with their theme and background, newest last. */
    chartColours(): readonly ChartColoursReport[];
  };
};

export function activate(context: vscode.ExtensionContext): RBenchApi {
  registerDiagnostics(context);
  registerLanguageFeatures(context);
  registerFirstSteps(context);
  const results = registerResultsViews(context);
  const showRun = (uri: vscode.Uri) => results.showRun(uri);
  const comparison = registerComparePanel(context, showRun);
  const editor = registerEditor(context, { compare: (paths) => comparison.show(paths), showRun });
  // One results panel per scenario: opened when its run starts, fed live, finished with the run file.
  const panelKey = (uri: vscode.Uri, scenario: string) => ({ file: uri.fsPath, scenario });
  context.subscriptions.push(
    editor.onRunStarted(({ uri, plan, target }) => results.runStarted(panelKey(uri, plan.name), plan, { target })),
    editor.onRunProgress(({ uri, plan, event }) => results.progress(panelKey(uri, plan.name), event)),
    editor.onRunFinished(({ uri, run, path, saveError }) => results.runFinished(panelKey(uri, run.scenario.name), run, path, saveError)),
  );
  const { testing, ...api } = editor;
  return testing ? { ...api, testing: { ...testing, chartColours: drawnChartColours } } : api;
}

export function deactivate(): void {}

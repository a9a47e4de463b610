// Running scenarios from the editor: commands, CodeLens, Test Explorer, target status bar. Returns the
// API activate() hands out (a results view subscribes to onRunFinished; the integration tests use it too).
import * as vscode from 'vscode';
import { ScenarioCodeLensProvider } from './codeLensProvider';
import { runAllCommand, runFileCommand, runScenarioCommand } from './commands';
import { registerHistory, type CompareRuns, type HistoryApi, type ShowRun } from './history';
import { CommandTables, connectorOf } from './commandTables';
import { clearPassword, selectTarget, setPassword, TargetStatusBar, testSelectedConnection } from './connections';
import { runOnSeveralTargetsCommand } from './severalTargets';
import { RunService, type FinishedRun, type RunProgressEvent, type RunWaitingEvent, type StartedRun } from './runService';
import { ScenarioTestController } from './testController';
import { forgetRemoteAnswers, type Ask } from './sessionPorts';
import { captureWorkloadCommand } from './captureWorkload';
import { LastResults, SHOW_LAST_RESULTS_COMMAND } from './lastResults';

export interface RBenchEditorApi {
  /** Fires after each run from the editor, once its run file is written. */
  readonly onRunFinished: vscode.Event<FinishedRun>;
  readonly onRunStarted: vscode.Event<StartedRun>;
  readonly onRunProgress: vscode.Event<RunProgressEvent>;
  readonly testController: vscode.TestController;
  /** The Test Explorer's Run profile: runs test items through the same runner. */
  readonly runProfile: vscode.TestRunProfile;
  /** Runs in progress. */
  readonly runningCount: () => number;
  /** The Benchmark Runs view. */
  readonly history: HistoryApi;
  /**
   * Only when VS Code runs the extension's tests (ExtensionMode.Test), where it refuses to show modal dialogs:
   * answers the consent question in the dialog's place (undefined restores the dialog).
   */
  readonly testing?: {
    answerConsent(ask: Ask | undefined): void;
    /** What the Testing view was told (each item's states, newest last). */
    testResults(): readonly { label: string; status: string; message?: string; expected?: string; actual?: string }[];
    /** The target status bar item's text. */
    statusBarText(): string;
  };
  /** Fires when a run waits for another run of this window on the same server. */
  readonly onRunWaiting: vscode.Event<RunWaitingEvent>;
}

export interface EditorOptions {
  /** Opens the comparison of run files (the reference first). */
  compare: CompareRuns;
  /** Shows a run file in one tab: the results panel or viewer tab showing it, else the run viewer. */
  showRun: ShowRun;
}

export function registerEditor(context: vscode.ExtensionContext, options: EditorOptions): RBenchEditorApi {
  const runs = new RunService(context);
  const lenses = new ScenarioCodeLensProvider(runs);
  const tests = new ScenarioTestController(runs);
  const statusBar = new TargetStatusBar();
  // The selected target's command table for completion, hover and diagnostics, on Test Connection's path.
  const tables = new CommandTables(connectorOf((scope, own) => runs.prepareConnectionTest(scope, own)));
  void tables.update();
  const command = vscode.commands.registerCommand;
  const lastResults = new LastResults({ state: context.workspaceState, showRun: options.showRun });

  context.subscriptions.push(
    runs,
    lenses,
    tests,
    statusBar,
    tables,
    vscode.languages.registerCodeLensProvider({ language: 'rbench' }, lenses),
    runs.onActiveRunsChanged(() => void vscode.commands.executeCommand('setContext', 'rbench.running', runs.runningCount > 0)),
    command('rbench.runScenario', (target?: vscode.Uri | string, index?: number) => runScenarioCommand(runs, target, index)),
    command('rbench.runFile', (target?: vscode.Uri, selected?: vscode.Uri[]) => runFileCommand(runs, target, selected)),
    command('rbench.runAll', () => runAllCommand(runs)),
    command('rbench.runOnSeveralTargets', (target?: vscode.Uri, index?: number) =>
      runOnSeveralTargetsCommand(context, runs.output, options.compare, target, index),
    ),
    command('rbench.cancelRun', (uri?: vscode.Uri, index?: number) => {
      // From a "Running…" lens: that scenario's run; from the palette, the keybinding or the title bar: every run.
      if (uri && typeof index === 'number') return runs.cancel({ uri, index }) ? 1 : 0;
      const cancelled = runs.cancelAll();
      if (cancelled === 0) void vscode.window.showInformationMessage('No RBench run in progress.');
      return cancelled;
    }),
    command('rbench.forgetRemoteAnswers', async () => {
      const forgotten = await forgetRemoteAnswers(context.globalState, context.workspaceState);
      void vscode.window.showInformationMessage(
        forgotten === 0
          ? 'RBench remembers no answers about remote targets.'
          : `RBench forgot ${forgotten} answer${forgotten === 1 ? '' : 's'}: it asks again before running against those targets.`,
      );
      return forgotten;
    }),
    command('rbench.selectTarget', () => selectTarget()),
    command('rbench.testConnection', () => testSelectedConnection((scope, own) => runs.prepareConnectionTest(scope, own))),
    command('rbench.refreshCommandTable', () => tables.refresh()),
    command('rbench.setPassword', () => setPassword(context.secrets)),
    command('rbench.clearPassword', () => clearPassword(context.secrets)),
    command('rbench.showOutput', () => runs.output.show()),
    command('rbench.captureWorkload', () => captureWorkloadCommand(context)),
    command('rbench.openRunFile', (uri: vscode.Uri) => options.showRun(uri)),
    runs.onRunFinished(({ path }) => void lastResults.remember(path)),
    command(SHOW_LAST_RESULTS_COMMAND, () => lastResults.show()),
  );

  const history = registerHistory(context, runs, options.compare, () => lenses.refresh(), options.showRun);

  const testMode = context.extensionMode === vscode.ExtensionMode.Test;
  if (testMode) tests.recordForTests();
  const testing = testMode
    ? {
        answerConsent: (ask: Ask | undefined) => runs.answerConsentForTests(ask),
        testResults: () => [...tests.reported],
        statusBarText: () => statusBar.text,
      }
    : undefined;
  return {
    history,
    onRunFinished: runs.onRunFinished,
    onRunStarted: runs.onRunStarted,
    onRunProgress: runs.onRunProgress,
    onRunWaiting: runs.onRunWaiting,
    testController: tests.controller,
    runProfile: tests.runProfile,
    runningCount: () => runs.runningCount,
    ...(testing ? { testing } : {}),
  };
}

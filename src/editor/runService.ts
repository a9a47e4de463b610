// Runs scenarios from the editor through the same pipeline as the CLI (runner/session.ts, RunSession): picks the target,
// applies the safety checks, starts a throwaway redis-server when needed, writes the run file, reports in
// the "RBench" output channel and tells subscribers (CodeLens, Test Explorer, a results view) when done.
// The load itself runs in the engine's worker threads; this only orchestrates.
import * as vscode from 'vscode';
import { basename, dirname } from 'node:path';
import { formatLoadName, type RunProgress } from '../runner/runScenario';
import {
  RunSession,
  type FinishedRun as SessionFinishedRun,
  type NotRun as SessionNotRun,
  type NotRunReason,
  type PreparedRun as SessionRun,
  type ScenarioFile,
} from '../runner/session';
import type { ResolvedFile, ScenarioPlan } from '../scenario/plan';
import { watchHostLag, type HostLag } from './hostLag';
import { formatProgressMessage, progressLogger, ProgressIncrements, runPercent } from './progress';
import { readSettings, workspaceRoot } from './settings';
import { recordedScenarioFile, runEntry, RunsIndex, runsFolderPlace } from './runsIndex';
import { plainText } from './plainText';
import { escapedOutputChannel } from './outputChannel';
import { finishedNotice, runReport } from './runSummary';
import { batchSummary } from './batch';
import { runVerdict } from '../results/verdict';
import { consentConfirmer, storedPassword, type Ask } from './sessionPorts';
import { documentChecks } from './documentChecks';

/** One scenario of one file: the index of its `###` block (as in ScenarioPlan.index). */
/** What Test Connection sends, as a scenario: it reads and nothing else, so only a target you did not choose asks. */
const CONNECTION_TEST_SCENARIO = '### Test Connection\nrequests 1\nPING\n';

export interface ScenarioRef {
  uri: vscode.Uri;
  index: number;
}

/**
 * A finished run as the editor tells of it: the runner's outcome (the run, its run file or why it was not
 * saved) with the document it came from and the host's responsiveness.
 */
export interface FinishedRun extends Pick<SessionFinishedRun, 'run' | 'path' | 'saveError'> {
  uri: vscode.Uri;
  /** How responsive the extension host stayed while the run went on. */
  hostLag: HostLag;
}

/**
 * Not started, for one of the runner's reasons — `declined` (the user said no), `restricted` (an untrusted
 * workspace), `error` (the message says why; a scenario blocked by its file's errors counts as one here) —
 * or `busy` (already running).
 */
export interface NotRun extends Pick<SessionNotRun, 'kind' | 'message'> {
  reason: Exclude<NotRunReason, 'invalid'> | 'busy';
}

function notRun(reason: NotRun['reason'], message: string): NotRun {
  return { kind: 'not-run', reason, message };
}

/** The runner's not-run as the editor reports it. */
function editorNotRun(outcome: SessionNotRun): NotRun {
  return notRun(outcome.reason === 'invalid' ? 'error' : outcome.reason, outcome.message);
}

export interface StartedRun {
  uri: vscode.Uri;
  plan: ScenarioPlan;
  target: { display: string; local: boolean };
}

export interface RunProgressEvent {
  uri: vscode.Uri;
  plan: ScenarioPlan;
  event: RunProgress;
}

export type RunOutcome = ({ kind: 'finished' } & FinishedRun) | NotRun;

export interface RunHooks {
  signal?: AbortSignal;
  onProgress?: (event: RunProgress) => void;
}

/** A scenario checked and ready to run: what prepare() hands to execute(). */
/** A scenario file read and checked, with the session its runs go through (a session holds no run's state). */
interface CheckedFile {
  session: RunSession;
  scenario: ScenarioFile;
  resolved: ResolvedFile;
}

interface PreparedRun {
  ref: ScenarioRef;
  key: string;
  plan: ScenarioPlan;
  session: RunSession;
  prepared: SessionRun;
}

export class RunService implements vscode.Disposable {
  readonly output: vscode.OutputChannel;
  readonly runsIndex = new RunsIndex();
  private readonly finished = new vscode.EventEmitter<FinishedRun>();
  /** Fires after every run (complete, cancelled or failed) once its run file is written. */
  readonly onRunFinished = this.finished.event;
  private readonly started = new vscode.EventEmitter<StartedRun>();
  /** Fires once a run has its target and is about to start (live views open here). */
  readonly onRunStarted = this.started.event;
  private readonly progressed = new vscode.EventEmitter<RunProgressEvent>();
  /** Every progress event of every run (ticks about once a second, loads starting and ending, server samples). */
  readonly onRunProgress = this.progressed.event;
  private readonly activeRuns = new Map<string, AbortController>();
  private readonly activeChanged = new vscode.EventEmitter<void>();
  /** Fires when a run starts or ends (for the `rbench.running` context key). */
  readonly onActiveRunsChanged = this.activeChanged.event;
  /** Bumped by cancelAll(), so a batch started earlier stops instead of going on to its next scenario. */
  private cancelGeneration = 0;
  /** The consent question: a modal warning; in extension tests (no dialogs there) what the test answers. Its text comes escaped (consentConfirmer). */
  private ask: Ask = (message, options, ...buttons) => vscode.window.showWarningMessage(message, options, ...buttons);
  private readonly modalAsk = this.ask;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.output = escapedOutputChannel(vscode.window.createOutputChannel('RBench'));
  }

  /** ExtensionMode.Test only (see RBenchEditorApi.testing): VS Code refuses modal dialogs under its test harness. */
  answerConsentForTests(ask: Ask | undefined): void {
    this.ask = ask ?? this.modalAsk;
  }

  dispose(): void {
    this.cancelAll();
    this.finished.dispose();
    this.started.dispose();
    this.progressed.dispose();
    this.activeChanged.dispose();
    this.output.dispose();
  }

  get runningCount(): number {
    return this.activeRuns.size;
  }

  /** Cancels every run in progress; returns how many there were. */
  cancelAll(): number {
    this.cancelGeneration++;
    const count = this.activeRuns.size;
    for (const controller of this.activeRuns.values()) controller.abort();
    return count;
  }

  /** The command path: each scenario in turn with a cancellable progress notification, then a notification with the result. */
  async runWithProgress(refs: readonly ScenarioRef[]): Promise<RunOutcome[]> {
    const generation = this.cancelGeneration;
    const outcomes: RunOutcome[] = [];
    for (const ref of refs) {
      if (this.cancelGeneration !== generation) break;
      const prepared = await this.prepare(ref);
      if ('kind' in prepared) {
        this.announceNotRun(prepared);
        outcomes.push(prepared);
        // Restricted: every other scenario would say the same.
        if (prepared.reason === 'restricted') break;
        continue;
      }
      const outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: plainText(`RBench: ${prepared.plan.name}`), cancellable: true },
        (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          const increments = new ProgressIncrements();
          return this.execute(prepared, {
            signal: abort.signal,
            onProgress: (event) => {
              if (event.kind === 'tick') {
                progress.report({
                  message: plainText(formatProgressMessage(event.at, event.tick)),
                  increment: increments.advance(runPercent(event.at, event.tick.fraction)),
                });
              } else if (event.kind === 'load-start') {
                progress.report({ message: plainText(`${formatLoadName(event.at)} · starting`), increment: increments.advance(runPercent(event.at, 0)) });
              }
            },
          });
        },
      );
      outcomes.push(outcome);
      if (outcome.kind === 'finished') {
        this.announceFinished(outcome);
        if (outcome.run.status === 'cancelled') break;
      } else {
        this.announceNotRun(outcome);
      }
    }
    return outcomes;
  }

  /**
   * Many scenarios one after another (Run All, a folder): one cancellable progress for all of them, failures
   * noted in the output channel, and one summary at the end instead of a notification per scenario.
   */
  async runBatch(refs: readonly ScenarioRef[], title: string): Promise<RunOutcome[]> {
    const outcomes: RunOutcome[] = [];
    const generation = this.cancelGeneration;
    // Every question first, before the first run: the user answers them all up front rather than when the
    // batch reaches each scenario; equal effects ask once.
    const asked = new Map<string, boolean>();
    const checked = new Map<string, Promise<CheckedFile | NotRun>>();
    const steps: (PreparedRun | NotRun)[] = [];
    for (const ref of refs) {
      if (this.cancelGeneration !== generation) break;
      const prepared = await this.prepare(ref, asked, checked);
      steps.push(prepared);
      if ('kind' in prepared && prepared.reason === 'restricted') break;
    }
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: plainText(`RBench: ${title}`), cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        for (const [position, prepared] of steps.entries()) {
          if (abort.signal.aborted || this.cancelGeneration !== generation) break;
          const step = `${position + 1}/${steps.length}`;
          let outcome: RunOutcome;
          if ('kind' in prepared) {
            outcome = prepared;
          } else {
            progress.report({ message: plainText(`${step} ${prepared.plan.name}`), increment: 100 / steps.length });
            outcome = await this.execute(prepared, {
              signal: abort.signal,
              onProgress: (event) => {
                if (event.kind === 'tick')
                  progress.report({ message: plainText(`${step} ${prepared.plan.name} · ${formatProgressMessage(event.at, event.tick)}`) });
              },
            });
          }
          if (outcome.kind === 'not-run') this.output.appendLine(`! ${outcome.message}`);
          outcomes.push(outcome);
        }
      },
    );
    const summary = batchSummary(outcomes);
    this.output.appendLine(`\n${summary}`);
    const bad = outcomes.some((outcome) => (outcome.kind === 'not-run' ? outcome.reason !== 'declined' : runVerdict(outcome.run).kind !== 'passed'));
    const show = bad ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void show(`RBench: ${summary}`, 'Show output').then((choice) => choice && this.output.show(true));
    return outcomes;
  }

  /** Checks, then runs one scenario; the caller shows progress through `hooks` (the Test Explorer does). */
  async run(ref: ScenarioRef, hooks: RunHooks = {}): Promise<RunOutcome> {
    const prepared = await this.prepare(ref);
    return 'kind' in prepared ? prepared : this.execute(prepared, hooks);
  }

  /**
   * Reads the scenario and its target, and applies the safety checks (asking when needed). Starts nothing.
   * `checked`: a batch's files, each read and checked once however many of its scenarios the batch runs.
   */
  private async prepare(ref: ScenarioRef, asked?: Map<string, boolean>, checked?: Map<string, Promise<CheckedFile | NotRun>>): Promise<PreparedRun | NotRun> {
    const key = ref.uri.toString();
    let pending = checked?.get(key);
    if (!pending) {
      pending = this.checkFile(ref, asked);
      checked?.set(key, pending);
    }
    const file = await pending;
    if ('kind' in file) return file;
    const { session, scenario, resolved } = file;
    const plan = resolved.scenarios[ref.index];
    if (!plan) return notRun('error', `${basename(ref.uri.fsPath)} has no scenario number ${ref.index + 1} (it has ${resolved.scenarios.length})`);
    const runKeyOfRef = runKey(ref);
    if (this.activeRuns.has(runKeyOfRef)) return notRun('busy', busyMessage(plan));
    const prepared = await session.prepare(scenario, resolved, plan);
    if ('kind' in prepared) return editorNotRun(prepared);
    return { ref, key: runKeyOfRef, plan, session, prepared };
  }

  /** The scenario file's text (the open document, unsaved edits included; else the file on disk), its session and its check. */
  private async checkFile(ref: ScenarioRef, asked?: Map<string, boolean>): Promise<CheckedFile | NotRun> {
    let text: string;
    try {
      text = (await vscode.workspace.openTextDocument(ref.uri)).getText();
    } catch (error) {
      return notRun('error', `cannot read ${ref.uri.fsPath}: ${(error as Error).message}`);
    }
    const session = this.session(ref, asked);
    const baseDir = ref.uri.scheme === 'file' ? dirname(ref.uri.fsPath) : undefined;
    const scenario = {
      display: basename(ref.uri.fsPath),
      text,
      baseDir,
      recorded: ref.uri.scheme === 'file' ? recordedScenarioFile(ref.uri.fsPath, workspaceRoot()) : ref.uri.toString(),
    };
    const resolved = await session.check(scenario);
    if ('kind' in resolved) return editorNotRun(resolved);
    return { session, scenario, resolved };
  }

  /**
   * "Test Connection" goes through a run's gates: the consent (a workspace-supplied target asks first), the
   * password rules and the network rule, as a one-request read-only scenario on the selected target.
   */
  async prepareConnectionTest(scope: vscode.Uri | undefined): Promise<{ session: RunSession; prepared: SessionRun } | NotRun> {
    const uri = scope ?? vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(process.cwd());
    const session = this.session({ uri, index: 0 });
    const file = { display: 'Test Connection', text: CONNECTION_TEST_SCENARIO, recorded: 'rbench:test-connection' };
    const resolved = await session.check(file);
    if ('kind' in resolved) return editorNotRun(resolved);
    const prepared = await session.prepare(file, resolved, resolved.scenarios[0]);
    if ('kind' in prepared) return editorNotRun(prepared);
    return { session, prepared };
  }

  /** A session with this file's settings; the editor answers its questions (`asked`: the answers of one batch). */
  private session(ref: ScenarioRef, asked?: Map<string, boolean>): RunSession {
    const settings = readSettings(ref.uri);
    for (const problem of settings.profileProblems) this.output.appendLine(`! ${problem}`);
    const baseDir = ref.uri.scheme === 'file' ? dirname(ref.uri.fsPath) : process.cwd();
    const runs = runsFolderPlace(settings.runsFolder, settings.runsFolderScope, workspaceRoot(), baseDir);
    if (runs.problem) this.output.appendLine(`! ${runs.problem}`);
    return new RunSession(
      {
        env: process.env,
        allowEnv: settings.allowEnvInCommands,
        allowAdmin: settings.allowAdminCommands,
        allowDestructive: settings.allowDestructiveCommands,
        maxMemory: settings.maxMemory,
        modules: settings.localServerModules,
        trusted: vscode.workspace.isTrusted,
        userTarget: settings.target ? { value: settings.target, override: false, supplier: settings.targetSupplier } : undefined,
        profiles: settings.profiles,
        workspaceProfiles: settings.workspaceProfiles,
        runsFolder: runs.folder,
        runsFolderRoot: runs.root,
      },
      {
        // Remembered by digest in globalState: the digest names the file and every effect, and a workspace cannot write there.
        confirm: consentConfirmer(this.context.globalState, (message, options, ...buttons) => this.ask(message, options, ...buttons), asked),
        secret: storedPassword((key) => this.context.secrets.get(key)),
        log: (line) => this.output.appendLine(line),
        started: (run, target) => this.started.fire({ uri: this.uriOf(run), plan: run.plan, target }),
        progress: (run, event) => this.progressHooks.get(run)?.(event),
        // Checked in the worker thread: a large or costly file never blocks the extension host.
        check: (text, options) => documentChecks().resolve(text, options),
      },
    );
  }

  private readonly progressHooks = new Map<SessionRun, (event: RunProgress) => void>();

  private uriOf(run: SessionRun): vscode.Uri {
    for (const [prepared, uri] of this.preparedUris) if (prepared === run) return uri;
    return vscode.Uri.file(run.file.display);
  }

  private readonly preparedUris = new Map<SessionRun, vscode.Uri>();

  private async execute(prepared: PreparedRun, hooks: RunHooks): Promise<RunOutcome> {
    const { ref, key, plan, session } = prepared;
    // Checked again here, synchronously with taking the slot: two requests can both pass prepare().
    if (this.activeRuns.has(key)) return notRun('busy', busyMessage(plan));
    const controller = new AbortController();
    const forwardAbort = () => controller.abort();
    hooks.signal?.addEventListener('abort', forwardAbort);
    if (hooks.signal?.aborted) controller.abort();
    this.activeRuns.set(key, controller);
    this.activeChanged.fire();
    const logProgress = progressLogger((line) => this.output.appendLine(line));
    this.preparedUris.set(prepared.prepared, ref.uri);
    this.progressHooks.set(prepared.prepared, (event) => {
      logProgress(event);
      this.progressed.fire({ uri: ref.uri, plan, event });
      hooks.onProgress?.(event);
    });
    const lag = watchHostLag();
    try {
      const outcome = await session.execute(prepared.prepared, controller.signal);
      const hostLag = lag.stop();
      if (outcome.kind === 'not-run') return editorNotRun(outcome);
      const { run, path, saveError } = outcome;
      if (path) this.runsIndex.remember(path, runEntry(path, run));
      this.output.appendLine(runReport(run, path, hostLag.p99Ms));
      if (saveError) this.output.appendLine(`! ${saveError}`);
      const finished: FinishedRun = { uri: ref.uri, run, path, saveError, hostLag };
      this.finished.fire(finished);
      return { kind: 'finished', ...finished };
    } finally {
      lag.stop();
      this.progressHooks.delete(prepared.prepared);
      this.preparedUris.delete(prepared.prepared);
      hooks.signal?.removeEventListener('abort', forwardAbort);
      this.activeRuns.delete(key);
      this.activeChanged.fire();
    }
  }

  private announceFinished(outcome: FinishedRun): void {
    const { run, path, saveError } = outcome;
    const open = 'Open run file';
    const notice = finishedNotice(run);
    const unsaved = saveError || !path ? `${notice.text} — not saved: ${saveError ?? 'no runs folder'}` : undefined;
    notice.text = plainText(unsaved ?? notice.text);
    let shown: Thenable<string | undefined>;
    if (unsaved !== undefined) shown = vscode.window.showErrorMessage(notice.text, 'Show output');
    else if (notice.severity === 'error') shown = vscode.window.showErrorMessage(notice.text, open, 'Show output');
    else if (notice.severity === 'warning') shown = vscode.window.showWarningMessage(notice.text, open, 'Show output');
    else shown = vscode.window.showInformationMessage(notice.text, open);
    // Not awaited: the command finishes when the run does, not when the notification is dismissed.
    void shown.then((choice) => {
      if (choice === open && path) void vscode.commands.executeCommand('vscode.open', vscode.Uri.file(path));
      else if (choice === 'Show output') this.output.show(true);
    });
  }

  private announceNotRun(outcome: NotRun): void {
    if (outcome.reason === 'declined') return;
    this.output.appendLine(`! ${outcome.message}`);
    if (outcome.reason === 'busy') void vscode.window.showInformationMessage(plainText(outcome.message));
    else void vscode.window.showErrorMessage(plainText(outcome.message));
  }
}

function runKey(ref: ScenarioRef): string {
  return `${ref.uri.toString()}#${ref.index}`;
}

function busyMessage(plan: ScenarioPlan): string {
  return `"${plan.name}" is already running — wait for it, or cancel it first ("RBench: Cancel Run")`;
}

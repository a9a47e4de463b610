// Runs scenarios from the editor through the same runner as the CLI (runner/runScenario): picks the target,
// applies the safety checks, starts a throwaway redis-server when needed, writes the run file, reports in
// the "RBench" output channel and tells subscribers (CodeLens, Test Explorer, a results view) when done.
// The load itself runs in the engine's worker threads; this only orchestrates.
import * as vscode from 'vscode';
import { basename, dirname } from 'node:path';
import { startLocalServer, type LocalServer } from '../redis/localServer';
import { runScenario, type RunProgress } from '../runner/runScenario';
import { checkText } from '../scenario';
import type { ScenarioPlan } from '../scenario/plan';
import { scenarioSource } from '../scenario/source';
import { writeRunFile, type RunFile } from '../results/runFile';
import { watchHostLag, type HostLag } from './hostLag';
import { formatLoadName, formatProgressMessage, progressLogger, ProgressIncrements, runPercent } from './progress';
import { confirmationKey, needsWriteConfirmation, readOnlyRefusal, writeConfirmationMessage } from './safety';
import { blockingErrors, describeErrors } from './scenarios';
import { readSettings, workspaceRoot } from './settings';
import { recordedScenarioFile, resolveRunsFolder, runEntry, RunsIndex } from './runsIndex';
import { plainText } from './plainText';
import { finishedNotice, runReport } from './runSummary';
import { chooseTarget, connectionFor, parseActiveTarget, secretKey, settingsPasswordError, type TargetChoice } from './targets';
import type { ConnectionProfile } from '../redis/types';

/** One scenario of one file: the index of its `###` block (as in ScenarioPlan.index). */
export interface ScenarioRef {
  uri: vscode.Uri;
  index: number;
}

export interface FinishedRun {
  uri: vscode.Uri;
  run: RunFile;
  /** The run file written. */
  path: string;
  /** How responsive the extension host stayed while the run went on. */
  hostLag: HostLag;
}

/** Not started: `busy` (already running), `declined` (the user said no), `error` (the message says why). */
export interface NotRun {
  kind: 'not-run';
  reason: 'busy' | 'declined' | 'error';
  message: string;
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
interface PreparedRun {
  ref: ScenarioRef;
  key: string;
  text: string;
  plan: ScenarioPlan;
  plans: ScenarioPlan[];
  choice: TargetChoice;
  profiles: Record<string, ConnectionProfile>;
  storedPassword?: string;
  baseDir?: string;
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

  constructor(private readonly context: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel('RBench');
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
        continue;
      }
      const outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `RBench: ${prepared.plan.name}`, cancellable: true },
        (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          const increments = new ProgressIncrements();
          return this.execute(prepared, {
            signal: abort.signal,
            onProgress: (event) => {
              if (event.kind === 'tick') {
                progress.report({ message: formatProgressMessage(event.at, event.tick), increment: increments.advance(runPercent(event.at, event.tick.fraction)) });
              } else if (event.kind === 'load-start') {
                progress.report({ message: `${formatLoadName(event.at)} · starting`, increment: increments.advance(runPercent(event.at, 0)) });
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

  /** Checks, then runs one scenario; the caller shows progress through `hooks` (the Test Explorer does). */
  async run(ref: ScenarioRef, hooks: RunHooks = {}): Promise<RunOutcome> {
    const prepared = await this.prepare(ref);
    return 'kind' in prepared ? prepared : this.execute(prepared, hooks);
  }

  /** Reads the scenario and its target, and applies the safety checks (asking when needed). Starts nothing. */
  private async prepare(ref: ScenarioRef): Promise<PreparedRun | NotRun> {
    const notRun = (reason: NotRun['reason'], message: string): NotRun => ({ kind: 'not-run', reason, message });
    let text: string;
    try {
      // The open document, unsaved edits included; else the file on disk.
      text = (await vscode.workspace.openTextDocument(ref.uri)).getText();
    } catch (error) {
      return notRun('error', `cannot read ${ref.uri.fsPath}: ${(error as Error).message}`);
    }
    const baseDir = ref.uri.scheme === 'file' ? dirname(ref.uri.fsPath) : undefined;
    const resolved = checkText(text, { env: process.env, baseDir });
    const plan = resolved.scenarios[ref.index];
    if (!plan) return notRun('error', `${basename(ref.uri.fsPath)} has no scenario number ${ref.index + 1} (it has ${resolved.scenarios.length})`);
    const errors = blockingErrors(resolved, plan);
    if (errors.length > 0) return notRun('error', `"${plan.name}" cannot run until its errors are fixed — ${describeErrors(errors)}`);
    const key = runKey(ref);
    if (this.activeRuns.has(key)) return notRun('busy', busyMessage(plan));

    const settings = readSettings(ref.uri);
    for (const problem of settings.profileProblems) this.output.appendLine(`! ${problem}`);
    const active = parseActiveTarget(settings.target, settings.profiles);
    const ownTarget = Boolean(plan.target.url || plan.target.profile);
    if (active.kind === 'invalid' && !ownTarget) return notRun('error', active.error);
    const choice = chooseTarget(plan.target, active.kind === 'invalid' ? { kind: 'local' } : active);
    const settingsError = settingsPasswordError(choice, settings.profiles);
    if (settingsError) return notRun('error', settingsError);
    const profileName = choice.target.profile;
    const refusal = readOnlyRefusal(plan, profileName, profileName ? settings.profiles[profileName]?.readOnly : undefined);
    if (refusal) return notRun('error', refusal);

    const passwordKey = choice.local ? undefined : secretKey(choice.target);
    const storedPassword = passwordKey ? await this.context.secrets.get(passwordKey) : undefined;
    const prepared: PreparedRun = { ref, key, text, plan, plans: resolved.scenarios, choice, profiles: settings.profiles, storedPassword, baseDir };
    if (!choice.local) {
      const connection = connectionFor(choice, { profiles: settings.profiles, storedPassword, env: process.env, baseDir });
      if (!connection.options) return notRun('error', `"${plan.name}": ${connection.error}`);
      const confirmed = this.context.workspaceState.get<boolean>(confirmationKey(connection.display)) === true;
      if (needsWriteConfirmation(plan, connection.options.host, confirmed)) {
        const answer = await vscode.window.showWarningMessage(writeConfirmationMessage(plan, connection.display), { modal: true }, 'Run');
        if (answer !== 'Run') return notRun('declined', `"${plan.name}" was not run`);
        await this.context.workspaceState.update(confirmationKey(connection.display), true);
      }
    }
    return prepared;
  }

  private async execute(prepared: PreparedRun, hooks: RunHooks): Promise<RunOutcome> {
    const { ref, key, plan, choice } = prepared;
    // Checked again here, synchronously with taking the slot: two requests can both pass prepare().
    if (this.activeRuns.has(key)) return { kind: 'not-run', reason: 'busy', message: busyMessage(plan) };
    const controller = new AbortController();
    const forwardAbort = () => controller.abort();
    hooks.signal?.addEventListener('abort', forwardAbort);
    if (hooks.signal?.aborted) controller.abort();
    this.activeRuns.set(key, controller);
    this.activeChanged.fire();
    let local: LocalServer | undefined;
    try {
      if (choice.local) {
        try {
          local = await startLocalServer({ config: plan.server });
        } catch (error) {
          return { kind: 'not-run', reason: 'error', message: `"${plan.name}": cannot start a throwaway redis-server: ${(error as Error).message}` };
        }
      } else if (plan.server.length > 0) {
        this.output.appendLine(`! "${plan.name}": \`server\` lines apply only to a throwaway local redis-server; ignored for this target.`);
      }
      const connection = connectionFor(choice, {
        profiles: prepared.profiles,
        storedPassword: prepared.storedPassword,
        env: process.env,
        baseDir: prepared.baseDir,
        localUrl: local?.url,
      });
      if (!connection.options) return { kind: 'not-run', reason: 'error', message: `"${plan.name}": ${connection.error}` };

      this.output.appendLine(`\n${plan.name}  →  ${local ? `throwaway redis-server (${connection.display})` : connection.display}`);
      this.started.fire({ uri: ref.uri, plan, target: { display: connection.display, local: Boolean(local) } });
      const logProgress = progressLogger((line) => this.output.appendLine(line));
      const lag = watchHostLag();
      let run: RunFile;
      let hostLag: HostLag;
      try {
        run = await runScenario(plan, {
          connection: connection.options,
          targetDisplay: connection.display,
          local: Boolean(local),
          source: scenarioSource(prepared.text, plan, prepared.plans),
          file: ref.uri.scheme === 'file' ? recordedScenarioFile(ref.uri.fsPath, workspaceRoot()) : ref.uri.toString(),
          signal: controller.signal,
          onProgress: (event) => {
            logProgress(event);
            this.progressed.fire({ uri: ref.uri, plan, event });
            hooks.onProgress?.(event);
          },
        });
      } finally {
        hostLag = lag.stop();
      }
      const folder = resolveRunsFolder(readSettings(ref.uri).runsFolder, workspaceRoot(), prepared.baseDir ?? process.cwd());
      const path = writeRunFile(folder, run);
      this.runsIndex.remember(path, runEntry(path, run));
      this.output.appendLine(runReport(run, path, hostLag.p99Ms));
      const finished: FinishedRun = { uri: ref.uri, run, path, hostLag };
      this.finished.fire(finished);
      return { kind: 'finished', ...finished };
    } catch (error) {
      return { kind: 'not-run', reason: 'error', message: `"${plan.name}" failed: ${(error as Error).message}` };
    } finally {
      hooks.signal?.removeEventListener('abort', forwardAbort);
      this.activeRuns.delete(key);
      this.activeChanged.fire();
      await local?.stop();
    }
  }

  private announceFinished(outcome: FinishedRun): void {
    const { run, path } = outcome;
    const open = 'Open run file';
    const notice = finishedNotice(run);
    notice.text = plainText(notice.text);
    let shown: Thenable<string | undefined>;
    if (notice.severity === 'error') shown = vscode.window.showErrorMessage(notice.text, open, 'Show output');
    else if (notice.severity === 'warning') shown = vscode.window.showWarningMessage(notice.text, open, 'Show output');
    else shown = vscode.window.showInformationMessage(notice.text, open);
    // Not awaited: the command finishes when the run does, not when the notification is dismissed.
    void shown.then((choice) => {
      if (choice === open) void vscode.commands.executeCommand('vscode.open', vscode.Uri.file(path));
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

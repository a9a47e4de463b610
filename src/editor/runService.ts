// Runs scenarios from the editor through the same pipeline as the CLI (runner/session.ts, RunSession): picks the target,
// applies the safety checks, starts a throwaway redis-server when needed, writes the run file, reports in
// the "RBench" output channel and tells subscribers (CodeLens, Test Explorer, a results view) when done.
// The load itself runs in the engine's worker threads; this only orchestrates.
import { editorSessionSettings } from './sessionSettings';
import * as vscode from 'vscode';
import { basename, dirname } from 'node:path';
import type { RunProgress } from '../runner/runScenario';
import {
  RunSession,
  type FinishedRun as SessionFinishedRun,
  type NotRun as SessionNotRun,
  type NotRunReason,
  type PreparedRun as SessionRun,
  type ScenarioFile,
} from '../runner/session';
import type { ResolvedFile, ScenarioPlan } from '../scenario/plan';
import { writeScenario } from '../scenario/writer';
import { watchHostLag, type HostLag } from './hostLag';
import { formatProgressMessage, notificationProgress, progressLogger, restOfRun, type RestOfRun } from './progress';
import { estimateRuns } from '../runner/estimate';
import { readSettings, workspaceRoot } from './settings';
import { recordedScenarioFile, runEntry, RunsIndex, runsFolderPlace } from './runsIndex';
import { plainText } from './plainText';
import { escapedOutputChannel } from './outputChannel';
import { finishedNotice, runReport } from './runSummary';
import { batchFailures, batchSummary, failureLine, failureNames } from './batch';
import { runVerdict } from '../results/verdict';
import { askBatchConsent, consentCollector, consentConfirmer, storedPassword, type Ask } from './sessionPorts';
import type { ConsentRequest } from '../runner/consent';
import { documentChecks } from './documentChecks';
import { scenarioAtLine } from './scenarios';
import { serverKey, TargetQueue, THROWAWAY_KEY, THROWAWAY_TARGET, waitingMessage, type QueueHolder } from './targetQueue';

/** One scenario of one file: the index of its `###` block (as in ScenarioPlan.index). */
/** What Test Connection sends, as a scenario: it reads and nothing else, so only a target you did not choose asks. */
const CONNECTION_TEST_SCENARIO = writeScenario([
  { kind: 'header', title: 'Test Connection' },
  { kind: 'setting', name: 'requests', args: ['1'] },
  { kind: 'command', name: 'PING', args: [] },
]);

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

export interface RunWaitingEvent {
  uri: vscode.Uri;
  plan: ScenarioPlan;
  /** `waiting for the run of "cache" (cache.rbench) on redis://10.0.0.5:6379 to finish`. */
  message: string;
}

export interface RunProgressEvent {
  uri: vscode.Uri;
  plan: ScenarioPlan;
  event: RunProgress;
}

export type RunOutcome = ({ kind: 'finished' } & FinishedRun) | NotRun;

/**
 * The Testing view's side of a run started elsewhere (lens, gutter, menu, keybinding, Run All): one vscode
 * TestRun for the scenarios of one command, their results in the one tree (src/editor/testController.ts).
 */
export interface TestingRun {
  started(ref: ScenarioRef): void;
  output(ref: ScenarioRef, line: string): void;
  finished(ref: ScenarioRef, outcome: RunOutcome): void;
  end(): void;
}

/** Opens a TestRun for these scenarios (undefined: none to report to). */
export type TestingSink = (refs: readonly ScenarioRef[], name: string) => Promise<TestingRun | undefined>;

export interface RunHooks {
  signal?: AbortSignal;
  onProgress?: (event: RunProgress) => void;
  /** The run waits for another run of this window on the same server: `waiting for the run of … to finish`. */
  onWaiting?: (message: string) => void;
}

/** A scenario checked and ready to run: what prepare() hands to execute(). */
/** A scenario file read and checked, with the session its runs go through (a session holds no run's state). */
interface CheckedFile {
  session: RunSession;
  scenario: ScenarioFile;
  resolved: ResolvedFile;
}

/** A batch's answers: `asked` keeps them by digest; `collect` (the first pass) gathers the questions instead of asking. */
interface BatchConsent {
  asked: Map<string, boolean>;
  collect?: Map<string, ConsentRequest>;
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
  private readonly waiting = new vscode.EventEmitter<RunWaitingEvent>();
  /** Fires when a run waits for another run of this window on the same server (the message says whose). */
  readonly onRunWaiting = this.waiting.event;
  private readonly activeRuns = new Map<string, AbortController>();
  /** One run per server at a time: the next one on the same server waits (a throwaway server is each run's own). */
  private readonly targets = new TargetQueue();
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

  private testing?: TestingSink;

  /** The Testing view reports every run of the commands (the test controller registers itself). */
  reportRunsTo(sink: TestingSink | undefined): void {
    this.testing = sink;
  }

  /** A TestRun for a command's scenarios, or a sink that reports nowhere. */
  private async testingRun(refs: readonly ScenarioRef[], name: string): Promise<TestingRun> {
    const none: TestingRun = { started: () => undefined, output: () => undefined, finished: () => undefined, end: () => undefined };
    try {
      return (await this.testing?.(refs, name)) ?? none;
    } catch (error) {
      this.output.appendLine(`! the Testing view could not list this run: ${(error as Error).message}`);
      return none;
    }
  }

  dispose(): void {
    this.cancelAll();
    this.finished.dispose();
    this.started.dispose();
    this.progressed.dispose();
    this.activeChanged.dispose();
    this.waiting.dispose();
    this.output.dispose();
  }

  /** True while this scenario runs (or waits for its server) in this window. */
  isRunning(ref: ScenarioRef): boolean {
    return this.activeRuns.has(runKey(ref));
  }

  /** Cancels one scenario's run; false when it was not running. */
  cancel(ref: ScenarioRef): boolean {
    const controller = this.activeRuns.get(runKey(ref));
    controller?.abort();
    return controller !== undefined;
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
    const testing = await this.testingRun(refs, refs.length === 1 ? 'RBench run' : `RBench: ${refs.length} scenarios`);
    try {
      for (const ref of refs) {
        if (this.cancelGeneration !== generation) break;
        const outcome = await this.runOneWithProgress(ref, testing);
        outcomes.push(outcome);
        if (outcome.kind === 'not-run' && outcome.reason === 'restricted') break; // every other scenario would say the same
        if (outcome.kind === 'finished' && outcome.run.status === 'cancelled') break;
      }
    } finally {
      testing.end();
    }
    return outcomes;
  }

  /** One scenario with its cancellable progress notification, its result announced and reported to the Testing view. */
  private async runOneWithProgress(ref: ScenarioRef, testing: TestingRun): Promise<RunOutcome> {
    const prepared = await this.prepare(ref);
    if ('kind' in prepared) {
      this.announceNotRun(prepared);
      testing.finished(ref, prepared);
      return prepared;
    }
    testing.started(ref);
    const rest = restOfRun(prepared.plan);
    const log = progressLogger((line) => testing.output(ref, line), rest);
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: plainText(`RBench: ${prepared.plan.name}`), cancellable: true },
      (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        const notify = notificationProgress(progress, plainText, rest);
        return this.execute(prepared, {
          signal: abort.signal,
          onWaiting: (message) => {
            progress.report({ message: plainText(message) });
            testing.output(ref, message);
          },
          onProgress: (event) => {
            log(event);
            notify(event);
          },
        });
      },
    );
    testing.finished(ref, outcome);
    if (outcome.kind === 'finished') this.announceFinished(outcome);
    else this.announceNotRun(outcome);
    return outcome;
  }

  /**
   * Many scenarios one after another (Run All, a folder): one cancellable progress for all of them, failures
   * noted in the output channel, and one summary at the end instead of a notification per scenario.
   */
  async runBatch(refs: readonly ScenarioRef[], title: string, question?: string): Promise<RunOutcome[]> {
    const outcomes: RunOutcome[] = [];
    const generation = this.cancelGeneration;
    // One question first, before any run: `question` (Run All's count and estimate) with every remote run's
    // effects, collected by a first pass that asks nothing and contacts nothing; equal effects are listed once.
    const collected = new Map<string, ConsentRequest>();
    let steps = await this.prepareAll(refs, generation, { asked: new Map(), collect: collected });
    if (question !== undefined || collected.size > 0) {
      const ask = (message: string, options: { modal: true; detail: string }, ...buttons: string[]) => this.ask(message, options, ...buttons);
      const requests = [...collected.values()];
      const runAll = await askBatchConsent(this.context.globalState, ask, question ?? `Run ${refs.length} scenarios in ${title}?`, requests);
      if (!runAll) return [];
      // Answered: prepared again, every collected question answered "Run".
      if (requests.length > 0) steps = await this.prepareAll(refs, generation, { asked: new Map(requests.map((request) => [request.digest, true])) });
    }
    const testing = await this.testingRun(refs, `RBench: ${title}`);
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: plainText(`RBench: ${title}`), cancellable: true },
        async (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          for (const [position, prepared] of steps.entries()) {
            if (abort.signal.aborted || this.cancelGeneration !== generation) break;
            const step = `${position + 1}/${steps.length}`;
            const ref = refs[position];
            let outcome: RunOutcome;
            if ('kind' in prepared) {
              outcome = prepared;
            } else {
              progress.report({ message: plainText(`${step} ${prepared.plan.name}`), increment: 100 / steps.length });
              testing.started(ref);
              // "left" counts the rest of the batch: this scenario's later loads, then every scenario after it.
              const rest = batchRest(prepared.plan, steps.slice(position + 1));
              const log = progressLogger((line) => testing.output(ref, line), rest);
              outcome = await this.execute(prepared, {
                signal: abort.signal,
                onWaiting: (message) => {
                  progress.report({ message: plainText(`${step} ${prepared.plan.name} · ${message}`) });
                  testing.output(ref, message);
                },
                onProgress: (event) => {
                  log(event);
                  if (event.kind === 'tick')
                    progress.report({ message: plainText(`${step} ${prepared.plan.name} · ${formatProgressMessage(event.at, event.tick, rest)}`) });
                },
              });
            }
            if (outcome.kind === 'not-run') this.output.appendLine(`! ${outcome.message}`);
            testing.finished(ref, outcome);
            outcomes.push(outcome);
          }
        },
      );
    } finally {
      testing.end();
    }
    this.announceBatch(outcomes, refs);
    return outcomes;
  }

  /** Every scenario of a batch checked and prepared in order (a file read once), stopping at a restricted workspace. */
  private async prepareAll(refs: readonly ScenarioRef[], generation: number, consent: BatchConsent): Promise<(PreparedRun | NotRun)[]> {
    const checked = new Map<string, Promise<CheckedFile | NotRun>>();
    const steps: (PreparedRun | NotRun)[] = [];
    for (const ref of refs) {
      if (this.cancelGeneration !== generation) break;
      const prepared = await this.prepare(ref, consent, checked);
      steps.push(prepared);
      if ('kind' in prepared && prepared.reason === 'restricted') break;
    }
    return steps;
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
  private async prepare(ref: ScenarioRef, asked?: BatchConsent, checked?: Map<string, Promise<CheckedFile | NotRun>>): Promise<PreparedRun | NotRun> {
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
  private async checkFile(ref: ScenarioRef, asked?: BatchConsent): Promise<CheckedFile | NotRun> {
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
  async prepareConnectionTest(
    scope: vscode.Uri | undefined,
    own?: { text: string; line: number },
  ): Promise<{ session: RunSession; prepared: SessionRun } | NotRun> {
    const uri = scope ?? vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(process.cwd());
    const session = this.session({ uri, index: 0 });
    let file: ScenarioFile = { display: 'Test Connection', text: CONNECTION_TEST_SCENARIO, recorded: 'rbench:test-connection' };
    const resolved = await session.check(file);
    if ('kind' in resolved) return editorNotRun(resolved);
    let plan = resolved.scenarios[0];
    // The open scenario's own target line wins, as in a run (and the status bar): the test goes there, as the file's choice.
    const fileTarget = own && scope ? await this.ownTarget(session, scope, own) : undefined;
    if (fileTarget && 'kind' in fileTarget) return fileTarget;
    if (fileTarget) {
      plan = { ...plan, target: fileTarget.plan.target, wireEnv: fileTarget.plan.wireEnv?.filter((entry) => entry.setting !== 'value-fill') };
      file = { ...file, display: fileTarget.file.display, baseDir: fileTarget.file.baseDir, recorded: fileTarget.file.recorded };
    }
    const prepared = await session.prepare(file, resolved, plan);
    if ('kind' in prepared) return editorNotRun(prepared);
    return { session, prepared };
  }

  /** The scenario at `line` of the open file, when it names its own target; undefined when it names none. */
  private async ownTarget(
    session: RunSession,
    uri: vscode.Uri,
    own: { text: string; line: number },
  ): Promise<{ plan: ScenarioPlan; file: ScenarioFile } | NotRun | undefined> {
    const file: ScenarioFile = {
      display: basename(uri.fsPath),
      text: own.text,
      baseDir: uri.scheme === 'file' ? dirname(uri.fsPath) : undefined,
      recorded: uri.scheme === 'file' ? recordedScenarioFile(uri.fsPath, workspaceRoot()) : uri.toString(),
    };
    const resolved = await session.check(file);
    if ('kind' in resolved) return editorNotRun(resolved);
    const plan = scenarioAtLine(resolved.scenarios, own.line);
    return plan && (plan.target.url !== undefined || plan.target.profile !== undefined) ? { plan, file } : undefined;
  }

  /** A session with this file's settings; the editor answers its questions (`asked`: the answers of one batch). */
  private session(ref: ScenarioRef, consent?: BatchConsent): RunSession {
    const settings = readSettings(ref.uri);
    for (const problem of settings.profileProblems) this.output.appendLine(`! ${problem}`);
    const baseDir = ref.uri.scheme === 'file' ? dirname(ref.uri.fsPath) : process.cwd();
    const runs = runsFolderPlace(settings.runsFolder, settings.runsFolderScope, workspaceRoot(), baseDir);
    if (runs.problem) this.output.appendLine(`! ${runs.problem}`);
    return new RunSession(
      editorSessionSettings(settings, runs, settings.target ? { value: settings.target, override: false, supplier: settings.targetSupplier } : undefined),
      {
        // Remembered by digest in globalState: the digest names the file and every effect, and a workspace cannot write there.
        confirm: consent?.collect
          ? consentCollector(this.context.globalState, consent.collect)
          : consentConfirmer(this.context.globalState, (message, options, ...buttons) => this.ask(message, options, ...buttons), consent?.asked),
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
    let release: (() => void) | undefined;
    const lag = watchHostLag();
    try {
      const queued = await this.takeTarget(prepared, controller.signal, hooks);
      if (typeof queued === 'object') return queued;
      release = queued;
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
      release?.();
      lag.stop();
      this.progressHooks.delete(prepared.prepared);
      this.preparedUris.delete(prepared.prepared);
      hooks.signal?.removeEventListener('abort', forwardAbort);
      this.activeRuns.delete(key);
      this.activeChanged.fire();
    }
  }

  /**
   * Waits until no other run of this window uses the run's server, then holds it: the release, or why the run
   * did not start (cancelled while it waited). Throwaway servers queue as one target: each is the run's own,
   * but two side by side share this machine's CPUs and skew each other.
   */
  private async takeTarget(prepared: PreparedRun, signal: AbortSignal, hooks: RunHooks): Promise<(() => void) | undefined | NotRun> {
    const label = `"${prepared.plan.name}" (${basename(prepared.ref.uri.fsPath)})`;
    let queue: { key: string; holder: QueueHolder };
    if (prepared.prepared.choice.local) {
      queue = { key: THROWAWAY_KEY, holder: { label, target: THROWAWAY_TARGET } };
    } else {
      const connection = prepared.session.connectionOf(prepared.prepared);
      if (!connection.options) return undefined; // the run says why it cannot connect
      queue = { key: serverKey(connection.options), holder: { label, target: connection.display } };
    }
    let waited: string | undefined;
    const release = await this.targets.acquire(queue.key, queue.holder, signal, (ahead) => {
      waited = waitingMessage(ahead);
      this.output.appendLine(`"${prepared.plan.name}" is ${waited}`);
      this.waiting.fire({ uri: prepared.ref.uri, plan: prepared.plan, message: waited });
      hooks.onWaiting?.(waited);
    });
    if (release) return release;
    return notRun('busy', `"${prepared.plan.name}" was not run: cancelled while ${waited ?? 'waiting for another run on the same server'}`);
  }

  /** The one summary of a batch: the counts, the failures named (output lines open each scenario), buttons to the first. */
  private announceBatch(outcomes: readonly RunOutcome[], refs: readonly ScenarioRef[]): void {
    const summary = batchSummary(outcomes);
    const failures = batchFailures(outcomes.map((outcome, i) => ({ outcome, file: refs[i].uri.fsPath })));
    this.output.appendLine(`\n${summary}`);
    for (const failure of failures) this.output.appendLine(failureLine(failure));
    const bad = failures.length > 0 || outcomes.some((outcome) => outcome.kind === 'finished' && runVerdict(outcome.run).kind !== 'passed');
    const show = bad ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const [first] = failures;
    const openScenario = 'Open scenario';
    const openRun = 'Open run';
    const buttons = [...(first ? [openScenario] : []), ...(first?.runPath ? [openRun] : []), 'Show output'];
    const text = plainText(`RBench: ${summary}${failures.length > 0 ? ` — ${failureNames(failures)}` : ''}`);
    void show(text, ...buttons).then((choice) => {
      if (choice === openScenario && first) {
        const line = first.line ?? 0;
        void vscode.window.showTextDocument(vscode.Uri.file(first.file), { selection: new vscode.Range(line, 0, line, 0) });
      } else if (choice === openRun && first?.runPath) void vscode.commands.executeCommand('vscode.open', vscode.Uri.file(first.runPath));
      else if (choice === 'Show output') this.output.show(true);
    });
  }

  private announceFinished(outcome: FinishedRun): void {
    const { run, path, saveError } = outcome;
    const open = 'Open run file';
    // Named: with runs queued or side by side, "Run complete" alone does not say which one ended.
    const notice = finishedNotice(run);
    notice.text = `"${run.scenario.name}" — ${notice.text}`;
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

/** The rest of a batch after a load of `plan`: the plan's own later loads and every later scenario's planned time. */
function batchRest(plan: ScenarioPlan, later: readonly (PreparedRun | NotRun)[]): RestOfRun {
  const own = restOfRun(plan);
  const after = estimateRuns(later.flatMap((step) => ('kind' in step ? [] : [step.plan])));
  return (index) => {
    const mine = own(index);
    return mine && { ...mine, timedMs: mine.timedMs + after.timedMs, countedTests: mine.countedTests + after.countedTests };
  };
}

function runKey(ref: ScenarioRef): string {
  return `${ref.uri.toString()}#${ref.index}`;
}

function busyMessage(plan: ScenarioPlan): string {
  return `"${plan.name}" is already running — wait for it, or cancel it first ("RBench: Cancel Run")`;
}

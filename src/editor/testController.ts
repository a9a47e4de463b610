// Scenarios in the Test Explorer: one item per `.rbench` file in the workspace, one child per scenario
// (ranged on its header, so the gutter shows run buttons). Running them goes through RunService like any
// other run; `expect` lines decide pass or fail.
import * as vscode from 'vscode';
import { basename, join } from 'node:path';
import { FileGateError, readBoundedTextAsync } from '../gates/files';
import { SCENARIO_READ_LIMIT } from '../runner/budget';
import type { DocumentOutline, ScenarioOutline } from '../scenario/features/outline';
import type { RunFile } from '../results/runFile';
import { documentChecks } from './documentChecks';
import { plainText } from './plainText';
import { notificationProgress, progressLogger } from './progress';
import type { RunOutcome, RunService, ScenarioRef, TestingRun } from './runService';
import { formatMetric } from '../results/format';
import { thresholdLine } from '../results/thresholds';
import { runVerdict } from '../results/verdict';
import { isScenarioFile, type FileKind } from './scenarioFiles';
import { readSettings, workspaceRoot } from './settings';
import { resolveRunsFolder } from './runsIndex';

const RBENCH_GLOB = '**/*.rbench';
const EXCLUDE_GLOB = '**/{node_modules,.git}/**';
/** Where runs and baselines live by default (`.rbench/runs`, `.rbench/baselines.json`). */
const STATE_FOLDER = '.rbench';

export class ScenarioTestController implements vscode.Disposable {
  readonly controller: vscode.TestController;
  readonly runProfile: vscode.TestRunProfile;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly runs: RunService) {
    this.controller = vscode.tests.createTestController('rbench', 'RBench');
    this.controller.resolveHandler = async (item) => {
      if (!item?.uri) return this.discoverFiles();
      // A file removed or replaced by a folder since it was listed: drop its item rather than fail.
      if (!(await this.accepts(item.uri))) this.controller.items.delete(item.id);
      else await this.refreshFile(item.uri);
    };
    this.controller.refreshHandler = () => this.discoverFiles();
    this.runProfile = this.controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, (request, token) => this.runTests(request, token), true);

    const watcher = vscode.workspace.createFileSystemWatcher(RBENCH_GLOB);
    // The glob matches folders too (`.rbench/`, a folder named `x.rbench`): only files become items.
    watcher.onDidCreate(async (uri) => {
      if (await this.accepts(uri)) this.fileItem(uri);
    });
    watcher.onDidChange((uri) => {
      // An open document is followed through its edits instead; this catches changes on disk.
      const item = this.controller.items.get(uri.toString());
      if (item && !isOpen(uri)) void this.refreshFile(uri);
    });
    watcher.onDidDelete((uri) => this.controller.items.delete(uri.toString()));
    this.disposables.push(
      this.controller,
      watcher,
      vscode.workspace.onDidOpenTextDocument((document) => this.followDocument(document)),
      vscode.workspace.onDidChangeTextDocument((event) => this.followDocument(event.document)),
    );
    vscode.workspace.textDocuments.forEach((document) => this.followDocument(document));
    // Every run of the commands (lens, gutter, menu, keybinding, Run All) is a Testing run too.
    runs.reportRunsTo((refs, name) => this.testingRun(refs, name));
    this.disposables.push({ dispose: () => runs.reportRunsTo(undefined) });
  }

  /** A TestRun for scenarios run by a command: enqueued now, then started and reported as RunService runs them. */
  private async testingRun(refs: readonly ScenarioRef[], name: string): Promise<TestingRun | undefined> {
    const items = new Map<string, vscode.TestItem>();
    for (const ref of refs) {
      const item = await this.itemOf(ref);
      if (item) items.set(refKey(ref), item);
    }
    if (items.size === 0) return undefined;
    const run = this.createRun(new vscode.TestRunRequest([...new Set(items.values())]), name);
    const pending = new Set(items.values());
    pending.forEach((item) => run.enqueued(item));
    const itemFor = (ref: ScenarioRef) => items.get(refKey(ref));
    return {
      started: (ref) => {
        const item = itemFor(ref);
        if (item) run.started(item);
      },
      output: (ref, line) => run.appendOutput(`${line}\r\n`, undefined, itemFor(ref)),
      finished: (ref, outcome) => {
        const item = itemFor(ref);
        if (!item) return;
        pending.delete(item);
        reportOutcome(run, item, outcome);
      },
      end: () => {
        // Scenarios the command did not reach (cancelled, a restricted workspace) end as skipped, not pending.
        pending.forEach((item) => run.skipped(item));
        run.end();
      },
    };
  }

  /** The item of a scenario by its index in the file now (its id is its name). */
  private async itemOf(ref: ScenarioRef): Promise<vscode.TestItem | undefined> {
    if (!(await this.accepts(ref.uri))) return undefined;
    const { scenarios } = await scenarioOutline(ref.uri);
    const scenario = scenarios.find((candidate) => candidate.index === ref.index) ?? scenarios[ref.index];
    if (!scenario) return undefined;
    const file = this.setScenarios(ref.uri, scenarios);
    return file.children.get(scenarioId(ref.uri, scenario.name));
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }

  /** Every `.rbench` file of the workspace as an item; their scenarios are read when expanded. */
  async discoverFiles(): Promise<void> {
    const files = await vscode.workspace.findFiles(RBENCH_GLOB, EXCLUDE_GLOB);
    for (const uri of files) if (await this.accepts(uri)) this.fileItem(uri);
  }

  /** A scenario file of the workspace: a file (not a folder), outside the runs folder and `.rbench/`. */
  private async accepts(uri: vscode.Uri): Promise<boolean> {
    const root = workspaceRoot();
    const excluded = [resolveRunsFolder(readSettings(uri).runsFolder, root, root ?? '.'), ...(root ? [join(root, STATE_FOLDER)] : [])];
    return isScenarioFile(uri.fsPath, await fileKind(uri), excluded);
  }

  /** Re-reads a file's scenarios (from the open document when there is one) and returns its item. */
  async refreshFile(uri: vscode.Uri): Promise<vscode.TestItem> {
    return this.setScenarios(uri, (await scenarioOutline(uri)).scenarios);
  }

  private followDocument(document: vscode.TextDocument): void {
    if (document.languageId !== 'rbench' || document.uri.scheme !== 'file') return;
    // The document's check gives the scenarios (off this thread for a large file); a stale answer is skipped.
    const version = document.version;
    void documentChecks()
      .outline(document)
      .then(({ scenarios }) => {
        if (!document.isClosed && document.version === version) this.setScenarios(document.uri, scenarios);
      });
  }

  private fileItem(uri: vscode.Uri): vscode.TestItem {
    const existing = this.controller.items.get(uri.toString());
    if (existing) return existing;
    const item = this.controller.createTestItem(uri.toString(), basename(uri.fsPath), uri);
    item.canResolveChildren = true;
    this.controller.items.add(item);
    return item;
  }

  private setScenarios(uri: vscode.Uri, scenarios: readonly ScenarioOutline[]): vscode.TestItem {
    const file = this.fileItem(uri);
    const children = scenarios.map((scenario) => {
      // The same item object while a scenario exists, so a run in progress keeps reporting to it.
      const id = scenarioId(uri, scenario.name);
      const child = file.children.get(id) ?? this.controller.createTestItem(id, scenario.name, uri);
      const { start, end } = scenario.headerRange;
      child.range = new vscode.Range(start.line, start.character, end.line, end.character);
      return child;
    });
    file.children.replace(children);
    file.canResolveChildren = false;
    return file;
  }

  /** Extension tests only (ExtensionMode.Test): every state a TestRun of this controller reported, the newest last (bounded). */
  readonly reported: { label: string; status: string; message?: string; expected?: string; actual?: string }[] = [];
  private recording = false;

  recordForTests(): void {
    this.recording = true;
  }

  /** The TestRun as VS Code made it, or one that also records what it reports (extension tests). */
  private createRun(request: vscode.TestRunRequest, name?: string): vscode.TestRun {
    const run = this.controller.createTestRun(request, name, true);
    return this.recording ? recordingRun(run, this.reported) : run;
  }

  private async runTests(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.createRun(request);
    const excluded = new Set((request.exclude ?? []).map((item) => item.id));
    const queue: vscode.TestItem[] = [];
    const roots: vscode.TestItem[] = request.include ? [...request.include] : [];
    if (!request.include) this.controller.items.forEach((item) => roots.push(item));
    for (const item of roots) {
      if (excluded.has(item.id)) continue;
      if (item.parent || !item.uri) {
        queue.push(item);
        continue;
      }
      // A file: its scenarios, read now in case it was never expanded.
      const file = item.canResolveChildren ? await this.refreshFile(item.uri) : item;
      file.children.forEach((child) => !excluded.has(child.id) && queue.push(child));
    }
    queue.forEach((item) => run.enqueued(item));

    const abort = new AbortController();
    const cancelled = token.onCancellationRequested(() => abort.abort());
    try {
      for (const item of queue) {
        if (token.isCancellationRequested) {
          run.skipped(item);
          continue;
        }
        await this.runItem(item, run, abort.signal);
      }
    } finally {
      cancelled.dispose();
      run.end();
    }
  }

  private async runItem(item: vscode.TestItem, run: vscode.TestRun, signal: AbortSignal): Promise<void> {
    run.started(item);
    const uri = item.uri!;
    // The index the scenario has now: lines may have moved since the item was made.
    const index = (await scenarioOutline(uri)).scenarios.findIndex((scenario) => scenarioId(uri, scenario.name) === item.id);
    if (index < 0) {
      run.errored(item, new vscode.TestMessage(`the scenario "${item.label}" is no longer in ${basename(uri.fsPath)}`));
      return;
    }
    const write = progressLogger((line) => run.appendOutput(`${line}\r\n`, undefined, item));
    // A cancellable notification as every other run has (Run Test at Cursor, the gutter's ▶): the Testing view alone is easy to miss.
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: plainText(`RBench: ${item.label}`), cancellable: true },
      (progress, token) => {
        const abort = new AbortController();
        const stop = () => abort.abort();
        if (signal.aborted) stop();
        signal.addEventListener('abort', stop, { once: true });
        token.onCancellationRequested(stop);
        const notify = notificationProgress(progress, plainText);
        return this.runs.run(
          { uri, index },
          {
            signal: abort.signal,
            onProgress: (event) => {
              write(event);
              notify(event);
            },
            onWaiting: (message) => {
              progress.report({ message: plainText(message) });
              run.appendOutput(`${plainText(message)}\r\n`, undefined, item);
            },
          },
        );
      },
    );
    reportOutcome(run, item, outcome);
  }
}

/** A TestRun that also notes each state it reports into `log` (at most 200 entries). */
function recordingRun(run: vscode.TestRun, log: ScenarioTestController['reported']): vscode.TestRun {
  const note = (item: vscode.TestItem, status: string, messages?: vscode.TestMessage | readonly vscode.TestMessage[]) => {
    const first = messages === undefined ? undefined : Array.isArray(messages) ? messages[messages.length - 1] : (messages as vscode.TestMessage);
    const text = first && typeof first.message === 'string' ? first.message : undefined;
    log.push({ label: item.label, status, message: text, expected: first?.expectedOutput, actual: first?.actualOutput });
    if (log.length > 200) log.shift();
  };
  return new Proxy(run, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (!['enqueued', 'started', 'skipped', 'passed', 'failed', 'errored'].includes(String(property))) return value.bind(target);
      return (item: vscode.TestItem, ...rest: unknown[]) => {
        note(item, String(property), property === 'failed' || property === 'errored' ? (rest[0] as vscode.TestMessage) : undefined);
        return value.call(target, item, ...rest);
      };
    },
  });
}

function refKey(ref: ScenarioRef): string {
  return `${ref.uri.toString()}#${ref.index}`;
}

/** A run's outcome on its item: not run (an error, or skipped), or the verdict with the run file's place. */
function reportOutcome(run: vscode.TestRun, item: vscode.TestItem, outcome: RunOutcome): void {
  if (outcome.kind === 'not-run') {
    if (outcome.reason === 'error') run.errored(item, new vscode.TestMessage(plainText(outcome.message)));
    else run.skipped(item);
    run.appendOutput(`${plainText(outcome.message)}\r\n`, undefined, item);
    return;
  }
  run.appendOutput(outcome.path ? `Run file: ${outcome.path}\r\n` : `Not saved: ${outcome.saveError}\r\n`, undefined, item);
  report(run, item, outcome.run);
}

function report(run: vscode.TestRun, item: vscode.TestItem, result: RunFile): void {
  const verdict = runVerdict(result);
  switch (verdict.kind) {
    case 'passed':
      run.passed(item, result.durationMs);
      break;
    case 'cancelled':
      run.appendOutput(`${verdict.message}\r\n`, undefined, item);
      run.skipped(item);
      break;
    case 'error':
      run.errored(item, new vscode.TestMessage(plainText(verdict.message)), result.durationMs);
      break;
    case 'failed': {
      const ended = verdict.errors ? [new vscode.TestMessage(`the run ended with errors: ${plainText(verdict.errors)}`)] : [];
      const messages = result.thresholds
        .filter((outcome) => !outcome.passed)
        .map((outcome) => {
          const expectation = outcome.expectation;
          const testMessage = new vscode.TestMessage(plainText(thresholdLine(outcome)));
          // Expected and actual, as the Testing view shows a diff: the line as written, and what was measured.
          testMessage.expectedOutput = expectation.replace(/^expect\s+/, '');
          testMessage.actualOutput = `${outcome.metric} = ${outcome.actual === null ? 'not measured' : formatMetric(outcome.metric, outcome.actual)}`;
          // Point at the `expect` line that failed.
          const written = result.plan.expects.find((expect) => expect.text === expectation);
          if (written && item.uri) {
            const { start, end } = written.range;
            testMessage.location = new vscode.Location(item.uri, new vscode.Range(start.line, start.character, end.line, end.character));
          }
          return testMessage;
        });
      run.failed(item, [...ended, ...messages], result.durationMs);
      break;
    }
  }
}

/** Keyed by name, so results stay with a scenario when others are added above it. */
function scenarioId(uri: vscode.Uri, name: string): string {
  return `${uri.toString()}#${name}`;
}

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
}

function isOpen(uri: vscode.Uri): boolean {
  return openDocument(uri) !== undefined;
}

async function fileKind(uri: vscode.Uri): Promise<FileKind> {
  try {
    const { type } = await vscode.workspace.fs.stat(uri);
    return type & vscode.FileType.Directory ? 'directory' : type & vscode.FileType.File ? 'file' : 'other';
  } catch {
    return 'missing';
  }
}

/** The outline of the open document, unsaved edits included; else of the file on disk. */
async function scenarioOutline(uri: vscode.Uri): Promise<DocumentOutline> {
  const document = openDocument(uri);
  if (document) return documentChecks().outline(document);
  if (uri.scheme !== 'file') return documentChecks().outlineOfText(uri.toString(), new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
  // Found by a search of the workspace: a committed `x.rbench` may be a link to /dev/zero or a FIFO. Read
  // through the file gate: a regular file inside its workspace folder, bounded, never blocking.
  const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath;
  const place = folder ? { root: folder } : ({ userNamed: true } as const);
  let text = '';
  try {
    text = await readBoundedTextAsync(uri.fsPath, { ...place, maxBytes: SCENARIO_READ_LIMIT });
  } catch (error) {
    if (!(error instanceof FileGateError)) throw error; // refused: listed without scenarios
  }
  return documentChecks().outlineOfText(uri.toString(), text);
}

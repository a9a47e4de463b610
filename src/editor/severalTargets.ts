// "RBench: Run on Several Targets…": the scenario under the cursor on two or more targets picked from the
// profiles, the throwaway server or a URL, through the runner `rbench run --url A --url B` uses
// (src/runner/multiTarget.ts): each target asks first as any run does, the same server twice is refused,
// the runs are saved, and the comparison panel opens on them when they are done.
import { editorSessionSettings } from './sessionSettings';
import * as vscode from 'vscode';
import { basename, dirname } from 'node:path';
import { compareTargets, interleaves, runOnTargets, sameServerRefusal, sameTargetRefusal, saveComparison, type TargetRun } from '../runner/multiTarget';
import { RunSession } from '../runner/session';
import { documentChecks } from './documentChecks';
import { plainText } from './plainText';
import { recordedScenarioFile, runsFolderPlace, type RunsFolderPlace } from './runsIndex';
import { scenarioAtLine } from './scenarios';
import { consentConfirmer, storedPassword } from './sessionPorts';
import { readSettings, workspaceRoot, type EditorSettings } from './settings';
import { severalTargetItems, targetUrlFromInput, tooFewTargets, validateTargetUrl } from './targetChoices';
import { formatLoadEnd, formatProgressMessage, ProgressIncrements, restOfRun, runPercent, type RestOfRun } from './progress';
import { formatLoadName, type RunProgress } from '../runner/runScenario';

const PICK_PROMPT = 'Pick two or more targets: the scenario runs on each, then their runs are compared';

/**
 * The targets the user picks (two or more): profiles, `local`, or URLs they type; undefined when cancelled.
 * Enter with fewer than two ticked shows the picker again with the same ticks and says how many are needed.
 */
async function pickTargets(settings: EditorSettings): Promise<string[] | undefined> {
  const items = severalTargetItems(settings.profiles, settings.target);
  let placeHolder = PICK_PROMPT;
  let picked: typeof items | undefined;
  for (;;) {
    picked = await vscode.window.showQuickPick(items, { canPickMany: true, title: 'RBench: Run on Several Targets', placeHolder });
    if (!picked) return undefined;
    if (picked.length >= 2) break;
    for (const item of items) item.picked = picked.includes(item);
    placeHolder = tooFewTargets(picked.length);
  }
  const values: string[] = [];
  for (const item of picked) {
    if (typeof item.value === 'string') {
      values.push(item.value);
      continue;
    }
    const typed = await vscode.window.showInputBox({ prompt: 'A Redis URL to run on', placeHolder: 'redis://host:6379', validateInput: validateTargetUrl });
    if (typed === undefined) return undefined;
    values.push(targetUrlFromInput(typed));
  }
  return values;
}

/** Where a session tells how its target's run goes: the notification of the whole several-targets run. */
type TargetProgress = { started(): void; progress(event: RunProgress): void };

/** A session per target with the editor's settings and questions, the target being the user's own choice. */
function sessionFor(
  context: vscode.ExtensionContext,
  output: vscode.OutputChannel,
  settings: EditorSettings,
  runs: RunsFolderPlace,
  target: string,
  report: TargetProgress,
): RunSession {
  return new RunSession(editorSessionSettings(settings, runs, { value: target, override: true, supplier: 'user' }), {
    confirm: consentConfirmer(context.globalState, (message, options, ...buttons) => vscode.window.showWarningMessage(message, options, ...buttons)),
    secret: storedPassword((key) => context.secrets.get(key)),
    log: (line) => output.appendLine(line),
    check: (text, options) => documentChecks().resolve(text, options),
    started: () => report.started(),
    progress: (_run, event) => report.progress(event),
  });
}

const fail = (message: string): undefined => void vscode.window.showErrorMessage(plainText(`RBench: ${message}`));

/** The scenario meant: a CodeLens's (uri, index), else the one under the active editor's cursor. */
async function scenarioMeant(target?: vscode.Uri, index?: number): Promise<{ document: vscode.TextDocument; index: number } | string> {
  if (target && typeof index === 'number') return { document: await vscode.workspace.openTextDocument(target), index };
  const editor = vscode.window.activeTextEditor;
  if (editor?.document.languageId !== 'rbench') return 'open a .rbench file and put the cursor in a scenario to run it on several targets.';
  const scenario = scenarioAtLine((await documentChecks().outline(editor.document)).scenarios, editor.selection.active.line);
  if (!scenario) return `${vscode.workspace.asRelativePath(editor.document.uri)} has no scenario to run: add a "### name" line followed by commands.`;
  return { document: editor.document, index: scenario.index };
}

/** `rbench.runOnSeveralTargets`: returns the run files written (the comparison panel shows them), or undefined. */
export async function runOnSeveralTargetsCommand(
  context: vscode.ExtensionContext,
  output: vscode.OutputChannel,
  compare: (paths: string[]) => void,
  target?: vscode.Uri,
  index?: number,
): Promise<string[] | undefined> {
  const meant = await scenarioMeant(target, index);
  if (typeof meant === 'string') return fail(meant);
  const { document } = meant;
  const settings = readSettings(document.uri);
  const values = await pickTargets(settings);
  if (!values) return undefined;
  const same = sameTargetRefusal(values, settings.profiles, 'target');
  if (same) return fail(same);

  const uri = document.uri;
  const runs = runsFolderPlace(settings.runsFolder, settings.runsFolderScope, workspaceRoot(), uri.scheme === 'file' ? dirname(uri.fsPath) : process.cwd());
  if (runs.problem) output.appendLine(`! ${runs.problem}`);
  // The notification's reporter once it shows (checks and questions come first).
  // The plan's time left per load, once the plan is known.
  const timing: { rest?: RestOfRun } = {};
  let notify: ((message: string, increment?: number) => void) | undefined;
  const percents = values.map(() => 0);
  const increments = new ProgressIncrements();
  const reporter = (position: number): TargetProgress => {
    const label = values[position];
    const say = (message: string, percent?: number) => {
      if (percent !== undefined) percents[position] = percent;
      // The whole run's share: each target's runs count alike, in whatever order they interleave.
      notify?.(plainText(`${label} · ${message}`), increments.advance(percents.reduce((sum, p) => sum + p, 0) / values.length));
    };
    return {
      started: () => say('starting'),
      progress: (event) => {
        if (event.kind === 'tick') say(formatProgressMessage(event.at, event.tick, timing.rest), runPercent(event.at, event.tick.fraction));
        else if (event.kind === 'load-start') say(`${formatLoadName(event.at)} · starting`, runPercent(event.at, 0));
        else if (event.kind === 'load-end') say(formatLoadEnd(event.at, event.result), runPercent(event.at, 1));
      },
    };
  };
  const sessions = values.map((value, position) => sessionFor(context, output, settings, runs, value, reporter(position)));
  const file = {
    display: basename(uri.fsPath),
    text: document.getText(),
    baseDir: uri.scheme === 'file' ? dirname(uri.fsPath) : undefined,
    recorded: uri.scheme === 'file' ? recordedScenarioFile(uri.fsPath, workspaceRoot()) : uri.toString(),
  };
  const resolved = await sessions[0].check(file);
  if ('kind' in resolved) return fail(resolved.message);
  const plan = resolved.scenarios[meant.index];
  if (!plan) return fail(`${file.display} has no scenario number ${meant.index + 1}`);
  timing.rest = restOfRun(plan);
  const targets: TargetRun[] = [];
  for (const [position, session] of sessions.entries()) {
    const prepared = await session.prepare(file, resolved, plan);
    if ('kind' in prepared) return prepared.reason === 'declined' ? undefined : fail(prepared.message);
    targets.push({ label: values[position], session, prepared });
  }
  const sameServer = await sameServerRefusal(targets);
  if (sameServer) return fail(sameServer);

  const outcomes = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: plainText(`RBench: ${plan.name} on ${values.length} targets`), cancellable: true },
    (progress, token) => {
      notify = (message, increment) => progress.report({ message, increment });
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      if (interleaves(targets)) output.appendLine(`Each repeat of "${plan.name}" runs on every target in turn.`);
      return runOnTargets(targets, abort.signal);
    },
  );
  for (const outcome of outcomes) {
    if (outcome.kind === 'not-run') output.appendLine(`! ${outcome.message}`);
    else if (outcome.saveError) output.appendLine(`! ${outcome.saveError}`);
  }
  const compared = compareTargets(targets, outcomes);
  const paths = (compared?.runs ?? []).flatMap((run) => (run.path ? [run.path] : []));
  if (!compared || paths.length < 2) {
    output.show(true);
    return fail(`"${plan.name}" did not finish on two targets, so there is nothing to compare — see the RBench output.`);
  }
  const saved = saveComparison(compared.comparison, compared.runs[0], runs.root);
  output.appendLine('path' in saved ? `Comparison saved: ${saved.path}` : `! ${saved.saveError}`);
  compare(paths);
  return paths;
}

// The selected target in the status bar, and the commands around it: Select Target, Test Connection,
// Set Password and Clear Password (passwords live in SecretStorage, never in settings).
import { RESTRICTED_MESSAGE } from '../runner/session';
import * as vscode from 'vscode';
import { closeControlConnection, openControlConnection, testConnection } from '../redis/control';
import { parseInfo } from '../redis/info';
import { settingText } from '../results/settingText';
import { startLocalServer, type LocalServer } from '../redis/localServer';
import type { ConnectionOptions, ServerFacts } from '../redis/types';
import { readSettings, SECTION } from './settings';
import { plainText } from './plainText';
import { pickTarget, SCOPE_ITEMS, userSettingsSaver } from './targetPicker';
import { parseActiveTarget, type ParsedActiveTarget } from '../runner/targets';
import { activeSecretKey, describeActiveTarget, describeScenarioTarget } from './targetChoices';
import { documentChecks } from './documentChecks';
import { scenarioAtLine } from './scenarios';
import type { PrepareConnectionTest } from './connectionTestPort';

/** The resource whose settings apply: the active editor's file, else the workspace. */
function settingsScope(): vscode.Uri | undefined {
  return vscode.window.activeTextEditor?.document.uri;
}

function activeTarget(): { active: ParsedActiveTarget; settings: ReturnType<typeof readSettings> } {
  const settings = readSettings(settingsScope());
  return { active: parseActiveTarget(settings.target, settings.profiles), settings };
}

export class TargetStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];

  /** Bumped by each update, so a file's check that answers late does not overwrite a newer state. */
  private generation = 0;
  /** The workspace's `rbench.target` last told of (a notice once per value). */
  private noticed: string | undefined;

  constructor(private readonly notice: (message: string) => void = (message) => void vscode.window.showInformationMessage(message)) {
    this.item = vscode.window.createStatusBarItem('rbench.target', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'RBench target';
    this.item.command = 'rbench.selectTarget';
    this.disposables.push(
      this.item,
      vscode.workspace.onDidChangeConfiguration((event) => event.affectsConfiguration(SECTION) && void this.update()),
      vscode.window.onDidChangeActiveTextEditor(() => void this.update()),
      vscode.window.onDidChangeTextEditorSelection((event) => event.textEditor === vscode.window.activeTextEditor && void this.update()),
      vscode.workspace.onDidChangeTextDocument((event) => event.document === vscode.window.activeTextEditor?.document && void this.update()),
    );
    void this.update();
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }

  /** What the item shows now. */
  get text(): string {
    return this.item.text;
  }

  /**
   * Shown while an `.rbench` file is open, or when the workspace chose a target: the target the scenario
   * under the cursor runs against (its own `target` line wins over the selected one).
   */
  async update(): Promise<void> {
    const generation = ++this.generation;
    const { active, settings } = activeTarget();
    this.noticeWorkspaceTarget(settings);
    const selected = describeActiveTarget(active, settings.profiles);
    const editor = vscode.window.activeTextEditor;
    const rbenchOpen = editor?.document.languageId === 'rbench';
    let own: string | undefined;
    if (rbenchOpen && editor) {
      const resolved = await documentChecks().resolve(editor.document.getText(), { env: process.env });
      if (generation !== this.generation) return;
      const scenario = scenarioAtLine(resolved.scenarios, editor.selection.active.line);
      own = scenario ? describeScenarioTarget(scenario.target, settings.profiles) : undefined;
    }
    if (own !== undefined) {
      this.item.text = `$(database) ${own}`;
      this.item.tooltip = `This scenario's own target line names ${own}: it runs there, whatever the selected target (${selected}).`;
    } else {
      this.item.text = active.kind === 'invalid' ? `$(warning) ${selected}` : `$(database) ${selected}`;
      this.item.tooltip =
        active.kind === 'invalid'
          ? active.error
          : `RBench runs scenarios without their own target against: ${selected}${settings.targetSupplier === 'workspace' ? ' (chosen by the workspace settings)' : ''}. Click to change.`;
    }
    if (rbenchOpen || settings.target) this.item.show();
    else this.item.hide();
  }

  /** A workspace that selects a target (.vscode/settings.json) is told of once per value: it decides where runs go. */
  private noticeWorkspaceTarget(settings: ReturnType<typeof readSettings>): void {
    if (settings.targetSupplier !== 'workspace' || !settings.target || settings.target === this.noticed) return;
    this.noticed = settings.target;
    const name = describeActiveTarget(parseActiveTarget(settings.target, settings.profiles), settings.profiles);
    this.notice(
      plainText(
        `RBench: this workspace's settings select the target ${name} (rbench.target in .vscode/settings.json). Runs there ask first; "RBench: Select Target" changes it.`,
      ),
    );
  }
}

export async function selectTarget(): Promise<string | undefined> {
  const { settings } = activeTarget();
  const config = () => vscode.workspace.getConfiguration(SECTION, settingsScope());
  return pickTarget(
    {
      pick: (items) =>
        vscode.window.showQuickPick(
          items.map((item) => ({ ...item, label: item.picked ? `$(check) ${item.label}` : item.label })),
          { title: 'RBench: Select Target', placeHolder: 'Where scenarios without their own target line run' },
        ),
      input: ({ title, prompt, placeHolder, value, validate }) =>
        vscode.window.showInputBox({
          title,
          prompt,
          placeHolder,
          value,
          valueSelection: value ? [value.length, value.length] : undefined,
          validateInput: validate,
          ignoreFocusOut: true,
        }),
      ...userSettingsSaver(config, (message) => void vscode.window.showWarningMessage(message)),
      // With a folder open, the user picks where the choice goes; the user's settings come first.
      ...(vscode.workspace.workspaceFolders?.length
        ? {
            where: async () =>
              (await vscode.window.showQuickPick(SCOPE_ITEMS, { title: 'RBench: save the target in…', placeHolder: 'Where rbench.target is saved' }))?.scope,
          }
        : {}),
      saved: (message) => void vscode.window.showInformationMessage(plainText(message)),
    },
    settings,
  );
}

export type { PrepareConnectionTest } from './connectionTestPort';

/** "RBench: Test Connection" on the selected target; returns the message shown. */
export async function testSelectedConnection(prepareTest: PrepareConnectionTest): Promise<string> {
  if (!vscode.workspace.isTrusted) return showFailure(RESTRICTED_MESSAGE);
  const { active, settings } = activeTarget();
  const editor = vscode.window.activeTextEditor;
  // The open scenario's own target line wins, as the status bar shows: that is the target tested.
  const own = editor?.document.languageId === 'rbench' ? { text: editor.document.getText(), line: editor.selection.active.line } : undefined;
  if (active.kind === 'invalid' && !own) return showFailure(active.error);
  // The same consent, password and network rules as a run: nothing is contacted before they pass.
  const ready = await prepareTest(settingsScope(), own);
  if ('kind' in ready) return ready.reason === 'declined' ? `Connection not tested: ${ready.message}` : showFailure(ready.message);
  const { session, prepared } = ready;
  const name = prepared.choice.local ? describeActiveTarget({ kind: 'local' }, settings.profiles) : session.connectionOf(prepared).display;
  let local: LocalServer | undefined;
  try {
    return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: plainText(`RBench: testing ${name}…`) }, async () => {
      if (prepared.choice.local) local = await startLocalServer();
      const connection = session.connectionOf(prepared, local?.url);
      if (!connection.options) return showFailure(connection.error ?? 'cannot connect');
      const result = await testConnection(connection.options);
      if (!result.ok) return showFailure(`${connection.display}: ${result.error}`);
      const where = local ? `throwaway redis-server (${connection.display})` : connection.display;
      const message = describeServer(where, result.facts, result.roundTripMs, await usedMemory(connection.options));
      // The facts are the server's own words (version, mode): shown as text.
      void vscode.window.showInformationMessage(plainText(message));
      return message;
    });
  } catch (error) {
    return showFailure(`cannot start a throwaway redis-server: ${(error as Error).message}`);
  } finally {
    await local?.stop();
  }
}

/** `redis://10.0.0.5:6379: Redis 7.2.4 standalone · used memory 1.20M · save "3600 1" · appendonly no · maxmemory 0 · round trip 0.41 ms`; sizes in human units (`maxmemory 256 MiB`). */
export function describeServer(display: string, facts: ServerFacts, roundTripMs: number, usedMemoryHuman: string | undefined): string {
  const setting = (name: string) => {
    const value = facts.config[name];
    if (value === undefined) return `${name} not readable`;
    return `${name} ${value === '' || /\s/.test(value) ? `"${value}"` : settingText(name, value)}`;
  };
  return [
    `${display}: Redis ${facts.version} ${facts.mode}`,
    ...(usedMemoryHuman ? [`used memory ${usedMemoryHuman}`] : []),
    setting('save'),
    setting('appendonly'),
    setting('maxmemory'),
    `round trip ${roundTripMs.toFixed(2)} ms`,
  ].join(' · ');
}

/** INFO memory's used_memory_human; undefined when the server does not let this user read INFO. */
async function usedMemory(options: ConnectionOptions): Promise<string | undefined> {
  try {
    const redis = await openControlConnection(options);
    try {
      return parseInfo(await redis.info('memory')).memory?.used_memory_human;
    } finally {
      await closeControlConnection(redis);
    }
  } catch {
    return undefined;
  }
}

function showFailure(message: string): string {
  void vscode.window.showErrorMessage(`Connection failed: ${plainText(message)}`);
  return `Connection failed: ${message}`;
}

/** "RBench: Set Password": stored per profile, or per host:port for a URL target. */
export async function setPassword(secrets: vscode.SecretStorage): Promise<boolean> {
  const { active, settings } = activeTarget();
  const key = activeSecretKey(active);
  if (!key) {
    void vscode.window.showInformationMessage(
      'The selected target is a throwaway local redis-server, which has no password: select a profile or URL first ("RBench: Select Target").',
    );
    return false;
  }
  const name = describeActiveTarget(active, settings.profiles);
  const password = await vscode.window.showInputBox({
    title: `RBench: password for ${name}`,
    password: true,
    ignoreFocusOut: true,
    prompt: "Kept in the editor's secret storage, not in settings",
  });
  if (password === undefined) return false;
  await secrets.store(key, password);
  void vscode.window.showInformationMessage(plainText(`Password for ${name} stored.`));
  return true;
}

export async function clearPassword(secrets: vscode.SecretStorage): Promise<boolean> {
  const { active, settings } = activeTarget();
  const key = activeSecretKey(active);
  if (!key) return false;
  await secrets.delete(key);
  void vscode.window.showInformationMessage(plainText(`Password for ${describeActiveTarget(active, settings.profiles)} removed.`));
  return true;
}

// The selected target's own command table, for the editor: completion, hover and diagnostics then know its
// module commands (FT.SEARCH…). Read once per target (COMMAND INFO + COMMAND DOCS, src/redis/commandTable.ts)
// and kept in memory; "RBench: Refresh Command Table" reads it again. Never in a restricted workspace; a
// target the workspace's settings chose is read only on Refresh, through Test Connection's consent.
import * as vscode from 'vscode';
import { withNetworkRule } from '../gates/network';
import { closeControlConnection, ioredisLink, openControlConnection } from '../redis/control';
import { startLocalServer, type LocalServer } from '../redis/localServer';
import { readCommandTable } from '../redis/commandTable';
import type { ConnectionOptions } from '../redis/types';
import { RESTRICTED_MESSAGE } from '../runner/session';
import { chooseTarget, connectionFor, defaultTargetPlan, parseActiveTarget, type ParsedActiveTarget } from '../runner/targets';
import type { CommandTableData } from '../scenario/commandTable';
import type { PrepareConnectionTest } from './connectionTestPort';
import { plainText } from './plainText';
import { readSettings, SECTION, type EditorSettings } from './settings';

/** Where to connect for the selected target, through the run's gates (consent, password, network rule); a string says why not. */
export type TableConnector = (scope: vscode.Uri | undefined) => Promise<{ options: ConnectionOptions; display: string } | { local: true } | string>;

/** A connector on Test Connection's path (RunService.prepareConnectionTest): the same consent, password and network rules. */
export function connectorOf(prepare: PrepareConnectionTest): TableConnector {
  return async (scope) => {
    const ready = await prepare(scope);
    if ('kind' in ready) return ready.message;
    if (ready.prepared.choice.local) return { local: true };
    const connection = ready.session.connectionOf(ready.prepared);
    return connection.options ? { options: connection.options, display: connection.display } : (connection.error ?? 'cannot connect');
  };
}

/**
 * The cache key of a target: a profile by name and URL (an edited profile is another server), a URL as written,
 * the throwaway server by the modules it loads (without modules it has the built-in table: nothing to read).
 */
function targetKey(active: ParsedActiveTarget, settings: EditorSettings): string | undefined {
  if (active.kind === 'local') return settings.localServerModules.length > 0 ? `local ${settings.localServerModules.join('\n')}` : undefined;
  if (active.kind === 'url') return `url ${active.url}`;
  if (active.kind === 'profile') return `profile ${active.name} ${settings.profiles[active.name]?.url ?? ''}`;
  return undefined;
}

/** The workspace (not the user) chose this target: its table is read only when the user asks, with consent. */
function workspaceChosen(active: ParsedActiveTarget, settings: EditorSettings): boolean {
  return settings.targetSupplier === 'workspace' || (active.kind === 'profile' && settings.workspaceProfiles.includes(active.name));
}

let selected: CommandTableData | undefined;
let changed: vscode.EventEmitter<void> | undefined;

/** The selected target's table as plain data (for the checker, its worker, completion, hover); undefined: the built-in table. */
export function selectedCommandTable(): CommandTableData | undefined {
  return selected;
}

/** Fires when the selected target's table changes (diagnostics re-check the open documents). */
export function onDidChangeCommandTable(listener: () => void): vscode.Disposable {
  changed ??= new vscode.EventEmitter<void>();
  return changed.event(listener);
}

function setSelected(data: CommandTableData | undefined): void {
  if (data === selected) return;
  selected = data;
  changed?.fire();
}

export class CommandTables implements vscode.Disposable {
  private readonly cache = new Map<string, CommandTableData>();
  private readonly reading = new Map<string, Promise<CommandTableData | string>>();
  /** Targets whose failure was told of (one notice each, until a read succeeds). */
  private readonly noticed = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Bumped by each update, so a slow read for a target no longer selected is dropped. */
  private generation = 0;

  constructor(
    private readonly connect: TableConnector,
    private readonly notice: (message: string) => void = (message) => void vscode.window.showWarningMessage(message),
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((event) => event.affectsConfiguration(SECTION) && void this.update()),
      // A workspace trusted later may read the table it could not before.
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.update()),
    );
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
    setSelected(undefined);
  }

  /** Uses the selected target's table: cached, else read (a target the user chose in their own settings). */
  update(): Promise<CommandTableData | undefined> {
    return this.load(false);
  }

  /** "RBench: Refresh Command Table": reads the selected target's table again, asking first where a run would. */
  refresh(): Promise<CommandTableData | undefined> {
    return this.load(true);
  }

  private async load(refresh: boolean): Promise<CommandTableData | undefined> {
    const generation = ++this.generation;
    const scope = vscode.window.activeTextEditor?.document.uri;
    const settings = readSettings(scope);
    const active = parseActiveTarget(settings.target, settings.profiles);
    const key = targetKey(active, settings);
    // A restricted workspace contacts nothing; the throwaway local server (started per run) has the built-in table.
    if (!vscode.workspace.isTrusted || key === undefined) {
      setSelected(undefined);
      if (refresh) this.notice(plainText(!vscode.workspace.isTrusted ? RESTRICTED_MESSAGE : localMessage(active)));
      return undefined;
    }
    const cached = this.cache.get(key);
    if (cached && !refresh) {
      setSelected(cached);
      return cached;
    }
    if (!refresh && workspaceChosen(active, settings)) {
      setSelected(undefined);
      return undefined;
    }
    // One read per target at a time: a settings change and an explicit update share it; Refresh waits for none.
    let reading = refresh ? undefined : this.reading.get(key);
    if (!reading) {
      reading = active.kind === 'local' ? this.readLocal(settings.localServerModules) : this.read(scope);
      const started = reading;
      this.reading.set(key, started);
      void started.finally(() => this.reading.get(key) === started && this.reading.delete(key));
    }
    const read = await reading;
    if (generation !== this.generation) return selected;
    if (typeof read === 'string') {
      setSelected(undefined);
      if (refresh || !this.noticed.has(key)) this.notice(plainText(`RBench: ${read}`));
      this.noticed.add(key);
      return undefined;
    }
    this.noticed.delete(key);
    this.cache.set(key, read);
    setSelected(read);
    return read;
  }

  /** The table, or the message saying why the built-in one applies. */
  private async read(scope: vscode.Uri | undefined): Promise<CommandTableData | string> {
    const target = await this.connect(scope);
    if (typeof target === 'string') return `the command table was not read (${target}): the editor checks commands against the built-in table`;
    if ('local' in target) return localMessage({ kind: 'local' }).replace(/^RBench: /, '');
    return this.readFrom(target.options, target.display);
  }

  /**
   * The throwaway server's table with the user's rbench.localServer.modules (user settings only): one is
   * started for the read and stopped (a few hundred milliseconds, once per module list).
   */
  private async readLocal(modules: readonly string[]): Promise<CommandTableData | string> {
    let local: LocalServer;
    try {
      local = await startLocalServer({ modules: [...modules] });
    } catch (error) {
      return `could not start a throwaway redis-server with rbench.localServer.modules (${(error as Error).message}): the editor checks commands against the built-in table`;
    }
    try {
      // The throwaway server's options as a run gets them (the same defaults and timeouts).
      const connection = connectionFor(chooseTarget(defaultTargetPlan(), { kind: 'local' }), { profiles: {}, env: {}, localUrl: local.url });
      if (!connection.options) return connection.error ?? 'cannot connect';
      return await this.readFrom(connection.options, `throwaway redis-server (${local.url})`);
    } finally {
      await local.stop();
    }
  }

  private async readFrom(options: ConnectionOptions, display: string): Promise<CommandTableData | string> {
    let redis;
    try {
      redis = await openControlConnection(withNetworkRule(options));
    } catch (error) {
      return `could not read the command table of ${display} (${(error as Error).message}): the editor checks commands against the built-in table`;
    }
    try {
      const read = await readCommandTable(ioredisLink(redis), { docs: true, display });
      if (!read.ok) return read.warning;
      return { origin: read.table.origin, specs: read.specs };
    } finally {
      await closeControlConnection(redis);
    }
  }
}

function localMessage(active: ParsedActiveTarget): string {
  return active.kind === 'invalid'
    ? `RBench: ${active.error}`
    : 'RBench: the selected target is the throwaway local redis-server without modules (rbench.localServer.modules): the editor checks commands against the built-in table';
}

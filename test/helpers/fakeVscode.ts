// A small fake of the part of the `vscode` API the editor glue uses (src/editor/runService.ts, history.ts,
// testController.ts, src/views/resultsPanels.ts and what they import), so that glue runs in plain mocha
// against real files and real redis-servers. In the manner of microsoft/playwright-vscode's
// tests/mock/vscode.ts: a fake editor that records what the extension does (messages, progress, webview
// posts, test results) and answers from what the test scripted. Only what RBench calls is here; anything
// else is missing on purpose, so new glue that needs more fails loudly instead of passing on a guess.
//
// Importing this module makes it the module `vscode` for this process (a Module._resolveFilename hook that
// answers only the request `vscode`, which no other unit test can load: there is no such package in
// node_modules). Import it before any src module that imports `vscode`; call useFakeVscode() in the suite,
// which starts every test from an empty editor, so one file's state never reaches another's.
import Module from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

// ---------------------------------------------------------------------------------------------------
// Registration as `vscode`

type Resolve = (request: string, parent: unknown, ...rest: unknown[]) => string;
const loader = Module as unknown as { _resolveFilename: Resolve & { rbenchFakeVscode?: true } };
if (!loader._resolveFilename.rbenchFakeVscode) {
  const original = loader._resolveFilename;
  const resolve = function (this: unknown, request: string, parent: unknown, ...rest: unknown[]): string {
    return request === 'vscode' ? __filename : original.call(this, request, parent, ...rest);
  } as Resolve & { rbenchFakeVscode?: true };
  resolve.rbenchFakeVscode = true;
  loader._resolveFilename = resolve;
}

// ---------------------------------------------------------------------------------------------------
// Basic types

export class Disposable {
  private done = false;
  constructor(private readonly callOnDispose: () => unknown) {}
  static from(...disposables: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => disposables.forEach((d) => d.dispose()));
  }
  dispose(): void {
    if (this.done) return;
    this.done = true;
    this.callOnDispose();
  }
}

type Listener<T> = (event: T) => unknown;

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  private disposed = false;
  readonly event = (listener: Listener<T>, thisArgs?: unknown, disposables?: Disposable[]): Disposable => {
    if (this.disposed) return new Disposable(() => undefined);
    const bound: Listener<T> = (event) => listener.call(thisArgs, event);
    this.listeners.push(bound);
    const disposable = new Disposable(() => (this.listeners = this.listeners.filter((l) => l !== bound)));
    disposables?.push(disposable);
    return disposable;
  };
  fire(event: T): void {
    for (const listener of [...this.listeners]) listener(event);
  }
  get listenerCount(): number {
    return this.listeners.length;
  }
  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query = '',
    readonly fragment = '',
  ) {}

  static file(fsPath: string): Uri {
    const slashed = fsPath.split(path.sep).join('/');
    return new Uri('file', '', slashed.startsWith('/') ? slashed : `/${slashed}`);
  }

  static parse(value: string): Uri {
    const match = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value);
    if (!match) throw new Error(`fake vscode: not a URI: ${value}`);
    return new Uri(match[1], match[2] ?? '', match[3], match[4] ?? '', match[5] ?? '');
  }

  static joinPath(base: Uri, ...segments: string[]): Uri {
    return new Uri(base.scheme, base.authority, path.posix.join(base.path, ...segments), base.query, base.fragment);
  }

  get fsPath(): string {
    return this.path;
  }

  with(change: { scheme?: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(
      change.scheme ?? this.scheme,
      change.authority ?? this.authority,
      change.path ?? this.path,
      change.query ?? this.query,
      change.fragment ?? this.fragment,
    );
  }

  toString(): string {
    const head = this.authority || this.scheme === 'file' ? `${this.scheme}://${this.authority}` : `${this.scheme}:`;
    return `${head}${this.path}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`;
  }

  toJSON(): unknown {
    return { scheme: this.scheme, authority: this.authority, path: this.path, query: this.query, fragment: this.fragment };
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(startLine: number | Position, startCharacter: number | Position, endLine?: number, endCharacter?: number) {
    if (typeof startLine === 'number' && typeof startCharacter === 'number') {
      this.start = new Position(startLine, startCharacter);
      this.end = new Position(endLine ?? startLine, endCharacter ?? startCharacter);
    } else {
      this.start = startLine as Position;
      this.end = startCharacter as Position;
    }
  }
}

export class Location {
  constructor(
    readonly uri: Uri,
    readonly range: Range,
  ) {}
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon {
  static readonly File = new ThemeIcon('file');
  static readonly Folder = new ThemeIcon('folder');
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: string;
  iconPath?: ThemeIcon;
  resourceUri?: Uri;
  contextValue?: string;
  command?: { command: string; title: string; arguments?: unknown[] };
  constructor(
    readonly label: string,
    readonly collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export class RelativePattern {
  readonly baseUri: Uri;
  constructor(
    base: Uri | string,
    readonly pattern: string,
  ) {
    this.baseUri = typeof base === 'string' ? Uri.file(base) : base;
  }
}

export enum FileType {
  Unknown = 0,
  File = 1,
  Directory = 2,
  SymbolicLink = 64,
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
  Two = 2,
  Three = 3,
}

export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}

export enum ExtensionMode {
  Production = 1,
  Development = 2,
  Test = 3,
}

export enum TestRunProfileKind {
  Run = 1,
  Debug = 2,
  Coverage = 3,
}

export interface CancellationToken {
  isCancellationRequested: boolean;
  onCancellationRequested: EventEmitter<void>['event'];
}

export class CancellationTokenSource {
  private readonly cancelled = new EventEmitter<void>();
  readonly token: CancellationToken = { isCancellationRequested: false, onCancellationRequested: this.cancelled.event };
  cancel(): void {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    this.cancelled.fire();
  }
  dispose(): void {
    this.cancelled.dispose();
  }
}

// ---------------------------------------------------------------------------------------------------
// Settings: the defaults package.json contributes, and user / workspace / folder values

interface SettingValues {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

function packageDefaults(): Map<string, unknown> {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json')) || JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).name !== 'rbench') {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('fake vscode: the rbench package.json was not found');
    dir = up;
  }
  const contributed = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).contributes.configuration;
  const sections: { properties: Record<string, { default?: unknown }> }[] = Array.isArray(contributed) ? contributed : [contributed];
  return new Map(sections.flatMap((section) => Object.entries(section.properties).map(([key, schema]) => [key, schema.default] as const)));
}

const DEFAULTS = packageDefaults();

const LAYER: Record<ConfigurationTarget, keyof SettingValues> = {
  [ConfigurationTarget.Global]: 'globalValue',
  [ConfigurationTarget.Workspace]: 'workspaceValue',
  [ConfigurationTarget.WorkspaceFolder]: 'workspaceFolderValue',
};

/** One section's settings as getConfiguration returns them; reads are live (the real one is a snapshot). */
class Configuration {
  constructor(private readonly section: string) {}

  private key(name: string): string {
    return this.section ? `${this.section}.${name}` : name;
  }

  inspect<T>(name: string): { key: string; defaultValue?: T; globalValue?: T; workspaceValue?: T; workspaceFolderValue?: T } {
    const key = this.key(name);
    return { key, defaultValue: DEFAULTS.get(key) as T, ...(state.settings.get(key) as { globalValue?: T; workspaceValue?: T; workspaceFolderValue?: T }) };
  }

  get<T>(name: string, defaultValue?: T): T | undefined {
    const i = this.inspect<T>(name);
    return i.workspaceFolderValue ?? i.workspaceValue ?? i.globalValue ?? i.defaultValue ?? defaultValue;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  async update(name: string, value: unknown, target?: ConfigurationTarget | boolean): Promise<void> {
    const key = this.key(name);
    if (!DEFAULTS.has(key)) throw new Error(`fake vscode: ${key} is not a registered configuration`);
    const layer = LAYER[target === true ? ConfigurationTarget.Global : typeof target === 'number' ? target : ConfigurationTarget.Workspace];
    const values = { ...state.settings.get(key), [layer]: value };
    state.settings.set(key, values);
    state.configurationChanged.fire({ affectsConfiguration: (section: string) => key === section || key.startsWith(`${section}.`) });
  }
}

// ---------------------------------------------------------------------------------------------------
// Documents, files and watchers

export class TextDocument {
  version = 1;
  isClosed = false;
  constructor(
    readonly uri: Uri,
    private text: string,
    readonly languageId: string,
  ) {}
  get fileName(): string {
    return this.uri.fsPath;
  }
  getText(): string {
    return this.text;
  }
  /** Test control: an edit in the editor (not saved). */
  edit(text: string): void {
    this.text = text;
    this.version++;
    state.documentChanged.fire({ document: this });
  }
}

export class FileSystemWatcher {
  readonly created = new EventEmitter<Uri>();
  readonly changed = new EventEmitter<Uri>();
  readonly deleted = new EventEmitter<Uri>();
  readonly onDidCreate = this.created.event;
  readonly onDidChange = this.changed.event;
  readonly onDidDelete = this.deleted.event;
  disposed = false;
  constructor(readonly pattern: RelativePattern | string) {}
  dispose(): void {
    this.disposed = true;
    this.created.dispose();
    this.changed.dispose();
    this.deleted.dispose();
  }
}

function languageOf(fsPath: string): string {
  return fsPath.endsWith('.rbench') ? 'rbench' : fsPath.endsWith('.json') ? 'json' : 'plaintext';
}

/** `**\/*.ext` only (what RBench searches for); node_modules and .git are never entered. */
function findFiles(include: string): Uri[] {
  const match = /^\*\*\/\*(\.[\w.-]+)$/.exec(include);
  if (!match) throw new Error(`fake vscode: findFiles supports **/*.ext only, not ${include}`);
  const found: Uri[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === '.git') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(match[1])) found.push(Uri.file(full));
    }
  };
  for (const folder of state.folders) walk(folder.uri.fsPath);
  return found;
}

function folderOf(uri: Uri): WorkspaceFolder | undefined {
  return state.folders.find((folder) => {
    const rel = path.relative(folder.uri.fsPath, uri.fsPath);
    return !rel.startsWith('..') && !path.isAbsolute(rel);
  });
}

export interface WorkspaceFolder {
  uri: Uri;
  name: string;
  index: number;
}

export const workspace = {
  get workspaceFolders(): readonly WorkspaceFolder[] | undefined {
    return state.folders.length > 0 ? state.folders : undefined;
  },
  get isTrusted(): boolean {
    return state.trusted;
  },
  get textDocuments(): readonly TextDocument[] {
    return state.documents;
  },
  get onDidChangeConfiguration() {
    return state.configurationChanged.event;
  },
  /** The fake's trust is set by tests (state.trusted): granting it is never announced. */
  onDidGrantWorkspaceTrust(): Disposable {
    return new Disposable(() => undefined);
  },
  get onDidOpenTextDocument() {
    return state.documentOpened.event;
  },
  get onDidChangeTextDocument() {
    return state.documentChanged.event;
  },
  getConfiguration(section?: string, _scope?: Uri): Configuration {
    return new Configuration(section ?? '');
  },
  getWorkspaceFolder: folderOf,
  asRelativePath(target: Uri | string): string {
    const uri = typeof target === 'string' ? Uri.file(target) : target;
    const folder = folderOf(uri);
    return folder ? path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/') : uri.fsPath;
  },
  async openTextDocument(uri: Uri): Promise<TextDocument> {
    const open = state.documents.find((document) => document.uri.toString() === uri.toString());
    if (open) return open;
    if (uri.scheme !== 'file') throw new Error(`fake vscode: cannot open ${uri.toString()}`);
    return new TextDocument(uri, await readFile(uri.fsPath, 'utf8'), languageOf(uri.fsPath));
  },
  fs: {
    async stat(uri: Uri): Promise<{ type: FileType; size: number; ctime: number; mtime: number }> {
      const info = await stat(uri.fsPath);
      return {
        type: info.isDirectory() ? FileType.Directory : info.isFile() ? FileType.File : FileType.Unknown,
        size: info.size,
        ctime: info.ctimeMs,
        mtime: info.mtimeMs,
      };
    },
    async readFile(uri: Uri): Promise<Uint8Array> {
      return new Uint8Array(await readFile(uri.fsPath));
    },
    async writeFile(uri: Uri, bytes: Uint8Array): Promise<void> {
      await writeFile(uri.fsPath, bytes);
    },
    /** Deletes for real; `useTrash` is recorded (tests have no trash). */
    async delete(uri: Uri, options: { recursive?: boolean; useTrash?: boolean } = {}): Promise<void> {
      state.deleted.push({ path: uri.fsPath, useTrash: options.useTrash === true });
      await rm(uri.fsPath, { recursive: options.recursive === true });
    },
  },
  createFileSystemWatcher(pattern: RelativePattern | string): FileSystemWatcher {
    const watcher = new FileSystemWatcher(pattern);
    state.watchers.push(watcher);
    return watcher;
  },
  async findFiles(include: string, _exclude?: string): Promise<Uri[]> {
    return findFiles(include);
  },
};

// ---------------------------------------------------------------------------------------------------
// Window: messages, progress, output, trees, webviews

export type Severity = 'information' | 'warning' | 'error';

/** A notification or modal the extension showed. */
export interface MessageCall {
  severity: Severity;
  message: string;
  options?: { modal?: boolean; detail?: string };
  items: string[];
}

/** A progress notification: what it reported, and its Cancel button. */
export interface ProgressCall {
  options: { location: ProgressLocation; title?: string; cancellable?: boolean };
  reports: { message?: string; increment?: number }[];
  cancel(): void;
  done: boolean;
}

export class OutputChannel {
  readonly lines: string[] = [];
  private partial = '';
  shown = 0;
  disposed = false;
  constructor(readonly name: string) {}
  get text(): string {
    return [...this.lines, this.partial].join('\n');
  }
  append(value: string): void {
    const parts = (this.partial + value).split('\n');
    this.partial = parts.pop() ?? '';
    this.lines.push(...parts);
  }
  appendLine(value: string): void {
    this.append(`${value}\n`);
  }
  replace(value: string): void {
    this.clear();
    this.append(value);
  }
  clear(): void {
    this.lines.length = 0;
    this.partial = '';
  }
  show(): void {
    this.shown++;
  }
  hide(): void {}
  dispose(): void {
    this.disposed = true;
  }
}

export class TreeView<T> {
  selection: T[] = [];
  visible = true;
  message: string | undefined;
  disposed = false;
  constructor(
    readonly id: string,
    readonly options: { treeDataProvider: unknown; canSelectMany?: boolean },
  ) {}
  dispose(): void {
    this.disposed = true;
  }
}

export const FAKE_CSP_SOURCE = 'https://fake.vscode-cdn.net';

export class Webview {
  options: unknown = {};
  html = '';
  readonly cspSource = FAKE_CSP_SOURCE;
  /** Every message the extension posted, as the webview receives it (a JSON copy: what cannot be posted fails here). */
  readonly posted: unknown[] = [];
  private readonly received = new EventEmitter<unknown>();
  readonly onDidReceiveMessage = this.received.event;
  asWebviewUri(uri: Uri): Uri {
    return Uri.parse(`${FAKE_CSP_SOURCE}${uri.path}`);
  }
  async postMessage(message: unknown): Promise<boolean> {
    this.posted.push(JSON.parse(JSON.stringify(message)));
    return true;
  }
  /** Test control: the webview's script sends `message`; resolves once the extension's handlers had a turn. */
  async send(message: unknown): Promise<void> {
    this.received.fire(message);
    await new Promise((resolve) => setImmediate(resolve));
  }
  dispose(): void {
    this.received.dispose();
  }
}

/** A custom editor's tab input (the run viewer's tabs). */
export class TabInputCustom {
  constructor(
    readonly uri: Uri,
    readonly viewType: string,
  ) {}
}

/** An editor group and its tabs; `vscode.openWith` adds a tab to one, or brings forward the tab it already has. */
export interface FakeTabGroup {
  viewColumn: number;
  tabs: { input: unknown; label: string; group: FakeTabGroup }[];
}

/** Where `column` (a ViewColumn, or show options carrying one) opens: Active and nothing mean the active group. */
function columnOf(column: unknown): number {
  const asked = typeof column === 'object' && column !== null ? (column as { viewColumn?: number }).viewColumn : (column as number | undefined);
  if (asked === undefined || asked === ViewColumn.Active) return state.activeColumn;
  return asked === ViewColumn.Beside ? state.activeColumn + 1 : asked;
}

/** `vscode.openWith(uri, viewType, column)` as VS Code does it: a group holds one tab per input. */
function openWith(uri: Uri, viewType: string, column: unknown): void {
  if (viewType === 'default') return;
  const viewColumn = columnOf(column);
  let group = state.tabGroups.find((g) => g.viewColumn === viewColumn);
  if (!group) {
    group = { viewColumn, tabs: [] };
    state.tabGroups.push(group);
  }
  const same = group.tabs.some((tab) => tab.input instanceof TabInputCustom && tab.input.viewType === viewType && tab.input.uri.toString() === uri.toString());
  if (!same) group.tabs.push({ input: new TabInputCustom(uri, viewType), label: uri.path.split('/').pop() ?? '', group });
}

export class WebviewPanel {
  readonly webview = new Webview();
  viewColumn: ViewColumn | undefined;
  active = true;
  visible = true;
  revealed = 0;
  /** The column each reveal asked for (undefined: where the panel is). */
  readonly revealedIn: (ViewColumn | undefined)[] = [];
  disposed = false;
  private readonly disposedEvent = new EventEmitter<void>();
  readonly onDidDispose = this.disposedEvent.event;
  private readonly viewState = new EventEmitter<unknown>();
  readonly onDidChangeViewState = this.viewState.event;
  constructor(
    readonly viewType: string,
    public title: string,
    column: ViewColumn | undefined,
    readonly options: unknown,
  ) {
    this.viewColumn = column === ViewColumn.Beside ? state.activeColumn + 1 : column === ViewColumn.Active ? state.activeColumn : column;
  }
  reveal(column?: ViewColumn): void {
    this.revealed++;
    this.revealedIn.push(column);
  }
  /** Closed (by the user or the extension): fires onDidDispose once. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disposedEvent.fire();
    this.disposedEvent.dispose();
    this.viewState.dispose();
    this.webview.dispose();
  }
}

function message(severity: Severity, args: unknown[]): Promise<string | undefined> {
  const [text, ...rest] = args as [string, ...unknown[]];
  const options = rest.length > 0 && typeof rest[0] === 'object' && rest[0] !== null ? (rest.shift() as MessageCall['options']) : undefined;
  const call: MessageCall = { severity, message: text, options, items: rest as string[] };
  state.messages.push(call);
  const answer = state.answer(call);
  if (answer !== undefined && !call.items.includes(answer)) throw new Error(`fake vscode: the scripted answer "${answer}" is not a button of "${text}"`);
  return Promise.resolve(answer);
}

export const window = {
  showInformationMessage: (...args: unknown[]) => message('information', args),
  showWarningMessage: (...args: unknown[]) => message('warning', args),
  showErrorMessage: (...args: unknown[]) => message('error', args),
  async showQuickPick<T>(items: readonly T[] | Promise<readonly T[]>, options?: unknown): Promise<T | T[] | undefined> {
    const list = await items;
    state.quickPicks.push({ items: list, options });
    return state.pick(list, options) as T | T[] | undefined;
  },
  async showSaveDialog(options: unknown): Promise<Uri | undefined> {
    state.saveDialogs.push(options);
    return state.saveTo(options);
  },
  async withProgress<R>(
    options: ProgressCall['options'],
    task: (progress: { report(value: { message?: string; increment?: number }): void }, token: CancellationToken) => Thenable<R>,
  ): Promise<R> {
    const source = new CancellationTokenSource();
    const call: ProgressCall = { options, reports: [], cancel: () => source.cancel(), done: false };
    state.progress.push(call);
    try {
      return await task({ report: (value) => call.reports.push(value) }, source.token);
    } finally {
      call.done = true;
      source.dispose();
    }
  },
  createOutputChannel(name: string): OutputChannel {
    const channel = new OutputChannel(name);
    state.outputChannels.push(channel);
    return channel;
  },
  createTreeView<T>(id: string, options: { treeDataProvider: unknown; canSelectMany?: boolean }): TreeView<T> {
    const view = new TreeView<T>(id, options);
    state.treeViews.push(view);
    return view;
  },
  createWebviewPanel(viewType: string, title: string, show: ViewColumn | { viewColumn: ViewColumn; preserveFocus?: boolean }, options?: unknown): WebviewPanel {
    const panel = new WebviewPanel(viewType, title, typeof show === 'object' ? show.viewColumn : show, options);
    state.panels.push(panel);
    return panel;
  },
  get activeTextEditor(): undefined {
    return undefined;
  },
  get tabGroups() {
    return {
      activeTabGroup: { viewColumn: state.activeColumn },
      all: state.tabGroups,
      onDidChangeTabGroups: state.tabGroupsChanged.event,
      async close(tabs: readonly FakeTabGroup['tabs'][number][]): Promise<boolean> {
        for (const tab of tabs) tab.group.tabs.splice(tab.group.tabs.indexOf(tab), 1);
        return true;
      },
    };
  },
  get onDidChangeActiveTextEditor() {
    return state.activeEditorChanged.event;
  },
  async showTextDocument(document: TextDocument | Uri, options?: unknown): Promise<{ document: TextDocument | Uri }> {
    state.shownDocuments.push({ document, options });
    return { document };
  },
  registerCustomEditorProvider(viewType: string, provider: unknown): Disposable {
    state.registered.push({ kind: 'custom-editor', viewType, provider });
    return new Disposable(() => undefined);
  },
  registerWebviewPanelSerializer(viewType: string, serializer: unknown): Disposable {
    state.registered.push({ kind: 'serializer', viewType, provider: serializer });
    return new Disposable(() => undefined);
  },
};

// ---------------------------------------------------------------------------------------------------
// Languages: providers are recorded (state.registered, kind `completion`, `hover`…) for tests to call

/** An enum whose members are their own names (CompletionItemKind.Function is `Function`). */
const namesEnum = () => new Proxy({}, { get: (_target, name) => String(name) }) as Record<string, string>;
export const CompletionItemKind = namesEnum();
export const SymbolKind = namesEnum();
export const FoldingRangeKind = namesEnum();
export const DiagnosticSeverity = namesEnum();
export const CodeActionKind = { QuickFix: { value: 'quickfix', contains: () => true } };

export class MarkdownString {
  constructor(public value = '') {}
}
export class SnippetString {
  constructor(public value = '') {}
}
export class CompletionItem {
  range?: Range;
  detail?: string;
  documentation?: MarkdownString;
  insertText?: string | SnippetString;
  sortText?: string;
  constructor(
    public label: string,
    public kind?: string,
  ) {}
}
export class Hover {
  constructor(
    public contents: MarkdownString,
    public range?: Range,
  ) {}
}

const provider =
  (kind: string) =>
  (_selector: unknown, registered: unknown): Disposable => {
    state.registered.push({ kind, viewType: 'rbench', provider: registered });
    return new Disposable(() => undefined);
  };
export const languages = {
  registerCompletionItemProvider: provider('completion'),
  registerHoverProvider: provider('hover'),
  registerDocumentSymbolProvider: provider('symbols'),
  registerFoldingRangeProvider: provider('folding'),
  registerDocumentFormattingEditProvider: provider('formatting'),
  registerCodeActionsProvider: provider('code-actions'),
};

// ---------------------------------------------------------------------------------------------------
// Commands and the clipboard

/** Commands VS Code itself answers: recorded, and nothing else happens. */
const BUILT_IN_COMMANDS = new Set(['vscode.open', 'vscode.openWith', 'revealInExplorer', 'setContext']);

export const commands = {
  registerCommand(id: string, handler: (...args: unknown[]) => unknown): Disposable {
    if (state.commands.has(id)) throw new Error(`command '${id}' already exists`);
    state.commands.set(id, handler);
    return new Disposable(() => state.commands.delete(id));
  },
  async executeCommand<T>(id: string, ...args: unknown[]): Promise<T> {
    state.executed.push({ id, args });
    if (id === 'vscode.openWith') openWith(args[0] as Uri, args[1] as string, args[2]);
    const handler = state.commands.get(id);
    if (handler) return (await handler(...args)) as T;
    if (BUILT_IN_COMMANDS.has(id)) return undefined as T;
    throw new Error(`command '${id}' not found`);
  },
};

export const env = {
  clipboard: {
    async writeText(text: string): Promise<void> {
      state.clipboard = text;
    },
    async readText(): Promise<string> {
      return state.clipboard;
    },
  },
};

// ---------------------------------------------------------------------------------------------------
// The Test Explorer

export class TestMessage {
  location?: Location;
  expectedOutput?: string;
  actualOutput?: string;
  constructor(readonly message: string) {}
}

export class TestRunRequest {
  constructor(
    readonly include?: readonly TestItem[],
    readonly exclude?: readonly TestItem[],
    readonly profile?: TestRunProfile,
  ) {}
}

export class TestItemCollection {
  private readonly map = new Map<string, TestItem>();
  constructor(private readonly owner: TestItem | undefined) {}
  get size(): number {
    return this.map.size;
  }
  get(id: string): TestItem | undefined {
    return this.map.get(id);
  }
  add(item: TestItem): void {
    item.parent = this.owner;
    this.map.set(item.id, item);
  }
  delete(id: string): void {
    this.map.delete(id);
  }
  replace(items: readonly TestItem[]): void {
    this.map.clear();
    for (const item of items) this.add(item);
  }
  forEach(visit: (item: TestItem, collection: TestItemCollection) => unknown): void {
    for (const item of [...this.map.values()]) visit(item, this);
  }
  [Symbol.iterator](): Iterator<[string, TestItem]> {
    return this.map[Symbol.iterator]();
  }
}

export class TestItem {
  readonly children: TestItemCollection = new TestItemCollection(this);
  parent: TestItem | undefined;
  range: Range | undefined;
  canResolveChildren = false;
  constructor(
    readonly id: string,
    public label: string,
    readonly uri: Uri | undefined,
  ) {}
}

export interface TestRunProfile {
  label: string;
  kind: TestRunProfileKind;
  runHandler: (request: TestRunRequest, token: CancellationToken) => Thenable<void> | void;
  isDefault: boolean;
  dispose(): void;
}

export type TestStatus = 'enqueued' | 'started' | 'skipped' | 'passed' | 'failed' | 'errored';

export class TestRun {
  /** Every state change, in order. */
  readonly events: { item: TestItem; status: TestStatus; messages?: TestMessage[]; duration?: number }[] = [];
  readonly output: { text: string; item?: TestItem }[] = [];
  ended = false;
  constructor(readonly request: TestRunRequest) {}
  private record(item: TestItem, status: TestStatus, messages?: TestMessage | TestMessage[], duration?: number): void {
    if (this.ended) throw new Error('fake vscode: the test run has ended');
    this.events.push({ item, status, messages: messages === undefined ? undefined : Array.isArray(messages) ? messages : [messages], duration });
  }
  enqueued(item: TestItem): void {
    this.record(item, 'enqueued');
  }
  started(item: TestItem): void {
    this.record(item, 'started');
  }
  skipped(item: TestItem): void {
    this.record(item, 'skipped');
  }
  passed(item: TestItem, duration?: number): void {
    this.record(item, 'passed', undefined, duration);
  }
  failed(item: TestItem, messages: TestMessage | TestMessage[], duration?: number): void {
    this.record(item, 'failed', messages, duration);
  }
  errored(item: TestItem, messages: TestMessage | TestMessage[], duration?: number): void {
    this.record(item, 'errored', messages, duration);
  }
  appendOutput(text: string, _location?: Location, item?: TestItem): void {
    this.output.push({ text, item });
  }
  end(): void {
    this.ended = true;
  }
  /** The last state of `item` in this run. */
  last(item: TestItem): { status: TestStatus; messages?: TestMessage[]; duration?: number } | undefined {
    return [...this.events].reverse().find((event) => event.item === item);
  }
}

export class TestController {
  readonly items = new TestItemCollection(undefined);
  readonly profiles: TestRunProfile[] = [];
  readonly runs: TestRun[] = [];
  resolveHandler: ((item: TestItem | undefined) => Thenable<void> | void) | undefined;
  refreshHandler: (() => Thenable<void> | void) | undefined;
  disposed = false;
  constructor(
    readonly id: string,
    readonly label: string,
  ) {}
  createTestItem(id: string, label: string, uri?: Uri): TestItem {
    return new TestItem(id, label, uri);
  }
  createRunProfile(label: string, kind: TestRunProfileKind, runHandler: TestRunProfile['runHandler'], isDefault = false): TestRunProfile {
    const profile: TestRunProfile = { label, kind, runHandler, isDefault, dispose: () => this.profiles.splice(this.profiles.indexOf(profile), 1) };
    this.profiles.push(profile);
    return profile;
  }
  createTestRun(request: TestRunRequest): TestRun {
    const run = new TestRun(request);
    this.runs.push(run);
    return run;
  }
  dispose(): void {
    this.disposed = true;
  }
}

export const tests = {
  createTestController(id: string, label: string): TestController {
    const controller = new TestController(id, label);
    state.testControllers.push(controller);
    return controller;
  },
};

// ---------------------------------------------------------------------------------------------------
// The editor's state, and what tests control

export class Memento {
  private readonly values = new Map<string, unknown>();
  get<T>(key: string, defaultValue?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : defaultValue;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
}

/** An extension context for `extensionPath` (the repository: its dist/webview is where panels load scripts from). */
export function extensionContext(extensionPath: string) {
  const secrets = new Map<string, string>();
  return {
    subscriptions: [] as { dispose(): unknown }[],
    globalState: new Memento(),
    workspaceState: new Memento(),
    secrets: {
      get: async (key: string) => secrets.get(key),
      store: async (key: string, value: string) => void secrets.set(key, value),
      delete: async (key: string) => void secrets.delete(key),
    },
    extensionPath,
    extensionUri: Uri.file(extensionPath),
    extensionMode: ExtensionMode.Test,
  };
}

function freshState() {
  return {
    folders: [] as WorkspaceFolder[],
    trusted: true,
    settings: new Map<string, SettingValues>(),
    documents: [] as TextDocument[],
    watchers: [] as FileSystemWatcher[],
    deleted: [] as { path: string; useTrash: boolean }[],
    messages: [] as MessageCall[],
    /** How the user answers a notification or modal: a button's title, or undefined (dismissed). */
    answer: (_call: MessageCall): string | undefined => undefined,
    quickPicks: [] as { items: readonly unknown[]; options: unknown }[],
    pick: (_items: readonly unknown[], _options: unknown): unknown => undefined,
    saveDialogs: [] as unknown[],
    saveTo: (_options: unknown): Uri | undefined => undefined,
    progress: [] as ProgressCall[],
    outputChannels: [] as OutputChannel[],
    treeViews: [] as TreeView<unknown>[],
    panels: [] as WebviewPanel[],
    activeColumn: ViewColumn.One as number,
    /** The editor groups' tabs that `vscode.openWith` opened (webview panels are in `panels`). */
    tabGroups: [] as FakeTabGroup[],
    shownDocuments: [] as { document: TextDocument | Uri; options: unknown }[],
    registered: [] as { kind: string; viewType: string; provider: unknown }[],
    commands: new Map<string, (...args: unknown[]) => unknown>(),
    executed: [] as { id: string; args: unknown[] }[],
    clipboard: '',
    testControllers: [] as TestController[],
    configurationChanged: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),
    documentOpened: new EventEmitter<TextDocument>(),
    documentChanged: new EventEmitter<{ document: TextDocument }>(),
    tabGroupsChanged: new EventEmitter<unknown>(),
    activeEditorChanged: new EventEmitter<unknown>(),
  };
}

let state = freshState();

/** What the fake editor recorded, and the answers and workspace a test sets up. */
export const fake = {
  get state() {
    return state;
  },
  /** An empty editor: no folders, default settings, trusted, every question dismissed. */
  reset(): void {
    for (const emitter of [state.configurationChanged, state.documentOpened, state.documentChanged, state.tabGroupsChanged, state.activeEditorChanged])
      emitter.dispose();
    state = freshState();
  },
  setWorkspaceFolders(...paths: string[]): void {
    state.folders = paths.map((p, index) => ({ uri: Uri.file(p), name: path.basename(p), index }));
  },
  /** A document open in the editor (its text may differ from the file on disk). */
  openDocument(fsPath: string, text: string): TextDocument {
    const document = new TextDocument(Uri.file(fsPath), text, languageOf(fsPath));
    state.documents.push(document);
    state.documentOpened.fire(document);
    return document;
  },
  /** Answers every notification and modal with `answer(call)` (a button title, or undefined to dismiss). */
  answerWith(answer: (call: MessageCall) => string | undefined): void {
    state.answer = answer;
  },
  messages(severity?: Severity): MessageCall[] {
    return state.messages.filter((call) => severity === undefined || call.severity === severity);
  },
  outputChannel(name: string): OutputChannel {
    const channel = state.outputChannels.find((c) => c.name === name);
    if (!channel) throw new Error(`fake vscode: no output channel named ${name}`);
    return channel;
  },
};

/** Call inside a `describe`: every test starts from an empty fake editor. */
export function useFakeVscode(): typeof fake {
  beforeEach(() => fake.reset());
  after(() => fake.reset());
  return fake;
}

/** The extension answers the fake editor asynchronously (webview messages, redraws, runs): polls until `find` gives a value. */
export async function waitFor<T>(what: string, find: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined && found !== false) return found;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 10));
  }
}

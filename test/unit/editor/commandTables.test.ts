// Issue 23 ("The editor and `check` offline"): with a target selected, the editor reads and caches that
// target's command table, so completion, hover and diagnostics know its module commands (RediSearch's
// FT.SEARCH); never in a restricted workspace, never on a target the workspace chose without asking;
// "RBench: Refresh Command Table" reads it again.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import Redis from 'ioredis';
import { ConfigurationTarget, Position, workspace, type CompletionItem, type Hover } from '../../helpers/fakeVscode';
import type * as vscode from 'vscode';
import { registerLanguageFeatures } from '../../../src/editor/language';
import { CommandTables, connectorOf, selectedCommandTable } from '../../../src/editor/commandTables';
import { documentChecks, INLINE_CHECK_MAX_CHARS } from '../../../src/editor/documentChecks';
import { startLocalServer, type LocalServer } from '../../../src/redis/localServer';
import { NOT_BUILT_IN } from '../../../src/scenario/commandCheck';
import { completions, hover } from '../../../src/scenario/features';
import { useGlueWorkspace } from './glueWorkspace';

/** An argument the providers do not read (completion context, cancellation token). */
const never = <T>() => undefined as unknown as T;
const REDISEARCH = '/usr/lib/redis/modules/redisearch.so';
const TEXT = 'FT.SEARCH idx hello\n';

describe('the selected target’s command table in the editor', function () {
  this.timeout(60_000);
  let server: LocalServer;
  let observer: Redis;
  before(async () => {
    server = await startLocalServer({ modules: [REDISEARCH] });
    observer = new Redis({ host: '127.0.0.1', port: server.port, lazyConnect: true });
    await observer.connect();
  });
  after(async () => {
    observer?.disconnect();
    await server?.stop();
  });
  const glue = useGlueWorkspace('command-tables', () => server.url);
  let tables: CommandTables | undefined;
  const notices: string[] = [];
  const newTables = () => {
    notices.length = 0;
    tables = new CommandTables(
      connectorOf((scope, own) => glue.service().prepareConnectionTest(scope, own)),
      (message) => notices.push(message),
    );
    return tables;
  };
  afterEach(() => tables?.dispose());

  async function connectionsReceived(): Promise<number> {
    return Number(/total_connections_received:(\d+)/.exec(await observer.info('stats'))?.[1]);
  }

  async function diagnosticsOf(text: string) {
    const document = glue.editor.openDocument(join(glue.root(), `s${Math.random().toString(36).slice(2)}.rbench`), text);
    const checked = await documentChecks().check(document as never);
    return checked?.diagnostics ?? [];
  }

  it('knows FT.SEARCH in diagnostics, hover and completion once the target is selected', async () => {
    const before = await diagnosticsOf(TEXT);
    assert.ok(
      before.some((d) => d.message.includes(NOT_BUILT_IN)),
      'the built-in table does not know FT.SEARCH',
    );
    await newTables().update();
    const data = selectedCommandTable();
    assert.ok(data, `a table was read (${notices.join(' / ')})`);
    assert.match(data.origin, new RegExp(`127\\.0\\.0\\.1:${server.port}`));
    const after = await diagnosticsOf(TEXT);
    assert.deepEqual(
      after.filter((d) => d.message.includes(NOT_BUILT_IN)),
      [],
    );
    // A large file is checked in the worker thread: the table goes there as plain data.
    const large = TEXT + '# padding past the inline check size\n'.repeat(8000);
    assert.ok(large.length > INLINE_CHECK_MAX_CHARS);
    const inWorker = await diagnosticsOf(large);
    assert.deepEqual(
      inWorker.filter((d) => d.message.includes(NOT_BUILT_IN)),
      [],
    );
    const arity = data.specs.find((spec) => spec.name === 'ft.search')?.arity;
    assert.equal(typeof arity, 'number');
    const shown = hover(TEXT, { line: 0, character: 3 }, { env: {}, commandTable: data });
    assert.ok(shown, 'FT.SEARCH has a hover');
    assert.match(shown.contents, new RegExp(`Arity ${arity}:`));
    assert.match(shown.contents, /described by the server redis:\/\/127\.0\.0\.1/);
    const offered = completions('FT.SE', { line: 0, character: 5 }, { env: {}, commandTable: data }).map((item) => item.label);
    assert.ok(
      offered.some((label) => label.toUpperCase() === 'FT.SEARCH'),
      `offered: ${offered.slice(0, 10).join(', ')}`,
    );
    assert.deepEqual(notices, []);
  });

  it('the editor’s completion and hover providers use it', async () => {
    registerLanguageFeatures(glue.context() as unknown as vscode.ExtensionContext, { env: () => ({}) });
    const registered = (kind: string) => glue.editor.state.registered.find((entry) => entry.kind === kind)?.provider;
    const completion = registered('completion') as vscode.CompletionItemProvider;
    const hovers = registered('hover') as vscode.HoverProvider;
    const document = glue.editor.openDocument(join(glue.root(), 'providers.rbench'), 'FT.SEARCH idx hello\n') as unknown as vscode.TextDocument;
    const at = (character: number) => new Position(0, character) as unknown as vscode.Position;
    const labels = async () =>
      ((await completion.provideCompletionItems(document, at(5), never(), never())) as unknown as CompletionItem[]).map((i) => i.label);
    const hoverText = async () => ((await hovers.provideHover(document, at(3), never())) as unknown as Hover | undefined)?.contents.value ?? '';
    assert.ok(!(await labels()).includes('FT.SEARCH'), 'the built-in table has no FT.SEARCH');
    assert.doesNotMatch(await hoverText(), /described by the server/);
    const data = await newTables().update();
    const arity = data?.specs.find((spec) => spec.name === 'ft.search')?.arity;
    assert.ok((await labels()).some((label) => label.toUpperCase() === 'FT.SEARCH'));
    assert.match(await hoverText(), new RegExp(`Arity ${arity}:[\\s\\S]*described by the server redis://127\\.0\\.0\\.1:${server.port}`));
  });

  it('reads the table once per target, and again on Refresh', async () => {
    const start = await connectionsReceived();
    await newTables().update();
    const afterFirst = await connectionsReceived();
    assert.ok(afterFirst > start, 'the first use reads the table');
    await tables!.update();
    assert.equal(await connectionsReceived(), afterFirst, 'the cached table is used: no new connection');
    const refreshed = await tables!.refresh();
    assert.ok(refreshed?.specs.some((spec) => spec.name === 'ft.search'));
    assert.ok((await connectionsReceived()) > afterFirst, 'Refresh reads the table again');
  });

  it('the throwaway local target: its table with the user’s rbench.localServer.modules, else the built-in one', async () => {
    const config = workspace.getConfiguration('rbench');
    await config.update('target', 'local', ConfigurationTarget.Global);
    await newTables().update();
    assert.equal(selectedCommandTable(), undefined, 'no modules: the built-in table');
    await config.update('localServer.modules', [REDISEARCH], ConfigurationTarget.Global);
    const data = await tables!.update();
    assert.ok(
      data?.specs.some((spec) => spec.name === 'ft.search'),
      notices.join(' / '),
    );
    assert.match(data?.origin ?? '', /throwaway redis-server/);
    assert.equal(selectedCommandTable(), data);
  });

  describe('never contacting a target it must not', () => {
    let listener: Server;
    let contacts = 0;
    beforeEach(async () => {
      contacts = 0;
      listener = createServer((socket) => {
        contacts++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    });
    afterEach(() => new Promise<void>((resolve) => listener.close(() => resolve())));
    const listenerUrl = () => `redis://127.0.0.1:${(listener.address() as { port: number }).port}`;

    it('in a restricted workspace: no connection, the built-in table', async () => {
      await workspace.getConfiguration('rbench').update('target', listenerUrl(), ConfigurationTarget.Global);
      glue.editor.state.trusted = false;
      await newTables().update();
      await tables!.refresh();
      assert.equal(contacts, 0);
      assert.equal(selectedCommandTable(), undefined);
      assert.ok((await diagnosticsOf(TEXT)).some((d) => d.message.includes(NOT_BUILT_IN)));
    });

    it('a target the workspace settings chose is not read by itself', async () => {
      await workspace.getConfiguration('rbench').update('target', listenerUrl(), ConfigurationTarget.Workspace);
      await newTables().update();
      assert.equal(contacts, 0);
      assert.equal(selectedCommandTable(), undefined);
    });

    it('a target that cannot be read: the built-in table, with one plain notice', async () => {
      await workspace.getConfiguration('rbench').update('target', listenerUrl(), ConfigurationTarget.Global);
      await newTables().update();
      await tables!.update();
      assert.equal(selectedCommandTable(), undefined);
      assert.equal(notices.length, 1, notices.join(' / '));
      assert.match(notices[0], /built-in table/);
      assert.doesNotMatch(notices[0], /\n\s+at /);
    });
  });
});

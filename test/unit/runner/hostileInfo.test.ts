// Issue 18 (seen 9, budgets) and issue 19: a server whose INFO carries a 30 MB `os:` field and 300k
// errorstats, measured through RunSession (the CLI's and the editor's path) and saved by its writer: the run
// file stays far below the reader's 64 MB cap and reads back. A small fake RESP server plays the server.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunSession } from '../../../src/runner/session';
import { readRunFile } from '../../../src/results/runFile';
import { MAX_ERROR_KINDS } from '../../../src/results/runFileBounds';

/** The INFO text: a 30 MB `os:` field and 300k errorstats (one `errorstat_…` line each). */
function hostileInfo(): Buffer {
  const lines = [
    '# Server',
    'redis_version:7.2.0',
    'redis_mode:standalone',
    `os:${'L'.repeat(30 * 1024 * 1024)}`,
    '# Persistence',
    'loading:0',
    '# Errorstats',
  ];
  for (let i = 0; i < 300_000; i++) lines.push(`errorstat_E${i}:count=${(i % 1000) + 1}`);
  const body = Buffer.from(lines.join('\r\n') + '\r\n');
  return Buffer.concat([Buffer.from(`$${body.length}\r\n`), body, Buffer.from('\r\n')]);
}

/** Answers INFO with `info`, CONFIG with an empty list, DBSIZE with 0, HELLO with an error, anything else +OK. */
function fakeServer(info: Buffer): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const parsed = parseCommand(pending);
        if (!parsed) break;
        pending = pending.subarray(parsed.length);
        const name = parsed.args[0]?.toUpperCase();
        if (name === 'INFO') socket.write(info);
        else if (name === 'CONFIG') socket.write('*0\r\n');
        else if (name === 'DBSIZE') socket.write(':0\r\n');
        else if (name === 'HELLO') socket.write('-ERR unknown command\r\n');
        else if (name === 'PING') socket.write('+PONG\r\n');
        else socket.write('+OK\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : 0,
        close: () => new Promise<void>((done) => (sockets.forEach((s) => s.destroy()), server.close(() => done()))),
      });
    }),
  );
}

/** One RESP array of bulk strings (or an inline command) from the front of `buffer`. */
function parseCommand(buffer: Buffer): { args: string[]; length: number } | undefined {
  const end = buffer.indexOf('\r\n');
  if (end < 0) return undefined;
  if (buffer[0] !== 0x2a) return { args: buffer.subarray(0, end).toString().split(' '), length: end + 2 };
  const count = Number(buffer.subarray(1, end).toString());
  let at = end + 2;
  const args: string[] = [];
  for (let i = 0; i < count; i++) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = Number(buffer.subarray(at + 1, lineEnd).toString());
    if (buffer.length < lineEnd + 2 + size + 2) return undefined;
    args.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size).toString());
    at = lineEnd + 2 + size + 2;
  }
  return { args, length: at };
}

describe('RunSession against a server with a 30 MB INFO field and 300k errorstats', function () {
  this.timeout(120_000);
  let runs: string;
  beforeEach(() => (runs = mkdtempSync(join(tmpdir(), 'rbench-hostile-info-'))));
  afterEach(() => rmSync(runs, { recursive: true, force: true }));

  it('saves a run file far below the 64 MB read cap, which reads back', async () => {
    const server = await fakeServer(hostileInfo());
    try {
      const session = new RunSession(
        { env: {}, trusted: true, runsFolder: runs, userTarget: { value: `redis://127.0.0.1:${server.port}`, override: true } },
        { confirm: async () => true, secret: async () => undefined, log: () => undefined },
      );
      const file = { display: 'hostile.rbench', text: '### hostile\nduration 2s\nclients 1\nSET k v\n' };
      const resolved = session.resolve(file);
      const prepared = await session.prepare(file, resolved, resolved.scenarios[0]);
      assert.ok(!('kind' in prepared), JSON.stringify(prepared));
      const outcome = await session.execute(prepared);
      assert.equal(outcome.kind, 'finished', outcome.kind === 'not-run' ? outcome.message : '');
      assert.ok(outcome.kind === 'finished' && outcome.path, outcome.kind === 'finished' ? outcome.saveError : '');
      const [name] = readdirSync(runs);
      const size = statSync(join(runs, name)).size;
      assert.ok(size < 4 * 1024 * 1024, `${size} bytes`);
      const run = readRunFile(join(runs, name));
      assert.match(run.target.server?.os ?? '', /^L{1024}… \(\d+ more characters\)$/);
      assert.ok(run.server.samples.length >= 2, `${run.server.samples.length} samples`);
      for (const sample of run.server.samples) assert.ok(Object.keys(sample.errorstats).length <= MAX_ERROR_KINDS);
    } finally {
      await server.close();
    }
  });
});

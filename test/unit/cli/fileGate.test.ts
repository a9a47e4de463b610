// Issue 18, seen 4 and 8, as a cloned repository would stage them: committed symbolic links in `.rbench`,
// baselines.json entries naming devices and files outside, TLS files that are devices. `rbench` (dist/cli.js)
// must write nothing outside the workspace, read nothing it was not allowed to, and never hang.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, useScratch } from '../../helpers/cli';
import { repoRoot } from '../scenario/helpers';
import type { RunFile } from '../../../src/results/runFile';

const SCENARIO = '### bench $(touch PWNED)\nrequests 200\nSET k __value__\n';
const SAVE_ERROR = 4;

function fixtureRun(): RunFile {
  const run = JSON.parse(readFileSync(join(repoRoot(), 'test', 'browser', 'fixtures', 'finished.rbench-run.json'), 'utf8')) as RunFile;
  run.scenario = { ...run.scenario, name: 'bench', file: 'bench.rbench' };
  return run;
}

describe('rbench and the file gate (a cloned repository with links and devices)', function () {
  this.timeout(60_000);
  const scratch = useScratch();
  let outside: string;
  beforeEach(() => (outside = realpathSync(mkdtempSync(join(tmpdir(), 'rbench-outside-')))));
  afterEach(() => rmSync(outside, { recursive: true, force: true }));

  it('`.rbench/runs` committed as a link out of the workspace: nothing is written there, and the message names the fix', async () => {
    scratch.write('bench.rbench', SCENARIO);
    mkdirSync(join(scratch.dir, '.rbench'));
    symlinkSync(outside, join(scratch.dir, '.rbench', 'runs'));
    const result = await runCli(['run', 'bench.rbench'], { cwd: scratch.dir });
    assert.equal(result.code, SAVE_ERROR, result.stderr);
    assert.deepEqual(readdirSync(outside), []);
    assert.match(result.stderr, /\.rbench\/runs: a symbolic link — RBench does not follow links here/);
    assert.match(result.stderr, /replace the link with a real folder, or choose a runs folder yourself \(--out, or rbench\.runsFolder in your user settings\)/);
    assert.match(result.stdout, /^SET\s+200\s/m, 'the results are still shown');
    assert.equal(existsSync(join(scratch.dir, 'PWNED')), false);
  });

  it('`.rbench` itself a link: neither run files nor a pinned baseline go through it', async () => {
    scratch.write('bench.rbench', SCENARIO);
    symlinkSync(outside, join(scratch.dir, '.rbench'));
    const result = await runCli(['run', 'bench.rbench', '--pin'], { cwd: scratch.dir });
    assert.equal(result.code, SAVE_ERROR, result.stderr);
    assert.match(result.stderr, /\.rbench: a symbolic link/);
    assert.deepEqual(readdirSync(outside), []);
  });

  it('--out named by the user may point outside the workspace (through a link too)', async () => {
    scratch.write('bench.rbench', SCENARIO);
    symlinkSync(outside, join(scratch.dir, 'mine'));
    const result = await runCli(['run', 'bench.rbench', '--out', 'mine/runs'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readdirSync(join(outside, 'runs')).filter((name) => name.endsWith('.rbench-run.json')).length, 1);
  });

  it('baselines.json entries naming devices, system files or paths outside are refused at once, nothing of them printed', async () => {
    mkdirSync(join(scratch.dir, '.rbench', 'runs'), { recursive: true });
    const runPath = join(scratch.dir, '.rbench', 'runs', 'this.rbench-run.json');
    writeFileSync(runPath, JSON.stringify(fixtureRun()));
    writeFileSync(join(outside, 'x'), '{"secret": "OUTSIDE-SECRET"}');
    const escape = `../${outside.split('/').pop()}/x`;
    const entries: [string, RegExp][] = [
      ['/dev/zero', /\/dev\/zero: outside /],
      ['/dev/stdin', /\/dev\/stdin: outside /],
      ['/etc/passwd', /\/etc\/passwd: outside /],
      [escape, /x: outside /],
      ['/proc/self/environ', /\/proc\/self\/environ: outside /],
    ];
    for (const [entry, message] of entries) {
      writeFileSync(join(scratch.dir, '.rbench', 'baselines.json'), JSON.stringify({ 'bench.rbench#bench': entry }));
      const started = performance.now();
      const result = await runCli(['compare', runPath, '--baseline', 'pinned'], { cwd: scratch.dir, env: { RBENCH_TEST_MARKER: 'ENVIRON-SECRET' } });
      const printed = result.stdout + result.stderr;
      assert.ok(performance.now() - started < 15_000, `${entry}: ${performance.now() - started} ms`);
      assert.equal(result.code, 2, `${entry}: ${printed}`);
      assert.match(result.stderr, /the baseline pinned in \.rbench\/baselines\.json: /, entry);
      assert.match(result.stderr, message, entry);
      assert.doesNotMatch(printed, /root:|ENVIRON-SECRET|OUTSIDE-SECRET|\n {4}at /, entry);
    }
  });

  it('a baselines.json committed as a link is not followed: not read, not merged into, not replaced', async () => {
    scratch.write('bench.rbench', SCENARIO);
    mkdirSync(join(scratch.dir, '.rbench'));
    writeFileSync(join(outside, 'theirs.json'), '{"other.rbench#x": "/etc/passwd"}');
    symlinkSync(join(outside, 'theirs.json'), join(scratch.dir, '.rbench', 'baselines.json'));
    const result = await runCli(['run', 'bench.rbench', '--pin'], { cwd: scratch.dir });
    assert.match(result.stderr, /not pinned: .*baselines\.json: a symbolic link/, result.stderr);
    assert.equal(readFileSync(join(outside, 'theirs.json'), 'utf8'), '{"other.rbench#x": "/etc/passwd"}');
    assert.equal(lstatSync(join(scratch.dir, '.rbench', 'baselines.json')).isSymbolicLink(), true);
  });

  for (const device of ['/dev/zero', '/dev/stdin']) {
    it(`tls-ca ${device}: a plain message at once, no crash, no hang`, async () => {
      scratch.write('tls.rbench', `### tls\ntarget rediss://127.0.0.1:1\ntls-ca ${device}\nrequests 10\nPING\n`);
      const started = performance.now();
      const result = await runCli(['run', 'tls.rbench'], { cwd: scratch.dir });
      assert.ok(performance.now() - started < 15_000);
      assert.equal(result.code, 3, result.stderr);
      assert.match(result.stderr, new RegExp(`cannot read TLS ca file: ${device}: a system file under /dev — not read; name a regular file`));
      assert.doesNotMatch(result.stderr, /\n {4}at |Segmentation/);
    });
  }

  it('rbench check and run refuse a scenario "file" that is a FIFO or a device, without blocking', async () => {
    for (const args of [
      ['check', '/dev/stdin'],
      ['run', '/dev/zero'],
    ]) {
      const result = await runCli(args, { cwd: scratch.dir });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /a system file under \/dev/);
    }
  });

  // A FIFO stands for a device: a broken gate running as root would rename a file over a real one.
  it('--json to a FIFO is written in place (never replaced by a file); a folder is refused', async () => {
    scratch.write('bench.rbench', SCENARIO);
    const fifo = join(scratch.dir, 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo]);
    let read = '';
    reader.stdout.on('data', (chunk) => (read += chunk));
    const result = await runCli(['run', 'bench.rbench', '--json', fifo], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(lstatSync(fifo).isFIFO(), true);
    assert.match(read, /^\[\n \{\n {2}"version": 1/);
    reader.kill();
    const folder = await runCli(['run', 'bench.rbench', '--json', outside], { cwd: scratch.dir });
    assert.equal(folder.code, SAVE_ERROR);
    assert.match(folder.stderr, /a folder — name a file inside it/);
  });
});

// `rbench compare` and `rbench run --baseline/--pin` as a user runs them: the built CLI against a real server.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Comparison } from '../../../src/results/compare';
import { runCli, startCli, useScratch } from '../../helpers/cli';
import { useRedisServer } from '../../helpers/redis';

describe('rbench compare and the regression gate (CLI)', function () {
  this.timeout(60_000);
  const server = useRedisServer();
  const scratch = useScratch();

  /** Run files in the scratch folder's run folder, oldest first (relative paths). */
  const runPaths = () =>
    readdirSync(join(scratch.dir, '.rbench/runs'))
      .filter((name) => name.endsWith('.rbench-run.json'))
      .sort()
      .map((name) => join('.rbench/runs', name));

  async function run(args: string[], expectedCode = 0) {
    const result = await runCli(['run', '--yes', ...args, '--url', server().url], { cwd: scratch.dir });
    assert.equal(result.code, expectedCode, result.stdout + result.stderr);
    return result;
  }

  const GET_SCENARIO = '### get\nclients 16\nrequests 5k\nkeys 1000\nGET cmp:__key__\n';

  /**
   * `rbench run` while a side connection stalls the server for 50 ms again and again, back to back: every
   * stall holds all 16 clients' requests, which are far more than 1% of the few that get through between
   * stalls, so throughput and p99 are surely worse than an undisturbed run's, however busy the machine is
   * (a timer between stalls would stretch on a loaded machine and let the stalls fall below p99). 50 ms, not 20: a
   * baseline run on a machine busy with other work reached a p99 of 33 ms, and 20 ms stalls then raised it by less than 10 %.
   */
  async function slowedRun(args: string[], expectedCode = 0) {
    const cli = startCli(['run', '--yes', ...args, '--url', server().url], { cwd: scratch.dir });
    let finished = false;
    const done = cli.done.then((r) => ((finished = true), r));
    // Frozen 20 ms at a time with signals, not DEBUG SLEEP from a second client: that would be load the
    // run did not send, and a run with foreign load is no clean baseline.
    try {
      for (let i = 0; i < 5000 && !finished; i++) {
        process.kill(server().pid, 'SIGSTOP');
        await sleep(50);
        process.kill(server().pid, 'SIGCONT');
        await sleep(1);
      }
    } finally {
      process.kill(server().pid, 'SIGCONT');
    }
    const result = await done;
    assert.equal(result.code, expectedCode, result.stdout + result.stderr);
    return result;
  }

  it('compares two real runs: differences first, then a column per run (text, Markdown, JSON, CSV)', async () => {
    const file = scratch.write('setget.rbench', '@c = 2\n### set get\nclients {{c}}\nrequests 5000\nSET cmp:__key__ __value__\nGET cmp:__key__\n');
    await run([file, '-q']);
    const [first] = runPaths();
    // The second run uses 4 clients: the gate refuses to compare, naming the change.
    const second = await run([file, '--var', 'c=4', '--baseline', first, '--max-regression', '900%'], 1);
    assert.match(second.stderr, /REGRESSION {2}set get: not comparable with the baseline: the plans differ \(clients: 2 → 4\)/);
    const [, latest] = runPaths();

    const markdown = await runCli(['compare', first, latest, '--markdown'], { cwd: scratch.dir });
    assert.equal(markdown.code, 0, markdown.stderr);
    const lines = markdown.stdout.split('\n');
    // Columns are named by what differs (issue 22), as in the comparison panel: not `#1`, `#2`.
    assert.equal(lines[0], '### RBench comparison: "set get": clients 4 vs clients 2');
    assert.ok(
      lines.indexOf('- clients: 2 → 4') > 0 && lines.indexOf('- clients: 2 → 4') < lines.indexOf('| command | metric | clients 2 | clients 4 |'),
      markdown.stdout,
    );
    // The client counts differ: a change is a difference, not better or worse (issue 22), with its interval where one was computed.
    assert.match(markdown.stdout, /^\| SET \| ops\/s \| [\d,]+ \| [\d,]+ \([+-]\d+\.\d%( \[[^\]]+\])? (≠|~|⚠️ not comparable)\) \|$/m);
    assert.match(markdown.stdout, /^\| GET \| ops\/s \| [\d,]+ \| [\d,]+ \([+-]\d+\.\d%( \[[^\]]+\])? (≠|~|⚠️ not comparable)\) \|$/m);
    assert.match(markdown.stdout, /^\| {2}\| p99 ms \| \d+\.\d{3} \| \d+\.\d{3} \(/m);

    const text = await runCli(['compare', first, latest, '--csv', 'cmp.csv'], { cwd: scratch.dir });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /Differences \(read these before the numbers\):\n {2}! clients: 2 → 4/);
    assert.match(text.stdout, /^SET\s+ops\/s\s+[\d,]+\s+[\d,]+\s+[+-]\d+\.\d%\s+(\[[^\]]+\]\s+)?(differs|noise|not comparable)$/m);
    const csv = readFileSync(join(scratch.dir, 'cmp.csv'), 'utf8').trim().split('\n');
    assert.equal(csv.length, 1 + (7 + 2 + 7 + 1 + 2) * 2, "SET and GET × (7 metrics, GET's miss rate, the server time per call and the verdict) × 2 runs");

    const json = await runCli(['compare', first, latest, '--json', '--noise', '50%'], { cwd: scratch.dir });
    const comparison = JSON.parse(json.stdout) as Comparison;
    assert.equal(comparison.noisePercent, 50);
    assert.deepEqual(
      comparison.rows.map((row) => row.test),
      ['SET', 'GET'],
    );
    assert.equal(comparison.rows[0].cells[1]?.requests, 5000);
    assert.deepEqual(
      comparison.differences.map((d) => d.text),
      ['clients: 2 → 4'],
    );
  });

  it('exits 2 for an unreadable run file or a single run', async () => {
    const missing = await runCli(['compare', 'nope.json', 'nope2.json'], { cwd: scratch.dir });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nope\.json: not a readable run file/);
    writeFileSync(join(scratch.dir, 'other.json'), '{"version": 7}');
    const wrong = await runCli(['compare', 'other.json', 'other.json'], { cwd: scratch.dir });
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /other\.json: run file version 7 was written by a newer RBench \(this one reads version 1\) — update RBench to open it/);
    await run([scratch.write('one.rbench', '### one\nrequests 500\nPING\n'), '-q']);
    const single = await runCli(['compare', runPaths()[0]], { cwd: scratch.dir });
    assert.equal(single.code, 2);
    assert.match(single.stderr, /name at least two runs/);
  });

  it('exits 1 naming the throughput drop and p99 rise when the server got slower', async () => {
    const file = scratch.write('get.rbench', GET_SCENARIO);
    await run([file, '-q']);
    const [baseline] = runPaths();

    const { stdout, stderr } = await slowedRun([file, '--baseline', baseline, '--max-regression', '10%'], 1);
    // A loaded machine may judge the slowed run's client starved: the finding then says it is not comparable.
    const interval = '(; 95% interval of the change \\[[^\\]]+\\])?';
    const caveat = '( — not comparable: .+ set the pace: the figures measure the client, not the setup)?';
    assert.match(
      stderr,
      new RegExp(`^REGRESSION {2}get: GET: throughput dropped \\d+\\.\\d% \\([\\d,]+ → [\\d,]+ ops/s${interval}\\), more than the 10% allowed${caveat}$`, 'm'),
    );
    assert.match(
      stderr,
      new RegExp(`^REGRESSION {2}get: GET: p99 rose \\d+\\.\\d% \\(\\d+\\.\\d{3} → \\d+\\.\\d{3} ms${interval}\\), more than the 10% allowed${caveat}$`, 'm'),
    );
    assert.match(stdout, /Comparison: "get": this run vs baseline/);
    assert.match(stdout, /^GET\s+ops\/s\s+[\d,]+\s+[\d,]+\s+-\d+\.\d%\s+(\[[^\]]+\]\s+)?(worse|not comparable)$/m);
  });

  it('passes a run that is no slower than its baseline on the same server', async () => {
    const file = scratch.write('get.rbench', GET_SCENARIO);
    // The baseline ran while the server stalled; the run under the gate does not: it cannot regress, so the
    // pass path is tested with a real 10% limit rather than one wide enough for a busy machine's noise.
    await slowedRun([file, '-q']);
    const [baseline] = runPaths();
    const result = await run([file, '--baseline', baseline, '--max-regression', '10%']);
    assert.match(result.stdout, /No differences in plan, server, client path, machine or status\./);
    assert.match(result.stdout, new RegExp(`No regression beyond 10% against the baseline ${baseline.replace(/[.]/g, '\\.')}`));
    assert.equal(result.stderr.match(/REGRESSION/g), null);
  });

  it('pins runs as baselines and compares with the pinned one; an unpinned scenario only warns', async () => {
    const file = scratch.write('get.rbench', GET_SCENARIO);
    const other = scratch.write('other.rbench', '### other\nrequests 1000\nPING\n');
    // Pinned from a run on a stalling server, so the gated run below cannot regress against it.
    const pinned = await slowedRun(['get.rbench', '-q', '--pin']);
    assert.equal(pinned.stderr, '');
    const [baseline] = runPaths();
    assert.deepEqual(JSON.parse(readFileSync(join(scratch.dir, '.rbench/baselines.json'), 'utf8')), { 'get.rbench#get': baseline });

    const gated = await run([file, other, '--baseline', 'pinned', '--max-regression', '10%', '--json', 'out.json']);
    assert.match(gated.stdout, /Comparison: "get": this run vs baseline/);
    assert.match(gated.stderr, /warning: no pinned baseline for "other\.rbench#other" in \.rbench\/baselines\.json/);

    // What CI posts on a pull request: each run of out.json against its pinned baseline, as Markdown.
    const comment = await runCli(['compare', '--baseline', 'pinned', 'out.json', '--markdown'], { cwd: scratch.dir });
    assert.equal(comment.code, 0, comment.stderr);
    assert.match(comment.stdout, /^### RBench comparison: "get": this run vs baseline$/m);
    assert.match(comment.stdout, /^\| command \| metric \| baseline \| this run \|$/m);
    assert.match(comment.stderr, /no pinned baseline for "other\.rbench#other"/);
  });
});

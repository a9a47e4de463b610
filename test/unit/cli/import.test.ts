// Issue 26, other tools' results: `rbench import` of a real redis-benchmark --csv output (and of memtier's
// --json-out-file, from a fixture built from memtier's source: memtier is not installed here), then
// `rbench compare` against an RBench run of the same plan. Bad input exits 2 naming the line.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Comparison } from '../../../src/results/compare';
import { parseRunFileText } from '../../../src/results/runFile';
import { repoRoot, runCli, useScratch } from '../../helpers/cli';
import { useRedisServer } from '../../helpers/redis';

const run = promisify(execFile);

describe('rbench import (issue 26)', function () {
  this.timeout(120_000);
  const server = useRedisServer();
  const scratch = useScratch();
  const runs = () => (existsSync(join(scratch.dir, '.rbench/runs')) ? readdirSync(join(scratch.dir, '.rbench/runs')).sort() : []);

  it('a real redis-benchmark --csv output round-trips through rbench import and compares with an RBench run of the same plan', async () => {
    const { port } = server();
    const { stdout: csv } = await run('redis-benchmark', ['-p', String(port), '--csv', '-t', 'set,get', '-n', '10000'], { timeout: 60_000 });
    assert.match(csv, /^"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"\n"SET",/);
    writeFileSync(join(scratch.dir, 'rb.csv'), csv);
    const imported = await runCli(['import', 'rb.csv', '--command', `redis-benchmark -p ${port} -t set,get -n 10000`], { cwd: scratch.dir });
    assert.equal(imported.code, 0, imported.stderr);
    const [importedName] = runs();
    const importedRun = parseRunFileText(readFileSync(join(scratch.dir, '.rbench/runs', importedName), 'utf8'), importedName);
    const loads = importedRun.points[0].repeats[0];
    assert.deepEqual(
      loads.map((load) => load.test),
      ['SET', 'GET'],
    );
    const set = csv
      .split('\n')[1]
      .split(',')
      .map((field) => field.replace(/"/g, ''));
    assert.equal(loads[0].total.opsPerSec, Number(set[1]), 'rps as redis-benchmark printed it');
    assert.equal(loads[0].total.latency.p99Us, Math.round(Number(set[6]) * 1000), 'p99 in µs');
    assert.equal(loads[0].total.requests, 10000);
    const record = (importedRun as unknown as { imported: { tool: string; absentMetrics: string[]; absent: Record<string, string> } }).imported;
    assert.equal(record.tool, 'redis-benchmark');
    assert.deepEqual(record.absentMetrics.sort(), ['p90', 'p99.9'], 'redis-benchmark --csv has no p90 or p99.9: absent, not 0');
    assert.match(record.absent.machine, /does not record the machine/);

    // The same plan in RBench: redis-benchmark's suite, its value bytes, 10,000 requests.
    const file = scratch.write('same.rbench', 'value-fill redis-benchmark\n### set get\nsuite set,get\nrequests 10000\n');
    const ours = await runCli(['run', '--yes', file, '--url', server().url, '-q'], { cwd: scratch.dir });
    assert.equal(ours.code, 0, ours.stderr);
    const paths = runs().map((name) => join('.rbench/runs', name));
    assert.equal(paths.length, 2);
    const ordered = [join('.rbench/runs', importedName), paths.find((p) => !p.endsWith(importedName))!];
    const json = await runCli(['compare', ...ordered, '--json'], { cwd: scratch.dir });
    assert.equal(json.code, 0, json.stderr);
    const comparison = JSON.parse(json.stdout) as Comparison;
    assert.deepEqual(
      comparison.differences.filter((d) => d.kind === 'plan'),
      [],
      'the same plan: nothing in the plan differs',
    );
    assert.ok(
      comparison.differences.some((d) => d.text === 'tool: redis-benchmark → rbench'),
      JSON.stringify(comparison.differences.map((d) => d.text)),
    );
    assert.deepEqual(
      comparison.rows.map((row) => row.test),
      ['SET', 'GET'],
    );
    const cell = comparison.rows[0].cells[1]!;
    assert.ok(cell.metrics.ops.delta, 'throughput compared');
    assert.equal(cell.metrics.p90.delta, undefined, 'no p90 in the CSV: no change computed');
    const text = await runCli(['compare', ...ordered], { cwd: scratch.dir });
    assert.match(text.stdout, /^\s+p90 ms\s+—\s+\d+\.\d{3}\s*$/m, 'a gap, not 0.000');
    // The gate works across tools: the imported run is a baseline it judges figure by figure (on a loaded
    // machine a figure may even regress), never refused as another plan.
    const gate = await runCli(['run', '--yes', file, '--url', server().url, '--baseline', ordered[0], '--max-regression', '10%'], { cwd: scratch.dir });
    assert.ok(gate.code === 0 || gate.code === 1, gate.stdout + gate.stderr);
    assert.match(gate.stdout, /Comparison: .*this run vs baseline/);
    assert.doesNotMatch(gate.stderr, /not comparable with the baseline|not a clean baseline/);
  });

  it('memtier_benchmark --json-out-file output (a fixture from its source) imports with its plan and per-command rows', async () => {
    const fixture = join(repoRoot, 'test/fixtures/import/memtier-default.json');
    const result = await runCli(['import', fixture, '--out', 'mt'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    const [name] = readdirSync(join(scratch.dir, 'mt'));
    const runFile = parseRunFileText(readFileSync(join(scratch.dir, 'mt', name), 'utf8'), name);
    const phase = runFile.plan.points[0].phases[0];
    assert.equal(phase.load.clients, 10, '5 connections × 2 threads');
    assert.equal(phase.load.requests, 10000, '1,000 requests per connection');
    assert.equal(phase.keys.space, 10001);
    const load = runFile.points[0].repeats[0][0];
    assert.equal(load.total.opsPerSec, 5000);
    assert.equal(load.total.latency.p99Us, 695);
    assert.deepEqual(
      load.commands.map((c) => [c.command, c.requests]),
      [
        ['SET', 910],
        ['GET', 9090],
      ],
    );
    assert.equal(load.timeline.length, 2, "memtier's Time-Serie as timeline seconds");
    assert.equal(runFile.startedAt, new Date(1764620000000).toISOString());
  });

  describe('bad input: exit 2 with the line', () => {
    it('a file that is neither format', async () => {
      scratch.write('notes.txt', 'hello\n');
      const result = await runCli(['import', 'notes.txt'], { cwd: scratch.dir });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /^rbench import: notes\.txt:1: neither redis-benchmark --csv output .* nor memtier_benchmark --json-out-file output/m);
    });

    it('a redis-benchmark CSV cut short inside a line', async () => {
      scratch.write(
        'cut.csv',
        '"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"\n"SET","13850.42","2.934","0.080","2.287","7.871","10.599","12.103"\n"GET","14164.31","2.78',
      );
      const result = await runCli(['import', 'cut.csv', '--command', 'redis-benchmark -t set,get'], { cwd: scratch.dir });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /^rbench import: cut\.csv:3: not a line of quoted fields: the file is cut short/m);
    });

    it('a redis-benchmark CSV cut after a field, and one with a field that is no number', async () => {
      const header = '"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"\n';
      scratch.write('short.csv', header + '"SET","13850.42","2.934"\n');
      const short = await runCli(['import', 'short.csv', '--command=-t set'], { cwd: scratch.dir });
      assert.equal(short.code, 2);
      assert.match(short.stderr, /short\.csv:2: 3 fields where the header has 8/);
      scratch.write('nan.csv', header + '"SET","fast","2.934","0.080","2.287","7.871","10.599","12.103"\n');
      const nan = await runCli(['import', 'nan.csv', '--command=-t set'], { cwd: scratch.dir });
      assert.equal(nan.code, 2);
      assert.match(nan.stderr, /nan\.csv:2: rps is "fast", not a number/);
    });

    it("a CSV whose tests are not the --command line's, and a CSV without --command", async () => {
      const header = '"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"\n';
      scratch.write('incr.csv', header + '"INCR","13850.42","2.934","0.080","2.287","7.871","10.599","12.103"\n');
      const wrong = await runCli(['import', 'incr.csv', '--command=-t set'], { cwd: scratch.dir });
      assert.equal(wrong.code, 2);
      assert.match(wrong.stderr, /incr\.csv:2: test "INCR" is not the plan's "SET"/);
      const bare = await runCli(['import', 'incr.csv'], { cwd: scratch.dir });
      assert.equal(bare.code, 2);
      assert.match(bare.stderr, /does not record how it ran .* give its command line/);
    });

    it('a memtier JSON cut short', async () => {
      const text = readFileSync(join(repoRoot, 'test/fixtures/import/memtier-default.json'), 'utf8');
      scratch.write('cut.json', text.slice(0, 4000));
      const result = await runCli(['import', 'cut.json'], { cwd: scratch.dir });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /^rbench import: cut\.json:\d+: not complete JSON .*: the file is cut short/m);
    });
  });
});

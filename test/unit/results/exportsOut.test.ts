// Issue 44, files the peers' tools read: `rbench run --memtier-json` (memtier_benchmark's --json-out-file
// shape, read by its exporters at exact paths and by `rbench import`), `--hdr-prefix` (.hgrm percentile
// distributions and an HdrHistogram interval log), chosen percentiles (`percentiles`, `--percentiles`: the
// table, the CSV, the run file, `expect pN`), and each test's bytes per second and per-second throughput
// percentiles. One real run on a throwaway redis-server feeds the checks.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import HistogramLogReader from 'hdr-histogram-js/dist/HistogramLogReader';
import { decodeFromCompressedBase64 } from 'hdr-histogram-js/dist/encoding';
import type { LoadResult } from '../../../src/engine';
import type { RunFile } from '../../../src/results/runFile';
import { parseRunFileText } from '../../../src/results/runFile';
import { resultRows } from '../../../src/results/rows';
import { mergeRuns } from '../../../src/results/merge';
import { percentileRecord } from '../../../src/results/chosenPercentiles';
import { formatLatency } from '../../../src/results/format';
import { sortRows, tableColumns, tableRowFrom } from '../../../src/views/panelTable';
import { parseWebviewMessage } from '../../../src/views/messages';
import { runCli, Scratch, type CliResult } from '../../helpers/cli';

const MIX = `### mix
requests 20000
clients 4
percentiles 50, 99, 99.9, 99.99
expect p99.99 < 60s
70% SET out:__key__ __value__
30% GET out:__key__
`;

/** A CSV line's cells (the cells hold no commas or quotes here but the verdict's, which is not read). */
const cells = (line: string) => line.match(/"(?:[^"]|"")*"/g)!.map((cell) => cell.slice(1, -1));
const ms = (us: number) => Number((us / 1000).toFixed(3));

describe('memtier JSON, HDR files and chosen percentiles out (issue 44)', function () {
  this.timeout(180_000);
  const scratch = new Scratch();
  let result: CliResult;
  let run: RunFile;
  let load: LoadResult;
  before(async () => {
    scratch.write('mix.rbench', MIX);
    result = await runCli(['run', 'mix.rbench', '--memtier-json', 'out.json', '--hdr-prefix', 'hdr/mix', '--csv', 'out.csv'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    [run] = scratch.runFiles();
    load = run.points[0].repeats[0][0];
  });
  after(() => scratch.remove());

  it("memtier's exporter paths resolve on RBench's file and hold the run's figures", () => {
    const json = JSON.parse(readFileSync(join(scratch.dir, 'out.json'), 'utf8'));
    const totals = json['ALL STATS'].Totals;
    assert.equal(totals['Percentile Latencies']['p99.00'], ms(load.total.latency.p99Us));
    assert.equal(totals['Percentile Latencies']['p50.00'], ms(load.total.latency.p50Us));
    assert.equal(totals['Percentile Latencies']['p99.90'], ms(load.total.latency.p999Us));
    assert.equal(totals['Percentile Latencies']['p99.99'], ms(load.total.latency.percentiles!['p99.99']));
    assert.equal(totals['Ops/sec'], Number(load.total.opsPerSec.toFixed(2)));
    assert.equal(totals.Count, 20000);
    assert.equal(totals['Average Latency'], ms(load.total.latency.meanUs));
    // Every field memtier's result_print_to_json writes (run_stats.cpp, outside cluster mode), in its order.
    const memtierFields = [
      'Count',
      'Ops/sec',
      'Hits/sec',
      'Misses/sec',
      'Connection Errors/sec',
      'Connection Errors',
      'Latency',
      'Average Latency',
      'Accumulated Latency',
      'Min Latency',
      'Max Latency',
      'KB/sec',
      'KB/sec RX/TX',
      'KB/sec RX',
      'KB/sec TX',
      'Time-Serie',
      'Percentile Latencies',
    ];
    for (const section of ['Totals', 'Sets', 'Gets']) assert.deepEqual(Object.keys(json['ALL STATS'][section]), memtierFields, section);
    assert.deepEqual(Object.keys(json['ALL STATS'].Runtime), ['Start time', 'Finish time', 'Total duration', 'Time unit', 'Interrupted']);
    assert.ok(totals['Percentile Latencies']['Histogram log format']['Compressed Histogram'].startsWith('HISTF'));
    // The per-command sections by memtier's names, their counts adding up to the total.
    const sets = json['ALL STATS'].Sets;
    const gets = json['ALL STATS'].Gets;
    const set = load.commands.find((c) => c.command === 'SET')!;
    assert.equal(sets.Count, set.requests);
    assert.equal(sets['Percentile Latencies']['p99.00'], ms(set.latency.p99Us));
    assert.equal(sets.Count + gets.Count, totals.Count);
    // The per-second series adds up to the timeline's replies (each 100 ms bucket's rate × its length, rounded).
    const serie = Object.values(totals['Time-Serie']) as { Count: number }[];
    const timelineReplies = load.timeline.reduce((sum, bucket) => sum + Math.round((bucket.ops * (bucket.partialMs ?? 100)) / 1000), 0);
    assert.ok(serie.length >= 1);
    assert.equal(
      serie.reduce((sum, second) => sum + second.Count, 0),
      timelineReplies,
    );
    // Bytes: the server's byte counters over the test, at least the requests' own bytes (from commandstats).
    const calls = load.server!.commands.set.calls + load.server!.commands.get.calls;
    assert.ok(load.bytesPerSec && (load.bytesPerSec.sent * load.server!.windowMs) / 1000 >= calls * 20, JSON.stringify(load.bytesPerSec));
    assert.ok(totals['KB/sec TX'] > 0 && totals['KB/sec RX'] > 0);
  });

  it('the memtier JSON round-trips through rbench import to the same figures', async () => {
    const imported = await runCli(['import', 'out.json', '--out', 'imported'], { cwd: scratch.dir });
    assert.equal(imported.code, 0, imported.stderr);
    const [name] = readdirSync(join(scratch.dir, 'imported'));
    const back = parseRunFileText(readFileSync(join(scratch.dir, 'imported', name), 'utf8'), name).points[0].repeats[0][0];
    assert.equal(back.total.requests, load.total.requests);
    assert.equal(back.total.opsPerSec, Number(load.total.opsPerSec.toFixed(2)));
    for (const key of ['p50Us', 'p99Us', 'p999Us', 'minUs', 'maxUs'] as const) assert.equal(back.total.latency[key], load.total.latency[key], key);
    assert.ok(Math.abs(back.total.latency.meanUs - load.total.latency.meanUs) <= 0.5);
    assert.deepEqual(back.commands.map((c) => [c.command, c.requests]).sort(), load.commands.map((c) => [c.command, c.requests]).sort());
  });

  it('the .hgrm files read back to the run’s percentiles within the histogram’s precision', () => {
    for (const [file, figures] of [
      ['mix-1-mix.hgrm', load.total],
      ['mix-1-mix-SET.hgrm', load.commands.find((c) => c.command === 'SET')!],
      ['mix-1-mix-GET.hgrm', load.commands.find((c) => c.command === 'GET')!],
    ] as const) {
      const text = readFileSync(join(scratch.dir, 'hdr', file), 'utf8');
      const lines = text
        .split('\n')
        .map((line) => line.trim().split(/\s+/).map(Number))
        .filter((parts) => parts.length >= 3 && parts.every(Number.isFinite));
      assert.ok(lines.length > 10, file);
      assert.equal(lines[lines.length - 1][2], figures.requests, `${file}: the total count`);
      assert.match(text, new RegExp(`Total count\\s+=\\s+${figures.requests}\\]`));
      // Each percentile of the run lies between the .hgrm's two lines around it (values in ms, 3 decimals: 1 µs).
      for (const [p, us] of [
        [50, figures.latency.p50Us],
        [99, figures.latency.p99Us],
        [99.9, figures.latency.p999Us],
      ]) {
        const at = lines.findIndex((parts) => parts[1] >= p / 100);
        assert.ok(at > 0, `${file} p${p}`);
        assert.ok(lines[at - 1][0] <= ms(us) && ms(us) <= lines[at][0], `${file} p${p}: ${ms(us)} not within ${lines[at - 1][0]}…${lines[at][0]}`);
      }
      const p50 = lines.find((parts) => parts[1] === 0.5);
      assert.equal(p50?.[0], ms(figures.latency.p50Us), `${file}: the p50 line`);
      assert.equal(lines[lines.length - 1][0], ms(figures.latency.maxUs), `${file}: the max`);
    }
  });

  it('the interval log decodes with HistogramLogReader to the same counts, by tag', () => {
    const reader = new HistogramLogReader(readFileSync(join(scratch.dir, 'hdr', 'mix.hlog'), 'utf8'), 64, false);
    const counts = new Map<string, number>();
    for (let histogram = reader.nextIntervalHistogram(); histogram; histogram = reader.nextIntervalHistogram())
      counts.set(histogram.tag ?? '', (counts.get(histogram.tag ?? '') ?? 0) + histogram.totalCount);
    assert.equal(counts.get('mix'), 20000);
    for (const command of load.commands) assert.equal(counts.get(`mix.${command.command}`), command.requests);
    // The same histogram as the run file's (memtier's `Histogram log format` carries it too).
    assert.equal(decodeFromCompressedBase64(load.total.histogram, 64, false).totalCount, 20000);
  });

  it('chosen percentiles: in the table, the CSV (a column each) and the run file; `expect p99.99` is judged', () => {
    assert.match(result.stdout, /p50 ms\s+p99 ms\s+p99\.9 ms\s+p99\.99 ms/);
    const [header, total] = readFileSync(join(scratch.dir, 'out.csv'), 'utf8').trim().split('\n');
    const columns = cells(header);
    assert.ok(columns.includes('p99.9_latency_ms') && columns.includes('p99.99_latency_ms'), header);
    assert.equal(columns.filter((c) => c === 'p99_latency_ms').length, 1, 'no column twice');
    const row = cells(total);
    assert.equal(Number(row[columns.indexOf('p99.99_latency_ms')]), ms(load.total.latency.percentiles!['p99.99']));
    assert.deepEqual(Object.keys(load.total.latency.percentiles!), ['p50', 'p99', 'p99.9', 'p99.99']);
    assert.equal(load.total.latency.percentiles!.p99, load.total.latency.p99Us, 'the same rule as the fixed p99');
    const [threshold] = run.thresholds;
    assert.equal(threshold.metric, 'p99.99');
    assert.equal(threshold.actual, load.total.latency.percentiles!['p99.99']);
    assert.equal(threshold.passed, true);
  });

  it("the panel's table shows the chosen percentiles, sorts by them, and takes their sort key from the webview", () => {
    const rows = resultRows(run).map((row, i) => tableRowFrom(row, i));
    const columns = tableColumns(rows);
    assert.deepEqual(
      columns.filter((c) => /^p\d/.test(c.header)).map((c) => c.header),
      ['p50', 'p99', 'p99.9', 'p99.99'],
    );
    const p9999 = columns.find((c) => c.header === 'p99.99')!;
    assert.equal(p9999.cell(rows[0]), formatLatency(load.total.latency.percentiles!['p99.99']));
    const sorted = sortRows(rows, { key: 'p99.99', descending: true }).map((row) => row.percentiles!['p99.99']);
    assert.deepEqual(
      sorted,
      [...sorted].sort((a, b) => b - a),
    );
    assert.deepEqual(parseWebviewMessage({ type: 'export', format: 'csv', to: 'file', sort: { key: 'p99.99', descending: true } }), {
      type: 'export',
      format: 'csv',
      to: 'file',
      sort: { key: 'p99.99', descending: true },
    });
    assert.equal(parseWebviewMessage({ type: 'export', format: 'csv', to: 'file', sort: { key: 'p1000', descending: true } }), undefined);
  });

  it('rbench merge derives the chosen percentiles and bytes per second from the joined parts, not a copy of one', () => {
    const part = (index: number): RunFile => {
      const copy = structuredClone(run);
      copy.plan.shard = { index, count: 2, runId: 'a1b2c3d4' };
      copy.id = `part-${index}`;
      return copy;
    };
    const merged = mergeRuns([part(1), part(2)]).run.points[0].repeats[0][0];
    assert.equal(merged.total.requests, 40000);
    assert.deepEqual(merged.total.latency.percentiles, percentileRecord(merged.total, [50, 99, 99.9, 99.99]));
    assert.equal(merged.total.latency.percentiles!.p99, merged.total.latency.p99Us);
    assert.deepEqual(merged.bytesPerSec, load.bytesPerSec, "the same server's counters: the widest part's window");
  });

  it('`expect p99.99` fails a run past it, and --percentiles chooses the columns', async () => {
    const own = new Scratch();
    try {
      own.write('tail.rbench', '### tail\nrequests 2000\nexpect p99.99 < 1us\nSET tail:__key__ __value__\n');
      const failed = await runCli(['run', 'tail.rbench', '--percentiles', '75,99.99', '--csv', 'tail.csv'], { cwd: own.dir });
      assert.equal(failed.code, 1, failed.stderr);
      assert.match(failed.stderr, /FAIL\s+expect p99\.99 < 1us/);
      assert.match(failed.stdout, /p75 ms\s+p99\.99 ms/);
      const [tail] = own.runFiles();
      assert.deepEqual(Object.keys(tail.points[0].repeats[0][0].total.latency.percentiles!), ['p75', 'p99.99']);
      assert.ok(cells(readFileSync(join(own.dir, 'tail.csv'), 'utf8').split('\n')[0]).includes('p75_latency_ms'));
      const wrong = await runCli(['run', 'tail.rbench', '--percentiles', '50,101'], { cwd: own.dir });
      assert.equal(wrong.code, 2);
      assert.match(wrong.stderr, /--percentiles 50,101: .*not `101`/);
    } finally {
      own.remove();
    }
  });

  it('several tests: one memtier JSON each, FILE-N-TEST', async () => {
    const own = new Scratch();
    try {
      own.write('two.rbench', '### two\nrequests 1000\nSET two:__key__ __value__\nGET two:__key__\n');
      const done = await runCli(['run', 'two.rbench', '--memtier-json', 'm.json', '--quiet'], { cwd: own.dir });
      assert.equal(done.code, 0, done.stderr);
      assert.ok(existsSync(join(own.dir, 'm-1-SET.json')) && existsSync(join(own.dir, 'm-2-GET.json')));
      const get = JSON.parse(readFileSync(join(own.dir, 'm-2-GET.json'), 'utf8'));
      assert.equal(get['ALL STATS'].Gets.Count, 1000);
      assert.equal(get['ALL STATS'].Totals.Count, 1000);
    } finally {
      own.remove();
    }
  });

  it('throughput percentiles over the full seconds and bytes per second: in the run file and the --full table', async () => {
    const own = new Scratch();
    try {
      // Over 10 s, so the timeline is in whole seconds; an open loop keeps the CPU it takes small.
      own.write('steady.rbench', '### steady\nduration 11s\nrate 500/s\nclients 2\nSET steady:__key__ __value__\n');
      const done = await runCli(['run', 'steady.rbench', '--full'], { cwd: own.dir });
      assert.equal(done.code, 0, done.stderr);
      assert.match(done.stdout, /ops\/s p5\/p50\/p95\s+MB\/s sent\s+MB\/s recv/);
      const steady = own.runFiles()[0].points[0].repeats[0][0];
      const whole = steady.timeline.filter((second) => second.partialMs === undefined).map((second) => second.ops);
      const sorted = [...whole].sort((a, b) => a - b);
      const rank = (p: number) => sorted[Math.max(1, Math.floor((p / 100) * sorted.length + 0.5)) - 1];
      assert.ok(whole.length >= 10, JSON.stringify(steady.timeline.map((s) => s.t)));
      assert.deepEqual(steady.throughputPercentiles, { p5: rank(5), p50: rank(50), p95: rank(95), seconds: whole.length });
      // The bytes the server read over the test cover at least the SETs it counted (each request over 30 bytes).
      assert.ok((steady.bytesPerSec!.sent * steady.server!.windowMs) / 1000 >= steady.server!.commands.set.calls * 30);
    } finally {
      own.remove();
    }
  });
});

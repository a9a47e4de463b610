// `rbench run`'s output of the verdict and the figures issue 20 found missing: the table's max column, a
// `bottleneck:` line per test, and `--csv -` carrying CSV only on stdout (the table went ahead of it, with
// or without --quiet, before).
import assert from 'node:assert/strict';
import { runCli, useScratch } from '../../helpers/cli';
import { useRedisServer } from '../../helpers/redis';

const CSV_HEADER =
  '"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms","server_usec_per_call","bottleneck","bottleneck_why","limit","elapsed_s","hits_per_sec","misses_per_sec","miss_rate"';

describe('rbench run: the verdict and the figures in the output', function () {
  this.timeout(60_000);
  const server = useRedisServer();
  const scratch = useScratch();
  const scenario = () => scratch.write('two.rbench', '### two\nclients 2\nrequests 3000\nSET v:__key__ __value__\nGET v:__key__\n');

  it('the table has max; each test gets a bottleneck line', async () => {
    const result = await runCli(['run', '--yes', scenario(), '--url', server().url], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /p99\.9 ms\s+max ms\s+/);
    const [run] = scratch.runFiles();
    const loads = run.points[0].repeats[0];
    for (const load of loads) {
      assert.ok(load.bottleneck, `${load.test}: the run file holds the verdict`);
      // Tests whose verdicts read the same share one line that names them all.
      const line = new RegExp(`^(?:[A-Z]+, )*${load.test}(?:, [A-Z]+)* bottleneck: ${load.bottleneck.kind}`, 'm');
      assert.match(result.stdout, line);
      // The max in the table is the run file's (ms with three decimals); a read's hits/s, misses/s and miss rate follow its errors, then the limit.
      assert.match(
        result.stdout,
        new RegExp(
          `^${load.test}\\s.*\\s${(load.total.latency.maxUs / 1000).toFixed(3)}\\s+(?:[\\d.]+\\s+)?0(?:\\s+[\\d,]+\\s+[\\d,]+\\s+[\\d.]+ %)?\\s+\\S.*$`,
          'm',
        ),
      );
    }
  });

  for (const quiet of [false, true]) {
    it(`--csv -${quiet ? ' --quiet' : ''}: stdout carries the CSV and nothing else`, async () => {
      const args = ['run', '--yes', scenario(), '--url', server().url, '--csv', '-', ...(quiet ? ['--quiet'] : [])];
      const result = await runCli(args, { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stderr);
      const lines = result.stdout.trimEnd().split('\n');
      assert.equal(lines[0], CSV_HEADER, result.stdout);
      assert.equal(lines.length, 3, `a header and a row per test, nothing else:\n${result.stdout}`);
      // SET is no read: its hit/miss cells are empty; GET's hold its hits/s, misses/s and miss rate.
      assert.match(lines[1], /^"SET","\d+\.\d\d",.*,"","",""$/);
      assert.match(lines[2], /^"GET","\d+\.\d\d",.*,"[a-z-]+","[^"]+","[a-zA-Z :+()-]+","\d+\.\d{3}","\d+\.\d\d","\d+\.\d\d","\d\.\d{4}"$/);
      if (quiet) assert.equal(result.stderr, '', 'quiet: no table at all');
      else assert.match(result.stderr, /p99\.9 ms\s+max ms/, 'the table goes with the notes, to stderr');
    });
  }
});

// Issue 45, terminal items 1 and 2: `rbench run -q` (`--brief`) prints one line per test and a few summary
// lines, as `redis-benchmark -q` does; `--csv -` stays CSV only; with several targets each table is printed
// under its target; a `sweep server` run says each server's peak memory.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { repoRoot, runCli, useScratch } from '../../helpers/cli';
import { check } from '../scenario/helpers';
import { readFileSync } from 'node:fs';
import { useRedisServer } from '../../helpers/redis';

const DEFAULT_SUITE = join(repoRoot, 'examples', 'redis-benchmark-default.rbench');
/** The classic suite's test names, from the example itself. */
const suiteTests = () => check(readFileSync(DEFAULT_SUITE, 'utf8')).scenarios[0].points[0].phases[0].tests.map((test) => test.name);
const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

describe('rbench run: results at a glance (issue 45)', function () {
  this.timeout(180_000);
  const scratch = useScratch();

  it('-q: the default suite in one line per test plus at most three summary lines', async () => {
    const result = await runCli(['run', DEFAULT_SUITE, '--scenario', '1', '--var', 'requests=1k', '-q'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    const tests = suiteTests();
    assert.equal(tests.length, 20);
    const printed = [...lines(result.stdout), ...lines(result.stderr)];
    assert.ok(printed.length <= tests.length + 3, `${printed.length} lines for ${tests.length} tests:\n${printed.join('\n')}`);
    for (const test of tests) {
      const own = printed.filter((line) => line.startsWith(`${test}: `));
      assert.equal(own.length, 1, `one line for ${test}:\n${printed.join('\n')}`);
      assert.match(own[0], /[\d,]+ ops\/s.* p50 [\d.]+ ms\s+p99 [\d.]+ ms\s+\d+ errors?\s+limit: [a-zA-Z ]+.*\s[\d.]+s$/);
    }
    assert.ok(!printed.some((line) => / bottleneck: /.test(line)), 'no verdict sentences in brief');
    assert.match(result.stdout, /^MSET \(10 keys\):.* ops\/s \([\d.]+k? values\/s\)/m, 'values/s on the test line');
  });

  it('-q --csv -: stdout is the CSV and nothing else, with the limit column', async () => {
    const file = scratch.write('two.rbench', '### two\nclients 2\nrequests 1000\nSET v:__key__ __value__\nGET v:__key__\n');
    const result = await runCli(['run', file, '-q', '--csv', '-'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    const csv = lines(result.stdout);
    assert.equal(csv.length, 3, result.stdout);
    assert.match(csv[0], /,"limit","elapsed_s","hits_per_sec","misses_per_sec","miss_rate"$/);
    // SET is no read: its hit and miss cells are empty; GET's are figures.
    assert.match(csv[1], /^"SET",.*,"[a-zA-Z :+()]+","\d+\.\d{3}","","",""$/);
    assert.match(csv[2], /^"GET",.*,"[a-zA-Z :+()]+","\d+\.\d{3}","[\d.]+","[\d.]+","[\d.]+"$/);
    assert.match(result.stderr, /^SET: /m, 'the brief lines go with the notes');
  });

  describe('several targets', () => {
    const first = useRedisServer();
    const second = useRedisServer();

    it('each table is printed under the target it measured', async () => {
      const a = `redis://127.0.0.1:${first().port}`;
      const b = `redis://127.0.0.1:${second().port}`;
      const file = scratch.write('pair.rbench', '### pair\nclients 2\nrequests 500\ncleanup pair:*\nSET pair:__key__ __value__\n');
      const result = await runCli(['run', file, '--url', a, '--url', b, '--yes'], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stderr);
      const out = result.stdout;
      const headingA = out.indexOf(`pair  on  ${a}:`);
      const headingB = out.indexOf(`pair  on  ${b}:`);
      const tables = [...out.matchAll(/^command\s+requests/gm)].map((match) => match.index);
      assert.ok(headingA >= 0 && headingB >= 0, out);
      assert.equal(tables.length, 2, out);
      assert.ok(headingA < tables[0] && tables[0] < headingB && headingB < tables[1], `heading, table, heading, table:\n${out}`);
    });
  });

  it('sweep server: the peak used_memory of each point’s server', async () => {
    const file = scratch.write(
      'aof.rbench',
      '### aof\nclients 4\nrequests 500\nsweep server "appendfsync always", "appendfsync no"\nSET aof:__key__ __value__\n',
    );
    const result = await runCli(['run', file], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^server appendfsync=always: peak used_memory [\d.]+ (K|M)iB \(sampled every second\), \d+ keys at the end$/m);
    assert.match(result.stdout, /^server appendfsync=no: peak used_memory [\d.]+ (K|M)iB \(sampled every second\), \d+ keys at the end$/m);
  });
});

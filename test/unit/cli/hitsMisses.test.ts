// Hits and misses through `rbench run` (issue 43): a sequential prefill of exactly half the key space, then GET
// over all of it — the run file's miss rate is within 2 points of the keys the server holds, the table shows
// hits/s, misses/s and the miss rate, and `expect miss-rate < 5%` fails; both client paths. A GET of keys
// nobody wrote warns, once, that the key space was not filled. A real redis-server.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, useScratch } from '../../helpers/cli';
import { useRedisServer, withRedis } from '../../helpers/redis';

const SPACE = 2000;

/** A prefill of keys 0 … SPACE/2 − 1, then GETs over the whole space (or the `reads` lines), judged by `expect miss-rate < 5%` unless `judged` is false. */
function halfFilled(client: string, reads = ['GET k:__key__'], judged = true): string {
  return [
    '### half-filled',
    `client ${client}`,
    'clients 4',
    ...(judged ? ['expect miss-rate < 5%'] : []),
    `keys ${SPACE} sequential`,
    'prefill fill',
    `requests ${SPACE / 2}`,
    'SET k:__key__ __value__',
    'phase read',
    `keys ${SPACE} uniform`,
    'requests 20000',
    ...reads,
    '',
  ].join('\n');
}

/** A CSV export's rows, by column name. */
function csvRows(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trim().split('\n');
  const unquote = (cell: string) => cell.replace(/^"|"$/g, '');
  const names = header.split(',').map(unquote);
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [names[i], unquote(cell)])));
}

describe('rbench run: hits and misses (issue 43)', function () {
  this.timeout(90_000);
  const server = useRedisServer();
  const scratch = useScratch();

  beforeEach(async () => {
    await withRedis(server(), (redis) => redis.flushall());
  });

  for (const client of ['fast', 'ioredis']) {
    it(`${client}: GET over a half-filled key space — the miss rate is the keys absent, the table shows it, \`expect miss-rate < 5%\` fails`, async () => {
      const file = scratch.write('half.rbench', halfFilled(client));
      const result = await runCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir });
      assert.equal(result.code, 1, result.stdout + result.stderr);
      const output = result.stdout + result.stderr;
      assert.match(output, /FAIL {2}expect miss-rate < 5%/);
      assert.match(output, /hits\/s +misses\/s +miss rate/);
      // The truth: what the server holds once the run is over (the GETs wrote nothing).
      const present = await withRedis(server(), (redis) => redis.dbsize());
      assert.equal(present, SPACE / 2, 'the prefill wrote exactly half the keys');
      const [run] = scratch.runFiles();
      const load = run.points[0].repeats[0].find((l) => l.phase === 'read')!;
      assert.equal(load.client, client);
      const get = load.total;
      assert.ok(get.misses !== undefined, 'the run file has the misses');
      const measured = get.misses / (get.requests - get.errors);
      const truth = 1 - present / SPACE;
      assert.ok(Math.abs(measured - truth) <= 0.02, `miss rate ${measured}, truth ${truth}`);
      const outcome = run.thresholds?.find((t) => t.metric === 'miss-rate');
      assert.ok(outcome && !outcome.passed && Math.abs(outcome.actual! - measured) < 1e-9, JSON.stringify(outcome));
      // The expectation says the misses are judged: no warning about them besides.
      assert.doesNotMatch(output, /missed \d+ % of its keys/);
    });
  }

  it('a GET of keys nobody wrote warns once that the key space was not filled; a filled one does not', async () => {
    const file = scratch.write(
      'empty.rbench',
      ['### unfilled', 'keys 100 uniform', 'requests 2000', 'phase a', 'GET nothing:__key__', 'phase b', 'GET nothing:__key__', ''].join('\n'),
    );
    const result = await runCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir });
    const output = result.stdout + result.stderr;
    assert.equal(result.code, 0, output);
    const warnings = output.match(/GET missed 100 % of its keys: the key space was not filled[^\n]*add a prefill phase/g) ?? [];
    assert.equal(warnings.length, 1, output);

    const filled = scratch.write(
      'filled.rbench',
      [
        '### filled',
        'keys 100 sequential',
        'prefill',
        'requests 100',
        'SET k:__key__ v',
        'phase read',
        'keys 100 uniform',
        'requests 2000',
        'GET k:__key__',
        '',
      ].join('\n'),
    );
    const clean = await runCli(['run', '--yes', filled, '--url', server().url], { cwd: scratch.dir });
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.doesNotMatch(clean.stdout + clean.stderr, /missed \d+ % of its keys/);
    assert.match(clean.stdout, /0\.0 %/);
  });

  it('--csv: a read has its hits/s, misses/s and miss rate (the keys absent); a write has empty cells', async () => {
    const file = scratch.write('mix.rbench', halfFilled('fast', ['80% GET k:__key__', '20% SET other:__key__ v'], false));
    const result = await runCli(['run', '--yes', file, '--url', server().url, '--csv', 'out.csv'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const rows = csvRows(readFileSync(join(scratch.dir, 'out.csv'), 'utf8'));
    const get = rows.find((row) => / GET$/.test(row.test));
    const set = rows.find((row) => / SET$/.test(row.test));
    assert.ok(get && set, JSON.stringify(rows));
    const rate = Number(get.miss_rate);
    assert.ok(Math.abs(rate - 0.5) <= 0.02, `miss rate ${rate}`);
    const hits = Number(get.hits_per_sec);
    const misses = Number(get.misses_per_sec);
    assert.ok(hits > 0 && misses > 0);
    assert.ok(Math.abs(misses / (hits + misses) - rate) < 0.001, 'the per-second split follows the miss rate');
    assert.ok(Math.abs(hits + misses - Number(get.rps)) <= 0.02 * Number(get.rps), 'hits + misses per second = the row throughput');
    assert.deepEqual([set.hits_per_sec, set.misses_per_sec, set.miss_rate], ['', '', '']);
  });
});

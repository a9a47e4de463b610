// `--csv` carries hits and misses (issue 43): after redis-benchmark's columns and RBench's own, `hits_per_sec`,
// `misses_per_sec` and `miss_rate` for a read's row — over a half-filled key space, the keys absent. A real redis-server.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, useScratch } from '../../helpers/cli';
import { useRedisServer, withRedis } from '../../helpers/redis';

const SPACE = 2000;

function csvRows(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trim().split('\n');
  const unquote = (cell: string) => cell.replace(/^"|"$/g, '');
  const names = header.split(',').map(unquote);
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [names[i], unquote(cell)])));
}

describe('rbench run --csv: hits and misses', function () {
  this.timeout(90_000);
  const server = useRedisServer();
  const scratch = useScratch();

  before(async () => {
    await withRedis(server(), (redis) => redis.flushall());
  });

  it('a read has its hits/s, misses/s and miss rate; a write has empty cells', async () => {
    const file = scratch.write(
      'half.rbench',
      [
        '### half-filled',
        'clients 4',
        `keys ${SPACE} sequential`,
        'prefill fill',
        `requests ${SPACE / 2}`,
        'SET k:__key__ __value__',
        'phase read',
        `keys ${SPACE} uniform`,
        'requests 20000',
        '80% GET k:__key__',
        '20% SET other:__key__ v',
        '',
      ].join('\n'),
    );
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

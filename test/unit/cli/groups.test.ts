// `rbench check` and `rbench run` with command groups against a real redis-server: a MULTI … EXEC group is
// one request unit with its own row, its commands' rows under it, and per-command counts as the server saw them.
import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { buildViewModel } from '../../../src/views/model';
import { commandCalls, useRedisServer } from '../../helpers/redis';
import { runCli, useScratch } from '../../helpers/cli';

describe('rbench with command groups', function () {
  this.timeout(60_000);
  const server = useRedisServer();
  const scratch = useScratch();

  it('runs a MULTI … EXEC group as one unit: a unit row, its commands under it, counts as INFO commandstats says', async () => {
    const redis = new Redis({ host: server().host, port: server().port, lazyConnect: true });
    await redis.connect();
    try {
      await redis.config('RESETSTAT');
      const file = scratch.write(
        'tx.rbench',
        `### tx\ntarget ${server().url}\nkeys 100\nclients 3\npipeline 2\nrequests 1500\nexpect counter-tx errors = 0\nexpect EXEC p99 < 10s\ngroup counter-tx\n  MULTI\n  SET tx:__key__ __value__\n  INCR tx:hits\n  EXEC\nend\n`,
      );
      const checked = await runCli(['check', file], { cwd: scratch.dir });
      assert.equal(checked.code, 0, checked.stdout + checked.stderr);
      const result = await runCli(['run', file, '--yes'], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const table = result.stdout.split('\n');
      const unit = table.findIndex((line) => /^counter-tx\s+1,500\s/.test(line));
      assert.ok(unit >= 0, result.stdout);
      assert.match(table[unit + 1], /^ {2}MULTI\s+1,500\s/);
      assert.match(table[unit + 2], /^ {2}SET\s+1,500\s/);
      assert.match(table[unit + 3], /^ {2}INCR\s+1,500\s/);
      assert.match(table[unit + 4], /^ {2}EXEC\s+1,500\s/);
      const [run] = scratch.runFiles();
      const load = run.points[0].repeats[0][0];
      assert.equal(load.test, 'counter-tx');
      assert.equal(load.total.requests, 1500);
      assert.equal(load.total.latency.count, 1500, 'a latency per unit');
      // `expect NAME …` judges the group's units; `expect EXEC …` its EXEC row.
      assert.deepEqual(
        run.thresholds.map((t) => [
          t.expectation,
          t.test,
          t.actual === null ? null : t.metric === 'errors' ? t.actual : t.actual === load.commands.find((c) => c.command === 'EXEC')!.latency.p99Us,
          t.passed,
        ]),
        [
          ['expect counter-tx errors = 0', 'counter-tx', 0, true],
          ['expect EXEC p99 < 10s', 'counter-tx', true, true],
        ],
      );
      // The results panel shows the same: the unit's row, then its commands'.
      const panelRows = buildViewModel(run).rows.map((row) => [row.test, row.command, row.requests]);
      assert.deepEqual(panelRows, [
        ['counter-tx', 'total', 1500],
        ['counter-tx', 'MULTI', 1500],
        ['counter-tx', 'SET', 1500],
        ['counter-tx', 'INCR', 1500],
        ['counter-tx', 'EXEC', 1500],
      ]);
      for (const name of ['multi', 'set', 'incr', 'exec']) assert.equal(await commandCalls(redis, name), 1500, name);
      assert.equal(Number(await redis.get('tx:hits')), 1500);
    } finally {
      redis.disconnect();
    }
  });

  it('`check` refuses MULTI on a line of its own and accepts it in a group', async () => {
    const loose = scratch.write('loose.rbench', '### tx\nMULTI\nSET k v\nEXEC\n');
    const refused = await runCli(['check', loose], { cwd: scratch.dir });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stdout + refused.stderr, /loose\.rbench:2:1: error: `MULTI` cannot work on a line of its own.*Put the transaction in a command group/);
  });
});

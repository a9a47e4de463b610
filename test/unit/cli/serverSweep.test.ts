// `sweep server`: each point on a throwaway redis-server of its own with its directives (read back with
// CONFIG GET), one run file and one result table, the setups compared; refused on a server of the user's.
import assert from 'node:assert/strict';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';
import { runCli, useScratch } from '../../helpers/cli';
import { runsToCompare } from '../../../src/runner/serverSetups';
import { comparisonOf } from '../../../src/views/compareModel';
import { compareLabels } from '../../../src/results/compareLabels';

const AOF = `### aof
clients 10
requests 3000
sweep server "appendonly yes" "appendfsync always", "appendonly yes" "appendfsync no"
SET aof:__key__ __value__
`;

describe('rbench run: sweep server', function () {
  this.timeout(120_000);
  const scratch = useScratch();
  const mine = useRedisServer();

  it('runs appendfsync always and no on two throwaway servers, each with its directives, one table, the setups compared', async () => {
    const file = scratch.write('aof.rbench', AOF);
    const result = await runCli(['run', file], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    const runs = scratch.runFiles();
    assert.equal(runs.length, 1, 'one run file for the sweep');
    const [run] = runs;
    assert.equal(run.status, 'complete');
    assert.deepEqual(
      run.points.map((point) => point.label),
      ['appendonly=yes appendfsync=always', 'appendonly=yes appendfsync=no'],
    );
    const [always, no] = run.points;
    // Two servers: each point names its own, and CONFIG GET on it read the point's directives back.
    assert.ok(always.server && no.server, 'each point names its server');
    assert.notEqual(always.server.display, no.server.display, 'each point had a server of its own');
    assert.deepEqual({ ...always.server.config }, { appendonly: 'yes', appendfsync: 'always' });
    assert.deepEqual({ ...no.server.config }, { appendonly: 'yes', appendfsync: 'no' });
    for (const point of run.points) assert.equal(point.repeats[0][0].total.requests, 3000);
    // What an fsync per write costs is the disk's to say, not the sweep's: 14k against 33k ops/s here, 5.9k against
    // 6.1k on a CI machine whose disk acknowledges fsync from a cache. The directives read back above are the proof.
    // One result table holding both points, then the comparison between them naming the directive.
    const tables = result.stdout.split('\n').filter((line) => /^point\s+command\s+requests/.test(line));
    assert.equal(tables.length, 1, result.stdout);
    assert.match(result.stdout, /^appendonly=yes appendfsync=always\s+SET\s+3,000/m);
    assert.match(result.stdout, /^appendonly=yes appendfsync=no\s+SET\s+3,000/m);
    assert.match(result.stdout, /server appendfsync: always → no/);
    assert.match(result.stdout, /appendonly=yes appendfsync=always \(reference\)/);
  });

  it('compares the setups of a saved sweep with rbench compare on its one run file', async () => {
    const file = scratch.write('aof.rbench', AOF.replace('3000', '500'));
    assert.equal((await runCli(['run', file], { cwd: scratch.dir })).code, 0);
    const result = await runCli(['compare', '.rbench/runs/' + (await listRuns(scratch.dir))[0]], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /server appendfsync: always → no/);
    // The comparison panel and the history's Compare on this one run: its two setups side by side, named by what differs.
    const [saved] = scratch.runFiles();
    const setups = runsToCompare([saved]);
    assert.equal(setups.length, 2);
    assert.deepEqual(compareLabels(setups), ['appendfsync always', 'appendfsync no']);
    const comparison = comparisonOf(setups);
    assert.ok(
      comparison.differences.some((difference) => /appendfsync: always → no/.test(difference.text)),
      JSON.stringify(comparison.differences),
    );
    assert.deepEqual(runsToCompare([saved, saved]).length, 2, 'named twice, still its setups');
  });

  it('is refused on a server of yours, before any contact', async () => {
    const server = mine();
    const before = await withRedis(server, (redis) => commandCalls(redis, 'set'));
    const file = scratch.write('aof.rbench', AOF);
    const result = await runCli(['run', file, '--url', `redis://127.0.0.1:${server.port}`, '--yes'], { cwd: scratch.dir });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /has `sweep server`, which starts a throwaway redis-server for each point; it is not run on redis:\/\/127\.0\.0\.1:\d+/);
    assert.equal(await withRedis(server, (redis) => commandCalls(redis, 'set')), before);
    assert.equal(scratch.runFiles().length, 0);
  });

  it('rbench check names a refused directive of a point by file:line:col', async () => {
    const file = scratch.write('bad.rbench', AOF.replace('"appendfsync no"', '"loadmodule evil.so"'));
    const result = await runCli(['check', file], { cwd: scratch.dir });
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.match(result.stdout + result.stderr, /bad\.rbench:4:\d+: error: `server loadmodule` is refused/);
  });
});

async function listRuns(dir: string): Promise<string[]> {
  const { readdirSync } = await import('node:fs');
  return readdirSync(`${dir}/.rbench/runs`).filter((name) => name.endsWith('.rbench-run.json'));
}

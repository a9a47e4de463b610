// `rbench run FILE --url A --url B`: every scenario on each target, repeats interleaved, each server sent
// exactly its share (INFO commandstats), the runs saved and compared naming the target difference; the
// same server named twice is refused before any load.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';
import { runCli, useScratch } from '../../helpers/cli';

const setCalls = (server: { host: string; port: number }) => withRedis(server, (redis) => commandCalls(redis, 'set'));

describe('rbench run on several targets', function () {
  this.timeout(120_000);
  const scratch = useScratch();
  const first = useRedisServer();
  const second = useRedisServer();

  it('runs each scenario on each target: each server counts its share, the comparison names the target difference', async () => {
    const a = `redis://127.0.0.1:${first().port}`;
    const b = `redis://127.0.0.1:${second().port}`;
    const before = [await setCalls(first()), await setCalls(second())];
    const file = scratch.write(
      'two.rbench',
      '### one\nclients 4\nrequests 2000\nSET t1:__key__ __value__\n\n### two\nclients 2\nrequests 700\nrepeat 3\nSET t2:__key__ __value__\n',
    );
    const result = await runCli(['run', file, '--url', a, '--url', b, '--yes'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    // Scenario one: 2,000 SETs on each; scenario two: three repeats of 700 on each.
    assert.equal((await setCalls(first())) - before[0], 2000 + 3 * 700);
    assert.equal((await setCalls(second())) - before[1], 2000 + 3 * 700);

    const runs = scratch.runFiles();
    assert.equal(runs.length, 4, 'a run file per scenario and target');
    const byTarget = (scenario: string, target: string) => runs.find((run) => run.scenario.name === scenario && run.target.display === target)!;
    for (const target of [a, b]) {
      assert.equal(byTarget('one', target).points[0].repeats[0][0].total.requests, 2000);
      const repeated = byTarget('two', target);
      assert.equal(repeated.status, 'complete');
      assert.equal(repeated.plan.repeat, 3);
      assert.equal(repeated.points[0].repeats.length, 3, 'the interleaved repeats joined into one run');
      assert.equal(repeated.points[0].summary[0].runs, 3);
    }
    // Interleaved: A's second repeat started after B's first one had.
    const startOf = (target: string, repeat: number) => Date.parse(byTarget('two', target).points[0].repeats[repeat][0].startedAt);
    assert.ok(startOf(a, 1) > startOf(b, 0), 'A B A B: the repeats alternate between the targets');
    assert.ok(startOf(b, 1) > startOf(a, 1));

    const differences = result.stdout.split('\n').filter((line) => line.includes(`target: ${a} → ${b}`));
    assert.equal(differences.length, 2, `each scenario's comparison names the target difference:\n${result.stdout}`);
    assert.match(result.stdout, new RegExp(`${a.replace(/[/.]/g, '\\$&')} \\(reference\\)`));
    const saved = readdirSync(join(scratch.dir, '.rbench/runs')).filter((name) => name.endsWith('.comparison.md'));
    assert.equal(saved.length, 2, 'a comparison saved per scenario');
    assert.match(readFileSync(join(scratch.dir, '.rbench/runs', saved[0]), 'utf8'), /target/);
    assert.match(result.stdout + result.stderr, /Comparison saved: \.rbench\/runs\/.+\.comparison\.md/);
  });

  for (const [name, other] of [
    ['the same URL twice', (port: number) => `redis://127.0.0.1:${port}/0`],
    ['two names of one server (the same INFO run_id)', (port: number) => `redis://localhost:${port}`],
  ] as const) {
    it(`refuses ${name}: nothing is sent`, async () => {
      const port = first().port;
      const before = await setCalls(first());
      const file = scratch.write('one.rbench', '### one\nrequests 500\nSET t3:__key__ __value__\n');
      const result = await runCli(['run', file, '--url', `redis://127.0.0.1:${port}`, '--url', other(port), '--yes'], { cwd: scratch.dir });
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(result.stderr, /are the same server .*comparing a server with itself measures nothing — name each target once/);
      assert.equal(await setCalls(first()), before, 'no load was sent');
      assert.equal(existsSync(join(scratch.dir, '.rbench/runs')) ? scratch.runFiles().length : 0, 0);
    });
  }
});

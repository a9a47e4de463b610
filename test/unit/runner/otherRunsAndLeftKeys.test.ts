// Issue 22 (1, 11) against a real redis-server treated as a user's own (local: false): two RBench runs at once
// on one server each say the other overlapped them (run file, warnings, bottleneck verdict), and a run that
// leaves keys says how many and how to remove them, deleting nothing itself.
import assert from 'node:assert/strict';
import { runScenario } from '../../../src/runner/runScenario';
import { otherRbenchClients, rbenchClients, runClientName } from '../../../src/runner/otherRuns';
import { ownKeyPatterns, REPORTED_KEYS } from '../../../src/runner/leftKeys';
import { leftKeysLines } from '../../../src/results/leftKeys';
import { runWarnings } from '../../../src/results/warnings';
import { runFileProblem } from '../../../src/results/runFileSchema';
import { planOf, runOnUserServer } from '../../helpers/userServerRun';
import { useRedisServer, withRedis } from '../../helpers/redis';

describe('other RBench runs on the same server, and the keys a run leaves', function () {
  this.timeout(60_000);
  const server = useRedisServer();
  const run = (text: string) => runOnUserServer(server(), text);
  // Each test counts keys from an empty server: a failed one must not leave its keys to the next.
  beforeEach(() => withRedis(server(), (redis) => redis.flushall()));

  it('two runs at once on one server: each names the other in its run file, its warnings and its verdict', async () => {
    const [a, b] = await Promise.all([
      run('### cache\nclients 4\nduration 3s\nGET rbench:other:a\n'),
      run('### benchmark\nclients 4\nduration 3s\nGET rbench:other:b\n'),
    ]);
    for (const [file, other] of [
      [a, 'benchmark'],
      [b, 'cache'],
    ] as const) {
      assert.equal(file.status, 'complete', file.error);
      assert.equal(runFileProblem(JSON.parse(JSON.stringify(file)), 'run'), undefined);
      assert.ok(
        file.otherRuns?.some((seen) => seen.name.includes(`:${other}:`)),
        JSON.stringify(file.otherRuns),
      );
      const warning = runWarnings(file).find((line) => line.includes('overlapped this one'));
      assert.ok(warning?.includes(`another RBench run ("${other}" from 127.0.0.1)`), String(warning));
      const load = file.points[0].repeats[0][0];
      assert.ok(load.bottleneck, 'a verdict');
      const verdictText = JSON.stringify(load.bottleneck);
      assert.match(verdictText, /foreign-load/);
      assert.match(verdictText, new RegExp(`another RBench run \\(\\\\"${other}\\\\"\\) overlapped this one`));
    }
  });

  it('a run alone on its server names no other run', async () => {
    const file = await run('### alone\nclients 2\nrequests 2000\nGET rbench:other:alone\n');
    assert.equal(file.status, 'complete', file.error);
    assert.equal(file.otherRuns, undefined);
    assert.ok(!runWarnings(file).some((line) => line.includes('overlapped')));
  });

  it('a run that leaves keys says how many and how to remove them, and deletes nothing', async () => {
    await withRedis(server(), (redis) => redis.set('unrelated:key', '1'));
    const file = await run('### writes\nclients 2\nrequests 3000\nkeys 1000 sequential\nSET bench:__key__ x\n');
    assert.equal(file.status, 'complete', file.error);
    const keys = await withRedis(server(), (redis) => redis.dbsize());
    assert.equal(keys, 1001, 'nothing was deleted');
    assert.deepEqual(file.leftKeys, [{ pattern: 'bench:*', count: 1000 }]);
    assert.deepEqual(leftKeysLines(file), ['left 1,000 keys matching bench:*; add `cleanup bench:*` to remove them after a run']);
    await withRedis(server(), (redis) => redis.flushall());
  });

  it('counts only its own keys under its pattern (issue 46): someone’s bench:alice and numbers beyond its key space are not what it left', async () => {
    await withRedis(server(), async (redis) => {
      await redis.set('bench:alice', '1');
      await redis.set('bench:000000000100', '1');
      await redis.set('bench:00000000005', '1');
    });
    const file = await run('### writes\nclients 2\nrequests 1000\nkeys 100 sequential\nSET bench:__key__ x\n');
    assert.equal(file.status, 'complete', file.error);
    assert.equal(await withRedis(server(), (redis) => redis.dbsize()), 103, 'nothing was deleted');
    assert.deepEqual(file.leftKeys, [{ pattern: 'bench:*', count: 100 }]);
    await withRedis(server(), (redis) => redis.flushall());
  });

  it('past 1,000 of its own keys the count stops and says "at least" (issue 46: each key counted is CPU every run pays)', async () => {
    await withRedis(server(), async (redis) => {
      const pipeline = redis.pipeline();
      for (let i = 0; i < 5_000; i++) pipeline.set(`bench:${String(i).padStart(12, '0')}`, '1');
      await pipeline.exec();
    });
    const file = await run('### writes\nclients 2\nrequests 100\nkeys 5000\nSET bench:__key__ x\n');
    assert.equal(file.status, 'complete', file.error);
    const [left] = file.leftKeys ?? [];
    assert.equal(left?.capped, true, JSON.stringify(file.leftKeys));
    assert.ok(left.count >= REPORTED_KEYS && left.count < 5_000, `${left.count} counted`);
    assert.match(leftKeysLines(file)[0], /^left at least \d,\d{3} keys matching bench:\*/);
    await withRedis(server(), (redis) => redis.flushall());
  });

  it('a run whose cleanup removed its keys leaves nothing to report; a throwaway server is not counted', async () => {
    const cleaned = await run('### cleaned\nclients 2\nrequests 500\nkeys 100 sequential\ncleanup bench:*\nSET bench:__key__ x\n');
    assert.equal(cleaned.status, 'complete', cleaned.error);
    assert.equal(cleaned.leftKeys, undefined);
    assert.deepEqual(leftKeysLines(cleaned), []);
    const { host, port } = server();
    const text = '### throwaway\nclients 2\nrequests 500\nSET bench:__key__ x\n';
    const throwaway = await runScenario(planOf(text), {
      connection: { host, port, resp: 2, connectTimeoutMs: 2000 },
      targetDisplay: 'local',
      local: true,
      source: text,
    });
    assert.equal(throwaway.leftKeys, undefined);
    await withRedis(server(), (redis) => redis.flushall());
  });

  it('counts only patterns of its own with a literal part, each once', () => {
    assert.deepEqual(ownKeyPatterns(planOf('### p\nSET bench:__key__ x\nSET bench:counter 1\nSET __key__ y\n')), ['bench:*']);
    assert.deepEqual(ownKeyPatterns(planOf('### p\nGET bench:a\n')), []);
  });

  it("reads other runs' names from CLIENT LIST, not its own, bounded", () => {
    const list = [
      'id=3 addr=10.0.0.7:50123 laddr=127.0.0.1:6379 fd=8 name=rbench-run:cache:3f9a1c age=1 idle=0',
      'id=4 addr=127.0.0.1:50124 laddr=127.0.0.1:6379 fd=9 name=rbench-run:mine:000000 age=1 idle=0',
      'id=5 addr=127.0.0.1:50125 laddr=127.0.0.1:6379 fd=10 name= age=1 idle=0',
      'id=6 addr=127.0.0.1:50126 laddr=127.0.0.1:6379 fd=11 name=app-worker age=1 idle=0',
      'id=7 addr=10.0.0.7:50127 laddr=127.0.0.1:6379 fd=12 name=rbench-run:cache:3f9a1c age=1 idle=0',
    ].join('\n');
    assert.deepEqual(otherRbenchClients(list, 'rbench-run:mine:000000'), [{ name: 'rbench-run:cache:3f9a1c', addr: '10.0.0.7:50123' }]);
  });

  it('tells the sibling parts of a sharded run from other runs by the run id and split in their names', () => {
    const own = runClientName('spread', { index: 1, count: 3, runId: 'a1b2c3d4' });
    assert.match(own, /^rbench-run:spread:a1b2c3d4\.1of3:[0-9a-f]{6}$/);
    assert.match(runClientName('spread'), /^rbench-run:spread:[0-9a-f]{6}$/);
    const names = [
      'rbench-run:spread:a1b2c3d4.2of3:0a0b0c', // a sibling
      'rbench-run:spread:a1b2c3d4.3of3:1a1b1c', // a sibling
      'rbench-run:spread:a1b2c3d4.1of3:2a2b2c', // part 1 again: a second part 1 is another run's
      'rbench-run:spread:ffff0000.2of3:3a3b3c', // another run id
      'rbench-run:spread:a1b2c3d4.2of4:4a4b4c', // another split
      'rbench-run:other:a1b2c3d4.2of3:5a5b5c', // another scenario
      'rbench-run:spread:6a6b6c', // a whole run
    ];
    const list = names.map((name, i) => `id=${i} addr=127.0.0.1:${5000 + i} fd=8 name=${name} age=1`).join('\n');
    const { others, siblings } = rbenchClients(list, own);
    assert.deepEqual(
      siblings.map((s) => s.name),
      names.slice(0, 2),
    );
    assert.deepEqual(
      others.map((o) => o.name),
      names.slice(2),
    );
    // A whole run has no siblings: every part is another run to it.
    assert.equal(rbenchClients(list, 'rbench-run:spread:000000').siblings.length, 0);
  });
});

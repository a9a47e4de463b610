// Issue 43, client groups finished, against a real redis-server: a group's load gets every figure a test's load
// gets (one function after both, src/runner/afterLoad.ts: bytes per second, chosen and throughput percentiles,
// a BGSAVE in the verdict), and a background group is stopped when the measured groups end, its figures kept.
import assert from 'node:assert/strict';
import { runOnUserServer } from '../../helpers/userServerRun';
import { commandCalls, useRedisServer, waitForCalls, withRedis } from '../../helpers/redis';

describe('client groups finished: one path after a load, background stopped with the measured groups', function () {
  this.timeout(90_000);
  const server = useRedisServer();

  it("a groups run's loads have bytes/s, and the chosen percentiles, as a test's load has", async () => {
    const file = await runOnUserServer(
      server(),
      '### figures\npercentiles 50, 99.9\nkeys 1000\nduration 2s\nload setters background\nclients 2\nSET rbench:fin:__key__ __value__\nload getters\nclients 3\nGET rbench:fin:__key__\n',
    );
    assert.equal(file.status, 'complete', file.error);
    for (const load of file.points[0].repeats[0]) {
      assert.ok(load.server, `${load.test}: the server's counters were read`);
      assert.ok(load.bytesPerSec && load.bytesPerSec.sent > 0 && load.bytesPerSec.received > 0, `${load.test}: ${JSON.stringify(load.bytesPerSec)}`);
      assert.deepEqual(Object.keys(load.total.latency.percentiles ?? {}), ['p50', 'p99.9'], `${load.test}: ${JSON.stringify(load.total.latency)}`);
    }
  });

  it('a BGSAVE while the groups run is in the verdict of the measured group, as in a test', async () => {
    await withRedis(server(), (redis) => redis.call('DEBUG', 'POPULATE', '20000', 'fin:fill', '100'));
    const before = await withRedis(server(), (redis) => commandCalls(redis, 'get'));
    const text =
      '### save\nkeys 20000\nduration 5s\nload writers background\nclients 1\nrate 200/s\nSET fin:fill:__key__ __value__\nload readers\nclients 4\nGET fin:fill:__key__\n';
    const running = runOnUserServer(server(), text);
    // The fork once the readers are under way (a count of their GETs, not a wait: a busy machine starts late).
    await withRedis(server(), async (redis) => {
      await waitForCalls(redis, 'get', before + 1000, 1500);
      await redis.bgsave();
    });
    const file = await running;
    assert.equal(file.status, 'complete', file.error);
    const readers = file.points[0].repeats[0].find((load) => load.test === 'readers')!;
    assert.ok(readers.server?.forks !== undefined && readers.server.forks >= 1, JSON.stringify(readers.server?.forks));
    assert.match(JSON.stringify(readers.bottleneck), /the server forked \d+× during the test/);
  });

  it('a background group with 10M requests is stopped when the measured 2k end: its sends all counted by the server, status complete', async () => {
    const counts = () => withRedis(server(), async (redis) => ({ set: await commandCalls(redis, 'set'), get: await commandCalls(redis, 'get') }));
    const before = await counts();
    const file = await runOnUserServer(
      server(),
      '### stop\nkeys 1000\nload writers background\nclients 2\nrequests 10M\nSET rbench:fin:bg:__key__ v\nload readers\nclients 2\nrequests 2k\nGET rbench:fin:bg:__key__\n',
    );
    const after = await counts();
    assert.equal(file.status, 'complete', file.error);
    const [writers, readers] = file.points[0].repeats[0];
    assert.equal(readers.total.requests, 2000);
    assert.equal(readers.group?.stopped, undefined, 'a measured group runs to its end');
    assert.deepEqual(writers.group, { name: 'writers', background: true, stopped: true });
    assert.equal(writers.status, 'complete');
    const sent = writers.sent!.byLabel.SET;
    assert.ok(sent > 0 && sent < 10_000_000, `writers sent ${sent}`);
    assert.equal(after.set - before.set, sent, 'the server counted every SET the stopped writers sent, and no other');
    assert.equal(after.get - before.get, 2000);
    assert.equal(writers.total.requests, sent, 'every SET sent was answered and counted in the result');
  });

  it('background groups alone each run to their own end', async () => {
    const file = await runOnUserServer(
      server(),
      '### alone\nkeys 100\nload a background\nclients 1\nrequests 300\nSET rbench:fin:a:__key__ v\nload b background\nclients 1\nrequests 500\nGET rbench:fin:a:__key__\n',
    );
    assert.equal(file.status, 'complete', file.error);
    assert.deepEqual(
      file.points[0].repeats[0].map((load) => [load.test, load.total.requests, load.group?.stopped]),
      [
        ['a', 300, undefined],
        ['b', 500, undefined],
      ],
    );
  });
});

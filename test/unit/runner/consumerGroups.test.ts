// Issue 43 (blocking consumers) against a real redis-server: a group blocked on BRPOP, BZPOPMIN or
// XREADGROUP … BLOCK takes every job the producers push (the server's commandstats count both sides), the queue
// is empty at the end, each stamped job's wake-up latency is counted once, and a cancel ends the blocked calls
// without leaving a connection behind.
import assert from 'node:assert/strict';
import { runFileProblem } from '../../../src/results/runFileSchema';
import { setTimeout as sleep } from 'node:timers/promises';
import { runScenario } from '../../../src/runner/runScenario';
import { planOf, runOnUserServer } from '../../helpers/userServerRun';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';

describe('consumer groups: blocked calls take the jobs producers push (issue 43)', function () {
  this.timeout(90_000);
  const server = useRedisServer();
  const run = (text: string) => runOnUserServer(server(), text);
  const calls = (names: string[]) =>
    withRedis(server(), async (redis) => Object.fromEntries(await Promise.all(names.map(async (name) => [name, await commandCalls(redis, name)] as const))));

  it('4 consumers blocked on BRPOP take every job 400/s producers push: pops with a job = pushes, LLEN 0 at the end', async () => {
    const before = await calls(['lpush', 'brpop']);
    const file = await run(
      [
        '### job queue',
        'duration 1s',
        'load producers',
        'clients 2',
        'rate 400/s',
        'LPUSH rbench:queue:jobs __now__:__value__',
        'load workers',
        'clients 4',
        'BRPOP rbench:queue:jobs 1',
        '',
      ].join('\n'),
    );
    assert.equal(file.status, 'complete', file.error);
    assert.equal(runFileProblem(JSON.parse(JSON.stringify(file)), 'run'), undefined);
    const [producers, workers] = file.points[0].repeats[0];
    const after = await calls(['lpush', 'brpop']);
    const pushed = after.lpush - before.lpush;
    assert.equal(pushed, producers.sent!.byLabel.LPUSH);
    assert.ok(pushed >= 300, `the producers pushed at their rate: ${pushed}`);
    const consumer = workers.consumer!;
    assert.equal(consumer.jobs, pushed, 'every job pushed was popped');
    assert.equal(consumer.consumers, 4);
    assert.equal(after.brpop - before.brpop, workers.sent!.byLabel.BRPOP, 'the server counted every BRPOP the consumers sent');
    assert.deepEqual(consumer.queueLeft, [{ key: 'rbench:queue:jobs', command: 'EXISTS', length: 0 }]);
    assert.equal(await withRedis(server(), (redis) => redis.llen('rbench:queue:jobs')), 0);
    assert.equal(workers.bottleneck?.kind, 'undetermined', 'a consumer group is not judged as if it set its own pace');
    assert.match(workers.bottleneck!.why, /^not judged/);
    assert.equal(workers.total.requests, consumer.jobs);
    // Every job carried its send stamp: each was timed once, push → pop, on the machine's one monotonic clock.
    assert.equal(consumer.wakeUp.latency.count, consumer.jobs, 'the wake-up histogram counts every stamped job once');
    assert.ok(consumer.wakeUp.latency.minUs > 0);
    assert.equal(consumer.emptyReturns, consumer.pops - consumer.jobs, 'each pop returned one job or nothing');
  });

  it('BZPOPMIN consumers take every member ZADD pushes; ZCARD 0 at the end', async () => {
    const before = await calls(['zadd', 'bzpopmin']);
    const file = await run(
      [
        '### sorted-set queue',
        'requests 300',
        'load producers',
        'clients 1',
        'keys 300 sequential',
        'ZADD rbench:queue:z __rand_int__ job:__key__',
        'load workers',
        'clients 3',
        'BZPOPMIN rbench:queue:z 1',
        '',
      ].join('\n'),
    );
    assert.equal(file.status, 'complete', file.error);
    const [, workers] = file.points[0].repeats[0];
    const after = await calls(['zadd', 'bzpopmin']);
    assert.equal(after.zadd - before.zadd, 300);
    assert.equal(workers.consumer!.jobs, 300, 'each member added was popped once');
    assert.equal(workers.consumer!.wakeUp.latency.count, 0, 'members without a stamp are counted, not timed');
    assert.equal(after.bzpopmin - before.bzpopmin, workers.sent!.byLabel.BZPOPMIN);
    assert.equal(await withRedis(server(), (redis) => redis.zcard('rbench:queue:z')), 0);
  });

  it('XREADGROUP … BLOCK consumers read every entry XADD appends; the group has none pending (NOACK)', async () => {
    const file = await run(
      [
        '### stream queue',
        'prefill group',
        'clients 1',
        'requests 1',
        'XGROUP CREATE rbench:queue:s workers $ MKSTREAM',
        'phase work',
        'requests 200',
        'load producers',
        'clients 2',
        'XADD rbench:queue:s * job __value__',
        'load workers',
        'clients 2',
        'XREADGROUP GROUP workers w COUNT 1 BLOCK 500 NOACK STREAMS rbench:queue:s >',
        '',
      ].join('\n'),
    );
    assert.equal(file.status, 'complete', file.error);
    const [, workers] = file.points[0].repeats[0];
    assert.equal(workers.group?.name, 'workers');
    assert.equal(workers.consumer!.jobs, 200);
    assert.deepEqual(workers.consumer!.queueLeft, [
      { key: 'rbench:queue:s', command: 'XLEN', length: 200 },
      { key: 'rbench:queue:s', command: 'XPENDING', length: 0 },
    ]);
  });

  it('consumers of a stream group that does not exist end the run with a plain message naming the fix; what was measured is kept', async () => {
    const file = await run(
      [
        '### no group',
        'requests 50',
        'load producers',
        'clients 1',
        'XADD rbench:queue:nogroup * job __value__',
        'load workers',
        'clients 2',
        'XREADGROUP GROUP missing w BLOCK 100 STREAMS rbench:queue:nogroup >',
        '',
      ].join('\n'),
    );
    assert.equal(file.status, 'failed');
    assert.match(
      file.error ?? '',
      /^client group workers: consumer group workers: the server answered XREADGROUP with "NOGROUP .*XGROUP CREATE KEY GROUP \$ MKSTREAM/,
    );
    const [producers] = file.points[0].repeats[0];
    assert.equal(producers.sent?.byLabel.XADD, 50, 'the producers ran to their end and were kept');
  });

  it('a cancel while the consumers are blocked ends the run, and leaves no connection of the run on the server', async () => {
    const { host, port } = server();
    const text = [
      '### cancelled queue',
      'duration 60s',
      'load producers',
      'clients 1',
      'rate 1/s',
      'LPUSH rbench:queue:slow __value__',
      'load workers',
      'clients 4',
      'BRPOP rbench:queue:idle 0',
      '',
    ].join('\n');
    const abort = new AbortController();
    const running = runScenario(planOf(text), {
      connection: { host, port, resp: 2, connectTimeoutMs: 2000, clientName: 'rbench:queue-test' },
      targetDisplay: `redis://${host}:${port}`,
      local: false,
      source: text,
      signal: abort.signal,
    });
    const blocked = () =>
      withRedis(
        server(),
        async (redis) => ((await redis.client('LIST')) as string).split('\n').filter((line) => / cmd=brpop /.test(line) && / flags=b /.test(line)).length,
      );
    for (let i = 0; i < 500 && (await blocked()) < 4; i++) await sleep(20);
    assert.equal(await blocked(), 4, 'the 4 consumers are blocked before the cancel');
    abort.abort();
    const file = await running;
    assert.equal(file.status, 'cancelled');
    const workers = file.points[0]?.repeats[0]?.find((load) => load.test === 'workers');
    assert.equal(workers?.consumer?.ended, 'cancelled', 'the consumers were stopped by the cancel');
    const named = () =>
      withRedis(
        server(),
        async (redis) => ((await redis.client('LIST')) as string).split('\n').filter((line) => line.includes('name=rbench:queue-test')).length,
      );
    for (let i = 0; i < 100 && (await named()) > 0; i++) await sleep(20);
    assert.equal(await named(), 0, 'no connection of the run is left');
  });
});

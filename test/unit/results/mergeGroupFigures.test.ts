// `rbench merge` of `--shard 1/2` and `2/2` runs made on a real server (issue 43): a consumer group's counts, a
// Pub/Sub publisher's and subscriber's, and a reply-driven command's `replies` add up to what the server counted;
// the wake-up histograms add; the queue left is the last read; a subscriber's `lost` is read again from the sums.
import assert from 'node:assert/strict';
import { runScenario } from '../../../src/runner/runScenario';
import { runFileProblem } from '../../../src/results/runFileSchema';
import { mergeRuns } from '../../../src/results/merge';
import { shardPlan } from '../../../src/runner/shard';
import type { LoadResult } from '../../../src/engine/types';
import type { RunFile } from '../../../src/results/runFile';
import { runWarnings } from '../../../src/results/warnings';
import { planOf } from '../../helpers/userServerRun';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';

describe('merge knows the group figures: consumer, pubsub, replies (issue 43)', function () {
  this.timeout(90_000);
  const server = useRedisServer();

  /** Both halves of `text`'s scenario, run at the same time on the test's server, as two load machines would. */
  async function shardedRuns(text: string): Promise<RunFile[]> {
    const { host, port } = server();
    const plan = planOf(text);
    const parts = [1, 2].map((index) => {
      const part = shardPlan(plan, { index, count: 2, group: `groupfields-${port}` });
      return typeof part === 'string' ? assert.fail(part) : part;
    });
    const runs = await Promise.all(
      parts.map((part) =>
        runScenario(part, {
          connection: { host, port, resp: 2, connectTimeoutMs: 2000 },
          targetDisplay: `redis://${host}:${port}`,
          local: false,
          source: text,
        }),
      ),
    );
    for (const run of runs) assert.equal(run.status, 'complete', run.error);
    return runs;
  }
  const byTest = (loads: LoadResult[], test: string) => loads.find((load) => load.test === test) ?? assert.fail(`no ${test}`);
  const calls = (name: string) => withRedis(server(), (redis) => commandCalls(redis, name));

  beforeEach(() => withRedis(server(), async (redis) => void (await Promise.all([redis.config('RESETSTAT'), redis.flushall()]))));

  it('consumers: jobs, pops, empty returns and consumers are the parts summed, the jobs every LPUSH the server ran; wake-up histograms added', async () => {
    const runs = await shardedRuns(
      [
        '### sharded queue',
        'duration 1s',
        'load producers',
        'clients 2',
        'rate 400/s',
        'LPUSH rbench:gf:jobs __now__:__value__',
        'load workers',
        'clients 4',
        'BRPOP rbench:gf:jobs 1',
        '',
      ].join('\n'),
    );
    const pushed = await calls('lpush');
    const parts = runs.map((run) => byTest(run.points[0].repeats[0], 'workers').consumer!);
    const { run: merged } = mergeRuns(runs);
    assert.equal(runFileProblem(JSON.parse(JSON.stringify(merged)), 'run'), undefined);
    const workers = byTest(merged.points[0].repeats[0], 'workers');
    const consumer = workers.consumer ?? assert.fail('the merged consumer group lost its consumer figures');
    assert.equal(consumer.consumers, 4);
    assert.equal(consumer.jobs, pushed, 'every job either part pushed was taken by one of the parts');
    assert.equal(
      consumer.pops,
      parts.reduce((sum, part) => sum + part.pops, 0),
    );
    assert.equal(
      consumer.emptyReturns,
      parts.reduce((sum, part) => sum + part.emptyReturns, 0),
    );
    assert.equal(consumer.pops, await calls('brpop'), 'the server answered every BRPOP the parts counted');
    assert.equal(consumer.wakeUp.latency.count, pushed, 'each stamped job once in the added wake-up histogram');
    assert.equal(consumer.wakeUp.latency.maxUs, Math.max(...parts.map((part) => part.wakeUp.latency.maxUs)));
    assert.equal(
      consumer.idleMs,
      parts.reduce((sum, part) => sum + part.idleMs, 0),
    );
    assert.deepEqual(consumer.queueLeft, [{ key: 'rbench:gf:jobs', command: 'EXISTS', length: 0 }]);
    assert.equal(workers.total.requests, consumer.jobs);
  });

  it('pub/sub: published, expected and delivered are the parts summed, channels added per channel, lost read again, the clock several machines', async () => {
    const runs = await shardedRuns(
      [
        '### sharded fan-out',
        'warmup 0s',
        'load publishers',
        'clients 2',
        'requests 1000',
        'PUBLISH gf:__rand(1..5)__ __now__:__value__',
        'load subscribers',
        'clients 10',
        'SUBSCRIBE gf:__rand(1..5,sequential)__',
        '',
      ].join('\n'),
    );
    const published = await calls('publish');
    const parts = runs.map((run) => byTest(run.points[0].repeats[0], 'subscribers').pubsub!);
    const publisherParts = runs.map((run) => byTest(run.points[0].repeats[0], 'publishers').pubsub!);
    const { run: merged } = mergeRuns(runs);
    assert.equal(runFileProblem(JSON.parse(JSON.stringify(merged)), 'run'), undefined);
    const loads = merged.points[0].repeats[0];
    const publisher = byTest(loads, 'publishers').pubsub ?? assert.fail('the merged publishers lost their pubsub figures');
    assert.equal(publisher.published, published, 'a PUBLISH reply for every PUBLISH the server ran');
    assert.equal(published, 1000);
    assert.equal(
      publisher.expected,
      publisherParts.reduce((sum, part) => sum + part.expected!, 0),
    );
    const subscriber = byTest(loads, 'subscribers').pubsub ?? assert.fail('the merged subscribers lost their pubsub figures');
    const delivered = parts.reduce((sum, part) => sum + part.delivered!, 0);
    assert.equal(subscriber.delivered, delivered);
    assert.equal(subscriber.expected, publisher.expected, "the subscribers' parts heard both parts' publishers: their promises summed");
    assert.equal(subscriber.lost, Math.max(0, subscriber.expected! - delivered));
    assert.equal(
      Object.values(subscriber.channels!).reduce((a, b) => a + b, 0),
      delivered,
    );
    assert.deepEqual(Object.keys(subscriber.channels!).sort(), ['gf:1', 'gf:2', 'gf:3', 'gf:4', 'gf:5']);
    for (const channel of Object.keys(subscriber.channels!))
      assert.equal(
        subscriber.channels![channel],
        parts.reduce((sum, part) => sum + (part.channels![channel] ?? 0), 0),
      );
    assert.equal(subscriber.clock, 'several-machines');
    // `rbench merge` prints the merged run's lines: the latency is said to be no latency, once for the group.
    const lines = runWarnings(merged).filter((line) => line.startsWith('subscribers:') && /clocks of several machines/.test(line));
    assert.equal(lines.length, 1, runWarnings(merged).join('\n'));
  });

  it('replies: a SCAN cursor loop’s passes and items are the parts summed, one full pass per SCAN the server ran', async () => {
    await withRedis(server(), async (redis) => {
      for (let i = 0; i < 50; i++) await redis.set(`rbench:gf:k:${i}`, 'v');
    });
    const runs = await shardedRuns(['### sharded scans', 'clients 4', 'requests 200', 'SCAN __cursor__ MATCH rbench:gf:k:* COUNT 1000', ''].join('\n'));
    const scans = await calls('scan');
    const { run: merged } = mergeRuns(runs);
    const load = merged.points[0].repeats[0][0];
    const replies = load.commands[0].replies ?? assert.fail('the merged SCAN lost its replies');
    assert.equal(load.commands[0].requests, 200);
    assert.equal(scans, 200);
    assert.equal(replies.passes, 200, 'every SCAN of 50 keys at COUNT 1000 was a full pass');
    assert.equal(replies.items, 200 * 50);
  });
});

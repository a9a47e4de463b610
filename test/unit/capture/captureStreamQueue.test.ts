// Issue 43 (capture reproduces the queues it sees): stream queues and ZADD-fed queues. On a source server 2 clients
// XADD onto a stream while 2 clients read it with XREADGROUP … BLOCK in a stream group and XACK what they read; a
// third client feeds a sorted set that 2 clients BZPOPMIN. The capture writes a producer and a consumer group for
// each: the stream's consumers read with the literal `>` under a name per client (`c__client__`) and ack the IDs
// they read (`XACK … __ids__`), the stream group is created in a prefill (`XGROUP CREATE … $ MKSTREAM`), the
// producers stamp their jobs with `__now__` (the XADD's first value, the ZADD's member) for the wake-up latency.
// The scenario checks clean and, run on a second server: jobs = XADD count, XPENDING 0, wake-up latency measured.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { captureWorkload } from '../../../src/capture/capture';
import { scenarioText } from '../../../src/capture/scenarioText';
import { DEFAULT_CAPTURE, type CaptureResult } from '../../../src/capture/types';
import { sourceCounters } from '../../../src/capture/verify';
import { buildWorkload } from '../../../src/capture/workload';
import { getSetLoop, startClientLoops, type ClientLoops } from '../../helpers/clientLoops';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';
import { planOf, runOnUserServer } from '../../helpers/userServerRun';

const STREAM = 'events:stream';
/** The prefill line that creates the stream group (`$` is written quoted: a bare `$` could start an interpolation). */
const CREATE = /^XGROUP CREATE (fixed:\d+) (f\d+) (?:\$|"\\x24") MKSTREAM$/m;
const ZQUEUE = 'delayed:jobs';

/** Stream producers and acking readers, a sorted-set producer and BZPOPMIN consumers, and one GET/SET client. */
function startQueueTraffic(server: { host: string; port: number }): ClientLoops {
  return startClientLoops(server, 8, ([xadd1, xadd2, read1, read2, zadd, zpop1, zpop2, other], running) => [
    ...[xadd1, xadd2].map(async (client, index) => {
      let n = 0;
      while (running()) {
        await client.xadd(STREAM, '*', 'job', `job-${index}-${n++}`, 'attempt', '1').catch(() => undefined);
        await sleep(10);
      }
    }),
    ...[read1, read2].map(async (client, index) => {
      while (running()) {
        const reply = (await client
          .call('XREADGROUP', 'GROUP', 'mailers', `worker-${index}`, 'COUNT', '10', 'BLOCK', '500', 'STREAMS', STREAM, '>')
          .catch(() => sleep(10).then(() => null))) as [string, [string, string[]][]][] | null;
        const ids = reply?.[0]?.[1].map((entry) => entry[0]) ?? [];
        if (ids.length > 0) await client.xack(STREAM, 'mailers', ...ids).catch(() => undefined);
      }
    }),
    (async () => {
      let n = 0;
      while (running()) {
        await zadd.zadd(ZQUEUE, String(Date.now()), `task-${n++}`).catch(() => undefined);
        await sleep(15);
      }
    })(),
    ...[zpop1, zpop2].map(async (client) => {
      while (running()) await client.bzpopmin(ZQUEUE, 1).catch(() => sleep(10));
    }),
    getSetLoop(other, running),
  ]);
}

describe('rbench capture reproduces stream and sorted-set queues (issue 43)', function () {
  this.timeout(90_000);
  // The capture's source (its stream group made first, as an application's deploy would), and the server it replays on.
  const [source, replay] = [useRedisServer(), useRedisServer()];
  let captured: CaptureResult;
  let text: string;

  before(async function () {
    this.timeout(60_000);
    await withRedis(source(), (redis) => redis.call('XGROUP', 'CREATE', STREAM, 'mailers', '$', 'MKSTREAM'));
    const traffic = startQueueTraffic(source());
    try {
      await sleep(300);
      captured = await captureWorkload(
        { host: source().host, port: source().port, resp: 2, connectTimeoutMs: 5000 },
        `redis://${source().host}:${source().port}`,
        { ...DEFAULT_CAPTURE, durationMs: 3000, monitor: 'on' },
      );
    } finally {
      await traffic.stop();
    }
    text = scenarioText(captured, buildWorkload(captured));
  });

  it('writes the stream queue: XGROUP CREATE in a prefill, producers XADD stamped, consumers XREADGROUP > then XACK __ids__; checks clean', () => {
    const plan = planOf(text);
    const phases = plan.points[0].phases;
    const create = phases.find((phase) => !phase.measured && phase.tests[0].commands[0].command.name === 'XGROUP');
    assert.ok(create, text);
    assert.match(text, CREATE);
    const [, stream, group] = CREATE.exec(text)!;
    const queue = phases.find((phase) => phase.groups?.some((g) => g.kind === 'consumers' && g.phase.tests[0].commands[0].command.name === 'XREADGROUP'));
    assert.ok(queue, text);
    const consumers = queue.groups!.find((g) => g.kind === 'consumers')!;
    assert.equal(consumers.phase.load.clients, 2, text);
    assert.ok(text.includes(`XREADGROUP GROUP ${group} c__client__ COUNT 10 BLOCK 500 STREAMS ${stream} >`), text);
    assert.ok(text.includes(`XACK ${stream} ${group} __ids__`), text);
    assert.match(text, new RegExp(`^(\\d+(\\.\\d+)?% )?XADD ${stream} \\* \\S+ __now__:`, 'm'), text);
    // The captured XACKs are the consumers' own: not written again as a key group's line.
    assert.equal(text.match(/^\s*XACK /gm)?.length, 2, text);
    assert.doesNotMatch(text, /Not reproduced: [^\n]*XREADGROUP/, text);
  });

  it('writes the sorted-set queue: ZADD members stamped with __now__, BZPOPMIN as captured', () => {
    assert.match(text, /^(\d+(\.\d+)?% )?ZADD fixed:\d+ \d+ __now__:/m, text);
    assert.match(text, /^BZPOPMIN fixed:\d+ 1$/m, text);
  });

  it('run on another server: jobs = XADDs, XPENDING 0 at the end, every read acked, wake-up latency measured for both queues', async () => {
    const before = await withRedis(replay(), async (redis) => ({ xadd: await commandCalls(redis, 'xadd'), zadd: await commandCalls(redis, 'zadd') }));
    const file = await runOnUserServer(replay(), text);
    assert.equal(file.status, 'complete', file.error);
    const loads = file.points[0].repeats[0];
    const [, stream, group] = CREATE.exec(text)!;
    const streamConsumer = loads.find((load) => load.consumer && load.commands[0].command.includes('XREADGROUP'))?.consumer;
    const zsetConsumer = loads.find((load) => load.consumer && load.commands[0].command.includes('BZPOPMIN'))?.consumer;
    assert.ok(streamConsumer && zsetConsumer, JSON.stringify(loads.map((l) => [l.phase, l.commands[0].command])));
    const after = await withRedis(replay(), async (redis) => ({
      xadd: await commandCalls(redis, 'xadd'),
      zadd: await commandCalls(redis, 'zadd'),
      // `cleanup` deletes the stream after the run (its group is created anew on the next): none of it is left.
      streamLeft: await redis.exists(stream),
      zcard: await redis.zcard(/^BZPOPMIN (fixed:\d+) 1$/m.exec(text)![1]),
    }));
    // A stream the SCAN sample caught is prefilled by XADD before the group is created at `$`: those are not jobs.
    const queueXadds = loads.filter((load) => load.measured && load.sent?.byLabel.XADD !== undefined).reduce((sum, load) => sum + load.sent!.byLabel.XADD, 0);
    assert.ok(queueXadds > 0 && after.xadd - before.xadd >= queueXadds, text);
    assert.equal(streamConsumer.jobs, queueXadds, 'every entry the producers appended was read');
    assert.equal(streamConsumer.acked, queueXadds, 'and acknowledged');
    assert.deepEqual(streamConsumer.queueLeft, [
      { key: stream, command: 'XLEN', length: streamConsumer.queueLeft[0].length },
      { key: stream, command: 'XPENDING', length: 0 },
    ]);
    assert.ok(text.includes(`XACK ${stream} ${group} __ids__`));
    assert.equal(after.streamLeft, 0, 'the stream is cleaned up after the run');
    assert.ok(streamConsumer.wakeUp.latency.count > 0, 'XADD stamps give a wake-up latency');
    // Each stamped member is new: every ZADD of the producers is a job (and the prefilled members too).
    const queueZadds = loads.filter((load) => load.measured && load.sent?.byLabel.ZADD !== undefined).reduce((sum, load) => sum + load.sent!.byLabel.ZADD, 0);
    assert.ok(queueZadds > 0 && zsetConsumer.jobs >= queueZadds, `${zsetConsumer.jobs} jobs for ${queueZadds} ZADDs`);
    assert.ok(zsetConsumer.wakeUp.latency.count > 0, 'ZADD members stamped: a wake-up latency');
    assert.equal(after.zcard, 0, 'the sorted set is drained');
  });

  it('--verify compares the producers, never the consumers: no XREADGROUP, XACK or BZPOPMIN rate', () => {
    const counters = sourceCounters({ capture: captured, workload: buildWorkload(captured) });
    assert.ok(counters.rates.has('XADD'));
    for (const name of ['XREADGROUP', 'XACK', 'BZPOPMIN']) assert.ok(!counters.rates.has(name), name);
  });
});

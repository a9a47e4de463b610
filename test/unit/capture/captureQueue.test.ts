// Issue 43 (capture reproduces blocking traffic): producers LPUSH while 2 clients BRPOP on a real server; the
// written scenario checks clean and replays them as a producer group and a consumer group (its timeout kept,
// its clients the clients that blocked), and run on a second server its consumers pop every job its producers
// push (LLEN 0 at the end). A BRPOP with no push captured on its keys stays "not reproduced", with the reason.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { captureWorkload } from '../../../src/capture/capture';
import { compareCaptures } from '../../../src/capture/fidelity';
import { scenarioText } from '../../../src/capture/scenarioText';
import { DEFAULT_CAPTURE, type CaptureResult } from '../../../src/capture/types';
import { replayRates, sourceCounters } from '../../../src/capture/verify';
import { buildWorkload } from '../../../src/capture/workload';
import { getSetLoop, startClientLoops, type ClientLoops } from '../../helpers/clientLoops';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';
import { planOf, runOnUserServer } from '../../helpers/userServerRun';

/** `producers` clients LPUSH onto `queue:jobs` (a push each 10 ms), `consumers` clients BRPOP it with a 1 s timeout, one client GETs and SETs. */
function startQueueTraffic(server: { host: string; port: number }, producers: number, consumers: number, queue = 'queue:jobs'): ClientLoops {
  return startClientLoops(server, producers + consumers + 1, (clients, running) => [
    ...clients.slice(0, producers).map(async (client, index) => {
      let n = 0;
      while (running()) {
        await client.lpush(queue, `job-${index}-${n++}-${'x'.repeat(40)}`).catch(() => undefined);
        await sleep(10);
      }
    }),
    ...clients.slice(producers, producers + consumers).map(async (client) => {
      // A refused call (not yet connected) waits a little: a loop of rejections would starve the timers.
      while (running()) await client.brpop(queue, 1).catch(() => sleep(10));
    }),
    getSetLoop(clients[producers + consumers], running),
  ]);
}

const capture = async (server: { host: string; port: number }, durationMs: number): Promise<CaptureResult> =>
  captureWorkload({ host: server.host, port: server.port, resp: 2, connectTimeoutMs: 5000 }, `redis://${server.host}:${server.port}`, {
    ...DEFAULT_CAPTURE,
    durationMs,
    monitor: 'on',
  });

describe('rbench capture reproduces blocking traffic as a job queue (issue 43)', function () {
  this.timeout(90_000);
  const source = useRedisServer();
  const replay = useRedisServer();
  let captured: CaptureResult;
  let text: string;

  before(async function () {
    this.timeout(60_000);
    const traffic = startQueueTraffic(source(), 2, 2);
    try {
      await sleep(300);
      captured = await capture(source(), 3000);
    } finally {
      await traffic.stop();
    }
    text = scenarioText(captured, buildWorkload(captured));
  });

  it('writes a producer group and a consumer group of the 2 clients that blocked, its BRPOP timeout kept, and checks clean', () => {
    const plan = planOf(text);
    // The queue's groups run in the traffic phase, beside the key groups (the GET/SET client's), as in the source.
    const queue = plan.points[0].phases.find((phase) => phase.name === 'traffic');
    assert.ok(queue, text);
    const groups = queue.groups ?? [];
    const consumers = groups.find((group) => group.kind === 'consumers');
    const producers = groups.find((group) => group.name === 'producers');
    assert.ok(
      groups.some((group) => group.name === 'keys' && group.phase.tests[0].commands.some((c) => c.command.name === 'GET')),
      text,
    );
    assert.ok(consumers && producers, text);
    assert.equal(consumers.phase.load.clients, 2, text);
    const pop = consumers.phase.tests[0].commands[0].command;
    assert.equal(pop.name, 'BRPOP');
    assert.match(text, /^BRPOP fixed:\d+ 1$/m);
    assert.deepEqual(
      producers.phase.tests[0].commands.map((c) => c.command.name),
      ['LPUSH'],
      text,
    );
    assert.ok(producers.phase.load.rate !== undefined && producers.phase.load.rate > 0, text);
    // The pushes are the queue's, not the key groups' too: LPUSH is written once per scenario.
    assert.equal(text.match(/^(\d+(\.\d+)?% )?LPUSH /gm)?.length, 2, text);
    assert.doesNotMatch(text, /Not reproduced: [^\n]*blocking/, text);
    assert.match(text, /# Job queue on fixed:\d+: BRPOP [\d.]+% from 2 clients, fed by LPUSH/, text);
  });

  it('run on another server, its consumers pop every job its producers push: jobs = pushes, LLEN 0 at the end', async () => {
    const before = await withRedis(replay(), async (redis) => ({ lpush: await commandCalls(redis, 'lpush'), rpush: await commandCalls(redis, 'rpush') }));
    const file = await runOnUserServer(replay(), text);
    assert.equal(file.status, 'complete', file.error);
    const loads = file.points[0].repeats[0];
    const consumer = loads.find((load) => load.consumer)?.consumer;
    assert.ok(consumer, JSON.stringify(loads.map((l) => l.phase)));
    const { lpush, rpush, llen, keys } = await withRedis(replay(), async (redis) => ({
      lpush: (await commandCalls(redis, 'lpush')) - before.lpush,
      rpush: (await commandCalls(redis, 'rpush')) - before.rpush,
      llen: await redis.llen(text.match(/^BRPOP (fixed:\d+) 1$/m)![1]),
      keys: await redis.keys('fixed:*'),
    }));
    assert.ok(lpush > 0, text);
    // A list the SCAN sample caught non-empty is prefilled by RPUSH: those elements are jobs too.
    const prefilled =
      rpush === 0 ? 0 : await withRedis(replay(), () => Promise.resolve(Number(/RPUSH fixed:\d+ __value__\*(\d+)/.exec(text)?.[1] ?? 1) * rpush));
    assert.equal(consumer.jobs, lpush + prefilled, 'every job pushed was popped');
    assert.equal(consumer.consumers, 2);
    assert.equal(llen, 0, `the queue is drained (keys left: ${keys.join(', ')})`);
    assert.ok(consumer.wakeUp.latency.count > 0, 'the stamped jobs give a wake-up latency');
    // --verify's replay rates: the queue phase's LPUSH counted once over the producers' window, not once per group.
    const producers = loads.find((load) => load.group?.name === 'producers')!;
    const rate = replayRates(file).get('LPUSH') ?? 0;
    assert.ok(Math.abs(rate - (lpush * 1000) / (producers.windowMs ?? producers.durationMs)) < 1e-6, `LPUSH ${rate}/s from ${lpush} calls`);
  });

  it('--verify compares the producers, never the consumers: no BRPOP rate, the pushes held to the source', () => {
    const workload = buildWorkload(captured);
    const counters = sourceCounters({ capture: captured, workload });
    assert.ok(counters.rates.has('LPUSH'));
    assert.ok(!counters.rates.has('BRPOP'), 'a consumer waits at the producers pace: its calls are not a rate to hold');
    const fidelity = compareCaptures({ capture: captured, workload }, { capture: captured, workload }, new Map([['BRPOP', 1000], ...counters.rates]));
    assert.ok(!fidelity.rows.some((row) => row.metric.startsWith('BRPOP')));
  });

  it('a BRPOP without a push on its keys stays "not reproduced", with the reason', async () => {
    const traffic = startQueueTraffic(source(), 0, 2, 'queue:idle');
    let idle: CaptureResult;
    try {
      await sleep(300);
      idle = await capture(source(), 1500);
    } finally {
      await traffic.stop();
    }
    const written = scenarioText(idle, buildWorkload(idle));
    planOf(written);
    assert.doesNotMatch(written, /^BRPOP /m);
    assert.doesNotMatch(written, /^load /m);
    assert.match(written, /# Not reproduced: [^\n]*blocking[^\n]*BRPOP [\d.]+% \(no LPUSH\/RPUSH\/LPUSHX\/RPUSHX on its keys was captured/, written);
  });
});

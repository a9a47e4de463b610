// Issue 43, Pub/Sub measured at the subscriber, on a real redis-server: a publisher group at a known rate and a
// subscriber group of 10 connections over 5 channels. Every delivery the publisher's PUBLISH replies promised is
// counted by the subscribers (Σ replies = published × 2 = delivered, nothing lost), each stamped message is in
// the publish→receive histogram once, the channels split evenly, the verdict does not judge the subscribers;
// a cancel mid-run ends with no subscriber connection left on the server; a publisher nobody hears is said so;
// the chat fan-out example runs as its comment says.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Redis from 'ioredis';
import { runScenario } from '../../../src/runner/runScenario';
import { runFileProblem } from '../../../src/results/runFileSchema';
import { resultRows } from '../../../src/results/rows';
import { runWarnings } from '../../../src/results/warnings';
import { checkText } from '../../../src/scenario';
import type { LoadResult } from '../../../src/engine/types';
import { planOf, runOnUserServer } from '../../helpers/userServerRun';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';
import { repoRoot } from '../scenario/helpers';

/** Connections of the server subscribed to something (CLIENT LIST's `sub` or `psub` above 0). */
async function subscribedClients(redis: Redis): Promise<number> {
  const list = (await redis.client('LIST')) as string;
  return list.split('\n').filter((line) => /\b(sub|psub|ssub)=[1-9]/.test(line)).length;
}

const byTest = (loads: LoadResult[], name: string) => loads.find((load) => load.test === name)!;

describe('Pub/Sub groups on a real server (issue 43)', function () {
  this.timeout(90_000);
  const server = useRedisServer();

  beforeEach(() => withRedis(server(), (redis) => redis.config('RESETSTAT')));

  it('1 publisher at 500/s for 1 s, 10 subscribers on 5 channels: delivered = Σ PUBLISH replies = published × 2, each in the latency histogram', async () => {
    const file = await runOnUserServer(
      server(),
      [
        '### fan-out',
        'duration 1s',
        'warmup 0s',
        'load publishers',
        'clients 1',
        'rate 500/s',
        'PUBLISH chat:__rand(1..5)__ __now__:__value__',
        'load subscribers',
        'clients 10',
        'SUBSCRIBE chat:__rand(1..5,sequential)__',
      ].join('\n') + '\n',
    );
    assert.equal(file.status, 'complete', file.error);
    assert.equal(runFileProblem(JSON.parse(JSON.stringify(file)), 'run'), undefined);
    const loads = file.points[0].repeats[0];
    const publishers = byTest(loads, 'publishers');
    const subscribers = byTest(loads, 'subscribers');
    const published = await withRedis(server(), (redis) => commandCalls(redis, 'publish'));
    assert.ok(published > 100, `${published} PUBLISH calls`);
    assert.equal(publishers.pubsub?.role, 'publisher');
    assert.equal(publishers.pubsub?.published, published, 'the publisher read a reply for every PUBLISH the server ran');
    assert.equal(publishers.pubsub?.expected, published * 2, 'each channel has exactly 2 subscribers: every reply was 2');
    assert.equal(publishers.pubsub?.unheard, 0);
    const pubsub = subscribers.pubsub!;
    assert.equal(pubsub.role, 'subscriber');
    assert.equal(pubsub.expected, published * 2);
    assert.equal(pubsub.delivered, published * 2, 'every promised delivery arrived');
    assert.equal(pubsub.lost, 0);
    assert.equal(pubsub.disconnected, 0);
    assert.equal(pubsub.clock, 'one-machine');
    // Each message once in the publish→receive histogram; a latency is never negative.
    assert.equal(subscribers.total.latency.count, pubsub.delivered);
    assert.equal(subscribers.total.requests, pubsub.delivered);
    assert.ok(subscribers.total.latency.minUs >= 0 && subscribers.total.latency.p50Us <= subscribers.total.latency.maxUs);
    // 5 channels, each heard by 2 subscribers: an even count each, adding up to the deliveries.
    const channels = pubsub.channels!;
    assert.deepEqual(Object.keys(channels).sort(), ['chat:1', 'chat:2', 'chat:3', 'chat:4', 'chat:5']);
    assert.equal(
      Object.values(channels).reduce((a, b) => a + b, 0),
      pubsub.delivered,
    );
    assert.ok(
      Object.values(channels).every((count) => count % 2 === 0),
      JSON.stringify(channels),
    );
    assert.equal(subscribers.bottleneck?.kind, 'undetermined');
    assert.match(subscribers.bottleneck!.why, /not judged/);
    assert.deepEqual(
      resultRows(file).map((row) => `${row.test} ${row.command} ${row.clients}`),
      ['publishers total 1', 'publishers PUBLISH 1', 'subscribers total 10', 'subscribers SUBSCRIBE 10'],
    );
    const lines = runWarnings(file);
    assert.ok(
      lines.includes(
        `subscribers: ${(published * 2).toLocaleString('en-US')} messages delivered (${Math.round(subscribers.total.opsPerSec).toLocaleString('en-US')}/s) of ${(published * 2).toLocaleString('en-US')} the publishers' PUBLISH replies promised, 0 lost`,
      ),
      lines.join('\n'),
    );
    assert.equal(await withRedis(server(), subscribedClients), 0, 'no subscriber connection left');
  });

  it('a cancel mid-run ends the run, and no subscriber connection is left on the server', async () => {
    const controller = new AbortController();
    const plan = planOf('### long\nduration 60s\nload publishers\nclients 1\nrate 100/s\nPUBLISH room __now__\nload subscribers\nclients 10\nSUBSCRIBE room\n');
    const { host, port } = server();
    const running = runScenario(plan, {
      connection: { host, port, resp: 2, connectTimeoutMs: 2000 },
      targetDisplay: `redis://${host}:${port}`,
      local: false,
      signal: controller.signal,
      source: '',
    });
    await withRedis(server(), async (redis) => {
      // Until the 10 subscribers are subscribed and the publisher has published.
      while ((await subscribedClients(redis)) < 10 || (await commandCalls(redis, 'publish')) < 5) await new Promise((resolve) => setTimeout(resolve, 20));
    });
    controller.abort();
    const file = await running;
    assert.equal(file.status, 'cancelled');
    await withRedis(server(), async (redis) => {
      let left = await subscribedClients(redis);
      for (let i = 0; i < 100 && left > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        left = await subscribedClients(redis);
      }
      assert.equal(left, 0, 'every subscriber connection was closed');
    });
  });

  it('subscribers the server disconnects (CLIENT KILL TYPE pubsub, as a slow subscriber past its output buffer limit) get a clear line; the run ends, what they heard is kept', async () => {
    const plan = planOf(
      '### killed\nduration 3s\nwarmup 0s\nload publishers\nclients 1\nrate 200/s\nPUBLISH room __now__\nload subscribers\nclients 4\nSUBSCRIBE room\n',
    );
    const { host, port } = server();
    const running = runScenario(plan, {
      connection: { host, port, resp: 2, connectTimeoutMs: 2000 },
      targetDisplay: `redis://${host}:${port}`,
      local: false,
      source: '',
    });
    const killed = await withRedis(server(), async (redis) => {
      while ((await subscribedClients(redis)) < 4 || (await commandCalls(redis, 'publish')) < 20) await new Promise((resolve) => setTimeout(resolve, 20));
      return Number(await redis.call('CLIENT', 'KILL', 'TYPE', 'pubsub'));
    });
    assert.equal(killed, 4);
    const file = await running;
    assert.equal(file.status, 'complete', file.error);
    const subscribers = byTest(file.points[0].repeats[0], 'subscribers');
    assert.equal(subscribers.pubsub?.disconnected, 4);
    assert.ok((subscribers.pubsub?.delivered ?? 0) >= 4 * 20, `${subscribers.pubsub?.delivered} delivered before the kill`);
    // After the kill nobody listens: the server delivers nothing more, PUBLISH replies 0 (unheard), and nothing it delivered was lost.
    assert.equal(subscribers.pubsub?.lost, 0);
    assert.ok((byTest(file.points[0].repeats[0], 'publishers').pubsub?.unheard ?? 0) > 0, 'messages after the kill reached nobody');
    assert.ok(
      runWarnings(file).includes(
        'subscribers: the server closed 4 of 4 subscriber connections during the run — a subscriber that falls behind is dropped past `client-output-buffer-limit pubsub`; what they received before is counted',
      ),
      runWarnings(file).join('\n'),
    );
  });

  for (const client of ['fast', 'ioredis']) {
    it(`a publisher sums its PUBLISH replies (${client} client): to a channel nobody hears they are 0, and the result says so`, async () => {
      const file = await runOnUserServer(server(), `### unheard\nclient ${client}\nrequests 200\nwarmup 0s\nPUBLISH nobody:listens __now__\n`);
      assert.equal(file.status, 'complete', file.error);
      const load = file.points[0].repeats[0][0];
      assert.deepEqual(load.pubsub, { role: 'publisher', published: 200, expected: 0, unheard: 200 });
      assert.ok(
        runWarnings(file).includes('PUBLISH: 200 of 200 messages reached no subscriber (PUBLISH replied 0): nobody listened on their channel'),
        runWarnings(file).join('\n'),
      );
    });
  }

  it('examples/chat-fanout.rbench (shortened with --var seconds=1): 10 subscribers, 2 per room, every delivery counted', async () => {
    const text = readFileSync(join(repoRoot(), 'examples', 'chat-fanout.rbench'), 'utf8');
    const resolved = checkText(text, { env: {}, vars: { seconds: '1' } });
    assert.deepEqual(resolved.diagnostics, []);
    const { host, port } = server();
    const file = await runScenario(resolved.scenarios[0], {
      connection: { host, port, resp: 2, connectTimeoutMs: 2000 },
      targetDisplay: `redis://${host}:${port}`,
      local: false,
      source: text,
    });
    assert.equal(file.status, 'complete', file.error);
    const loads = file.points[0].repeats[0];
    const published = byTest(loads, 'publishers').pubsub!.published!;
    const subscribers = byTest(loads, 'subscribers').pubsub!;
    assert.ok(published > 100);
    assert.equal(subscribers.delivered, published * 2, '2 subscribers per room');
    assert.equal(subscribers.lost, 0);
    assert.equal(Object.keys(subscribers.channels!).length, 5);
  });
});

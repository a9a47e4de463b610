// Issue 43, sharded Pub/Sub on a real Redis Cluster (3 masters), beyond the first subscription: the ioredis
// publisher sums its SPUBLISH replies as the fast one does (so the subscribers know what to expect and `lost` is
// counted), and a subscriber group follows a shard channel whose slot moves to another master mid-run (the old
// owner sends `sunsubscribe`; the group subscribes again at the new owner and says how often).
import assert from 'node:assert/strict';
import type Redis from 'ioredis';
import { runScenario } from '../../../src/runner/runScenario';
import { setTimeout as sleep } from 'node:timers/promises';
import { slotOf } from '../../../src/engine/cluster/slot';
import type { LoadResult } from '../../../src/engine/types';
import { pubsubLines } from '../../../src/results/pubsubLines';
import { useCluster, type TestCluster } from '../../helpers/cluster';
import { commandCalls } from '../../helpers/redis';
import { planOf } from '../../helpers/userServerRun';

function run(c: TestCluster, text: string) {
  return runScenario(planOf(text), {
    connection: { host: '127.0.0.1', port: c.nodes[0].port, resp: 2, connectTimeoutMs: 2000, cluster: true },
    targetDisplay: c.url,
    local: false,
    source: text,
  });
}

const byTest = (loads: LoadResult[], name: string) => loads.find((load) => load.test === name)!;

/** The master port serving `slot`, as `redis` sees the cluster. */
async function ownerOf(redis: Redis, slot: number): Promise<number> {
  const ranges = (await redis.cluster('SLOTS')) as unknown as [number, number, [string, number]][];
  return ranges.find(([first, last]) => slot >= first && slot <= last)![2][1];
}

async function nodeId(redis: Redis): Promise<string> {
  return String(await redis.cluster('MYID'));
}

/** Connections of a node subscribed to a shard channel (CLIENT LIST's `ssub` above 0). */
async function shardSubscribers(redis: Redis): Promise<number> {
  const list = (await redis.client('LIST')) as string;
  return list.split('\n').filter((line) => /\bssub=[1-9]/.test(line)).length;
}

describe('sharded Pub/Sub on a real Redis Cluster: the ioredis publisher, and slots that move (issue 43)', function () {
  this.timeout(90_000);
  const cluster = useCluster(3, 0);

  beforeEach(async () => {
    const c = cluster();
    await Promise.all(c.nodes.map((n) => c.client(n.port).config('RESETSTAT')));
  });

  it('client ioredis: the SPUBLISH replies are summed, delivered = Σ replies = published × 4, lost 0', async () => {
    const c = cluster();
    const text = [
      '### sharded',
      'cluster on',
      'client ioredis',
      'duration 1s',
      'warmup 0s',
      'load publishers',
      'clients 1',
      'rate 300/s',
      'SPUBLISH news:__rand(1..6)__ __now__:__value__',
      'load subscribers',
      'clients 4',
      'SSUBSCRIBE news:1 news:2 news:3 news:4 news:5 news:6',
    ].join('\n');
    const file = await run(c, text + '\n');
    assert.equal(file.status, 'complete', file.error);
    const loads = file.points[0].repeats[0];
    let published = 0;
    for (const node of c.nodes) published += await commandCalls(c.client(node.port), 'spublish');
    assert.ok(published > 100, `${published} SPUBLISH calls`);
    const publishers = byTest(loads, 'publishers');
    assert.equal(publishers.client, 'ioredis');
    assert.equal(publishers.pubsub?.published, published, 'a reply counted for every SPUBLISH the masters ran');
    assert.equal(publishers.pubsub?.expected, published * 4);
    const pubsub = byTest(loads, 'subscribers').pubsub!;
    assert.equal(pubsub.expected, published * 4, 'the subscribers were told what to expect');
    assert.equal(pubsub.delivered, published * 4);
    assert.equal(pubsub.lost, 0);
  });

  it("a shard channel's slot moves mid-run: the subscribers subscribe again at the new master, deliveries go on, Σ replies = delivered", async () => {
    const c = cluster();
    const slot = slotOf('news:1');
    const seed = c.client(c.nodes[0].port);
    const from = await ownerOf(seed, slot);
    const { masters } = await c.roles();
    const to = masters.find((port) => port !== from)!;
    const third = masters.find((port) => port !== from && port !== to)!;
    const [fromId, toId] = [await nodeId(c.client(from)), await nodeId(c.client(to))];
    const text = [
      '### moving',
      'cluster on',
      'duration 4s',
      'warmup 0s',
      'load publishers',
      'clients 1',
      'rate 200/s',
      'SPUBLISH news:1 __now__:__value__',
      'load subscribers',
      'clients 2',
      'SSUBSCRIBE news:1',
    ].join('\n');
    const running = run(c, text + '\n');
    // Until both subscribers listen on the slot's owner and it delivered some messages (bounded by a count of polls).
    let ready = false;
    for (let i = 0; i < 1000 && !ready; i++) {
      ready = (await shardSubscribers(c.client(from))) === 2 && (await commandCalls(c.client(from), 'spublish')) >= 50;
      if (!ready) await sleep(10);
    }
    assert.ok(ready, 'the subscribers subscribed and the publisher published before the move');
    // The slot (no keys in it) moves from its owner to another master; the old owner learns it last.
    await c.client(to).cluster('SETSLOT', slot, 'IMPORTING', fromId);
    await c.client(from).cluster('SETSLOT', slot, 'MIGRATING', toId);
    for (const port of [to, third, from]) await c.client(port).cluster('SETSLOT', slot, 'NODE', toId);
    const file = await running;
    assert.equal(file.status, 'complete', file.error);
    const loads = file.points[0].repeats[0];
    const before = await commandCalls(c.client(from), 'spublish');
    const after = await commandCalls(c.client(to), 'spublish');
    assert.ok(after >= 50, `the publisher went on at the new owner: ${after} SPUBLISH calls there`);
    assert.equal(await commandCalls(c.client(to), 'ssubscribe'), 2, 'each subscriber subscribed again at the new owner, once');
    const subscribers = byTest(loads, 'subscribers');
    const pubsub = subscribers.pubsub!;
    assert.equal(pubsub.resubscribed, 2);
    assert.equal(pubsub.disconnected, 0);
    assert.equal(pubsub.expected, byTest(loads, 'publishers').pubsub?.expected);
    assert.equal(pubsub.delivered, pubsub.expected, 'every delivery SPUBLISH replied was received');
    assert.equal(pubsub.lost, 0);
    assert.ok(pubsub.delivered! > before * 2, `deliveries after the move: ${pubsub.delivered} > 2 × ${before} made before it`);
    assert.ok(
      pubsubLines([subscribers]).some((line) => /2 shard channel subscriptions were made again at their slot's new master/.test(line)),
      'the group says how many re-subscriptions happened',
    );
  });

  it("the run's connection check counts a subscriber's connection per master: 40 × 6 channels (and a publisher) past the seed's maxclients is refused before any subscribes", async () => {
    const c = cluster();
    const seed = c.client(c.nodes[0].port);
    const [, maxclients] = (await seed.config('GET', 'maxclients')) as string[];
    await seed.config('SET', 'maxclients', '150');
    try {
      const text = [
        '### wide',
        'cluster on',
        'duration 1s',
        'load publishers',
        'clients 1',
        'rate 10/s',
        'SPUBLISH news:1 __now__',
        'load subscribers',
        'clients 40',
        'SSUBSCRIBE news:1 news:2 news:3 news:4 news:5 news:6',
      ].join('\n');
      const file = await run(c, text + '\n');
      assert.equal(file.status, 'failed');
      assert.match(file.error ?? '', /accepts 150 clients \(maxclients\) and has \d+ connected; this load needs 241/);
      for (const node of c.nodes) {
        assert.equal(await commandCalls(c.client(node.port), 'ssubscribe'), 0, `nothing subscribed on ${node.port}`);
        assert.equal(await commandCalls(c.client(node.port), 'spublish'), 0, `nothing published on ${node.port}`);
      }
    } finally {
      await seed.config('SET', 'maxclients', maxclients);
    }
  });
});

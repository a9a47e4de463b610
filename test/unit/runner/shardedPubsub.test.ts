// Issue 43, sharded Pub/Sub on a real Redis Cluster (3 masters): a SPUBLISH publisher at a known rate on 6
// channels spread over the masters, and SSUBSCRIBE subscribers, each shard channel subscribed on the master
// that owns its slot. Every delivery the publisher's SPUBLISH replies promised is counted by the subscribers
// (delivered = Σ replies = published × subscribers per channel), each master ran exactly the SPUBLISH calls
// RBench routed to it; plain SUBSCRIBE hears PUBLISH through any node; a cancel leaves no subscriber connection.
// The ioredis publisher sums its SPUBLISH replies as the fast one does; a subscriber group follows a shard channel
// whose slot moves to another master mid-run (the old owner sends `sunsubscribe`: the group subscribes again at the
// new owner and says how often); the run's connection check counts a subscriber's connection per master.
import assert from 'node:assert/strict';
import type Redis from 'ioredis';
import { runScenario } from '../../../src/runner/runScenario';
import { slotOf } from '../../../src/engine/cluster/slot';
import type { LoadResult } from '../../../src/engine/types';
import { useCluster, type TestCluster } from '../../helpers/cluster';
import { commandCalls } from '../../helpers/redis';
import { planOf } from '../../helpers/userServerRun';
import { pubsubLines } from '../../../src/results/pubsubLines';
import { setTimeout as sleep } from 'node:timers/promises';

const CHANNELS = ['news:1', 'news:2', 'news:3', 'news:4', 'news:5', 'news:6'];

/** Connections of a node subscribed to something (CLIENT LIST's `sub`, `psub` or `ssub` above 0). */
async function subscribedClients(redis: Redis): Promise<number> {
  const list = (await redis.client('LIST')) as string;
  return list.split('\n').filter((line) => /\b(sub|psub|ssub)=[1-9]/.test(line)).length;
}

function run(c: TestCluster, text: string, signal?: AbortSignal) {
  return runScenario(planOf(text), {
    connection: { host: '127.0.0.1', port: c.nodes[0].port, resp: 2, connectTimeoutMs: 2000, cluster: true },
    targetDisplay: c.url,
    local: false,
    source: text,
    ...(signal ? { signal } : {}),
  });
}

/** Per master port, the channels of CHANNELS whose slot it serves. */
async function channelsByMaster(c: TestCluster): Promise<Map<number, string[]>> {
  const ranges = (await c.client(c.nodes[0].port).cluster('SLOTS')) as unknown as [number, number, [string, number]][];
  const owners = new Map<number, string[]>();
  for (const channel of CHANNELS) {
    const slot = slotOf(channel);
    const port = ranges.find(([first, last]) => slot >= first && slot <= last)![2][1];
    owners.set(port, [...(owners.get(port) ?? []), channel]);
  }
  return owners;
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

describe('sharded Pub/Sub on a real Redis Cluster (issue 43)', function () {
  this.timeout(90_000);
  const cluster = useCluster(3, 0);

  beforeEach(async () => {
    const c = cluster();
    await Promise.all(c.nodes.map((n) => c.client(n.port).config('RESETSTAT')));
  });

  const cases = [
    { subscribers: 'clients 6\nSSUBSCRIBE news:1 news:2 news:3 news:4 news:5 news:6', perChannel: 6, connections: 18 },
    { subscribers: 'clients 12\nSSUBSCRIBE news:__rand(1..6,sequential)__', perChannel: 2, connections: 12 },
  ];
  for (const { subscribers, perChannel, connections } of cases) {
    it(`SPUBLISH at 300/s, ${subscribers.split('\n')[1]}: delivered = Σ SPUBLISH replies = published × ${perChannel}; each master ran what was routed to it`, async () => {
      const c = cluster();
      const text = [
        '### sharded',
        'cluster on',
        'duration 1s',
        'warmup 0s',
        'load publishers',
        'clients 1',
        'rate 300/s',
        'SPUBLISH news:__rand(1..6)__ __now__:__value__',
        'load subscribers',
        subscribers,
      ].join('\n');
      const file = await run(c, text + '\n');
      assert.equal(file.status, 'complete', file.error);
      const loads = file.points[0].repeats[0];
      const publishers = byTest(loads, 'publishers');
      const listeners = byTest(loads, 'subscribers');
      const owners = await channelsByMaster(c);
      assert.equal(owners.size, 3, `the 6 channels lie on all 3 masters: ${JSON.stringify([...owners])}`);
      const calls = new Map<number, number>();
      for (const port of owners.keys()) calls.set(port, await commandCalls(c.client(port), 'spublish'));
      const published = [...calls.values()].reduce((a, b) => a + b, 0);
      assert.ok(published > 100, `${published} SPUBLISH calls`);
      for (const [port, count] of calls) assert.ok(count > 0, `master ${port} ran no SPUBLISH`);
      // What RBench routed to each master is what that master ran.
      for (const node of publishers.cluster!.nodes) {
        const port = Number(node.node.slice(node.node.lastIndexOf(':') + 1));
        assert.equal(node.total.requests, calls.get(port) ?? 0, `SPUBLISH routed to ${node.node}`);
      }
      assert.equal(publishers.pubsub?.role, 'publisher');
      assert.equal(publishers.pubsub?.published, published, 'a reply counted for every SPUBLISH the masters ran');
      assert.equal(publishers.pubsub?.expected, published * perChannel, `every reply was ${perChannel}`);
      assert.equal(publishers.pubsub?.unheard, 0);
      const pubsub = listeners.pubsub!;
      assert.equal(pubsub.expected, published * perChannel);
      assert.equal(pubsub.delivered, published * perChannel, 'every promised delivery arrived');
      assert.equal(pubsub.lost, 0);
      assert.equal(pubsub.disconnected, 0);
      assert.equal(listeners.connections?.opened, connections, 'a connection per master each subscriber needs');
      assert.equal(listeners.total.latency.count, pubsub.delivered);
      assert.deepEqual(Object.keys(pubsub.channels!).sort(), CHANNELS);
      for (const port of owners.keys()) assert.equal(await subscribedClients(c.client(port)), 0, `no subscriber left on ${port}`);
    });
  }

  it('plain SUBSCRIBE on a cluster: one connection to one master hears PUBLISH sent through any node', async () => {
    const c = cluster();
    const text = [
      '### broadcast',
      'cluster on',
      'duration 1s',
      'warmup 0s',
      'load publishers',
      'clients 1',
      'rate 200/s',
      'PUBLISH room:__rand(1..3)__ __now__',
      'load subscribers',
      'clients 6',
      'SUBSCRIBE room:__rand(1..3,sequential)__',
    ].join('\n');
    const file = await run(c, text + '\n');
    assert.equal(file.status, 'complete', file.error);
    const listeners = byTest(file.points[0].repeats[0], 'subscribers');
    let published = 0;
    for (const node of c.nodes) published += await commandCalls(c.client(node.port), 'publish');
    assert.ok(published > 50, `${published} PUBLISH calls`);
    assert.equal(listeners.connections?.opened, 6);
    // PUBLISH's reply counts the receiving node's subscribers only: no promise is summed, the count is exact still.
    assert.equal(listeners.pubsub?.expected, undefined);
    assert.equal(listeners.pubsub?.delivered, published * 2);
  });

  it('a SPUBLISH publisher beside a PUBLISH one (which cannot count on a cluster): no partial promise, the SUBSCRIBE subscribers drain to the end', async () => {
    const c = cluster();
    const text = [
      '### mixed',
      'cluster on',
      'duration 1s',
      'warmup 0s',
      'load shard',
      'clients 1',
      'rate 100/s',
      'SPUBLISH news:1 __now__',
      'load broadcast',
      'clients 1',
      'rate 200/s',
      'PUBLISH room __now__',
      'load subscribers',
      'clients 3',
      'SUBSCRIBE room',
    ].join('\n');
    const file = await run(c, text + '\n');
    assert.equal(file.status, 'complete', file.error);
    const loads = file.points[0].repeats[0];
    let published = 0;
    for (const node of c.nodes) published += await commandCalls(c.client(node.port), 'publish');
    assert.ok(published > 50, `${published} PUBLISH calls`);
    assert.equal(byTest(loads, 'shard').pubsub?.expected, 0, 'nobody listens on news:1: SPUBLISH counted, every reply 0');
    assert.equal(byTest(loads, 'broadcast').pubsub, undefined, 'PUBLISH on a cluster is not summed');
    const listeners = byTest(loads, 'subscribers');
    assert.equal(listeners.pubsub?.expected, undefined, "the shard publisher's 0 is not taken for every publisher's promise");
    assert.equal(listeners.pubsub?.delivered, published * 3);
  });

  it('a cancel mid-run ends it, and no subscriber connection is left on any master', async () => {
    const c = cluster();
    const controller = new AbortController();
    const text =
      '### long\ncluster on\nduration 60s\nload publishers\nclients 1\nrate 100/s\nSPUBLISH news:__rand(1..6)__ __now__\nload subscribers\nclients 4\nSSUBSCRIBE news:1 news:2 news:3 news:4 news:5 news:6\n';
    const running = run(c, text, controller.signal);
    const owners = [...(await channelsByMaster(c)).keys()];
    const subscribed = async () => (await Promise.all(owners.map((port) => subscribedClients(c.client(port))))).reduce((a, b) => a + b, 0);
    const spublished = async () => (await Promise.all(owners.map((port) => commandCalls(c.client(port), 'spublish')))).reduce((a, b) => a + b, 0);
    // Until the 4 subscribers hold their 12 connections (4 × 3 masters) and the publisher has published.
    let ready = false;
    for (let i = 0; i < 2000 && !ready; i++) {
      ready = (await subscribed()) >= 12 && (await spublished()) >= 5;
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    controller.abort();
    assert.ok(ready, 'the subscribers subscribed on every master and the publisher published');
    const file = await running;
    assert.equal(file.status, 'cancelled');
    let left = await subscribed();
    for (let i = 0; i < 100 && left > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      left = await subscribed();
    }
    assert.equal(left, 0, 'every subscriber connection was closed');
  });

  it('client ioredis: the SPUBLISH replies are summed, delivered = Σ replies = published × 4, lost 0', async () => {
    const c = cluster();
    const text =
      '### sharded\ncluster on\nclient ioredis\nduration 1s\nwarmup 0s\nload publishers\nclients 1\nrate 300/s\nSPUBLISH news:__rand(1..6)__ __now__:__value__\nload subscribers\nclients 4\nSSUBSCRIBE news:1 news:2 news:3 news:4 news:5 news:6';
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
    const text =
      '### moving\ncluster on\nduration 4s\nwarmup 0s\nload publishers\nclients 1\nrate 200/s\nSPUBLISH news:1 __now__:__value__\nload subscribers\nclients 2\nSSUBSCRIBE news:1';
    const running = run(c, text + '\n');
    // Until both subscribers listen on the slot's owner and it delivered some messages (bounded by a count of polls).
    let ready = false;
    for (let i = 0; i < 1000 && !ready; i++) {
      ready = (await subscribedClients(c.client(from))) === 2 && (await commandCalls(c.client(from), 'spublish')) >= 50;
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
      const text =
        '### wide\ncluster on\nduration 1s\nload publishers\nclients 1\nrate 10/s\nSPUBLISH news:1 __now__\nload subscribers\nclients 40\nSSUBSCRIBE news:1 news:2 news:3 news:4 news:5 news:6';
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

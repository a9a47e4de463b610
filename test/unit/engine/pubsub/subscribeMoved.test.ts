// Issue 43, a MOVED at subscribe time (sharded Pub/Sub on a real 3-master Redis Cluster). The subscriber group reads
// the slot map, then (the test seam `beforeSubscribe`) the channel's slot moves with CLUSTER SETSLOT before any
// SSUBSCRIBE is written: each SSUBSCRIBE meets a real MOVED from the old owner, the group follows it once, and the
// subscriptions land at the new owner, which then delivers every message published there. A second MOVED (the slot
// moved again while the first was followed) ends the group with one plain message, and leaves no connection.
import assert from 'node:assert/strict';
import type Redis from 'ioredis';
import { runSubscribers } from '../../../../src/engine';
import { LoadError } from '../../../../src/engine/errors';
import { slotOf } from '../../../../src/engine/cluster/slot';
import { useCluster, type TestCluster } from '../../../helpers/cluster';
import { phase, singleTest, connectionTo } from '../plans';
import { seedOf } from '../clusterChecks';

const CLIENTS = 3;
const PUBLISHED = 100;

/** The master port serving `slot`, as `redis` sees the cluster. */
async function ownerOf(redis: Redis, slot: number): Promise<number> {
  const ranges = (await redis.cluster('SLOTS')) as unknown as [number, number, [string, number]][];
  return ranges.find(([first, last]) => slot >= first && slot <= last)![2][1];
}

/** Moves `slot` (no keys in it) from master `from` to master `to`, every master told; the old owner learns it last. */
async function moveSlot(c: TestCluster, slot: number, from: number, to: number): Promise<void> {
  const [fromId, toId] = [String(await c.client(from).cluster('MYID')), String(await c.client(to).cluster('MYID'))];
  const { masters } = await c.roles();
  await c.client(to).cluster('SETSLOT', slot, 'IMPORTING', fromId);
  await c.client(from).cluster('SETSLOT', slot, 'MIGRATING', toId);
  for (const port of [to, ...masters.filter((p) => p !== from && p !== to), from]) await c.client(port).cluster('SETSLOT', slot, 'NODE', toId);
}

/** `field` of `command`'s line in INFO commandstats (calls, rejected_calls…), 0 when the command never came. */
async function commandStat(redis: Redis, command: string, field: string): Promise<number> {
  const stats = (await redis.info('commandstats')) as string;
  const line = stats.split('\r\n').find((l) => l.startsWith(`cmdstat_${command}:`));
  return Number(new RegExp(`\\b${field}=(\\d+)`).exec(line ?? '')?.[1] ?? 0);
}

/** Connections of a node subscribed to a shard channel (CLIENT LIST's `ssub` above 0). */
async function shardSubscribers(redis: Redis): Promise<number> {
  const list = (await redis.client('LIST')) as string;
  return list.split('\n').filter((line) => /\bssub=[1-9]/.test(line)).length;
}

function request(c: TestCluster, channel: string) {
  const plan = phase({ test: singleTest(`SSUBSCRIBE ${channel}`), load: { clients: CLIENTS } });
  return { phase: plan, test: plan.tests[0], connection: connectionTo(seedOf(c), { cluster: true }) };
}

/** Three masters: `from` owns `slot` now, `to` and `third` the other two. */
async function mastersAround(c: TestCluster, slot: number): Promise<{ from: number; to: number; third: number }> {
  const from = await ownerOf(c.client(c.nodes[0].port), slot);
  const { masters } = await c.roles();
  const [to, third] = masters.filter((port) => port !== from);
  return { from, to, third };
}

describe('sharded Pub/Sub: a MOVED at subscribe time (real 3-master cluster)', function () {
  this.timeout(90_000);
  const cluster = useCluster(3, 0);

  beforeEach(async () => {
    const c = cluster();
    await Promise.all(c.nodes.map((n) => c.client(n.port).config('RESETSTAT')));
  });

  it('the slot moves after the map was read: each SSUBSCRIBE follows one MOVED, lands at the new owner, and hears every message', async () => {
    const c = cluster();
    const channel = 'moved:news';
    const slot = slotOf(channel);
    const { from, to } = await mastersAround(c, slot);
    const seams: number[] = [];
    let published: (count: number) => void = () => {};
    const publishersDone = new Promise<number | undefined>((resolve) => (published = resolve));
    const stop = new AbortController();
    const running = runSubscribers(request(c, channel), {
      publishersDone,
      signal: stop.signal,
      beforeSubscribe: async (redirects) => {
        seams.push(redirects);
        if (redirects === 0) await moveSlot(c, slot, from, to);
      },
    });
    let heard = false;
    try {
      // Every subscriber heard at the new owner (bounded by a count of polls), then the publisher there.
      let listening = 0;
      for (let i = 0; i < 1000 && listening < CLIENTS; i++) {
        listening = Number(((await c.client(to).call('PUBSUB', 'SHARDNUMSUB', channel)) as [string, number])[1]);
        if (listening < CLIENTS) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(listening, CLIENTS, 'every subscriber subscribed at the new owner');
      assert.deepEqual(await c.client(to).call('PUBSUB', 'SHARDCHANNELS'), [channel]);
      assert.deepEqual(await c.client(from).call('PUBSUB', 'SHARDCHANNELS'), [], 'nothing subscribed at the old owner');
      let receivers = 0;
      for (let i = 0; i < PUBLISHED; i++) receivers += Number(await c.client(to).call('SPUBLISH', channel, `m${i}`));
      assert.equal(receivers, PUBLISHED * CLIENTS);
      published(receivers);
      heard = true;
    } finally {
      // A failed assertion above must not leave the group listening.
      if (!heard) stop.abort();
    }
    const result = await running;

    assert.equal(result.status, 'complete', result.error);
    assert.deepEqual(seams, [0, ...Array<number>(CLIENTS).fill(1)], 'the map read once, one MOVED followed per subscriber');
    assert.equal(await commandStat(c.client(from), 'ssubscribe', 'rejected_calls'), CLIENTS, 'each SSUBSCRIBE met the MOVED once');
    assert.equal(await commandStat(c.client(from), 'ssubscribe', 'calls'), 0);
    assert.equal(await commandStat(c.client(to), 'ssubscribe', 'calls'), CLIENTS, 'and subscribed at the new owner once');
    const pubsub = result.pubsub!;
    assert.equal(pubsub.resubscribed, CLIENTS);
    assert.equal(pubsub.delivered, PUBLISHED * CLIENTS, 'delivered = published × subscribers');
    assert.equal(pubsub.expected, PUBLISHED * CLIENTS);
    assert.equal(pubsub.lost, 0);
    assert.equal(pubsub.disconnected, 0);
  });

  it('the slot moves again while the MOVED is followed: the group ends with one plain message, and no subscriber stays connected', async () => {
    const c = cluster();
    const channel = 'moving:news';
    const slot = slotOf(channel);
    const { from, to, third } = await mastersAround(c, slot);
    let movedAgain: Promise<void> | undefined;
    const stop = new AbortController();
    const running = runSubscribers(request(c, channel), {
      publishersDone: new Promise(() => {}),
      signal: stop.signal,
      beforeSubscribe: async (redirects) => {
        if (redirects === 0) await moveSlot(c, slot, from, to);
        // Every follow waits for the one second move: each re-subscribe meets it.
        else await (movedAgain ??= moveSlot(c, slot, to, third));
      },
    });
    // A group that does not fail must not hold the test: stopped once it has had ample time (a count of polls).
    let settled = false;
    running.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (let i = 0; i < 1000 && !settled; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    stop.abort();
    await assert.rejects(running, (error: Error) => {
      assert.ok(error instanceof LoadError, String(error));
      assert.match(
        error.message,
        new RegExp(
          `^subscriber group SSUBSCRIBE: SSUBSCRIBE ${channel} was redirected a second time \\(MOVED to 127\\.0\\.0\\.1:${third} after following one MOVED\\): ` +
            "the channel's slot is still moving — run again once the cluster's resharding has settled$",
        ),
      );
      return true;
    });
    assert.ok((await commandStat(c.client(to), 'ssubscribe', 'rejected_calls')) >= 1, 'the new owner answered MOVED');
    assert.equal(await commandStat(c.client(third), 'ssubscribe', 'calls'), 0, 'the second MOVED was not followed');
    for (const node of c.nodes) {
      for (let i = 0; i < 100 && (await shardSubscribers(c.client(node.port))) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(await shardSubscribers(c.client(node.port)), 0, `no subscriber left on ${node.port}`);
    }
  });
});

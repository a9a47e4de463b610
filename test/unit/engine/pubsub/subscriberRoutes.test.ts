// Where a subscriber's subscriptions go (issue 43, sharded Pub/Sub): on a cluster, each shard channel on the
// master that owns its slot, one command per slot (a command's shard channels must share one, else CROSSSLOT);
// SUBSCRIBE on one master, the subscribers spread over them; one server: one connection, one command. And
// `check` lets an SSUBSCRIBE line list channels of several slots on a cluster, since the engine splits it.
import assert from 'node:assert/strict';
import type { ClusterTopology } from '../../../../src/redis/clusterTopology';
import { slotOf } from '../../../../src/engine/cluster/slot';
import { subscriberRoutes } from '../../../../src/engine/pubsub/subscriberRoutes';
import { checkText } from '../../../../src/scenario';

const topology: ClusterTopology = {
  nodes: [
    { host: '10.0.0.1', port: 7000, role: 'master' },
    { host: '10.0.0.2', port: 7001, role: 'master' },
    { host: '10.0.0.3', port: 7002, role: 'master' },
    { host: '10.0.0.4', port: 7003, role: 'replica', master: 0 },
  ],
  slots: [
    [0, 5460, 0],
    [5461, 10922, 1],
    [10923, 16383, 2],
  ],
};

const portOfSlot = (slot: number) => (slot <= 5460 ? 7000 : slot <= 10922 ? 7001 : 7002);

describe('subscriberRoutes: where a subscriber subscribes', () => {
  it('one server: one connection, one command with every channel', () => {
    assert.deepEqual(subscriberRoutes('SSUBSCRIBE', ['a', 'b'], 3), [{ commands: [['SSUBSCRIBE', 'a', 'b']], confirmations: 2 }]);
  });

  it('a cluster, SSUBSCRIBE: each channel on its slot’s master, a command per slot, never on a replica', () => {
    const channels = ['news:1', 'news:2', 'news:3', 'news:4', 'news:5', 'news:6', '{news:1}x'];
    const routes = subscriberRoutes('SSUBSCRIBE', channels, 0, topology);
    const masters = new Set(channels.map((channel) => portOfSlot(slotOf(channel))));
    assert.equal(routes.length, masters.size, 'a connection per master the channels need');
    let confirmations = 0;
    for (const route of routes) {
      assert.equal(route.node?.role, 'master');
      const seen = new Set<number>();
      for (const [name, ...listed] of route.commands) {
        assert.equal(name, 'SSUBSCRIBE');
        const slots = new Set(listed.map(slotOf));
        assert.equal(slots.size, 1, `one slot per command: ${listed.join(' ')}`);
        const slot = [...slots][0];
        assert.ok(!seen.has(slot), 'a slot in one command');
        seen.add(slot);
        assert.equal(portOfSlot(slot), route.node!.port);
      }
      confirmations += route.confirmations;
    }
    assert.equal(confirmations, channels.length);
    // news:1 and {news:1}x share a slot: one command lists both.
    const shared = routes.flatMap((route) => route.commands).find((command) => command.includes('news:1'))!;
    assert.deepEqual(shared, ['SSUBSCRIBE', 'news:1', '{news:1}x']);
  });

  it('a cluster, SUBSCRIBE and PSUBSCRIBE: one connection to one master, subscriber c on master c mod 3', () => {
    const ports = [0, 1, 2, 3].map((client) => subscriberRoutes('SUBSCRIBE', ['room:1', 'room:2'], client, topology));
    assert.deepEqual(
      ports.map((routes) => routes.map((route) => `${route.node?.port} ${route.commands.map((c) => c.join(' ')).join('|')} ${route.confirmations}`)),
      [['7000 SUBSCRIBE room:1 room:2 2'], ['7001 SUBSCRIBE room:1 room:2 2'], ['7002 SUBSCRIBE room:1 room:2 2'], ['7000 SUBSCRIBE room:1 room:2 2']],
    );
    assert.equal(subscriberRoutes('PSUBSCRIBE', ['room:*'], 1, topology)[0].node?.port, 7001);
  });

  it('`check` on a cluster: an SSUBSCRIBE line may list channels of several slots; SPUBLISH stays one key', () => {
    const text = [
      '### s',
      'cluster on',
      'duration 1s',
      'load publishers',
      'rate 10/s',
      'SPUBLISH news:__rand(1..6)__ __now__',
      'load subscribers',
      'clients 2',
      'SSUBSCRIBE news:1 news:2 news:3',
    ].join('\n');
    const errors = checkText(text + '\n', { env: {} }).diagnostics.filter((d) => d.severity === 'error');
    assert.deepEqual(
      errors.map((d) => d.message),
      [],
    );
    const mget = checkText('### c\ncluster on\nrequests 10\nMGET a b\n', { env: {} }).diagnostics.filter((d) => d.code === 'cluster-cross-slot');
    assert.equal(mget.length, 1, 'other multi-key commands are still refused');
  });
});

// The reply parsers the network gate reads addresses from (CLUSTER SHARDS/SLOTS, SENTINEL) treat the
// server's words as data: field names such as __proto__ or constructor change no object of the process,
// and a reply that is no layout is refused with a plain message, never read half-way.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { topologyFromShards, topologyFromSlots } from '../../../src/redis/clusterTopology';
import { primaryDownAfterMs } from '../../../src/redis/sentinel';
import { startFakeRedis, type FakeReply } from '../../helpers/fakeRedis';

const seed = { host: '10.0.0.5', port: 7000, resp: 2 as const, connectTimeoutMs: 1000 };
const hostileNames = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isAdmin', 'passwordEnv'];

function prototypeSnapshot(): string {
  return JSON.stringify([Object.getOwnPropertyNames(Object.prototype).sort(), Object.getOwnPropertyNames(Array.prototype).sort(), Object.keys({})]);
}

describe('network gate: hostile replies to the layout and sentinel parsers', () => {
  const value: fc.Arbitrary<FakeReply> = fc.letrec<{ v: FakeReply }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom<FakeReply>(...hostileNames),
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.array(tie('v'), { maxLength: 4 }),
    ),
  })).v;
  const node = fc
    .array(fc.tuple(fc.constantFrom('id', 'port', 'ip', 'endpoint', 'role', 'health', 'hostname', 'tls-port', ...hostileNames), value), { maxLength: 8 })
    .map((pairs) => pairs.flat());
  const shard = fc
    .tuple(fc.array(fc.tuple(fc.constantFrom('slots', 'nodes', ...hostileNames), fc.oneof(value, fc.array(node, { maxLength: 3 }))), { maxLength: 4 }))
    .map(([pairs]) => pairs.flat());

  it('CLUSTER SHARDS and CLUSTER SLOTS: no global object changes; a layout or a plain refusal', () => {
    const before = prototypeSnapshot();
    fc.assert(
      fc.property(fc.array(shard, { maxLength: 4 }), fc.array(value, { maxLength: 4 }), (shards, slots) => {
        for (const read of [
          () => topologyFromShards(shards as Parameters<typeof topologyFromShards>[0], seed),
          () => topologyFromSlots(slots as Parameters<typeof topologyFromSlots>[0], seed),
        ]) {
          try {
            const topology = read();
            for (const n of topology.nodes) {
              assert.equal(typeof n.host, 'string');
              assert.ok(Number.isInteger(n.port) && n.port >= 1 && n.port <= 65535, `port ${n.port}`);
              assert.deepEqual(
                Object.keys(n).filter((k) => !['host', 'port', 'role', 'master', 'hostname', 'seed'].includes(k)),
                [],
              );
            }
            for (const [first, last] of topology.slots) assert.ok(first >= 0 && first <= last && last <= 16383);
          } catch (error) {
            // Only the parser's own refusal, with the reply's words as data.
            assert.equal((error as Error).constructor.name, 'LayoutError', (error as Error).stack);
          }
        }
        assert.equal(prototypeSnapshot(), before);
        assert.equal(({} as Record<string, unknown>).isAdmin, undefined);
      }),
    );
  });

  it("a sentinel's SENTINEL MASTER reply with prototype names: read as pairs, nothing else changes", async () => {
    const before = prototypeSnapshot();
    const fake = await startFakeRedis('127.0.0.1', {
      answer: (args) =>
        args[0].toUpperCase() === 'SENTINEL' ? ['__proto__', 'polluted', 'constructor', 'x', 'down-after-milliseconds', '5000', 'toString', '1'] : undefined,
    });
    try {
      const options = {
        host: fake.host,
        port: fake.port,
        resp: 2 as const,
        connectTimeoutMs: 1000,
        sentinel: { name: 'mymaster', nodes: [{ host: fake.host, port: fake.port }] },
      };
      assert.equal(await primaryDownAfterMs(options), 5000);
    } finally {
      await fake.close();
    }
    assert.equal(prototypeSnapshot(), before);
  });
});

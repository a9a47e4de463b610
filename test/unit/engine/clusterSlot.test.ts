import assert from 'node:assert/strict';
import { parseRedirect } from '../../../src/engine/cluster/clusterState';
import { scanRequest } from '../../../src/engine/fast/request';
import { slotOf } from '../../../src/engine/cluster/slot';
import { topologyFromShards, topologyFromSlots } from '../../../src/redis/clusterTopology';
import { encodeRespCommand } from '../../../src/protocol/respEncode';
import { keysBySlot } from '../../../src/runner/clusterNodes';

describe('cluster hash slots and routing helpers', () => {
  it('hashes keys as Redis does (CLUSTER KEYSLOT values), a non-empty {tag} pins the slot', () => {
    assert.equal(slotOf('foo'), 12182);
    assert.equal(slotOf('123456789'), 12739);
    assert.equal(slotOf('{user1000}.following'), slotOf('user1000'));
    assert.equal(slotOf('{user1000}.followers'), slotOf('{user1000}.following'));
    // An empty tag does not count: the whole key is hashed.
    assert.equal(slotOf('foo{}{bar}'), 8363);
    assert.equal(slotOf('foo{{bar}}zap'), slotOf('{bar'));
  });

  it('finds each encoded request and its key argument', () => {
    const bytes = Buffer.concat([encodeRespCommand(['SET', 'key:1', 'value']), encodeRespCommand(['GET', '{t}:2'])]);
    const bounds = new Int32Array(2);
    const first = scanRequest(bytes, 0, 1, bounds);
    assert.equal(bytes.subarray(bounds[0], bounds[1]).toString(), 'key:1');
    assert.equal(scanRequest(bytes, first, 1, bounds), bytes.length);
    assert.equal(bytes.subarray(bounds[0], bounds[1]).toString(), '{t}:2');
  });

  it('reads MOVED/ASK replies, also with IPv6 hosts and empty hosts', () => {
    assert.deepEqual(parseRedirect('MOVED 3999 127.0.0.1:6381'), { kind: 'MOVED', slot: 3999, host: '127.0.0.1', port: 6381 });
    assert.deepEqual(parseRedirect('ASK 1 [::1]:7000'), { kind: 'ASK', slot: 1, host: '::1', port: 7000 });
    assert.deepEqual(parseRedirect('MOVED 5 :7001'), { kind: 'MOVED', slot: 5, host: '', port: 7001 });
    assert.equal(parseRedirect('ERR wrong'), undefined);
  });

  it('reads CLUSTER SHARDS and CLUSTER SLOTS into the same layout; failed replicas left out', () => {
    const seed = { host: '10.0.0.1', port: 7000, resp: 2 as const, connectTimeoutMs: 1000 };
    const node = (port: number, role: string, health = 'online') => [
      'id',
      `n${port}`,
      'port',
      port,
      'ip',
      '10.0.0.1',
      'endpoint',
      '10.0.0.1',
      'role',
      role,
      'health',
      health,
    ];
    const shards = [
      ['slots', [0, 8191], 'nodes', [node(7000, 'master'), node(7002, 'replica'), node(7004, 'replica', 'failed')]],
      ['slots', [8192, 16383], 'nodes', [node(7001, 'master')]],
    ];
    const slots = [
      [0, 8191, ['10.0.0.1', 7000, 'n7000'], ['10.0.0.1', 7002, 'n7002']],
      [8192, 16383, ['10.0.0.1', 7001, 'n7001']],
    ];
    const expected = {
      nodes: [
        { host: '10.0.0.1', port: 7000, role: 'master' },
        { host: '10.0.0.1', port: 7002, role: 'replica', master: 0 },
        { host: '10.0.0.1', port: 7001, role: 'master' },
      ],
      slots: [
        [0, 8191, 0],
        [8192, 16383, 2],
      ],
    };
    assert.deepEqual(topologyFromShards(shards, seed), expected);
    assert.deepEqual(topologyFromSlots(slots, seed), expected);
  });

  it('groups keys by slot for clean-up (one UNLINK per slot)', () => {
    const groups = keysBySlot(['{a}1', '{a}2', 'b', '{a}3']);
    assert.deepEqual(groups, [['{a}1', '{a}2', '{a}3'], ['b']]);
  });
});

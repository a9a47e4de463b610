// The host's TCP counters around a load (src/engine/tcpCounters.ts): the kernel's name/value line pairs read
// by name, deltas between two readings, and nothing where a counter went backwards or the system does not tell.
import assert from 'node:assert/strict';
import { namedValues, readTcp, tcpBetween } from '../../../src/engine/tcpCounters';

const SNMP = [
  'Ip: Forwarding DefaultTTL',
  'Ip: 1 64',
  'Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors',
  'Tcp: 1 200 120000 -1 30970 23999 6912 1048 121 42326935 42319629 3976 0 7870 0',
  'Udp: InDatagrams',
  'Udp: 5',
].join('\n');

describe('engine: TCP counters of the host', () => {
  it('reads the values by their names, of the prefix asked only', () => {
    const tcp = namedValues(SNMP, 'Tcp');
    assert.equal(tcp.get('OutSegs'), 42_319_629);
    assert.equal(tcp.get('RetransSegs'), 3976);
    assert.equal(tcp.get('Forwarding'), undefined);
    assert.equal(namedValues(SNMP, 'TcpExt').size, 0);
    assert.equal(namedValues('Tcp: OutSegs RetransSegs\nUdp: 1 2', 'Tcp').size, 0, 'a header without its value line');
    assert.equal(namedValues('Tcp: OutSegs RetransSegs\nTcp: 10 x', 'Tcp').get('RetransSegs'), undefined, 'a value that is no number');
  });

  it('the delta between two readings; none when either is missing or a counter went backwards', () => {
    const before = { outSegs: 1000, retransSegs: 4, timeouts: 2 };
    assert.deepEqual(tcpBetween(before, { outSegs: 5000, retransSegs: 44, timeouts: 30 }), { scope: 'host', segments: 4000, retransmits: 40, timeouts: 28 });
    assert.deepEqual(tcpBetween({ outSegs: 1000, retransSegs: 4 }, { outSegs: 1500, retransSegs: 4 }), { scope: 'host', segments: 500, retransmits: 0 });
    assert.equal(tcpBetween(before, { outSegs: 900, retransSegs: 44 }), undefined);
    assert.equal(tcpBetween(undefined, before), undefined);
  });

  it('reads this machine’s counters (Linux)', () => {
    const now = readTcp();
    assert.ok(now && now.outSegs > 0 && now.retransSegs >= 0, JSON.stringify(now));
  });
});

// The listening gate (src/gates/listen.ts): where `--metrics` may accept connections.
import assert from 'node:assert/strict';
import { listenAddress, ListenRefused, namesListener, servedNames } from '../../../src/gates/listen';

describe('the listening gate', () => {
  it('listens on loopback when only a port is given', () => {
    assert.deepEqual(listenAddress('9464', 'user', '--metrics'), { host: '127.0.0.1', port: 9464, exposed: false });
    assert.deepEqual(listenAddress('[::1]:9464', 'user', '--metrics'), { host: '::1', port: 9464, exposed: false });
    assert.deepEqual(listenAddress('127.0.0.2:80', 'user', '--metrics'), { host: '127.0.0.2', port: 80, exposed: false });
  });

  it('opens every interface, or another address, only as written, and says it is reachable from elsewhere', () => {
    // 0.0.0.0 is loopback to connect to, but listening there answers every interface.
    assert.deepEqual(listenAddress('0.0.0.0:9464', 'user', '--metrics'), { host: '0.0.0.0', port: 9464, exposed: true });
    assert.deepEqual(listenAddress('[::]:9464', 'user', '--metrics'), { host: '::', port: 9464, exposed: true });
    assert.equal(listenAddress('10.1.2.3:9464', 'user', '--metrics').exposed, true);
  });

  it('takes an address from the user only: a file or a workspace cannot open one, not even on loopback', () => {
    for (const origin of ['file', 'workspace'] as const) {
      assert.throws(
        () => listenAddress('9464', origin, 'metrics'),
        (error: Error) => error instanceof ListenRefused && error.message.includes(origin),
      );
    }
  });

  it('refuses what is no address, naming the flag and the form', () => {
    for (const spec of ['', 'http://127.0.0.1:9464', '127.0.0.1', '127.0.0.1:0', '127.0.0.1:70000', ':9464', 'a:b:9464', '1.2.3.4:9x']) {
      assert.throws(
        () => listenAddress(spec, 'user', '--metrics'),
        (error: Error) => error instanceof ListenRefused && error.message.startsWith('--metrics'),
        JSON.stringify(spec),
      );
    }
  });

  it('refuses a host name: which interface it opens would depend on DNS', () => {
    assert.throws(() => listenAddress('metrics.example.com:9464', 'user', '--metrics'), /IP address/);
    assert.equal(listenAddress('localhost:9464', 'user', '--metrics').exposed, false);
  });

  it('serves its own address (and localhost on loopback) with its port; on every interface, the addresses of this machine', () => {
    const at = (spec: string) => listenAddress(spec, 'user', '--metrics');
    assert.deepEqual(servedNames(at('127.0.0.1:9464'), []), ['127.0.0.1:9464', 'localhost:9464']);
    assert.deepEqual(servedNames(at('[::1]:9464'), []), ['[::1]:9464', 'localhost:9464']);
    assert.deepEqual(servedNames(at('10.1.2.3:9464'), ['127.0.0.1', '10.1.2.3']), ['10.1.2.3:9464'], 'one address: that one, whatever else the machine has');
    assert.deepEqual(servedNames(at('0.0.0.0:9464'), ['127.0.0.1', '10.1.2.3', 'fe80::1']), [
      '127.0.0.1:9464',
      '10.1.2.3:9464',
      '[fe80::1]:9464',
      'localhost:9464',
    ]);
    const served = servedNames(at('0.0.0.0:9464'), ['127.0.0.1', '10.1.2.3']);
    assert.equal(namesListener('10.1.2.3:9464', served), true);
    assert.equal(namesListener('0.0.0.0:9464', served), false, 'the unspecified address is no name of the machine');
    assert.equal(namesListener('evil.example:9464', served), false);
  });

  it('reads a Host header as the gate compares hosts, and nothing looser', () => {
    const served = servedNames(listenAddress('127.0.0.1:80', 'user', '--metrics'), []);
    assert.equal(namesListener('127.0.0.1', served), true, 'no port written: 80');
    assert.equal(namesListener('LOCALHOST.', served), true);
    assert.equal(namesListener('127.1:80', served), true, 'the IPv4 form a socket reads the same');
    for (const header of ['127.0.0.1:80 ', '127.0.0.1:80:80', 'user@127.0.0.1:80', '127.0.0.1:80/x', '[127.0.0.1]:80', undefined, '']) {
      assert.equal(namesListener(header, served), false, JSON.stringify(header));
    }
  });
});

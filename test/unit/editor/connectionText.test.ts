// Issue 45 (3): Test Connection's line gives sizes in human units (`maxmemory 256 MiB`), not the bytes
// CONFIG GET answers (`maxmemory 268435456`).
import assert from 'node:assert/strict';
import '../../helpers/fakeVscode';
import { describeServer } from '../../../src/editor/connections';

describe('Test Connection: the server line', () => {
  it('shows maxmemory in human units, the other settings as Redis wrote them', () => {
    const facts = { version: '7.0.15', mode: 'standalone', config: { save: '3600 1', appendonly: 'no', maxmemory: '268435456' } };
    const line = describeServer('redis://127.0.0.1:6379', facts, 0.41, '1.20M');
    assert.equal(
      line,
      'redis://127.0.0.1:6379: Redis 7.0.15 standalone · used memory 1.20M · save "3600 1" · appendonly no · maxmemory 256 MiB · round trip 0.41 ms',
    );
    assert.match(describeServer('x', { ...facts, config: { ...facts.config, maxmemory: '0' } }, 1, undefined), /maxmemory 0 ·/);
  });
});

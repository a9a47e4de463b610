// CONFIG RESETSTAT (RBench's own, before each test on a throwaway server) sets the server's counters back to 0,
// rdb_saves and aof_rewrites among them: the per-second timeline's readers must take a drop as a reset, not
// as "nothing happened" or a negative rate.
import assert from 'node:assert/strict';
import { counterIncrease, persistenceEvents } from '../../../src/redis/monitor';
import type { ServerSample } from '../../../src/redis/types';

function sample(t: number, fields: Partial<ServerSample>): ServerSample {
  return {
    t,
    usedMemory: 0,
    usedMemoryRss: 0,
    connectedClients: 1,
    instantaneousOps: 0,
    totalCommandsProcessed: 0,
    rdbBgsaveInProgress: false,
    rdbLastBgsaveStatus: 'ok',
    rdbChangesSinceLastSave: 0,
    aofEnabled: false,
    aofRewriteInProgress: false,
    aofLastBgrewriteStatus: 'ok',
    latestForkUsec: 0,
    evictedKeys: 0,
    expiredKeys: 0,
    keys: 0,
    errorstats: {},
    ...fields,
  };
}

describe('the per-second samples across CONFIG RESETSTAT', () => {
  it('a snapshot that starts in the second the counters were reset is still seen', () => {
    const events = persistenceEvents([sample(0, { rdbSaves: 3 }), sample(1000, { rdbSaves: 1, rdbBgsaveInProgress: true }), sample(2000, { rdbSaves: 1 })]);
    assert.deepEqual(events, [
      { t: 1000, kind: 'bgsave-start' },
      { t: 2000, kind: 'bgsave-end' },
    ]);
  });

  it('a reset with no job started since is no event', () => {
    assert.deepEqual(persistenceEvents([sample(0, { rdbSaves: 3, aofRewrites: 2 }), sample(1000, { rdbSaves: 0, aofRewrites: 0 })]), []);
  });

  it('counterIncrease: the growth between two samples, undefined when the counter dropped or is missing', () => {
    assert.equal(counterIncrease(10, 25), 15);
    assert.equal(counterIncrease(25, 3), undefined);
    assert.equal(counterIncrease(undefined, 3), undefined);
  });
});

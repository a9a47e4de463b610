import assert from 'node:assert/strict';
import { serverSeries } from '../../../src/views/model';
import type { ServerSample } from '../../../src/redis/types';

function sample(t: number): ServerSample {
  return {
    t,
    usedMemory: 1024 * 1024,
    usedMemoryRss: 0,
    connectedClients: 3,
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
  };
}

describe('server chart series', () => {
  it('shows missed samples (the server was unreachable) as a gap, not a line across it', () => {
    const series = serverSeries([sample(0), sample(1000), sample(5000), sample(6000)])!;
    assert.deepEqual(series.x, [0, 1, 2, 5, 6]);
    assert.deepEqual(series.usedMemoryMb, [1, 1, null, 1, 1]);
    assert.deepEqual(series.connectedClients, [3, 3, null, 3, 3]);
  });
});

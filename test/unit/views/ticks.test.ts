import assert from 'node:assert/strict';
import { dedupeTicks, timeTicks } from '../../../src/views/ticks';

describe('chart tick labels', () => {
  it("labels a short test's time axis with the decimals its ticks need, never `0s 0.0s 0.0s`", () => {
    assert.deepEqual(timeTicks([0, 0.02, 0.04, 0.06]), ['0.00s', '0.02s', '0.04s', '0.06s']);
    assert.deepEqual(timeTicks([0, 0.5, 1, 1.5]), ['0.0s', '0.5s', '1.0s', '1.5s']);
    assert.deepEqual(timeTicks([0, 10, 20]), ['0s', '10s', '20s']);
    assert.deepEqual(timeTicks([60, 90, 120]), ['1m', '1m30s', '2m']);
    assert.deepEqual(timeTicks([0, 0.0001, 0.0002]), ['0.000s', '', '']);
  });

  it('blanks a repeated label', () => {
    assert.deepEqual(dedupeTicks(['0 ms', '0 ms', '0.010 ms', '0.010 ms']), ['0 ms', '', '0.010 ms', '']);
  });
});

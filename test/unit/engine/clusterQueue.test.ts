import assert from 'node:assert/strict';
import { MEASURED, PendingQueue } from '../../../src/engine/fast/nodeLink';

describe('cluster pending queue (typed columns, a ring)', () => {
  it('keeps requests oldest first across wrap-around and growth, with every column', () => {
    const queue = new PendingQueue();
    const bytes = Buffer.from('x');
    let pushed = 0;
    let taken = 0;
    // Interleave pushes and takes so the ring wraps before it grows (first capacity 64), then grows twice.
    for (let round = 0; round < 40; round++) {
      for (let k = 0; k < 5; k++, pushed++) queue.push(bytes, pushed, pushed + 1, pushed % 7, pushed * 1.5, MEASURED, pushed % 3);
      for (let k = 0; k < 2; k++, taken++) {
        const i = queue.shift();
        assert.deepEqual(
          [queue.from[i], queue.to[i], queue.label[i], queue.start[i], queue.flags[i], queue.redirects[i]],
          [taken, taken + 1, taken % 7, taken * 1.5, MEASURED, taken % 3],
        );
        assert.equal(queue.bytes[i], bytes);
      }
    }
    assert.equal(queue.size, pushed - taken);
    queue.drop(10);
    taken += 10;
    assert.equal(queue.from[queue.at(0)], taken);
    queue.clear();
    assert.equal(queue.size, 0);
  });

  it('pushes a routed run in one call: each request from the end of the one before, across wrap-around and growth', () => {
    const queue = new PendingQueue();
    const bytes = Buffer.alloc(1000);
    const ends = Int32Array.from({ length: 100 }, (_, p) => (p + 1) * 10);
    // Wrap the ring first (capacity 64): 50 in, 50 out, then a run of 30 (positions 20 … 49) and one of 90 (growth).
    for (let k = 0; k < 50; k++) queue.push(bytes, 0, 1, 0, 0, 0, 0);
    queue.drop(50);
    queue.pushRequests(bytes, ends, 20, 30, 3, 7.5, MEASURED);
    queue.pushRequests(bytes, ends, 0, 90, 4, 8.5, 0);
    assert.equal(queue.size, 120);
    for (let k = 0; k < 120; k++) {
      const i = queue.shift();
      const p = k < 30 ? 20 + k : k - 30;
      assert.deepEqual(
        [queue.from[i], queue.to[i], queue.label[i], queue.start[i], queue.flags[i], queue.redirects[i]],
        [p * 10, (p + 1) * 10, k < 30 ? 3 : 4, k < 30 ? 7.5 : 8.5, k < 30 ? MEASURED : 0, 0],
      );
    }
  });
});

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
      for (let k = 0; k < 5; k++, pushed++) queue.push(bytes, pushed, pushed + 1, pushed % 7, pushed % 16384, pushed * 1.5, MEASURED, pushed % 3);
      for (let k = 0; k < 2; k++, taken++) {
        const i = queue.shift();
        assert.deepEqual(
          [queue.from[i], queue.to[i], queue.label[i], queue.slot[i], queue.start[i], queue.flags[i], queue.redirects[i]],
          [taken, taken + 1, taken % 7, taken % 16384, taken * 1.5, MEASURED, taken % 3],
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
});

import assert from 'node:assert/strict';
import { MEASURED, PendingQueue } from '../../../src/engine/fast/nodeLink';

describe('cluster pending queue (typed columns, a ring)', () => {
  it('keeps requests oldest first across wrap-around and growth, with every column', () => {
    const queue = new PendingQueue();
    const bytes = Buffer.from('x');
    let pushed = 0;
    let taken = 0;
    // Interleave pushes and takes so the ring wraps between its growths (it starts at one entry and doubles).
    for (let round = 0; round < 40; round++) {
      for (let k = 0; k < 5; k++, pushed++) queue.push(bytes, pushed, pushed + 1, pushed % 7, pushed * 1.5, MEASURED, pushed % 3);
      for (let k = 0; k < 2; k++, taken++) {
        const i = queue.shift();
        assert.deepEqual(
          [queue.fromOf(i), queue.toOf(i), queue.labelOf(i), queue.startOf(i), queue.flagsOf(i), queue.redirectsOf(i)],
          [taken, taken + 1, taken % 7, taken * 1.5, MEASURED, taken % 3],
        );
        assert.equal(queue.bytesOf(i), bytes);
      }
    }
    assert.equal(queue.size, pushed - taken);
    queue.drop(10);
    taken += 10;
    assert.equal(queue.fromOf(queue.at(0)), taken);
    queue.clear();
    assert.equal(queue.size, 0);
  });

  it('keeps a routed batch as one entry: taken whole, in parts (take), or one request at a time (shift), each part with its own bytes', () => {
    const queue = new PendingQueue();
    const bytes = Buffer.alloc(1000);
    // Wrap the ring first (grown to 64): 50 in, 50 out; then runs of 30 requests (10 bytes each, from byte 200) and 90.
    for (let k = 0; k < 50; k++) queue.push(bytes, 0, 1, 0, 0, 0, 0);
    queue.drop(50);
    queue.pushRun(bytes, 200, 500, 30, 3, 7.5, MEASURED);
    queue.pushRun(bytes, 0, 900, 90, 4, 8.5, 0);
    assert.deepEqual([queue.size, queue.requests], [2, 120]);
    const taken = (i: number) => [queue.fromOf(i), queue.toOf(i), queue.countOf(i), queue.labelOf(i), queue.startOf(i), queue.flagsOf(i), queue.redirectsOf(i)];
    // One request, then 9, then more than the run holds (the rest of it: 20), then one of the next run.
    assert.deepEqual(taken(queue.shift()), [200, 210, 1, 3, 7.5, MEASURED, 0]);
    assert.deepEqual(taken(queue.take(9)), [210, 300, 9, 3, 7.5, MEASURED, 0]);
    assert.deepEqual([queue.size, queue.requests], [2, 110]);
    assert.deepEqual(taken(queue.take(50)), [300, 500, 20, 3, 7.5, MEASURED, 0]);
    assert.deepEqual(taken(queue.shift()), [0, 10, 1, 4, 8.5, 0, 0]);
    assert.deepEqual([queue.size, queue.requests], [1, 89]);
    // What is left of a run is its own entry: copied, failed or cleared whole.
    const rest = queue.at(0);
    assert.deepEqual(taken(rest), [10, 900, 89, 4, 8.5, 0, 0]);
    // Past growth (64 entries → 128) the runs and single requests keep their order and counts.
    for (let k = 0; k < 100; k++) queue.push(bytes, k, k + 1, 5, 1, 0, 1);
    assert.deepEqual([queue.size, queue.requests], [101, 189]);
    assert.deepEqual(taken(queue.take(100)), [10, 900, 89, 4, 8.5, 0, 0]);
    for (let k = 0; k < 100; k++) assert.deepEqual(taken(queue.take(5)), [k, k + 1, 1, 5, 1, 0, 1]);
    assert.deepEqual([queue.size, queue.requests], [0, 0]);
    queue.pushRun(bytes, 0, 40, 4, 1, 1, 0);
    queue.clear();
    assert.deepEqual([queue.size, queue.requests], [0, 0]);
  });

  it('splits a run in a ring of one entry (its spare row), and grows from there with the order kept', () => {
    const queue = new PendingQueue();
    const bytes = Buffer.alloc(100);
    queue.pushRun(bytes, 0, 40, 4, 2, 3.5, MEASURED);
    const taken = (i: number) => [queue.fromOf(i), queue.toOf(i), queue.countOf(i), queue.labelOf(i), queue.startOf(i), queue.flagsOf(i)];
    assert.deepEqual(taken(queue.take(3)), [0, 30, 3, 2, 3.5, MEASURED]);
    assert.deepEqual([queue.size, queue.requests], [1, 1]);
    for (let k = 0; k < 5; k++) queue.push(bytes, 50 + k, 51 + k, 6, k, 0, 0);
    assert.deepEqual(taken(queue.shift()), [30, 40, 1, 2, 3.5, MEASURED]);
    for (let k = 0; k < 5; k++) assert.deepEqual(taken(queue.shift()), [50 + k, 51 + k, 1, 6, k, 0]);
    assert.deepEqual([queue.size, queue.requests], [0, 0]);
  });
});

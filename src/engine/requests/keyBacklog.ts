// Requests drawn and not written yet (the cluster's per-node loop, fastClusterConnection.ts: the draws of one
// node): a ring of key numbers, each with its `__rand_int__` values, oldest first. BatchBuilder.writeBacklog
// writes the oldest into a batch. Queueing and taking allocate nothing.

const FIRST_CAPACITY = 64;

export class KeyBacklog {
  size = 0;
  /** Position of the oldest entry; entry k (0 = oldest) is at (head + k) & mask. */
  head = 0;
  mask = FIRST_CAPACITY - 1;
  keys = new Float64Array(FIRST_CAPACITY);
  /** `randsPer` values per entry, at position × randsPer. */
  rands: Float64Array;

  constructor(readonly randsPer: number) {
    this.rands = new Float64Array(FIRST_CAPACITY * randsPer);
  }

  /** Queues `key` with the values rands[randAt … randAt + randsPer). */
  push(key: number, rands: Float64Array, randAt: number): void {
    if (this.size > this.mask) this.grow();
    const i = (this.head + this.size++) & this.mask;
    this.keys[i] = key;
    for (let j = 0, to = i * this.randsPer; j < this.randsPer; j++) this.rands[to + j] = rands[randAt + j];
  }

  /** Removes the `count` oldest entries. */
  drop(count: number): void {
    this.head = (this.head + count) & this.mask;
    this.size -= count;
  }

  clear(): void {
    this.head = 0;
    this.size = 0;
  }

  private grow(): void {
    const capacity = (this.mask + 1) * 2;
    const keys = new Float64Array(capacity);
    const rands = new Float64Array(capacity * this.randsPer);
    for (let k = 0; k < this.size; k++) {
      const i = (this.head + k) & this.mask;
      keys[k] = this.keys[i];
      rands.set(this.rands.subarray(i * this.randsPer, (i + 1) * this.randsPer), k * this.randsPer);
    }
    this.keys = keys;
    this.rands = rands;
    this.head = 0;
    this.mask = capacity - 1;
  }
}

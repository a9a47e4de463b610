// Requests drawn for one cluster node and not written yet (the per-node loop of fastClusterConnection.ts): a
// ring of key numbers, each with its `__rand_int__` values, oldest first. Queueing and taking allocate nothing.

const FIRST_CAPACITY = 64;

export class KeyBacklog {
  size = 0;
  private head = 0;
  private capacity = FIRST_CAPACITY;
  private keys = new Float64Array(FIRST_CAPACITY);
  /** `randsPer` values per entry, at position × randsPer. */
  rands: Float64Array;

  constructor(private readonly randsPer: number) {
    this.rands = new Float64Array(FIRST_CAPACITY * randsPer);
  }

  /** Queues `key` with the values rands[randAt … randAt + randsPer). */
  push(key: number, rands: Float64Array, randAt: number): void {
    if (this.size === this.capacity) this.grow();
    const i = (this.head + this.size++) & (this.capacity - 1);
    this.keys[i] = key;
    for (let j = 0, to = i * this.randsPer; j < this.randsPer; j++) this.rands[to + j] = rands[randAt + j];
  }

  /** Takes the oldest entry: returns its key; its `__rand_int__` values stay at rands[takenAt …) until the next push. */
  shift(): number {
    const i = this.head;
    this.head = (i + 1) & (this.capacity - 1);
    this.size--;
    this.takenAt = i * this.randsPer;
    return this.keys[i];
  }

  /** Where the last shifted entry's `__rand_int__` values start in rands. */
  takenAt = 0;

  clear(): void {
    this.head = 0;
    this.size = 0;
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    const keys = new Float64Array(capacity);
    const rands = new Float64Array(capacity * this.randsPer);
    for (let k = 0; k < this.size; k++) {
      const i = (this.head + k) & (this.capacity - 1);
      keys[k] = this.keys[i];
      rands.set(this.rands.subarray(i * this.randsPer, (i + 1) * this.randsPer), k * this.randsPer);
    }
    this.keys = keys;
    this.rands = rands;
    this.head = 0;
    this.capacity = capacity;
  }
}

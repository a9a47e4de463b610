// Counts distinct keys (byte strings) by a 64-bit hash of each, kept in two typed arrays. A SCAN of a
// million keys then costs a few ms here, where decoding each key to a string and keeping it in a Set cost
// ~0.4 µs a key (with 100k keys left, 40 ms of every run's CPU). Two keys alike in all 64 bits count once:
// for a million keys, a chance of about 3 in 100 million.

const FIRST_SIZE = 1 << 12;

export class DistinctKeys {
  private high = new Int32Array(FIRST_SIZE);
  private low = new Int32Array(FIRST_SIZE);
  size = 0;

  /** Adds the key bytes[start … end) (all of `bytes` by default); true when it was not there yet. */
  add(bytes: Uint8Array, start = 0, end = bytes.length): boolean {
    // FNV-1a and a multiply-xor hash, over the same bytes; (0, 0) marks an empty slot.
    let a = 0x811c9dc5 | 0;
    let b = 0x9747b28c | 0;
    for (let i = start; i < end; i++) {
      a = Math.imul(a ^ bytes[i], 0x01000193);
      b = Math.imul(b ^ bytes[i], 0x5bd1e995);
      b ^= b >>> 15;
    }
    if (a === 0 && b === 0) b = 1;
    if (!this.place(a, b)) return false;
    if (++this.size * 2 > this.high.length) this.grow();
    return true;
  }

  /** Puts the pair in its slot (linear probing): false when it is there already. */
  private place(a: number, b: number): boolean {
    const mask = this.high.length - 1;
    for (let slot = (a ^ (b >>> 7)) & mask; ; slot = (slot + 1) & mask) {
      const high = this.high[slot];
      const low = this.low[slot];
      if (high === 0 && low === 0) {
        this.high[slot] = a;
        this.low[slot] = b;
        return true;
      }
      if (high === a && low === b) return false;
    }
  }

  private grow(): void {
    const { high, low } = this;
    this.high = new Int32Array(high.length * 2);
    this.low = new Int32Array(low.length * 2);
    for (let slot = 0; slot < high.length; slot++) if (high[slot] !== 0 || low[slot] !== 0) this.place(high[slot], low[slot]);
  }
}

// A list of 32-bit integers in one typed array that doubles as it fills: pushing allocates nothing until then, and
// clearing keeps the array for the next fill. Shared by the outline's encoding (features/outlineCodec.ts) and a
// cluster read's reply marks (engine/fast/replyMarks.ts).

export class Int32List {
  length = 0;
  protected values: Int32Array;

  constructor(capacity: number) {
    this.values = new Int32Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  clear(): void {
    this.length = 0;
  }

  /** A copy of the values pushed, of their exact length. */
  toArray(): Int32Array {
    return this.values.slice(0, this.length);
  }
}

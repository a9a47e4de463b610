// The replies of one read (scan) that were nils, or empty collections: their indexes, in the order the scanner
// reports them (ascending). A typed array that is kept and reused, so a read of misses allocates nothing; a Set of
// numbers cost a cluster GET of absent keys 1.6× the CPU of one that hit (issue 46: 2M GETs at pipeline 16,
// ~360 ms in Set.add alone).

const FIRST_CAPACITY = 64;

export class ReplyMarks {
  size = 0;
  private marks = new Int32Array(FIRST_CAPACITY);

  /** Marks reply `reply`; replies are marked in ascending order (the scanner's). */
  add(reply: number): void {
    if (this.size === this.marks.length) {
      const grown = new Int32Array(this.marks.length * 2);
      grown.set(this.marks);
      this.marks = grown;
    }
    this.marks[this.size++] = reply;
  }

  has(reply: number): boolean {
    const at = this.firstAtOrAfter(reply);
    return at < this.size && this.marks[at] === reply;
  }

  /** How many replies in [from, to) are marked. */
  countIn(from: number, to: number): number {
    if (this.size === 0 || to <= from) return 0;
    return this.firstAtOrAfter(to) - this.firstAtOrAfter(from);
  }

  clear(): void {
    this.size = 0;
  }

  /** The position of the first mark ≥ `reply` (size when none). */
  private firstAtOrAfter(reply: number): number {
    let low = 0;
    let high = this.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.marks[middle] < reply) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

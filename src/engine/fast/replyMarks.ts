// The replies of one read (scan) that were nils, or empty collections: their indexes, in the order the scanner
// reports them (ascending). A typed array that is kept and reused, so a read of misses allocates nothing; a Set of
// numbers cost a cluster GET of absent keys 1.6× the CPU of one that hit (issue 46: 2M GETs at pipeline 16,
// ~360 ms in Set.add alone).
import { Int32List } from '../../scenario/int32List';

const FIRST_CAPACITY = 64;

export class ReplyMarks extends Int32List {
  constructor() {
    super(FIRST_CAPACITY);
  }

  has(reply: number): boolean {
    const at = this.firstAtOrAfter(reply);
    return at < this.length && this.values[at] === reply;
  }

  /** How many replies in [from, to) are marked. */
  countIn(from: number, to: number): number {
    if (this.length === 0 || to <= from) return 0;
    return this.firstAtOrAfter(to) - this.firstAtOrAfter(from);
  }

  /** The position of the first mark ≥ `reply` (length when none); marks are pushed in ascending order. */
  private firstAtOrAfter(reply: number): number {
    let low = 0;
    let high = this.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.values[middle] < reply) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

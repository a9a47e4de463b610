// A bounded set of pause intervals (performance.now() ms), kept sorted and disjoint: an interval that
// overlaps others is joined with them. Pauses are rare next to replies, so a plain array will do; a
// lookup is a binary search and a walk over the pauses that overlap.

export class PauseSet {
  private readonly from: number[] = [];
  private readonly to: number[] = [];

  /** `keep`: what a full set lets go, its oldest pause or its shortest. */
  constructor(
    private readonly limit: number,
    private readonly keep: 'recent' | 'longest',
  ) {}

  get size(): number {
    return this.from.length;
  }

  clear(): void {
    this.from.length = this.to.length = 0;
  }

  /** Adds [from, to]; returns how many new pauses it made (1, or fewer when it joined others: 0, −1…) and the time it added. */
  add(from: number, to: number): { pauses: number; ms: number } {
    // The first pause that ends at or after `from`: those before it stay apart.
    const first = this.firstEndingAfter(from);
    let last = first;
    let joinedMs = 0;
    while (last < this.from.length && this.from[last] <= to) {
      joinedMs += this.to[last] - this.from[last];
      from = Math.min(from, this.from[last]);
      to = Math.max(to, this.to[last]);
      last++;
    }
    const joined = last - first;
    this.from.splice(first, joined, from);
    this.to.splice(first, joined, to);
    if (this.from.length > this.limit) {
      const drop = this.keep === 'recent' ? 0 : this.shortest();
      this.from.splice(drop, 1);
      this.to.splice(drop, 1);
    }
    return { pauses: 1 - joined, ms: to - from - joinedMs };
  }

  /** How much of [from, to] the pauses cover. */
  within(from: number, to: number): number {
    let covered = 0;
    for (let i = this.firstEndingAfter(from); i < this.from.length && this.from[i] < to; i++) {
      covered += Math.min(this.to[i], to) - Math.max(this.from[i], from);
    }
    return covered;
  }

  private firstEndingAfter(time: number): number {
    let low = 0;
    let high = this.to.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.to[mid] < time) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private shortest(): number {
    let shortest = 0;
    for (let i = 1; i < this.from.length; i++) if (this.to[i] - this.from[i] < this.to[shortest] - this.from[shortest]) shortest = i;
    return shortest;
  }
}

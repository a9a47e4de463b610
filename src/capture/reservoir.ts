// A uniform sample of at most `size` numbers from a stream of any length (Vitter's algorithm R): the size
// distributions of a capture stay bounded in memory however much traffic passes.
export class Reservoir {
  readonly values: number[] = [];
  seen = 0;

  constructor(private readonly size: number) {}

  add(value: number): void {
    this.seen++;
    if (this.values.length < this.size) this.values.push(value);
    else {
      const slot = Math.floor(Math.random() * this.seen);
      if (slot < this.size) this.values[slot] = value;
    }
  }
}

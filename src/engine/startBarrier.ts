// Loads that start together: the client groups of a phase are one engine load each, and each load's threads
// start sending as soon as all of them are connected. With a barrier, a load whose threads are connected
// waits until every load of the barrier is, or has left (ended before connecting, or could not start), so
// the groups share one timeline from their first request.
export class StartBarrier {
  private waiting = new Set<number>();
  private readonly release: Promise<void>;
  private open!: () => void;

  constructor(loads: number) {
    for (let i = 0; i < loads; i++) this.waiting.add(i);
    this.release = new Promise<void>((resolve) => (this.open = resolve));
    if (loads === 0) this.open();
  }

  /** Load `index` is connected: resolves when all are (or have left). */
  arrive(index: number): Promise<void> {
    this.leave(index);
    return this.release;
  }

  /** Load `index` will not arrive (it ended or failed): the others do not wait for it. Idempotent. */
  leave(index: number): void {
    if (this.waiting.delete(index) && this.waiting.size === 0) this.open();
  }
}

// A count-mode load's one request budget, shared by every connection of every worker thread: a counter
// in shared memory the connections claim batches from (one atomic operation per batch, none per request),
// so a connection slowed by the network takes fewer requests instead of holding back a fixed share while
// the others idle. The total is exact: a claim never passes the budget.

/** The budget as the main thread creates it and each thread receives it (WorkerConfig.budget). */
export interface SharedBudget {
  /** Holds the number of requests claimed so far (one 32-bit word, or a 64-bit one past 2³² − 1 requests). */
  buffer: SharedArrayBuffer;
  /** Measured requests of this machine's part of the load. */
  requests: number;
  /**
   * The clients this machine runs (firstClient … firstClient+clients-1 of the scenario's; all of them but
   * for a shard): they place the machine's request numbers in the scenario-wide sequence (scenarioRequest).
   */
  firstClient: number;
  clients: number;
}

const WORD_LIMIT = 0xffff_ffff;

export function createSharedBudget(requests: number, firstClient: number, clients: number): SharedBudget {
  return { buffer: new SharedArrayBuffer(requests > WORD_LIMIT ? 8 : 4), requests, firstClient, clients };
}

/** What a connection claims its measured requests from. */
export interface RequestBudget {
  /** Claims up to `wanted` requests: how many it got, 0 once the budget is spent. The first one's number is then `first`. */
  claim(wanted: number): number;
  /** The number (0 … requests-1) of the first request of the last claim. */
  readonly first: number;
  /** No request is left to claim. */
  spent(): boolean;
}

/** One thread's view of the shared budget. */
export function requestBudget(shared: SharedBudget): RequestBudget {
  return new SharedCounterBudget(shared);
}

/**
 * Claims by compare-and-swap, so the counter never passes the budget: `spent` is exact, and no count can
 * overflow however many claims come after the end. Past 2³² − 1 requests the counter is a 64-bit word
 * (BigInt arithmetic: a little slower, used only there).
 */
class SharedCounterBudget implements RequestBudget {
  first = 0;
  private readonly word: Uint32Array | undefined;
  private readonly wide: BigInt64Array | undefined;

  constructor(private readonly shared: SharedBudget) {
    if (shared.buffer.byteLength === 8) this.wide = new BigInt64Array(shared.buffer);
    else this.word = new Uint32Array(shared.buffer);
  }

  claim(wanted: number): number {
    return this.word ? this.claimWord(this.word, wanted) : this.claimWide(this.wide!, wanted);
  }

  spent(): boolean {
    return this.word ? Atomics.load(this.word, 0) >= this.shared.requests : Atomics.load(this.wide!, 0) >= BigInt(this.shared.requests);
  }

  private claimWord(counter: Uint32Array, wanted: number): number {
    for (;;) {
      const claimed = Atomics.load(counter, 0);
      const count = Math.min(wanted, this.shared.requests - claimed);
      if (count <= 0) return 0;
      if (Atomics.compareExchange(counter, 0, claimed, claimed + count) === claimed) {
        this.first = claimed;
        return count;
      }
    }
  }

  private claimWide(counter: BigInt64Array, wanted: number): number {
    for (;;) {
      const claimed = Atomics.load(counter, 0);
      const count = Math.min(wanted, this.shared.requests - Number(claimed));
      if (count <= 0) return 0;
      if (Atomics.compareExchange(counter, 0, claimed, claimed + BigInt(count)) === claimed) {
        this.first = Number(claimed);
        return count;
      }
    }
  }
}

/**
 * Where request `k` of a machine's budget falls in the scenario-wide sequence 0, 1, 2, … that sequential keys
 * follow: the scenario's request j belongs to client j mod C (C clients, each with its splitRequests share),
 * so a shard running clients f … f+n-1 owns j = ⌊k/n⌋·C + f + (k mod n). Without shards (n = C, f = 0) j = k.
 * The shards together then cover the scenario's requests exactly once, whatever share each connection claims.
 */
export function scenarioRequest(k: number, firstClient: number, clients: number, totalClients: number): number {
  const round = Math.floor(k / clients);
  return round * totalClients + firstClient + (k - round * clients);
}

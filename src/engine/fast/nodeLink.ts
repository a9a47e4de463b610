// One load connection's socket to one cluster node: the requests it has sent (oldest first), those
// waiting for it to connect, and the error replies of the current read.
import type { Socket } from 'node:net';
import { ReplyScanner } from '../../protocol/respScanner';
import type { KeyBacklog } from '../requests/keyBacklog';

/** Entry flags: ASKING/READONLY (not a request of the load), and a request whose latency counts. */
export const INTERNAL = 1;
export const MEASURED = 2;

const FIRST_CAPACITY = 64;

/**
 * Requests in flight or waiting, oldest first: a ring of typed columns, so queueing and answering requests
 * allocates nothing. An entry is `count` requests of one label, start and flags, written one after the other as
 * bytes[from … to) of the buffer that was written (shared by a write's requests, kept for a resend after
 * MOVED/ASK), each (to - from) / count bytes long: a batch of the per-node loop is one entry, not one per request,
 * so queueing and answering it touch one row. Latency counts from `start` (first send, or the intended time in
 * open loop).
 */
export class PendingQueue {
  private capacity = FIRST_CAPACITY;
  private head = 0;
  /** Entries queued. */
  size = 0;
  /** Requests queued (the entries' counts added up). */
  requests = 0;
  // Each column has a spare row past the ring (index `capacity`): take() puts there the requests it splits off a run.
  bytes: (Buffer | undefined)[] = new Array<Buffer | undefined>(FIRST_CAPACITY + 1);
  from = new Int32Array(FIRST_CAPACITY + 1);
  to = new Int32Array(FIRST_CAPACITY + 1);
  count = new Int32Array(FIRST_CAPACITY + 1);
  label = new Int32Array(FIRST_CAPACITY + 1);
  start = new Float64Array(FIRST_CAPACITY + 1);
  flags = new Uint8Array(FIRST_CAPACITY + 1);
  redirects = new Uint8Array(FIRST_CAPACITY + 1);

  /** Queues `count` requests (one unless they are of one length, back to back in bytes[from … to)). */
  push(bytes: Buffer, from: number, to: number, label: number, start: number, flags: number, redirects: number, count = 1): void {
    if (this.size === this.capacity) this.grow();
    const i = (this.head + this.size++) & (this.capacity - 1);
    this.bytes[i] = bytes;
    this.from[i] = from;
    this.to[i] = to;
    this.count[i] = count;
    this.label[i] = label;
    this.start[i] = start;
    this.flags[i] = flags;
    this.redirects[i] = redirects;
    this.requests += count;
  }

  /**
   * `count` requests of one label and start, none redirected yet, of one length and back to back in bytes[from … to)
   * (a routed batch: one command encoded once, only its digits rewritten): one entry.
   */
  pushRun(bytes: Buffer, from: number, to: number, count: number, label: number, start: number, flags: number): void {
    this.push(bytes, from, to, label, start, flags, 0, count);
  }

  /** Takes the oldest request: as take(1). */
  shift(): number {
    return this.take(1);
  }

  /**
   * Takes up to `most` (≥ 1) of the oldest requests, all of the oldest entry's or its first `most`: the position of
   * what was taken (count[position] requests), whose columns (its bytes too) stay readable until the next push or take.
   */
  take(most: number): number {
    const i = this.head;
    const count = this.count[i];
    if (count <= most) {
      this.head = (i + 1) & (this.capacity - 1);
      this.size--;
      this.requests -= count;
      return i;
    }
    // Part of a run: the requests taken are copied to the spare row, and the run keeps the rest.
    const spare = this.capacity;
    const end = this.from[i] + ((this.to[i] - this.from[i]) / count) * most;
    this.bytes[spare] = this.bytes[i];
    this.from[spare] = this.from[i];
    this.to[spare] = end;
    this.count[spare] = most;
    this.label[spare] = this.label[i];
    this.start[spare] = this.start[i];
    this.flags[spare] = this.flags[i];
    this.redirects[spare] = this.redirects[i];
    this.from[i] = end;
    this.count[i] = count - most;
    this.requests -= most;
    return spare;
  }

  /** Position of the k-th oldest entry. */
  at(k: number): number {
    return (this.head + k) & (this.capacity - 1);
  }

  /** Removes the `count` oldest entries. */
  drop(count: number): void {
    for (let k = 0; k < count; k++) {
      const i = this.at(k);
      this.bytes[i] = undefined;
      this.requests -= this.count[i];
    }
    this.head = this.at(count);
    this.size -= count;
  }

  clear(): void {
    this.drop(this.size);
    this.bytes[this.capacity] = undefined;
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    this.bytes = this.reordered(this.bytes, new Array<Buffer | undefined>(capacity + 1));
    this.from = this.reordered(this.from, new Int32Array(capacity + 1));
    this.to = this.reordered(this.to, new Int32Array(capacity + 1));
    this.count = this.reordered(this.count, new Int32Array(capacity + 1));
    this.label = this.reordered(this.label, new Int32Array(capacity + 1));
    this.start = this.reordered(this.start, new Float64Array(capacity + 1));
    this.flags = this.reordered(this.flags, new Uint8Array(capacity + 1));
    this.redirects = this.reordered(this.redirects, new Uint8Array(capacity + 1));
    this.head = 0;
    this.capacity = capacity;
  }

  /** `column`'s entries, oldest first, in `fresh`. */
  private reordered<T extends { [i: number]: unknown }>(column: T, fresh: T): T {
    for (let k = 0; k < this.size; k++) fresh[k] = column[this.at(k)];
    return fresh;
  }
}

export class NodeLink {
  socket: Socket | undefined;
  up = false;
  connecting = false;
  readonly scanner = new ReplyScanner();
  /** Sent, oldest first. */
  readonly inFlight = new PendingQueue();
  /** Routed here while the socket is not up; sent once it is. */
  readonly waiting = new PendingQueue();
  /** The batch being routed: positions in the batch builder's buffer, written out by the connection's flush. */
  readonly staged = new PendingQueue();
  /** Error replies of the current scan: reply index → text. */
  readonly errors = new Map<number, string>();
  reconnectAttempt = 0;
  timer: NodeJS.Timeout | undefined;
  /** The per-node loop (closed loop, routable test): requests drawn for this node and not written yet. */
  backlog: KeyBacklog | undefined;
  /** The per-node loop: this link's own batch buffer, rewritten only once every request written from it is answered. */
  template: Buffer | undefined;
  /** Nil replies of the current scan (reply indexes), read for a transaction's EXEC. */
  readonly nulls = new Set<number>();
  // The unit at the head of inFlight (command groups): replies taken, whether a redirection was counted, its first error.
  unitReplies = 0;
  unitRedirected = false;
  unitErrorKind: string | undefined;
  unitErrorText: string | undefined;

  constructor(readonly node: number) {
    this.scanner.onError = (_kind, text, index) => this.errors.set(index, text);
  }
}

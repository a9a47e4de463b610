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
 * Requests in flight or waiting, oldest first: a ring of typed columns, so queueing and answering a request
 * allocates nothing. A request is bytes[from … to) of the buffer that was written (shared by a write's
 * requests, kept for a resend after MOVED/ASK); its latency counts from `start` (first send, or the intended
 * time in open loop).
 */
export class PendingQueue {
  private capacity = FIRST_CAPACITY;
  private head = 0;
  size = 0;
  bytes: (Buffer | undefined)[] = new Array<Buffer | undefined>(FIRST_CAPACITY);
  from = new Int32Array(FIRST_CAPACITY);
  to = new Int32Array(FIRST_CAPACITY);
  label = new Int32Array(FIRST_CAPACITY);
  start = new Float64Array(FIRST_CAPACITY);
  flags = new Uint8Array(FIRST_CAPACITY);
  redirects = new Uint8Array(FIRST_CAPACITY);

  push(bytes: Buffer, from: number, to: number, label: number, start: number, flags: number, redirects: number): void {
    if (this.size === this.capacity) this.grow();
    const i = (this.head + this.size++) & (this.capacity - 1);
    this.bytes[i] = bytes;
    this.from[i] = from;
    this.to[i] = to;
    this.label[i] = label;
    this.start[i] = start;
    this.flags[i] = flags;
    this.redirects[i] = redirects;
  }

  /**
   * Requests `first` … `first + count - 1` of a routed batch written from `bytes` (request p ends at ends[p], the
   * one before it starts there): pushed in one loop, all of one label and start, none redirected yet.
   */
  pushRequests(bytes: Buffer, ends: Int32Array, first: number, count: number, label: number, start: number, flags: number): void {
    while (this.capacity - this.size < count) this.grow();
    const mask = this.capacity - 1;
    let from = first === 0 ? 0 : ends[first - 1];
    for (let p = first, end = first + count, i = (this.head + this.size) & mask; p < end; p++, i = (i + 1) & mask) {
      this.bytes[i] = bytes;
      this.from[i] = from;
      this.to[i] = from = ends[p];
      this.label[i] = label;
      this.start[i] = start;
      this.flags[i] = flags;
      this.redirects[i] = 0;
    }
    this.size += count;
  }

  /** Takes the oldest entry: its position, whose columns (its bytes too) stay readable until the next push. */
  shift(): number {
    const i = this.head;
    this.head = (i + 1) & (this.capacity - 1);
    this.size--;
    return i;
  }

  /** Position of the k-th oldest entry. */
  at(k: number): number {
    return (this.head + k) & (this.capacity - 1);
  }

  /** Removes the `count` oldest entries. */
  drop(count: number): void {
    for (let k = 0; k < count; k++) this.bytes[this.at(k)] = undefined;
    this.head = this.at(count);
    this.size -= count;
  }

  clear(): void {
    this.drop(this.size);
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    this.bytes = this.reordered(this.bytes, new Array<Buffer | undefined>(capacity));
    this.from = this.reordered(this.from, new Int32Array(capacity));
    this.to = this.reordered(this.to, new Int32Array(capacity));
    this.label = this.reordered(this.label, new Int32Array(capacity));
    this.start = this.reordered(this.start, new Float64Array(capacity));
    this.flags = this.reordered(this.flags, new Uint8Array(capacity));
    this.redirects = this.reordered(this.redirects, new Uint8Array(capacity));
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

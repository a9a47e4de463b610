// One load connection's socket to one cluster node: the requests it has sent (oldest first), those
// waiting for it to connect, and the error replies of the current read.
import type { Socket } from 'node:net';
import { ReplyScanner } from '../../protocol/respScanner';
import type { KeyBacklog } from '../requests/keyBacklog';
import { ReplyMarks } from './replyMarks';
import { MISS_NIL_ELEMENTS, scannedMiss } from '../../scenario/missRules';

/** Entry flags: ASKING/READONLY (not a request of the load), and a request whose latency counts. */
export const INTERNAL = 1;
export const MEASURED = 2;
/** NodeLink.nested's third number for a nil two levels down (inside an element of EXEC's reply). */
export const DEEP_NIL = 2;

/**
 * A queue's first ring holds one entry and doubles as needed. Of a link's three queues two mostly stay empty (waiting
 * for a connection, staged), and the per-node loop's in-flight queue holds a batch as one entry: 64 rows each made a
 * 50-client run on 3 masters allocate 450 rings at its start, ~8 ms of its CPU (issue 46).
 */
const FIRST_CAPACITY = 1;

// A queue entry's fields, one row of PendingQueue.rows each: a row is 48 bytes, so queueing or answering an entry
// touches one cache line, where a column per field touched one per field (and the caches are cold by the time a
// link's replies come: the servers share the cores).
const FROM = 0;
const TO = 1;
const COUNT = 2;
const LABEL = 3;
const START = 4;
/** flags | redirects << 8 */
const MARKS = 5;
const ROW = 6;

/**
 * Requests in flight or waiting, oldest first: a ring of rows, so queueing and answering requests allocates
 * nothing. An entry is `count` requests of one label, start and flags, written one after the other as
 * bytes[from … to) of the buffer that was written (shared by a write's requests, kept for a resend after
 * MOVED/ASK), each (to - from) / count bytes long: a batch of the per-node loop is one entry, not one per request.
 * Latency counts from `start` (first send, or the intended time in open loop).
 */
export class PendingQueue {
  private capacity = FIRST_CAPACITY;
  private head = 0;
  /** Entries queued. */
  size = 0;
  /** Requests queued (the entries' counts added up). */
  requests = 0;
  // A spare row past the ring (position `capacity`): take() puts there the requests it splits off a run.
  private bytes: (Buffer | undefined)[] = new Array<Buffer | undefined>(FIRST_CAPACITY + 1);
  private rows = new Float64Array((FIRST_CAPACITY + 1) * ROW);

  /** Queues `count` requests (one unless they are of one length, back to back in bytes[from … to)). */
  push(bytes: Buffer, from: number, to: number, label: number, start: number, flags: number, redirects: number, count = 1): void {
    if (this.size === this.capacity) this.grow();
    const i = (this.head + this.size++) & (this.capacity - 1);
    this.bytes[i] = bytes;
    const rows = this.rows;
    const at = i * ROW;
    rows[at + FROM] = from;
    rows[at + TO] = to;
    rows[at + COUNT] = count;
    rows[at + LABEL] = label;
    rows[at + START] = start;
    rows[at + MARKS] = flags | (redirects << 8);
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
   * what was taken (countOf it), whose fields (its bytes too) stay readable until the next push or take.
   */
  take(most: number): number {
    const i = this.head;
    const rows = this.rows;
    const at = i * ROW;
    const count = rows[at + COUNT];
    if (count <= most) {
      this.head = (i + 1) & (this.capacity - 1);
      this.size--;
      this.requests -= count;
      return i;
    }
    // Part of a run: the requests taken are copied to the spare row, and the run keeps the rest.
    const spare = this.capacity;
    const to = spare * ROW;
    rows.copyWithin(to, at, at + ROW);
    this.bytes[spare] = this.bytes[i];
    const end = rows[at + FROM] + ((rows[at + TO] - rows[at + FROM]) / count) * most;
    rows[to + TO] = end;
    rows[to + COUNT] = most;
    rows[at + FROM] = end;
    rows[at + COUNT] = count - most;
    this.requests -= most;
    return spare;
  }

  /** Position of the k-th oldest entry. */
  at(k: number): number {
    return (this.head + k) & (this.capacity - 1);
  }

  bytesOf(i: number): Buffer {
    return this.bytes[i]!;
  }

  fromOf(i: number): number {
    return this.rows[i * ROW + FROM];
  }

  toOf(i: number): number {
    return this.rows[i * ROW + TO];
  }

  countOf(i: number): number {
    return this.rows[i * ROW + COUNT];
  }

  labelOf(i: number): number {
    return this.rows[i * ROW + LABEL];
  }

  startOf(i: number): number {
    return this.rows[i * ROW + START];
  }

  flagsOf(i: number): number {
    return this.rows[i * ROW + MARKS] & 0xff;
  }

  redirectsOf(i: number): number {
    return this.rows[i * ROW + MARKS] >> 8;
  }

  /** Removes the `count` oldest entries. */
  drop(count: number): void {
    for (let k = 0; k < count; k++) {
      const i = this.at(k);
      this.bytes[i] = undefined;
      this.requests -= this.rows[i * ROW + COUNT];
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
    const bytes = new Array<Buffer | undefined>(capacity + 1);
    const rows = new Float64Array((capacity + 1) * ROW);
    for (let k = 0; k < this.size; k++) {
      const i = this.at(k);
      bytes[k] = this.bytes[i];
      rows.set(this.rows.subarray(i * ROW, (i + 1) * ROW), k * ROW);
    }
    this.bytes = bytes;
    this.rows = rows;
    this.head = 0;
    this.capacity = capacity;
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
  /** Nil replies of the current scan (reply indexes): a transaction's EXEC, or a read's miss. */
  readonly nulls = new ReplyMarks();
  /** Empty arrays, sets and maps of the current scan (reply indexes): a miss of a read of a key's contents. */
  readonly empties = new ReplyMarks();
  /**
   * Nils and empty collections inside array replies of the current scan, three numbers each: reply, element, and 0 for
   * a nil, 1 for an empty collection, DEEP_NIL for a nil inside that element (a queued MGET's key, in EXEC's reply).
   */
  readonly nested: number[] = [];
  // The unit at the head of inFlight (command groups): replies taken, whether a redirection was counted, its first error.
  unitReplies = 0;
  unitRedirected = false;
  unitErrorKind: string | undefined;
  unitErrorText: string | undefined;
  /** Positions in that unit whose reply was an error (a transaction's reads that did not even queue); undefined while none. */
  unitFailedAt: number[] | undefined;

  constructor(readonly node: number) {
    this.scanner.onError = (_kind, text, index) => this.errors.set(index, text);
  }

  /** Reply `reply` of the current scan found nothing, under the miss rule of its command (scenario/replyMisses.ts)? */
  missed(reply: number, rule: number): boolean {
    return (this.nulls.has(reply) && scannedMiss(rule, false)) || (this.empties.has(reply) && scannedMiss(rule, true));
  }

  /** How many of the current scan's replies `from` … `to` − 1, all of one command (miss rule `rule`), found nothing. */
  misses(from: number, to: number, rule: number): number {
    return (scannedMiss(rule, false) ? this.nulls.countIn(from, to) : 0) + (scannedMiss(rule, true) ? this.empties.countIn(from, to) : 0);
  }

  /** Nil elements of array reply `reply` of the current scan: the keys an MGET did not find. */
  nilElements(reply: number): number {
    let count = 0;
    for (let k = 0; k < this.nested.length; k += 3) if (this.nested[k] === reply && this.nested[k + 2] === 0) count++;
    return count;
  }

  /** EXEC's reply `reply` of the current scan: `miss` for each queued read (`queued`: their labels, in order) whose element missed. */
  queuedMisses(reply: number, queued: readonly number[], rules: Uint8Array, miss: (label: number) => void): void {
    for (let k = 0; k < this.nested.length; k += 3) {
      if (this.nested[k] !== reply) continue;
      const label = queued[this.nested[k + 1]];
      if (label === undefined) continue;
      const what = this.nested[k + 2];
      if (what === DEEP_NIL ? rules[label] === MISS_NIL_ELEMENTS : scannedMiss(rules[label], what === 1)) miss(label);
    }
  }

  /** The reads of the current scan are done with. */
  clearReplies(): void {
    if (this.nested.length > 0) this.nested.length = 0;
    if (this.errors.size > 0) this.errors.clear();
    if (this.nulls.length > 0) this.nulls.clear();
    if (this.empties.length > 0) this.empties.clear();
  }
}

// Routing from the batch builder: the node of each key number, worked out from the key's bytes (the key argument
// of the test's one command, its digits rewritten) and the cluster's slot map. The per-node loop
// (fastClusterConnection.ts) puts each draw in its node's backlog; the open loop's buildRouted orders a batch by
// node, so each node's part is one run of the builder's buffer, written with no scan, copy or staging per request.
import type { KeyRouter } from '../requests/batch';
import type { ClusterState } from '../cluster/clusterState';
import { crc16, hashedPart, SLOT_COUNT } from '../cluster/slot';

export class SlotRouter implements KeyRouter {
  counts: Int32Array;
  starts: Int32Array;
  /**
   * A key's CRC, worked out from its number without writing its digits: CRC16 (XMODEM) has no initial value or final
   * xor, so over bytes of a fixed length it is linear. The CRC of the hashed part is that of the key with every digit
   * '0' (`zeroCrc`), xor, for each pair of digits counted from the right, the CRC of their difference from '00'
   * (`pairCrcs[100 × pair + value]`): a lookup per two digits, none dependent on the one before.
   */
  private readonly zeroCrc: number;
  private readonly pairCrcs: Uint16Array;
  /** The slot of every key number when the digits lie outside the hashed part (a `{tag}` without them), else -1. */
  private readonly fixedSlot: number;
  /** Reads may go to replicas: routed by the cluster state itself, not by the ranges below. */
  private readonly byState: boolean;
  constructor(
    request: Uint8Array,
    /** Where the key argument lies in `request`, and its digits inside it. */
    keyAt: { from: number; to: number },
    digits: { offset: number; digits: number },
    private readonly cluster: ClusterState,
    private readonly read: boolean,
    /** The connection's index: spreads replica reads, as route() does. */
    private readonly spread: number,
  ) {
    // The key argument, its digits all '0'. They hold no brace, so the hashed part is the same for every key number.
    const key = Buffer.from(request.subarray(keyAt.from, keyAt.to));
    const digitsAt = digits.offset - keyAt.from;
    key.fill(DIGIT_ZERO, digitsAt, digitsAt + digits.digits);
    const part = new Int32Array(2);
    hashedPart(key, 0, key.length, part);
    const inside = part[0] <= digitsAt && digitsAt + digits.digits <= part[1];
    this.fixedSlot = inside ? -1 : crc16(key, part[0], part[1]) & (SLOT_COUNT - 1);
    this.zeroCrc = inside ? crc16(key, part[0], part[1]) : 0;
    this.pairCrcs = inside ? sharedPairCrcs(key.length, part[0], part[1], digitsAt, digits.digits) : new Uint16Array(0);
    this.byState = read && cluster.plan.replicaReads;
    this.counts = new Int32Array(cluster.nodes.length);
    this.starts = new Int32Array(cluster.nodes.length + 1);
  }

  /** Before each batch: a group per node known (a redirection may have added nodes). */
  prepare(): void {
    const nodes = this.cluster.nodes.length;
    if (this.counts.length === nodes) return;
    this.counts = new Int32Array(nodes);
    this.starts = new Int32Array(nodes + 1);
  }

  groupOf(key: number): number {
    const slot = this.slotOf(key);
    return this.byState ? this.cluster.route(slot, this.read, this.spread) : this.masterOf(slot);
  }

  /**
   * The master of `slot`, by a binary search of the slot map's ranges (a few for a cluster whose masters own
   * ranges, one cache line), not by its table of 16,384 owners: read at random, that table missed the caches
   * while the servers shared the cores (half of the draw's time in a profile of a run).
   */
  masterOf(slot: number): number {
    const { starts, masters } = this.cluster.masterRanges();
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= slot) low = middle;
      else high = middle - 1;
    }
    return masters[low];
  }

  /**
   * Worked out each time, not kept in a table per key: a table of a large key space is read at random, and on a
   * machine whose cores the servers share, those reads miss the caches (measured: ~175 ns a key, against ~20 to hash).
   * Key numbers are below 10^digits (the key width holds the key space), so the pairs never run past the table.
   */
  slotOf(key: number): number {
    if (this.fixedSlot >= 0) return this.fixedSlot;
    const pairs = this.pairCrcs;
    let crc = this.zeroCrc;
    if (key <= 0x7fffffff) {
      // int32 division by a constant: V8 compiles it to a multiplication.
      for (let rest = key | 0, at = 0; rest > 0; at += 100) {
        const quotient = (rest / 100) | 0;
        crc ^= pairs[at + rest - quotient * 100];
        rest = quotient;
      }
    } else {
      for (let rest = key, at = 0; rest > 0; at += 100) {
        const quotient = Math.floor(rest / 100);
        crc ^= pairs[at + rest - quotient * 100];
        rest = quotient;
      }
    }
    return crc & (SLOT_COUNT - 1);
  }
}

const DIGIT_ZERO = 0x30;

/** Tables made in this thread, by where the digits and the hashed part lie: every connection of a load routes the same keys. */
const madeTables = new Map<string, Uint16Array>();
/** A load has a key shape per command; a thread hosting many loads starts again past this many. */
const MOST_TABLES = 64;

/**
 * pairCrcs, made once per thread and key shape (CRC16 is linear: the table depends on the positions alone). Made
 * for each of a load's connections, the tables cost a cluster run ~5 ms of CPU (1,200 CRCs each, before the JIT).
 */
function sharedPairCrcs(length: number, from: number, to: number, digitsAt: number, digits: number): Uint16Array {
  const shape = `${length},${from},${to},${digitsAt},${digits}`;
  let table = madeTables.get(shape);
  if (!table) {
    if (madeTables.size >= MOST_TABLES) madeTables.clear();
    table = pairCrcs(length, from, to, digitsAt, digits);
    madeTables.set(shape, table);
  }
  return table;
}

/**
 * pairCrcs of SlotRouter: for each pair of digits from the right (the leftmost may be a lone digit) and each value
 * 0 … 99, the CRC of the hashed part bytes[from … to) of a key `length` long that is zero but for those two digits'
 * difference from '0' (a digit d is '0' + d, and '0' xor ('0' + d) = d for d ≤ 9). CRC16 is linear, so a pair's
 * CRC is the xor of its two digits' alone: 9 CRCs a position, not 200 a pair (cold code: ~2 ms of a cluster run's start).
 */
function pairCrcs(length: number, from: number, to: number, digitsAt: number, digits: number): Uint16Array {
  const bytes = new Uint8Array(length);
  // digitCrcs[10 × (at − digitsAt) + d]: digit d alone at `at` (0 for d = 0).
  const digitCrcs = new Uint16Array(10 * digits);
  for (let at = digitsAt; at < digitsAt + digits; at++) {
    for (let digit = 1; digit <= 9; digit++) {
      bytes[at] = digit;
      digitCrcs[10 * (at - digitsAt) + digit] = crc16(bytes, from, to);
    }
    bytes[at] = 0;
  }
  const digitCrc = (at: number, digit: number): number => (at < digitsAt ? 0 : digitCrcs[10 * (at - digitsAt) + digit]);
  const pairs = Math.ceil(digits / 2);
  const table = new Uint16Array(pairs * 100);
  for (let pair = 0; pair < pairs; pair++) {
    const ones = digitsAt + digits - 1 - 2 * pair;
    for (let value = 0; value < 100; value++) table[pair * 100 + value] = digitCrc(ones, value % 10) ^ digitCrc(ones - 1, Math.floor(value / 10));
  }
  return table;
}

// Routing from the batch builder: the node of each key number, worked out from the key's bytes (the key argument
// of the test's one command, its digits rewritten) and the cluster's slot map. The per-node loop
// (fastClusterConnection.ts) puts each draw in its node's backlog; the open loop's buildRouted orders a batch by
// node, so each node's part is one run of the builder's buffer, written with no scan, copy or staging per request.
import type { KeyRouter } from '../requests/batch';
import { writeDigits } from '../requests/templateEncoder';
import type { ClusterState } from '../cluster/clusterState';
import { crc16, hashedPart, SLOT_COUNT } from '../cluster/slot';

export class SlotRouter implements KeyRouter {
  counts: Int32Array;
  starts: Int32Array;
  /** The key argument of a request (as encoded, its key digits rewritten per key). */
  private readonly key: Buffer;
  private readonly digitsAt: number;
  private readonly digits: number;
  /** Where the hashed part (hashedPart) ends in `key`, and the CRC of its bytes before the digits. */
  private readonly hashedTo: number;
  private readonly crcBefore: number;
  /** The slot of every key number when the digits lie outside the hashed part (a `{tag}` without them), else -1. */
  private readonly fixedSlot: number;
  /** Reads may go to replicas: routed by the cluster state itself, not by the ranges below. */
  private readonly byState: boolean;
  /** The slot map as ranges of one master each: range r is slots rangeStarts[r] … rangeStarts[r + 1] - 1, served by rangeMasters[r]. */
  private rangeStarts = new Int32Array(0);
  private rangeMasters = new Int32Array(0);
  /** The cluster state's `routing` the ranges were made from. */
  private rangesOf = -1;

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
    this.key = Buffer.from(request.subarray(keyAt.from, keyAt.to));
    this.digitsAt = digits.offset - keyAt.from;
    this.digits = digits.digits;
    // The digits hold no brace, so the hashed part is the same for every key number: its bytes before the
    // digits never change (their CRC is worked out once), and only the digits and what follows them are hashed per key.
    const part = new Int32Array(2);
    hashedPart(this.key, 0, this.key.length, part);
    const inside = part[0] <= this.digitsAt && this.digitsAt + this.digits <= part[1];
    this.hashedTo = part[1];
    this.crcBefore = inside ? crc16(this.key, part[0], this.digitsAt) : 0;
    this.fixedSlot = inside ? -1 : crc16(this.key, part[0], part[1]) & (SLOT_COUNT - 1);
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
    if (this.rangesOf !== this.cluster.routing) this.makeRanges();
    const starts = this.rangeStarts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= slot) low = middle;
      else high = middle - 1;
    }
    return this.rangeMasters[low];
  }

  private makeRanges(): void {
    const owner = this.cluster.owner;
    let ranges = 1;
    for (let slot = 1; slot < SLOT_COUNT; slot++) if (owner[slot] !== owner[slot - 1]) ranges++;
    const starts = new Int32Array(ranges);
    const masters = new Int32Array(ranges);
    masters[0] = owner[0];
    for (let slot = 1, r = 0; slot < SLOT_COUNT; slot++) {
      if (owner[slot] === owner[slot - 1]) continue;
      starts[++r] = slot;
      masters[r] = owner[slot];
    }
    this.rangeStarts = starts;
    this.rangeMasters = masters;
    this.rangesOf = this.cluster.routing;
  }

  /**
   * Worked out each time, not kept in a table per key: a table of a large key space is read at random, and on a
   * machine whose cores the servers share, those reads miss the caches (measured: ~175 ns a key, against ~20 to hash).
   */
  slotOf(key: number): number {
    if (this.fixedSlot >= 0) return this.fixedSlot;
    writeDigits(this.key, this.digitsAt, this.digits, key);
    return crc16(this.key, this.digitsAt, this.hashedTo, this.crcBefore) & (SLOT_COUNT - 1);
  }
}

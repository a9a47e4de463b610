// Routing from the batch builder (BatchBuilder.buildRouted): the node of each key number, worked out from the
// key's bytes (the key argument of the test's one command, its digits rewritten) and the cluster's slot map,
// so a batch comes out ordered by node and each node's part is one run of the builder's buffer: written as it
// is, with no scan of the request, no copy and no staging per request.
import type { KeyRouter } from '../requests/batch';
import { writeDigits } from '../requests/templateEncoder';
import type { ClusterState } from '../cluster/clusterState';
import { slotOfBytes } from '../cluster/slot';

/** Key spaces up to this many keys keep each key's slot once worked out (2 bytes a key: 2 MiB at most). */
const SLOT_CACHE_KEYS = 1 << 20;
const UNKNOWN = 0xffff;
/** Key shapes whose slots a thread keeps (a run's tests share a few): past it the oldest is dropped. */
const CACHED_SHAPES = 4;

/**
 * Slot of each key number, per key shape (the key argument with its digits zeroed, and where they are): a slot
 * depends on the key's bytes only, so every connection of the thread shares one table, filled as keys come.
 */
const slotCaches = new Map<string, Uint16Array>();

function slotCache(shape: string, keySpace: number): Uint16Array | undefined {
  if (keySpace > SLOT_CACHE_KEYS) return undefined;
  const name = `${keySpace} ${shape}`;
  let cache = slotCaches.get(name);
  if (cache === undefined) {
    if (slotCaches.size >= CACHED_SHAPES) slotCaches.delete(slotCaches.keys().next().value!);
    slotCaches.set(name, (cache = new Uint16Array(keySpace).fill(UNKNOWN)));
  }
  return cache;
}

export class SlotRouter implements KeyRouter {
  counts: Int32Array;
  starts: Int32Array;
  /** The key argument of a request (as encoded, its key digits rewritten per key). */
  private readonly key: Buffer;
  private readonly digitsAt: number;
  private readonly digits: number;
  private readonly slots: Uint16Array | undefined;

  constructor(
    request: Uint8Array,
    /** Where the key argument lies in `request`, and its digits inside it. */
    keyAt: { from: number; to: number },
    digits: { offset: number; digits: number },
    keySpace: number,
    private readonly cluster: ClusterState,
    private readonly read: boolean,
    /** The connection's index: spreads replica reads, as route() does. */
    private readonly spread: number,
  ) {
    this.key = Buffer.from(request.subarray(keyAt.from, keyAt.to));
    this.digitsAt = digits.offset - keyAt.from;
    this.digits = digits.digits;
    this.slots = slotCache(`${this.digitsAt} ${digits.digits} ${this.key.toString('latin1')}`, Math.floor(keySpace));
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
    return this.cluster.route(this.slotOf(key), this.read, this.spread);
  }

  slotOf(key: number): number {
    const cache = this.slots;
    if (cache === undefined) return this.computeSlot(key);
    let slot = cache[key];
    if (slot === UNKNOWN) slot = cache[key] = this.computeSlot(key);
    return slot;
  }

  private computeSlot(key: number): number {
    writeDigits(this.key, this.digitsAt, this.digits, key);
    return slotOfBytes(this.key, 0, this.key.length);
  }
}

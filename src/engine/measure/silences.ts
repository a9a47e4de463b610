// Silences: stretches in which a connection had requests outstanding and heard no reply. Each worker
// notes its connections' silences of SILENCE_MIN_MS or more into a bounded list; the main thread joins
// the workers' lists into the load's stalls (joinSilences). Times in ms since measuring began.
import type { Stall } from '../types';

/** A connection quiet this long with requests outstanding is silent (issue 20: a freeze must show). */
export const SILENCE_MIN_MS = 100;
/** At most this many stretches per worker: memory stays flat however many connections go quiet. */
export const MAX_SILENCES = 64;

/** A stretch in which `connections` connections were silent throughout. */
export interface Silence {
  fromMs: number;
  toMs: number;
  connections: number;
}

/**
 * Adds a stretch to a bounded list: one that overlaps an entry by at least half the shorter of the two is
 * the same stall seen by another connection (the entry narrows to what both were silent through); a full
 * list keeps its longest entries.
 */
export function addSilence(list: Silence[], fromMs: number, toMs: number, connections: number, limit = MAX_SILENCES): void {
  for (const entry of list) {
    const overlap = Math.min(entry.toMs, toMs) - Math.max(entry.fromMs, fromMs);
    if (overlap > 0 && overlap >= Math.min(entry.toMs - entry.fromMs, toMs - fromMs) / 2) {
      entry.fromMs = Math.max(entry.fromMs, fromMs);
      entry.toMs = Math.min(entry.toMs, toMs);
      entry.connections += connections;
      return;
    }
  }
  if (list.length < limit) {
    list.push({ fromMs, toMs, connections });
    return;
  }
  let shortest = 0;
  for (let i = 1; i < list.length; i++) if (list[i].toMs - list[i].fromMs < list[shortest].toMs - list[shortest].fromMs) shortest = i;
  if (toMs - fromMs > list[shortest].toMs - list[shortest].fromMs) list[shortest] = { fromMs, toMs, connections };
}

/**
 * The load's stalls from every worker's silences: joined across workers, kept when at least
 * max(SILENCE_MIN_MS, 10 × the test's p99) long (a silence near the usual latency is no stall), in time order.
 */
export function joinSilences(perWorker: readonly (readonly Silence[] | undefined)[], connections: number, p99Us: number): Stall[] {
  const joined: Silence[] = [];
  const all = perWorker.flatMap((list) => list ?? []).sort((a, b) => a.fromMs - b.fromMs);
  for (const silence of all) addSilence(joined, silence.fromMs, silence.toMs, silence.connections);
  const minMs = Math.max(SILENCE_MIN_MS, (10 * p99Us) / 1000);
  return joined
    .filter((s) => s.toMs - s.fromMs >= minMs)
    .sort((a, b) => a.fromMs - b.fromMs)
    .map((s) => ({ fromMs: Math.round(s.fromMs), toMs: Math.round(s.toMs), connections: Math.min(s.connections, connections), of: connections }));
}

/**
 * One worker's watch over its connections' replies: the last reply each heard, and since when it had
 * requests outstanding. Typed arrays, no allocation per reply.
 */
export class SilenceWatch {
  readonly silences: Silence[] = [];
  private readonly lastHeard: Float64Array;
  private readonly busySince: Float64Array;
  /** performance.now() when measuring began; silences before it are not noted. */
  private start = Infinity;
  /** Since when every quiet stretch counts (measuring began, or a connection came back up). */
  private floor = 0;
  private closed = false;

  constructor(connections: number) {
    this.lastHeard = new Float64Array(connections);
    this.busySince = new Float64Array(connections);
  }

  begin(now: number): void {
    this.start = this.floor = now;
    this.silences.length = 0;
    this.closed = false;
  }

  /** Connection `slot` had nothing outstanding and sends now (open loop): its quiet time starts here. */
  sending(slot: number, now: number): void {
    this.busySince[slot] = now;
  }

  /** A connection came back up: the time it was down is the server-lost watch's business, not a silence. */
  reconnected(now: number): void {
    this.floor = now;
  }

  /** Connection `slot` heard a reply at `now`. */
  heard(slot: number, now: number): void {
    if (!this.closed) this.noteQuiet(slot, now);
    this.lastHeard[slot] = now;
  }

  /** The window ends at `now`: connections still quiet with requests outstanding close their silence here; later replies add none. */
  close(now: number, outstanding: (slot: number) => number): void {
    if (this.closed) return;
    // A connection never heard (its client path does not report replies, or it never got one) is the stall limit's business.
    for (let slot = 0; slot < this.lastHeard.length; slot++) if (this.lastHeard[slot] > 0 && outstanding(slot) > 0) this.noteQuiet(slot, now);
    this.closed = true;
  }

  /**
   * The silences the connections themselves heard, less those the client made: a thread paused (a GC, or
   * waiting for a core) hears nothing either, but that is no stall of the server. `pausedWithin` gives the
   * thread's own paused time in a stretch (ms since measuring began).
   */
  heardSilences(pausedWithin: (fromMs: number, toMs: number) => number): Silence[] {
    return this.silences.filter((s) => s.toMs - s.fromMs - pausedWithin(s.fromMs, s.toMs) >= SILENCE_MIN_MS);
  }

  private noteQuiet(slot: number, now: number): void {
    const quietSince = Math.max(this.lastHeard[slot], this.busySince[slot], this.floor);
    if (now - quietSince >= SILENCE_MIN_MS && now > this.start) addSilence(this.silences, quietSince - this.start, now - this.start, 1);
  }
}

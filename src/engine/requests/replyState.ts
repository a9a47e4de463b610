// A connection's memory of its previous replies, for reply-driven commands (scenario/replyForms.ts): each SCAN-family
// command's cursor (a full pass ends when the server answers cursor 0, and the next starts again), and the entry IDs
// the last XREADGROUP returned (for `XACK … __ids__`). Any connection that reads whole replies can keep one; the
// blocking consumers of a queue use the same IDs.
import type { RespValue } from '../../protocol/respValue';

/** What a SCAN-family reply told: the next cursor and how many items (keys, members, field/value pairs) it returned. */
export interface ScanStep {
  cursor: string;
  items: number;
}

/** `[cursor, [elements…]]`: the next cursor and the elements returned (HSCAN's and ZSCAN's come in pairs: `pairs` counts those once). */
export function readScanStep(reply: RespValue, pairs: boolean): ScanStep | undefined {
  if (!Array.isArray(reply) || reply.length !== 2 || typeof reply[0] !== 'string' || !/^\d+$/.test(reply[0]) || !Array.isArray(reply[1])) return undefined;
  return { cursor: reply[0], items: pairs ? Math.floor(reply[1].length / 2) : reply[1].length };
}

/**
 * The entry IDs of an XREADGROUP reply, every stream's: RESP2 `[[stream, [[id, fields], …]], …]`, RESP3 a map read
 * flat `[stream, [[id, fields], …], …]`; nil (nothing new) holds none. Entries deleted since delivery come as
 * `[id, nil]`: their IDs are still pending, so they are acked too.
 */
export function readStreamIds(reply: RespValue): string[] | undefined {
  if (reply === null) return [];
  if (!Array.isArray(reply)) return undefined;
  const streams: RespValue[] = reply.length > 0 && Array.isArray(reply[0]) ? reply : pairsOf(reply);
  const ids: string[] = [];
  for (const stream of streams) {
    if (!Array.isArray(stream) || stream.length !== 2 || !Array.isArray(stream[1])) return undefined;
    for (const entry of stream[1]) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string') return undefined;
      ids.push(entry[0]);
    }
  }
  return ids;
}

function pairsOf(flat: RespValue[]): RespValue[] {
  const pairs: RespValue[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
  return pairs;
}

/** One connection's state between replies. */
export class ReplyState {
  /** Per command of the test: its cursor (SCAN-family commands only). */
  private readonly cursors: string[];
  /** The IDs the last XREADGROUP returned. */
  ids: string[] = [];

  constructor(commands: number) {
    this.cursors = new Array<string>(commands).fill('0');
  }

  cursor(command: number): string {
    return this.cursors[command];
  }

  /** A SCAN-family reply to `command`: its next cursor. True when it ended a full pass (cursor 0). */
  scanned(command: number, step: ScanStep): boolean {
    this.cursors[command] = step.cursor;
    return step.cursor === '0';
  }

  /** Back to the start (measuring begins, or the connection was replaced): passes start from cursor 0. */
  reset(): void {
    this.cursors.fill('0');
    this.ids = [];
  }
}

// The miss rules as the engine's threads read them: numbers and a test of a whole reply, with no import, so an
// engine thread's bundle takes nothing of the command table (src/scenario/replyMisses.ts decides the rules).
/**
 * Per command: 0 counts no misses (not a read), 1 counts nil replies, 2 counts nil and empty collections, 3 counts
 * the nil elements of its array reply, one per key or field (MGET, HMGET). Numbers: the hot path reads them from an array.
 */
export const MISS_NONE = 0;
export const MISS_NIL = 1;
export const MISS_NIL_OR_EMPTY = 2;
export const MISS_NIL_ELEMENTS = 3;
export type MissRule = typeof MISS_NONE | typeof MISS_NIL | typeof MISS_NIL_OR_EMPTY | typeof MISS_NIL_ELEMENTS;

/** A whole reply (the ioredis path's): a miss under `rule`? (A per-key rule's misses are its elements: missesIn.) */
export function isMissReply(rule: number, reply: unknown): boolean {
  if (rule === MISS_NONE || rule === MISS_NIL_ELEMENTS) return false;
  if (reply === null) return true;
  return rule === MISS_NIL_OR_EMPTY && isEmptyCollection(reply);
}

/** An empty array, or the empty object ioredis makes of an empty HGETALL reply (its reply transformer, on the cluster path's lower-case calls). */
function isEmptyCollection(reply: unknown): boolean {
  if (Array.isArray(reply)) return reply.length === 0;
  return (
    typeof reply === 'object' &&
    reply !== null &&
    !Buffer.isBuffer(reply) &&
    Object.getPrototypeOf(reply) === Object.prototype &&
    Object.keys(reply).length === 0
  );
}

/** The misses a whole reply counts under `rule`: 0 or 1, or for a per-key read its nil elements. */
export function missesIn(rule: number, reply: unknown): number {
  if (rule !== MISS_NIL_ELEMENTS) return isMissReply(rule, reply) ? 1 : 0;
  if (!Array.isArray(reply)) return 0;
  let misses = 0;
  for (const element of reply) if (element === null) misses++;
  return misses;
}

/** A nil (or, `empty`, an empty collection) reply read by a scanner: a miss under `rule`? */
export function scannedMiss(rule: number, empty: boolean): boolean {
  return empty ? rule === MISS_NIL_OR_EMPTY : rule === MISS_NIL || rule === MISS_NIL_OR_EMPTY;
}

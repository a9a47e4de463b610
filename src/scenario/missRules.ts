// The miss rules as the engine's threads read them: numbers and a test of a whole reply, with no import, so an
// engine thread's bundle takes nothing of the command table (src/scenario/replyMisses.ts decides the rules).
/** Per command: 0 counts no misses (not a read), 1 counts nil replies, 2 counts nil and empty collections. Numbers: the hot path reads them from an array. */
export const MISS_NONE = 0;
export const MISS_NIL = 1;
export const MISS_NIL_OR_EMPTY = 2;
export type MissRule = typeof MISS_NONE | typeof MISS_NIL | typeof MISS_NIL_OR_EMPTY;

/** A whole reply (the ioredis path's): a miss under `rule`? */
export function isMissReply(rule: MissRule, reply: unknown): boolean {
  if (rule === MISS_NONE) return false;
  if (reply === null) return true;
  return rule === MISS_NIL_OR_EMPTY && Array.isArray(reply) && reply.length === 0;
}

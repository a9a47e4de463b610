// A sharded run's `cleanup` runs once, after every part has ended: a part that deleted the keys when it ended
// would delete keys its siblings are still writing and reading. The parts agree through one counter on the
// server, `rbench:parts:<run id>:ended`: each part INCRs it when its loads are over, and the one that brings it
// to the part count is the last, whatever order they end in (the server runs one INCR at a time). That part
// cleans and removes the counter; the counter expires within a day if a part never gets that far.
import type { ControlLink } from '../redis/controlLink';

/** A day: longer than any run; a part that died leaves no counter for ever. */
const COUNTER_TTL_S = 86_400;

/** The counter the parts of run `runId` count their ends in. */
export function partsEndedKey(runId: string): string {
  return `rbench:parts:${runId}:ended`;
}

/** The counter's words in the consent question and the safety list: a sharded run with a cleanup writes it. */
export function partsEndedWrite(runId: string): string {
  return `INCR ${partsEndedKey(runId)} (the parts count their ends: the last cleans up)`;
}

export type PartsEnded = { last: true } | { last: false; ended: number };

/**
 * Counts this part's end: `last` when every part has now ended (this one cleans up and the counter is removed),
 * else how many have. Rejects when the server refuses the counter (ACL, a cluster node that does not own its slot).
 */
export async function countPartEnded(control: ControlLink, shard: { count: number; runId: string }): Promise<PartsEnded> {
  const key = partsEndedKey(shard.runId);
  const ended = Number(await control.call('INCR', key));
  if (ended >= shard.count) {
    await control.call('DEL', key);
    return { last: true };
  }
  await control.call('EXPIRE', key, COUNTER_TTL_S);
  return { last: false, ended };
}

// Captured blocking pops replayed as job queues: a blocking pop (BRPOP, BLMOVE, BZPOPMIN…) seen in the
// MONITOR sample becomes a consumer group when the sample also holds the pushes that feed it (LPUSH/RPUSH on
// the list it waits on, ZADD on the sorted set): the pushes become the producer group, at their captured rate,
// the pop the consumer group, as captured (its timeout kept), with as many clients as blocked in the sample.
// A pop without its pushes, on keys that vary, or on a stream stays "not reproduced", with the reason.
import { consumerWait } from '../scenario/consumerGroup';
import type { ShapeTally } from './traffic';
import type { WorkloadLine } from './workloadLine';

/** The pushes that feed each blocking pop a queue replays, by the type the pop takes from. */
const LIST_PUSHES = ['LPUSH', 'RPUSH', 'LPUSHX', 'RPUSHX'];
const FEEDERS: Record<string, readonly string[]> = {
  BLPOP: LIST_PUSHES,
  BRPOP: LIST_PUSHES,
  BLMOVE: LIST_PUSHES,
  BRPOPLPUSH: LIST_PUSHES,
  BLMPOP: LIST_PUSHES,
  BZPOPMIN: ['ZADD'],
  BZPOPMAX: ['ZADD'],
  BZMPOP: ['ZADD'],
};

export interface ConsumerPlan {
  command: string;
  /** As written: literal (renamed) keys and the captured timeout. */
  args: string[];
  /** The distinct clients that sent this blocking command in the sample. */
  clients: number;
  /** Share of all the commands captured. */
  share: number;
}

export interface QueuePlan {
  /** The keys the consumers wait on, as written. */
  keys: string[];
  /** The pushes that feed them: lines of the workload, taken out of its key groups. */
  producers: WorkloadLine[];
  consumers: ConsumerPlan[];
}

/** A blocking command the queues did not take, and why. */
export interface UnqueuedPop {
  command: string;
  count: number;
  reason: string;
}

/** A written argument that is still a placeholder (`__key__`, `fN` is fine): a consumer waits on the same keys every time. */
const hasPlaceholder = (arg: string) => /__[a-z_0-9]+__/i.test(arg);

/**
 * The queues of a capture: each blocking shape in `blocking` whose keys are literal and fed by pushes in `lines`
 * (a push whose key is one the pop waits on). `calls`: each blocking command's calls, split over its shapes by
 * the sample's counts; `share`: a call's share of all the commands.
 */
export function planQueues(
  blocking: Iterable<ShapeTally>,
  calls: ReadonlyMap<string, number>,
  callShare: number,
  lines: readonly WorkloadLine[],
  argsOf: (tally: ShapeTally) => string[],
): { queues: QueuePlan[]; left: UnqueuedPop[] } {
  const tallies = [...blocking].filter((tally) => calls.has(tally.command)).sort((a, b) => b.count - a.count);
  const seen = new Map<string, number>();
  for (const tally of tallies) seen.set(tally.command, (seen.get(tally.command) ?? 0) + tally.count);
  const queues: QueuePlan[] = [];
  const left: UnqueuedPop[] = [];
  const claimed = new Set<WorkloadLine>();
  for (const tally of tallies) {
    const count = ((calls.get(tally.command) ?? 0) * tally.count) / (seen.get(tally.command) ?? 1);
    const reason = queueFor(tally, argsOf(tally), count * callShare, lines, queues, claimed);
    if (reason) left.push({ command: tally.command, count, reason });
  }
  return { queues, left };
}

/** Adds the shape's consumers to a queue (a new one, or the one already fed on its keys); else why not. */
function queueFor(
  tally: ShapeTally,
  args: string[],
  share: number,
  lines: readonly WorkloadLine[],
  queues: QueuePlan[],
  claimed: Set<WorkloadLine>,
): string | undefined {
  const pushes = FEEDERS[tally.command];
  if (!pushes) return 'stream reads: their IDs and stream groups are not replayed';
  if (args.some(hasPlaceholder)) return 'it waits on keys that vary, and a consumer group waits on the same keys every time';
  const keys = consumerWait(tally.command, args).keys;
  if (keys.length === 0) return 'its keys could not be read';
  const consumer: ConsumerPlan = { command: tally.command, args, clients: Math.max(1, tally.sources.size), share };
  const fed = queues.find((queue) => queue.keys.some((key) => keys.includes(key)));
  if (fed) {
    fed.consumers.push(consumer);
    return undefined;
  }
  const producers = lines.filter((line) => !claimed.has(line) && pushes.includes(line.command) && keys.includes(line.args[0]));
  if (producers.length === 0) return `no ${pushes.join('/')} on its keys was captured: a consumer group needs its producers`;
  for (const line of producers) claimed.add(line);
  queues.push({ keys, producers, consumers: [consumer] });
  return undefined;
}

// Captured blocking pops replayed as job queues: a blocking pop (BRPOP, BLMOVE, BZPOPMIN…) seen in the
// MONITOR sample becomes a consumer group when the sample also holds the pushes that feed it (LPUSH/RPUSH on
// the list it waits on, ZADD on the sorted set): the pushes become the producer group, at their captured rate,
// the pop the consumer group, as captured (its timeout kept), with as many clients as blocked in the sample.
// A stream read in a stream group (`XREADGROUP GROUP g c … BLOCK ms STREAMS key >`) fed by XADD is a queue too:
// its consumers read new entries (`>`) under a name each (`c__client__`) and acknowledge what they read (`XACK key
// g __ids__`, unless the source read with NOACK); the captured XACKs are theirs, so they leave the key groups, and
// the stream group is created before the phase (`XGROUP CREATE key g $ MKSTREAM`, scenarioText.ts).
// A pop without its pushes, on keys that vary, or a stream read outside a group stays "not reproduced", with the reason.
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
  XREADGROUP: ['XADD'],
};

export interface ConsumerPlan {
  command: string;
  /** As written: literal (renamed) keys and the captured timeout. */
  args: string[];
  /** The distinct clients that sent this blocking command in the sample. */
  clients: number;
  /** Share of all the commands captured. */
  share: number;
  /** A stream read's acknowledgement after each read: `XACK`'s arguments (key, group, `__ids__`). */
  ack?: string[];
}

export interface QueuePlan {
  /** The keys the consumers wait on, as written. */
  keys: string[];
  /** The pushes that feed them: lines of the workload, taken out of its key groups. */
  producers: WorkloadLine[];
  consumers: ConsumerPlan[];
  /** Lines the consumers send themselves (the captured XACKs of a stream queue): taken out of the key groups, not written. */
  absorbed: WorkloadLine[];
  /** Stream groups the consumers read in: created before the queue runs. */
  streamGroups: { key: string; group: string }[];
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
  if (!pushes) return 'stream reads outside a stream group: each reader gets every entry, no queue to replay';
  const stream = tally.command === 'XREADGROUP' ? streamRead(args) : undefined;
  if (typeof stream === 'string') return stream;
  const written = stream?.args ?? args;
  if ((stream ? [...stream.keys, stream.group] : args).some(hasPlaceholder))
    return 'it waits on keys that vary, and a consumer group waits on the same keys every time';
  const keys = consumerWait(tally.command, written).keys;
  if (keys.length === 0) return 'its keys could not be read';
  const consumer: ConsumerPlan = {
    command: tally.command,
    args: written,
    clients: Math.max(1, tally.sources.size),
    share,
    ...(stream?.ack ? { ack: stream.ack } : {}),
  };
  const fed = queues.find((queue) => queue.keys.some((key) => keys.includes(key)));
  if (fed) {
    // Consumers of one shape (a stream read's names differ per client, but it is written once, `c__client__`) add up.
    const same = fed.consumers.find((other) => other.command === consumer.command && other.args.join(' ') === consumer.args.join(' '));
    if (same) {
      same.clients += consumer.clients;
      same.share += consumer.share;
    } else fed.consumers.push(consumer);
    if (stream) addGroup(fed, keys[0], stream.group);
    return undefined;
  }
  const producers = lines.filter((line) => !claimed.has(line) && pushes.includes(line.command) && keys.includes(line.args[0]));
  if (producers.length === 0) return `no ${pushes.join('/')} on its keys was captured: a consumer group needs its producers`;
  for (const line of producers) claimed.add(line);
  // A stream queue's captured XACKs on its keys are the consumers' own acknowledgements.
  const absorbed = stream ? lines.filter((line) => !claimed.has(line) && line.command === 'XACK' && keys.includes(line.args[0])) : [];
  for (const line of absorbed) claimed.add(line);
  const queue: QueuePlan = { keys, producers, consumers: [consumer], absorbed, streamGroups: [] };
  if (stream) addGroup(queue, keys[0], stream.group);
  queues.push(queue);
  return undefined;
}

function addGroup(queue: QueuePlan, key: string, group: string): void {
  if (!queue.streamGroups.some((each) => each.key === key && each.group === group)) queue.streamGroups.push({ key, group });
}

/**
 * A captured `XREADGROUP GROUP g c [COUNT n] BLOCK ms [NOACK] STREAMS key >` as a consumer writes it: the consumer
 * named per client (`c__client__`), and its acknowledgement (`XACK key g __ids__`) unless it read with NOACK.
 * Else why it is not replayed.
 */
function streamRead(args: readonly string[]): { args: string[]; keys: string[]; group: string; ack?: string[] } | string {
  const upper = args.map((arg) => arg.toUpperCase());
  const streams = upper.indexOf('STREAMS');
  if (upper[0] !== 'GROUP' || args.length < 3 || streams < 0) return 'its stream group could not be read';
  const keys = args.slice(streams + 1, streams + 1 + (args.length - streams - 1) / 2);
  const ids = args.slice(streams + 1 + keys.length);
  if (ids.length === 0 || ids.some((id) => id !== '>')) return 'it reads its own pending entries (an ID, not `>`): only reads of new entries are replayed';
  if (keys.length !== 1) return 'it reads several streams, and one XACK acknowledges one stream';
  const written = [...args];
  written[2] = 'c__client__';
  const group = args[1];
  return { args: written, keys, group, ...(upper.includes('NOACK') ? {} : { ack: [keys[0], group, '__ids__'] }) };
}

// `rbench merge` of the figures only some loads carry: a consumer group's (`consumer`), a publisher's or subscriber's
// (`pubsub`) and a reply-driven command's counts (`replies`). Counts add up; histograms add like the latency
// histograms; what every part read of one shared thing (the queue at the end) is taken from the part that read last.
import { MAX_PUBSUB_CHANNELS, type CommandResult, type ConsumerResult, type LoadResult, type PubSubResult } from '../engine';
import { recordFromMap } from '../gates/plainData';

type Summarise = (encoded: readonly string[]) => { latency: ConsumerResult['wakeUp']['latency']; histogram: string };

const sumOf = <T>(items: readonly T[], pick: (item: T) => number | undefined) => items.reduce((sum, item) => sum + (pick(item) ?? 0), 0);

/** A reply-driven command's counts (passes, items, reloads, read, acked, skipped), added name by name; none when no part has them. */
export function mergeReplies(results: readonly CommandResult[]): Record<string, number> | undefined {
  const counts = new Map<string, number>();
  for (const result of results) for (const [name, count] of Object.entries(result.replies ?? {})) counts.set(name, (counts.get(name) ?? 0) + count);
  return counts.size > 0 ? recordFromMap(counts) : undefined;
}

const endRank: Record<ConsumerResult['ended'], number> = { drained: 0, 'drain-limit': 1, cancelled: 2 };

/**
 * The parts' consumer groups as one: consumers, pops, jobs, empty returns and idle time add up, the wake-up histograms
 * add, the drain is the longest and the end the worst. Every part read the one queue when its consumers stopped: the
 * part that stopped last read what was really left (an earlier part's read may count jobs the others then took).
 */
export function mergeConsumers(loads: readonly LoadResult[], mergeHistograms: Summarise): ConsumerResult | undefined {
  const parts = loads.flatMap((load) => (load.consumer ? [{ load, consumer: load.consumer }] : []));
  if (parts.length === 0) return undefined;
  const consumers = parts.map((part) => part.consumer);
  const stopped = (part: (typeof parts)[number]) => Date.parse(part.load.measuredFrom ?? part.load.startedAt) + part.load.durationMs + part.consumer.drainMs;
  const last = parts.reduce((latest, part) => (stopped(part) > stopped(latest) ? part : latest));
  return {
    consumers: sumOf(consumers, (c) => c.consumers),
    pops: sumOf(consumers, (c) => c.pops),
    jobs: sumOf(consumers, (c) => c.jobs),
    emptyReturns: sumOf(consumers, (c) => c.emptyReturns),
    wakeUp: mergeHistograms(consumers.map((c) => c.wakeUp.histogram)),
    idleMs: sumOf(consumers, (c) => c.idleMs),
    // Each part's average idle consumers over its window; the parts ran side by side, so their averages add.
    idleConsumers: sumOf(consumers, (c) => c.idleConsumers),
    drainMs: Math.max(...consumers.map((c) => c.drainMs)),
    ended: consumers.reduce((worst, c) => (endRank[c.ended] > endRank[worst.ended] ? c : worst)).ended,
    queueLeft: last.consumer.queueLeft.map((entry) => ({ ...entry })),
    ...(consumers.some((c) => c.acked !== undefined) ? { acks: sumOf(consumers, (c) => c.acks ?? 0), acked: sumOf(consumers, (c) => c.acked ?? 0) } : {}),
  };
}

/** Channel counts added per channel, kept to the busiest MAX_PUBSUB_CHANNELS (as a part's are) with the rest under `…`. */
function mergeChannels(all: readonly Record<string, number>[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const channels of all) for (const [name, count] of Object.entries(channels)) counts.set(name, (counts.get(name) ?? 0) + count);
  const rest = counts.get('…') ?? 0;
  counts.delete('…');
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const kept = new Map(sorted.slice(0, MAX_PUBSUB_CHANNELS));
  const over = rest + sumOf(sorted.slice(MAX_PUBSUB_CHANNELS), ([, count]) => count);
  if (over > 0) kept.set('…', over);
  return recordFromMap(kept);
}

/**
 * The parts' publishers or subscribers as one. Counts add. A subscriber part heard every part's publishers, and each
 * part's `expected` is its own publishers' PUBLISH replies (deliveries to every machine's subscribers): summed, they
 * are the whole's expected deliveries, and `lost` is read again from the sums — a part's own `lost` compared its
 * deliveries with one machine's promises. Parts made on machines that differ, or already reading another machine's
 * stamps (`--shard`), compare several clocks: the merged latency is then no latency.
 */
export function mergePubSub(loads: readonly LoadResult[], sameMachine: boolean): PubSubResult | undefined {
  const parts = loads.flatMap((load) => (load.pubsub ? [load.pubsub] : []));
  if (parts.length === 0) return undefined;
  const merged: PubSubResult = { role: parts[0].role };
  const add = (field: 'published' | 'expected' | 'unheard' | 'delivered' | 'unstamped' | 'disconnected' | 'resubscribed') => {
    if (parts.some((part) => part[field] !== undefined)) merged[field] = sumOf(parts, (part) => part[field]);
  };
  for (const field of ['published', 'expected', 'unheard', 'delivered', 'unstamped', 'disconnected', 'resubscribed'] as const) add(field);
  // Expected is known only when every part knew its own: a sum over some parts would promise too little.
  if (merged.role === 'subscriber' && parts.some((part) => part.expected === undefined)) delete merged.expected;
  if (merged.role === 'subscriber' && merged.expected !== undefined) merged.lost = Math.max(0, merged.expected - (merged.delivered ?? 0));
  const channels = parts.flatMap((part) => (part.channels ? [part.channels] : []));
  if (channels.length > 0) merged.channels = mergeChannels(channels);
  if (parts.some((part) => part.drainMs !== undefined)) merged.drainMs = Math.max(...parts.map((part) => part.drainMs ?? 0));
  if (parts.some((part) => part.clock !== undefined))
    merged.clock = !sameMachine || parts.some((part) => part.clock === 'several-machines') ? 'several-machines' : 'one-machine';
  return merged;
}

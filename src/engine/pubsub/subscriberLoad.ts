// A subscriber group: `clients` connections, each subscribed to its channels, counting what the server pushes
// until the phase's publishers end, then a short drain. Runs in the main process: a subscriber only reads, and a
// worker thread would cost every run the worker bundle's start for nothing. Each message's send stamp (`__now__`
// at its start, src/engine/sendStamp.ts) gives the publish→receive latency on this machine's monotonic clock.
import { performance } from 'node:perf_hooks';
import { recordFromMap } from '../../gates/plainData';
import type { PhasePlan, TestPlan } from '../../scenario/plan';
import type { ConnectionOptions } from '../../redis/types';
import { LOAD_REPLY_LIMITS, ReplyCollector } from '../../protocol/replyReader';
import { RespErrorReply, type RespValue } from '../../protocol/respValue';
import { encodeRespCommand } from '../../protocol/respEncode';
import { SUBSCRIBE_FORMS } from '../../scenario/pubsubGroups';
import { approvedNodes } from '../../gates/network';
import { ClusterTopologyError, discoverTopology, type ClusterTopology, type TopologyNode } from '../../redis/clusterTopology';
import { nodeErrorPlace, nodeTls } from '../cluster/nodeTls';
import { openTargetSocket } from '../fast/primarySocket';
import { openRawControl } from '../fast/rawControl';
import { openSocket, type RawConnection } from '../fast/connect';
import { LoadError } from '../errors';
import { LatencyRecorder } from '../measure/histogram';
import { summarize } from '../measure/summary';
import { DrawnArgument } from '../requests/draws';
import { Random } from '../requests/random';
import { RAND_INT_WIDTH } from '../requests/templateEncoder';
import { monotonicMicros, stampAge } from '../sendStamp';
import type { StartBarrier } from '../startBarrier';
import { subscriberRoutes } from './subscriberRoutes';
import { parseRedirect } from '../cluster/clusterState';
import { MAX_PUBSUB_CHANNELS, type CommandResult, type LoadResult, type LoadTick, type PubSubResult, type TimelineSecond } from '../types';
import { asLoad } from '../optimizeWhileLoading';

export interface SubscriberRequest {
  phase: PhasePlan;
  test: TestPlan;
  connection: ConnectionOptions;
  seed?: number;
}

export interface SubscriberOptions {
  signal?: AbortSignal;
  startTogether?: { barrier: StartBarrier; index: number };
  /** Resolves when the phase's other groups have ended, with the deliveries their PUBLISH replies promise (undefined: not counted). */
  publishersDone: Promise<number | undefined>;
  onTick?: (tick: LoadTick) => void;
  /**
   * Test seam: awaited once the slot map is read and before any subscribe command is written (`redirects` 0), and
   * before a MOVED is followed (1), so a test can move a slot in between and the SSUBSCRIBE meets a real MOVED.
   */
  beforeSubscribe?: (redirects: number) => Promise<void>;
}

/** The drain after the publishers' end stops after this long without a message… */
export const DRAIN_SILENCE_MS = 1000;
/** …or this long in all, whatever still trickles in. */
export const DRAIN_LIMIT_MS = 10_000;
const POLL_MS = 20;

/** The channels (or patterns) connection `client` subscribes to: the command's arguments, its placeholders drawn for it. */
export function subscriberChannels(test: TestPlan, client: number, clients: number, seed: number): string[] {
  const command = test.commands[0].command;
  const random = new Random(seed, 7, client);
  return command.args.map((arg) => new DrawnArgument(arg, { key: 1, rand: RAND_INT_WIDTH }, client, new Map(), clients).text(0, random, 1));
}

/** One subscriber connection, and its subscribe commands not confirmed yet (in order: the server answers in order). */
interface Listener {
  client: number;
  /** `host:port` of its cluster node; none: the target itself. */
  node?: string;
  connection: RawConnection;
  sent: { args: string[]; left: number; redirects: number }[];
  gone: boolean;
}

class Tally {
  delivered = 0;
  unstamped = 0;
  lastAt = 0;
  readonly recorder = new LatencyRecorder();
  readonly channels = new Map<string, number>();
  second = new LatencyRecorder();
  secondCount = 0;

  message(channel: string, payload: string, now: number): void {
    this.delivered++;
    this.lastAt = performance.now();
    this.channels.set(channel, (this.channels.get(channel) ?? 0) + 1);
    const age = stampAge(payload, 0, now);
    if (age === undefined) {
      this.unstamped++;
      return;
    }
    this.recorder.record(age, 1);
    this.second.record(age, 1);
    this.secondCount++;
  }
}

/** Runs the group: resolves with its result (cancelled when `signal` aborts); rejects with a LoadError when it cannot subscribe. */
export function runSubscribers(request: SubscriberRequest, options: SubscriberOptions): Promise<LoadResult> {
  // On the caller's thread: in the CLI, V8 optimizes only while a load runs (optimizeWhileLoading.ts).
  return asLoad(() => subscribersLoad(request, options));
}

async function subscribersLoad(request: SubscriberRequest, options: SubscriberOptions): Promise<LoadResult> {
  const startedAt = new Date().toISOString();
  const { phase, test } = request;
  const command = test.commands[0].command;
  const form = SUBSCRIBE_FORMS[command.name.toUpperCase()];
  if (!form) throw new LoadError(`${command.name} is not a subscribe command`);
  const clients = phase.load.clients;
  const seed = request.seed ?? phase.keys.seed ?? 1;
  const shard = phase.load.shard;
  const tally = new Tally();
  /** Every connection opened, with its subscriber and its cluster node (`host:port`; none for the target itself). */
  const listeners: Listener[] = [];
  let closing = false;
  let disconnected = 0;
  let failure: string | undefined;
  /** Shard channels subscribed again after their slot moved (or a MOVED at subscribe time followed). */
  let resubscribed = 0;
  /** Re-subscriptions under way (reading the slot map, opening a connection): the subscribing wait includes them. */
  let following = 0;
  const confirmed: number[] = [];
  const wanted: number[] = [];
  /** Writes one subscribe command on listener `index`; its confirmations are waited for. */
  const send = (index: number, args: string[], redirects: number) => {
    listeners[index].sent.push({ args, left: args.length - 1, redirects });
    wanted[index] += args.length - 1;
    listeners[index].connection.socket.write(encodeRespCommand(args));
  };
  /** Subscribes `commands` for `client` on `node`: on the connection it holds there, else a new one (gated as the first). */
  const subscribeAt = async (client: number, node: TopologyNode, commands: string[][], redirects: number) => {
    const key = `${node.host}:${node.port}`;
    let index = listeners.findIndex((listener) => listener.client === client && listener.node === key && !listener.gone);
    if (index < 0) {
      const connection = await openNode(node, request.connection);
      if (closing) return void connection.socket.destroy();
      index = listen(connection, client, key);
    }
    for (const args of commands) send(index, args, redirects);
  };
  /** Shard channels the server unsubscribed `client` from (their slot left the node): subscribed again where the slot map says they are now. */
  const moved = new Map<number, string[]>();
  const followMoves = () => {
    for (const [client, channels] of moved) {
      resubscribed += channels.length;
      void follow(async () => {
        const topology = await clusterLayout(request.connection);
        for (const route of subscriberRoutes('SSUBSCRIBE', channels, client, topology)) await subscribeAt(client, route.node!, route.commands, 0);
      });
    }
    moved.clear();
  };
  const follow = async (work: () => Promise<void>) => {
    following++;
    try {
      await work();
    } catch (error) {
      // The channel is then no longer heard: counted with the closed connections, what it missed shows as lost.
      if (!closing) disconnected++;
      failure ??= `subscribing again after a slot moved failed: ${(error as Error).message}`;
    } finally {
      following--;
    }
  };
  const readPush = (push: RespValue[], index: number, now: number) => {
    const kind = push[0];
    if (kind === form) {
      const channel = String(form === 'pmessage' ? push[2] : push[1]);
      tally.message(channel, String(push[push.length - 1]), now);
    } else if (kind === 'sunsubscribe') {
      // Never asked for (RBench sends no SUNSUBSCRIBE): the channel's slot left this node (Redis 7.0 resharding).
      if (closing) return;
      const client = listeners[index].client;
      if (moved.size === 0) setImmediate(followMoves);
      moved.set(client, [...(moved.get(client) ?? []), String(push[1])]);
    } else if (typeof kind === 'string' && kind.endsWith('subscribe')) {
      confirmed[index]++;
      const head = listeners[index].sent[0];
      if (head && --head.left === 0) listeners[index].sent.shift();
    }
  };
  /** A subscribe command refused: a MOVED (the slot map read before subscribing is stale) is followed once; any other refusal ends the group. */
  const readRefusal = (error: RespErrorReply, index: number) => {
    const head = listeners[index].sent.shift();
    const redirect = parseRedirect(error.message);
    if (head && redirect?.kind === 'MOVED' && form === 'smessage' && head.redirects === 0) {
      wanted[index] -= head.left;
      resubscribed += head.args.length - 1;
      const node: TopologyNode = { host: redirect.host, port: redirect.port, role: 'master' };
      void follow(async () => {
        await options.beforeSubscribe?.(1);
        await subscribeAt(listeners[index].client, node, [head.args], 1);
      });
      return;
    }
    if (head && redirect?.kind === 'MOVED' && head.redirects > 0) {
      failure ??=
        `${head.args.join(' ')} was redirected a second time (MOVED to ${redirect.host}:${redirect.port} after following one MOVED): ` +
        "the channel's slot is still moving — run again once the cluster's resharding has settled";
      return;
    }
    failure ??= `${command.name.toUpperCase()} was refused: ${error.message}`;
  };
  const listen = (connection: RawConnection, client: number, node?: string): number => {
    const index = listeners.length;
    const listener: Listener = { client, connection, sent: [], gone: false, ...(node ? { node } : {}) };
    listeners.push(listener);
    confirmed.push(0);
    wanted.push(0);
    const collector = new ReplyCollector(LOAD_REPLY_LIMITS);
    connection.socket.once('close', () => {
      listener.gone = true;
      if (!closing) disconnected++;
    });
    connection.onBytes((chunk, length) => {
      let values: RespValue[];
      try {
        values = collector.feed(chunk.subarray(0, length));
      } catch (error) {
        failure ??= `a subscriber connection received bytes that are not RESP: ${(error as Error).message}`;
        connection.socket.destroy();
        return;
      }
      const now = monotonicMicros();
      for (const value of values) {
        if (value instanceof RespErrorReply) readRefusal(value, index);
        else if (Array.isArray(value)) readPush(value, index, now);
      }
    });
    return index;
  };
  try {
    const topology = request.connection.cluster ? await clusterLayout(request.connection) : undefined;
    await options.beforeSubscribe?.(0);
    for (let client = 0; client < clients; client++) {
      if (options.signal?.aborted) break;
      const number = (shard?.firstClient ?? 0) + client;
      const channels = subscriberChannels(test, number, shard?.totalClients ?? clients, seed);
      for (const route of subscriberRoutes(command.name.toUpperCase(), channels, number, topology)) {
        if (options.signal?.aborted) break;
        const connection = route.node ? await openNode(route.node, request.connection) : await openTargetSocket(request.connection);
        const index = listen(connection, number, route.node && `${route.node.host}:${route.node.port}`);
        for (const args of route.commands) send(index, args, 0);
      }
    }
    // Every subscription confirmed before the publishers start: none of their messages is missed for a late SUBSCRIBE.
    const deadline = performance.now() + request.connection.connectTimeoutMs;
    while (!failure && !options.signal?.aborted && (following > 0 || confirmed.some((count, i) => count < wanted[i]))) {
      if (performance.now() > deadline || disconnected > 0)
        throw new LoadError(`subscriber group ${test.name}: the server did not confirm every subscription within ${request.connection.connectTimeoutMs} ms`);
      await sleep(5);
    }
    if (failure) throw new LoadError(`subscriber group ${test.name}: ${failure}`);
  } catch (error) {
    closing = true;
    for (const { connection } of listeners) connection.socket.destroy();
    options.startTogether?.barrier.leave(options.startTogether.index);
    throw error;
  }

  if (options.startTogether) await options.startTogether.barrier.arrive(options.startTogether.index);
  const measureStart = performance.now();
  tally.lastAt = measureStart;
  const timeline: TimelineSecond[] = [];
  const closeSecond = () => {
    const t = timeline.length;
    const latency = tally.second;
    timeline.push({
      t,
      ops: tally.secondCount,
      errors: 0,
      p50Us: latency.valueAtPercentile(50),
      p99Us: latency.valueAtPercentile(99),
      maxUs: latency.valueAtPercentile(100),
    });
    options.onTick?.({ elapsedMs: performance.now() - measureStart, requests: tally.delivered, errors: 0, lastSecond: timeline[t], warmingUp: false });
    tally.second = new LatencyRecorder();
    tally.secondCount = 0;
  };
  const ticker = setInterval(closeSecond, 1000);

  let publishersEnded = false;
  let expected: number | undefined;
  void options.publishersDone.then((count) => {
    publishersEnded = true;
    expected = count;
  });
  const aborted = () => options.signal?.aborted === true;
  while (!publishersEnded && !aborted()) await sleep(POLL_MS);
  const windowMs = performance.now() - measureStart;
  const drainStart = performance.now();
  while (!aborted() && listeners.length > disconnected) {
    const now = performance.now();
    if (expected !== undefined && tally.delivered >= expected) break;
    if (now - tally.lastAt >= DRAIN_SILENCE_MS || now - drainStart >= DRAIN_LIMIT_MS) break;
    await sleep(POLL_MS);
  }
  const drainMs = performance.now() - drainStart;
  clearInterval(ticker);
  closing = true;
  for (const { connection } of listeners) connection.socket.destroy();

  const { latency, histogram } = summarize(tally.recorder);
  const row: CommandResult = {
    command: test.commands[0].command.label,
    requests: tally.delivered,
    errors: 0,
    errorsByKind: {},
    errorExamples: {},
    opsPerSec: windowMs > 0 ? (tally.delivered * 1000) / (windowMs + drainMs) : 0,
    latency,
    histogram,
  };
  const pubsub: PubSubResult = {
    role: 'subscriber',
    delivered: tally.delivered,
    ...(expected !== undefined ? { expected, lost: Math.max(0, expected - tally.delivered) } : {}),
    ...(tally.unstamped > 0 ? { unstamped: tally.unstamped } : {}),
    channels: channelCounts(tally.channels),
    disconnected,
    ...(resubscribed > 0 ? { resubscribed } : {}),
    drainMs: Math.round(drainMs),
    // A sharded run's publishers may be on other machines: their stamps are another clock.
    clock: shard ? 'several-machines' : 'one-machine',
  };
  return {
    test: test.name,
    phase: phase.name,
    measured: phase.measured,
    client: 'fast',
    status: aborted() ? 'cancelled' : 'complete',
    startedAt,
    durationMs: windowMs + drainMs,
    windowMs: windowMs + drainMs,
    windowKind: aborted() ? 'until-stopped' : 'first-send-to-last-reply',
    ...(drainMs > 0 ? { drainMs: Math.round(drainMs) } : {}),
    total: { ...row, command: 'total' },
    commands: [row],
    timeline,
    connections: { opened: listeners.length, reconnects: 0 },
    health: { threads: 1, cpuPercent: 0, eventLoopLagP99Ms: 0, bottleneck: 'unknown' },
    seed,
    pubsub,
  };
}

/** The cluster's layout, read through the seed and passed through the network gate; unreadable or refused: a LoadError. */
async function clusterLayout(connection: ConnectionOptions): Promise<ClusterTopology> {
  try {
    return await discoverTopology(connection, openRawControl);
  } catch (error) {
    throw error instanceof ClusterTopologyError ? new LoadError(error.message) : error;
  }
}

/** A subscriber's connection to a cluster node (gated again where the socket opens: also a node a MOVED names). */
function openNode(node: TopologyNode, seed: ConnectionOptions): Promise<RawConnection> {
  const refusal = approvedNodes(seed).check(node.host, node.port, 'the cluster names');
  if (refusal) return Promise.reject(new LoadError(refusal));
  const options = { ...seed, host: node.host, port: node.port, path: undefined, db: 0, tls: nodeTls(seed, node) };
  return openSocket(options, nodeErrorPlace(seed, node));
}

/** Messages per channel, the busiest MAX_PUBSUB_CHANNELS by name (a run file stays bounded), the rest under `…`. */
function channelCounts(channels: Map<string, number>): Record<string, number> {
  const sorted = [...channels].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const counts = new Map(sorted.slice(0, MAX_PUBSUB_CHANNELS));
  const rest = sorted.slice(MAX_PUBSUB_CHANNELS).reduce((sum, [, count]) => sum + count, 0);
  if (rest > 0) counts.set('…', rest);
  return recordFromMap(counts);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

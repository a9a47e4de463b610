// Run files are written by strangers as often as by this machine (committed, copied, hand-edited,
// cut short): before anything reads one, it is size-capped, parsed, version-checked and validated
// against this schema. Unknown extra properties are kept (newer writers add fields).
import { z } from 'zod';
import { RUN_FILE_FORMAT_VERSION } from './runFileVersion';
import { MAX_RAMP_CLIENTS } from '../scenario/settings';

export { RUN_FILE_FORMAT_VERSION };
/** No run file RBench writes comes near this (timelines are capped); a bigger file is refused unread. */
export const MAX_RUN_FILE_BYTES = 64 * 1024 * 1024;

const num = z.number().finite();
const count = num.nonnegative();
const text = z.string();

const latency = z.looseObject({ count, minUs: num, meanUs: num, p50Us: num, p90Us: num, p95Us: num, p99Us: num, p999Us: num, maxUs: num });

const commandResult = z.looseObject({
  command: text,
  requests: count,
  errors: count,
  errorsByKind: z.record(text, count),
  errorExamples: z.record(text, text),
  misses: count.optional(),
  lookups: count.optional(),
  /** Reply-driven commands' counts (engine/types.ts CommandResult.replies): a few names, each a count. */
  replies: z
    .record(text.max(32), count)
    .refine((counts) => Object.keys(counts).length <= 16, 'at most 16 reply counts')
    .optional(),
  opsPerSec: num,
  latency,
  histogram: text,
});

const timelineSecond = z.looseObject({
  t: num,
  ops: num,
  errors: num,
  p50Us: num,
  p99Us: num,
  maxUs: num,
  partialMs: num.optional(),
  moved: count.optional(),
  ask: count.optional(),
});

/** A cluster load's per-node breakdown: the panel, the table and `rbench merge` read every field. */
const clusterResult = z.looseObject({
  detected: z.boolean(),
  moved: count,
  ask: count,
  topologyRefreshes: count,
  nodes: z.array(z.looseObject({ node: text, role: z.enum(['master', 'replica']), slots: text.optional(), total: commandResult, moved: count, ask: count })),
});

/** `complete-with-errors` and any status a newer engine adds are accepted; readers treat unknown ones as not passing. */
const status = text.min(1);

/** One load machine's share of a merged load (its histogram stays out: the merged total holds it). */
const loadPart = z.looseObject({
  part: text,
  clients: count,
  status,
  durationMs: count,
  seed: num,
  total: commandResult.omit({ histogram: true }),
});

const commandCounters = z.looseObject({ calls: count, usec: count, rejected: count.optional(), failed: count.optional() });

/** The server's side of a load (ServerDelta): every figure a reader shows is checked, absent ones stay absent. */
const serverDelta = z.looseObject({
  nodes: count,
  windowMs: count,
  calls: count,
  usec: count,
  commands: z.record(text, commandCounters.extend({ usecPerCall: count })),
  usecPerCall: count.optional(),
  cpuPercent: count.optional(),
  mainThreadCpuPercent: count.optional(),
  schedule: z
    .looseObject({
      runMs: count,
      runnableWaitMs: count,
      ioThreads: z.looseObject({ count, runMs: count, runnableWaitMs: count }).optional(),
      childrenRunMs: count.optional(),
      machineBusyMs: count.optional(),
    })
    .optional(),
  forks: count.optional(),
  forkUsec: count.optional(),
  evictedKeys: count.optional(),
  expiredKeys: count.optional(),
  aof: z.looseObject({ fsync: text.optional(), delayedFsyncs: count.optional() }).optional(),
  slowlog: z.looseObject({ entries: count, slowest: z.looseObject({ command: text, usec: count }).optional() }).optional(),
  latencyEvents: z.array(z.looseObject({ event: text, latestMs: count, maxMs: count })).optional(),
  latencyStats: z
    .looseObject({ scope: z.enum(['per-test', 'cumulative']), commands: z.record(text, z.looseObject({ p50: count, p99: count, p999: count })) })
    .optional(),
  otherRuns: z.array(text).optional(),
  foreign: z.looseObject({ calls: count, commands: z.record(text, count) }).optional(),
  sent: z.record(text, count).optional(),
  own: z.looseObject({ sent: z.record(text, count), uncertain: count }).optional(),
  nested: z.record(text, text).optional(),
  byNode: z.array(z.looseObject({ node: text, calls: count, usec: count, cpuPercent: count.optional() })).optional(),
  absent: z.record(text, text).optional(),
});

const bottleneckKind = text.min(1);
const bottleneck = z.looseObject({
  kind: bottleneckKind,
  why: text,
  parts: z.array(z.looseObject({ kind: bottleneckKind, why: text })).optional(),
});

const clientPauses = z.looseObject({
  gcCount: count,
  gcMs: count,
  gcMaxMs: count,
  eventLoopDelayP99Ms: count,
  eventLoopDelayMaxMs: count,
  pauses: count,
  pausedMs: count,
  overlappedReplies: count,
  tailShare: count.max(1),
  p999UsWithoutPauses: count.optional(),
  maxUsWithoutPauses: count.optional(),
});

const stall = z.looseObject({ fromMs: count, toMs: count, connections: count, of: count });

/** A consumer group's figures (blocking consumers): its jobs, wake-up latency, idle time and the queue left. */
const consumerResult = z.looseObject({
  consumers: count,
  pops: count,
  jobs: count,
  emptyReturns: count,
  wakeUp: z.looseObject({ latency, histogram: text }),
  idleMs: count,
  idleConsumers: count,
  drainMs: count,
  ended: text,
  queueLeft: z.array(z.looseObject({ key: text, command: text, length: num })).max(1024),
  acks: count.optional(),
  acked: count.optional(),
});

/** A subscriber's channels are bounded by the writer (MAX_PUBSUB_CHANNELS and a `…` rest); a file with more was not written by RBench. */
const MAX_PUBSUB_CHANNEL_ENTRIES = 1001;

const pubsubResult = z.looseObject({
  role: z.enum(['publisher', 'subscriber']),
  published: count.optional(),
  expected: count.optional(),
  unheard: count.optional(),
  delivered: count.optional(),
  lost: count.optional(),
  unstamped: count.optional(),
  channels: z
    .record(text, count)
    .refine((channels) => Object.keys(channels).length <= MAX_PUBSUB_CHANNEL_ENTRIES, `at most ${MAX_PUBSUB_CHANNEL_ENTRIES} channels`)
    .optional(),
  disconnected: count.optional(),
  resubscribed: count.optional(),
  drainMs: count.optional(),
  clock: z.enum(['one-machine', 'several-machines']).optional(),
});

const loadResult = z.looseObject({
  test: text,
  phase: text,
  measured: z.boolean(),
  client: text,
  status,
  error: text.optional(),
  startedAt: text,
  durationMs: count,
  total: commandResult,
  commands: z.array(commandResult),
  timeline: z.array(timelineSecond),
  connections: z.looseObject({
    opened: count,
    reconnects: count,
    cycles: count.optional(),
    idle: count.optional(),
    setup: z.looseObject({ latency, histogram: text }).optional(),
  }),
  health: z.looseObject({
    threads: count,
    cpuPercent: num,
    eventLoopLagP99Ms: num,
    bottleneck: text,
    threadCpu: z.looseObject({ runMs: count, runnableWaitMs: count }).optional(),
    pauses: clientPauses.optional(),
  }),
  seed: num,
  parts: z.array(loadPart).optional(),
  // A ramp has at most MAX_RAMP_CLIENTS steps (from 1 client, one more at each): a longer list was not written by RBench.
  ramp: z
    .array(z.looseObject({ clients: count, fromMs: count, toMs: count, replies: count, errors: count, opsPerSec: num, latency }))
    .max(MAX_RAMP_CLIENTS, `at most ${MAX_RAMP_CLIENTS} steps (the most a ramp has)`)
    .optional(),
  cluster: clusterResult.optional(),
  sent: z.looseObject({ requests: count, byLabel: z.record(text, count), handshakes: z.record(text, count).optional() }).optional(),
  stalls: z.array(stall).optional(),
  server: serverDelta.optional(),
  serverThread: z.looseObject({ runMs: count, runnableWaitMs: count }).optional(),
  tcp: z.looseObject({ scope: text, segments: count, retransmits: count, timeouts: count.optional(), lossProbes: count.optional() }).optional(),
  bottleneck: bottleneck.optional(),
  group: z.looseObject({ name: text, background: z.boolean(), stopped: z.boolean().optional() }).optional(),
  consumer: consumerResult.optional(),
  pubsub: pubsubResult.optional(),
});

const spread = z.looseObject({ median: num, min: num, max: num, stddev: num });

const pointResult = z.looseObject({
  label: text,
  sweep: z.record(text, num),
  repeats: z.array(z.array(loadResult)),
  summary: z.array(
    z.looseObject({ phase: text, test: text, runs: count, opsPerSec: spread, p50Us: spread, p99Us: spread, representative: z.number().int().nonnegative() }),
  ),
  server: z.looseObject({ display: text, version: text.optional(), config: z.record(text, text) }).optional(),
});

const sample = z.looseObject({
  t: num,
  commandCalls: count.optional(),
  commandUsec: count.optional(),
  cpuUser: count.optional(),
  cpuSys: count.optional(),
  cpuMainThread: count.optional(),
  totalForks: count.optional(),
});

export const runFileSchema = z.looseObject({
  version: z.literal(RUN_FILE_FORMAT_VERSION),
  tool: z.looseObject({ name: text, version: text }),
  id: text.min(1),
  scenario: z.looseObject({ name: text, index: z.number().int().nonnegative(), file: text.optional(), source: text }),
  plan: z.looseObject({
    name: text,
    points: z.array(
      z.looseObject({
        label: text,
        phases: z.array(
          z.looseObject({
            name: text,
            groups: z.array(z.looseObject({ name: text, kind: text, background: z.boolean(), phase: z.looseObject({ name: text }) })).optional(),
          }),
        ),
      }),
    ),
    expects: z.array(z.looseObject({ text })),
  }),
  target: z.looseObject({ display: text, local: z.boolean(), primaries: z.array(text).optional(), modules: z.array(text).optional() }),
  client: text,
  machine: z.looseObject({ platform: text, cpuModel: text, cores: count }),
  startedAt: text,
  finishedAt: text,
  durationMs: count,
  status,
  error: text.optional(),
  points: z.array(pointResult),
  server: z.looseObject({ samples: z.array(sample), events: z.array(z.looseObject({ t: num, kind: text })), error: text.optional() }),
  thresholds: z.array(z.looseObject({ expectation: text, metric: text, point: text, test: text, phase: text, actual: num.nullable(), passed: z.boolean() })),
  otherRuns: z.array(z.looseObject({ name: text, addr: text.optional(), firstT: num, lastT: num })).optional(),
  leftKeys: z.array(z.looseObject({ pattern: text, count, capped: z.boolean().optional() })).optional(),
  cleanupLeft: z.looseObject({ ended: count, parts: count }).optional(),
});

/** Where in the file (`points[0].repeats[1][0].total.latency.p99Us`) for a message. */
function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${String(key)}`;
  return out || 'the top level';
}

/** The problem with `value` as a run file, or undefined when it is one. `where` names the file. */
export function runFileProblem(value: unknown, where: string): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return `${where}: not a run file (the JSON is not an object)`;
  const version = (value as { version?: unknown }).version;
  if (typeof version !== 'number') {
    return `${where}: not a run file RBench can read (no \`version\` number) — was it written by RBench?`;
  }
  if (version > RUN_FILE_FORMAT_VERSION) {
    return `${where}: run file version ${version} was written by a newer RBench (this one reads version ${RUN_FILE_FORMAT_VERSION}) — update RBench to open it`;
  }
  if (version !== RUN_FILE_FORMAT_VERSION) {
    return `${where}: run file version ${version} is not supported (this RBench reads version ${RUN_FILE_FORMAT_VERSION}) — run the scenario again to get a current file`;
  }
  const checked = runFileSchema.safeParse(value);
  if (checked.success) return undefined;
  const issues = checked.error.issues.slice(0, 3).map((issue) => `${pathText(issue.path)}: ${issue.message}`);
  const more = checked.error.issues.length > 3 ? ` (and ${checked.error.issues.length - 3} more)` : '';
  return `${where}: not a valid run file — ${issues.join('; ')}${more}. Was it edited by hand or cut short? Run the scenario again to get a fresh one.`;
}

/** The problem with a file of `bytes` bytes, before reading it. */
export function runFileSizeProblem(bytes: number, where: string): string | undefined {
  if (bytes <= MAX_RUN_FILE_BYTES) return undefined;
  return `${where}: ${(bytes / 1024 / 1024).toFixed(0)} MB is larger than any run file RBench writes (the limit is ${MAX_RUN_FILE_BYTES / 1024 / 1024} MB) — it was not read`;
}

/** The problem with a file refused as too large before its size was known to the reader: the limit alone. */
export function runFileLimitProblem(where: string): string {
  return `${where}: larger than any run file RBench writes (the limit is ${MAX_RUN_FILE_BYTES / 1024 / 1024} MB) — it was not read`;
}

/** The problem with run-file text that is not JSON: most often a file cut short while copying. */
export function runFileJsonProblem(error: unknown, text: string, where: string): string {
  const message = (error as Error).message;
  // JSON.parse fails at the end of a cut file: "Unexpected end of JSON input", "Unterminated string",
  // or a complaint at the last position.
  const position = Number(/at position (\d+)/.exec(message)?.[1] ?? NaN);
  const truncated = /end of (JSON )?input|Unterminated/i.test(message) || position >= text.trimEnd().length - 1;
  return `${where}: not a readable run file — ${truncated ? 'it ends too early (cut short while copying or writing?)' : `invalid JSON (${message}); was it edited by hand?`}`;
}

// runLoad: runs one test of one phase against a connection, in worker threads, and merges what the
// workers measured into one LoadResult. The caller's thread (VS Code's extension host, the CLI) only
// receives messages, so it stays responsive whatever the load.
import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { ConnectionOptions } from '../redis/types';
import { checkConnectionCapacity } from './capacity';
import { clusterPlan } from './cluster/plan';
import { ClusterTracker } from './cluster/tracker';
import { ClusterTopologyError, discoverTopology } from '../redis/clusterTopology';
import { GROUP_SLOT_FIX, groupCrossSlotReason } from '../scenario/clusterKeys';
import { LoadError } from './errors';
import { LatencyRecorder } from './histogram';
import { summarize } from './summary';
import type { LabelReport, SecondReport, WorkerConfig, WorkerResult, WorkerToMain } from './workerMessages';
import { resolveThreads } from './threads';
import type { ClientHealth, CommandResult, LoadOptions, LoadRequest, LoadResult, LoadStatus, TimelineSecond } from './types';
import { UNIT_LABEL } from './unitTally';
import { FINE_TIMELINE_LIMIT_MS } from './workerLoad';
import type { TestPlan } from '../scenario/plan';
import { addCounts, addFirsts, recordFromMap } from '../gates/plainData';

/** Give up on a server that stays unreachable (all connections down) for this long. */
export const DEFAULT_SERVER_LOST_TIMEOUT_MS = 3000;
/** No reply on any connection while requests are outstanding for this long ends a load as stalled (`stall-timeout`). */
export const DEFAULT_STALL_TIMEOUT_MS = 10_000;
/** After a stop request, workers that have not answered within this are terminated. */
const STOP_GRACE_MS = 800;
/** Busy share of the busiest engine thread (its CPU time, or event-loop busy time) above which the client may be the limit. */
const CLIENT_BOUND_UTILIZATION = 0.9;
/** Below this the engine clearly had headroom, so the server (or network) set the pace. */
const SERVER_BOUND_UTILIZATION = 0.75;
/** Open loop: the client is the limit only if it also fell behind its schedule for more than this share of sends. */
const CLIENT_BOUND_LATE_SHARE = 0.01;
/**
 * Error replies and timeouts above this share of a load's requests end it as `complete-with-errors`
 * (documented in docs/rbench-format.md; a scenario accepts errors with `expect error-rate < X`).
 */
export const ERROR_STATUS_THRESHOLD = 0.01;
/** Timeline bucket length for short loads (duration under 10 s, or a count-based load's first 10 s). */
export const FINE_BUCKET_MS = 100;

/** The worker script: next to this module, both in the esbuild bundle (dist/) and in tsc output (src/engine/). */
export function workerScriptPath(): string {
  const path = join(__dirname, 'worker.js');
  if (!existsSync(path)) throw new LoadError(`the engine worker script is missing (${path}): rebuild RBench`);
  return path;
}

/** Requests per connection: as even as possible, the remainder on the lowest connections (sequential keys rely on it). */
export function splitRequests(requests: number, connections: number): number[] {
  const base = Math.floor(requests / connections);
  const remainder = requests - base * connections;
  return Array.from({ length: connections }, (_, c) => base + (c < remainder ? 1 : 0));
}

/** Contiguous ranges of connection indexes, one per thread. */
export function splitConnections(connections: number, threads: number): number[][] {
  const counts = splitRequests(connections, threads);
  const ranges: number[][] = [];
  let next = 0;
  for (const count of counts) {
    ranges.push(Array.from({ length: count }, (_, i) => next + i));
    next += count;
  }
  return ranges.filter((r) => r.length > 0);
}

/** Structured clone cannot carry functions (e.g. checkServerIdentity); workers get plain data. */
function cloneableConnection(connection: ConnectionOptions): ConnectionOptions {
  if (!connection.tls) return { ...connection };
  const tls = Object.fromEntries(Object.entries(connection.tls).filter(([, v]) => typeof v !== 'function'));
  return { ...connection, tls };
}

function validate(request: LoadRequest): void {
  const { load } = request.phase;
  const problems: string[] = [];
  if (!(load.clients >= 1) || !Number.isInteger(load.clients)) problems.push(`clients must be a whole number ≥ 1 (got ${load.clients})`);
  if (!(load.pipeline >= 1) || !Number.isInteger(load.pipeline)) problems.push(`pipeline must be a whole number ≥ 1 (got ${load.pipeline})`);
  if ((load.requests === undefined) === (load.durationMs === undefined)) problems.push('exactly one of requests and duration must be set');
  if (load.requests !== undefined && !(load.requests >= 0 && Number.isInteger(load.requests))) problems.push(`requests must be a whole number ≥ 0 (got ${load.requests})`);
  if (load.durationMs !== undefined && !(load.durationMs > 0)) problems.push(`duration must be > 0 (got ${load.durationMs} ms)`);
  if (load.rate !== undefined && !(load.rate > 0)) problems.push(`rate must be > 0 (got ${load.rate})`);
  if (request.test.commands.length === 0) problems.push(`test ${request.test.name} has no command`);
  if (!(request.phase.keys.space >= 1)) problems.push(`the key space must be ≥ 1 (got ${request.phase.keys.space})`);
  // A group's unit goes whole to one master: its keys must share a slot (`check` says so with the fix).
  const straddles = request.connection.cluster && request.test.group ? groupCrossSlotReason(request.test) : undefined;
  if (straddles) problems.push(`group ${request.test.name}: on a Redis Cluster all keys of a unit must be in one hash slot: ${straddles}. ${GROUP_SLOT_FIX}`);
  if (request.client === 'ioredis' && request.connection.resp === 3) {
    problems.push('the ioredis client speaks RESP2 only: use `resp 2`, or `client fast` for RESP3');
  }
  if (problems.length > 0) throw new LoadError(problems.join('; '));
}

interface FineBucket {
  t: number;
  count: number;
  errors: number;
  moved: number;
  ask: number;
  spanMs: number;
  counts: ReturnType<LatencyRecorder['toSparse']>;
}

interface PendingSecond {
  reports: number;
  count: number;
  errors: number;
  moved: number;
  ask: number;
  spanMs: number;
  recorder: LatencyRecorder;
}

export async function runLoad(request: LoadRequest, options: LoadOptions = {}): Promise<LoadResult> {
  validate(request);
  await checkConnectionCapacity(request.connection, request.phase.load.clients);
  const { phase, test } = request;
  const plan = phase.load;
  const seed = request.seed ?? phase.keys.seed ?? randomInt(1, 2 ** 32);
  const { labels, labelIndexes } = testLabels(test);
  const threads = resolveThreads(plan);
  const ranges = splitConnections(plan.clients, threads);
  const perConnection = plan.requests !== undefined ? splitRequests(plan.requests, plan.clients) : undefined;
  const cluster = request.connection.cluster ? new ClusterTracker(request.connection, await loadTopology(request.connection)) : undefined;
  const startedAt = new Date().toISOString();
  const loadStart = performance.now();

  const result = (status: LoadStatus, parts: Pick<AssemblyParts, 'error' | 'workers' | 'timeline' | 'cpuPercent' | 'measuredFrom'>): LoadResult => {
    const assembled = assembleResult(request, { status, startedAt, seed, threads, labels, ...parts });
    if (cluster) assembled.cluster = cluster.result(parts.workers ?? [], assembled.durationMs, request.clusterDetected === true, commandResult);
    return assembled;
  };
  if (options.signal?.aborted) return result('cancelled', {});

  const configs: WorkerConfig[] = ranges.map((range, worker) => ({
    worker,
    client: request.client,
    connection: cloneableConnection(request.connection),
    test,
    keys: phase.keys,
    value: phase.value,
    ...(phase.valueFill ? { valueFill: phase.valueFill } : {}),
    labels,
    labelIndexes,
    pipeline: plan.pipeline,
    totalConnections: plan.shard?.totalClients ?? plan.clients,
    connections: range.map((index) => ({ index: (plan.shard?.firstClient ?? 0) + index, requests: perConnection?.[index] })),
    durationMs: plan.durationMs,
    warmupMs: plan.warmupMs,
    ratePerConnection: plan.rate !== undefined ? plan.rate / plan.clients : undefined,
    seed,
    serverLostTimeoutMs: options.serverLostTimeoutMs ?? DEFAULT_SERVER_LOST_TIMEOUT_MS,
    stallTimeoutMs: plan.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
    fineBucketMs: FINE_BUCKET_MS,
    ...(cluster ? { cluster: clusterPlan(test, labels, cluster.topology, request.connection.replicaReads === true) } : {}),
  }));
  const script = workerScriptPath();

  const loaded = new Promise<LoadResult>((resolve, reject) => {
    const workers = configs.map((config) => new Worker(script, { workerData: config }));
    const results: (WorkerResult | undefined)[] = workers.map(() => undefined);
    const exited = workers.map(() => false);
    const progress = workers.map(() => ({ requests: 0, errors: 0 }));
    const pending = new Map<number, PendingSecond>();
    const timeline: TimelineSecond[] = [];
    // Count mode: the fine buckets' histograms, regrouped into seconds if the load outlasts the fine limit.
    const fineBuckets: FineBucket[] = [];
    let ready = 0;
    let phaseName: 'connecting' | 'running' | 'stopping' | 'done' = 'connecting';
    let measuringSince: number | undefined;
    let cpuStart: NodeJS.CpuUsage | undefined;
    let cpuEnd: NodeJS.CpuUsage | undefined;
    let measuringEnded: number | undefined;
    let failure: string | undefined;
    let cancelled = false;
    let stopTimer: NodeJS.Timeout | undefined;

    const warmupTicker = setInterval(() => {
      if (phaseName === 'running' && measuringSince === undefined) {
        options.onTick?.({ elapsedMs: performance.now() - loadStart, requests: 0, errors: 0, warmingUp: true });
      }
    }, 1000);

    const cleanup = () => {
      clearInterval(warmupTicker);
      if (stopTimer) clearTimeout(stopTimer);
      options.signal?.removeEventListener('abort', onAbort);
      for (const worker of workers) void worker.terminate();
    };

    const stopAll = () => {
      if (phaseName === 'done' || phaseName === 'stopping') return;
      phaseName = 'stopping';
      for (const worker of workers) worker.postMessage({ type: 'stop' });
      // A worker that does not answer in time is terminated; what it measured is lost, the rest is kept.
      stopTimer = setTimeout(() => finish(), STOP_GRACE_MS);
    };

    const onAbort = () => {
      cancelled = true;
      if (phaseName === 'connecting') {
        phaseName = 'done';
        cleanup();
        resolve(result('cancelled', {}));
        return;
      }
      stopAll();
    };
    options.signal?.addEventListener('abort', onAbort);

    const mergeSecond = (second: SecondReport) => {
      let entry = pending.get(second.t);
      if (!entry) pending.set(second.t, (entry = { reports: 0, count: 0, errors: 0, spanMs: 0, moved: 0, ask: 0, recorder: new LatencyRecorder() }));
      entry.reports++;
      entry.count += second.count;
      entry.errors += second.errors;
      entry.spanMs = Math.max(entry.spanMs, second.spanMs);
      entry.recorder.addSparse(second.histogram);
      entry.moved += second.moved ?? 0;
      entry.ask += second.ask ?? 0;
      return entry;
    };

    const closeSecond = (t: number, entry: PendingSecond): TimelineSecond => {
      pending.delete(t);
      const second: TimelineSecond = {
        t,
        ops: Math.round((entry.count * 1000) / Math.max(1, entry.spanMs)),
        errors: entry.errors,
        p50Us: entry.recorder.valueAtPercentile(50),
        p99Us: entry.recorder.valueAtPercentile(99),
        maxUs: entry.recorder.maxValue(),
      };
      if (entry.spanMs < 999) second.partialMs = Math.round(entry.spanMs);
      if (cluster) {
        second.moved = entry.moved;
        second.ask = entry.ask;
        // Slots moved: reload the layout for every worker (they already follow each MOVED on their own).
        if (entry.moved > 0) cluster.refresh((topology) => workers.forEach((w) => w.postMessage({ type: 'topology', topology })));
      }
      if (plan.durationMs === undefined && entry.spanMs < 999) {
        fineBuckets.push({ t, count: entry.count, errors: entry.errors, moved: entry.moved, ask: entry.ask, spanMs: entry.spanMs, counts: entry.recorder.toSparse() });
      }
      timeline.push(second);
      return second;
    };

    const measured = () => progress.reduce((sum, p) => sum + p.requests, 0);
    const fraction = () => {
      if (plan.requests !== undefined) return plan.requests === 0 ? 1 : Math.min(1, measured() / plan.requests);
      if (measuringSince === undefined) return 0;
      return Math.min(1, (performance.now() - measuringSince) / plan.durationMs!);
    };

    const finish = () => {
      if (phaseName === 'done') return;
      phaseName = 'done';
      cpuEnd ??= process.cpuUsage(cpuStart);
      measuringEnded ??= performance.now();
      // Seconds still open (the final partial one, or one a terminated worker never reported).
      for (const t of [...pending.keys()].sort((a, b) => a - b)) closeSecond(t, pending.get(t)!);
      timeline.sort((a, b) => a.t - b.t);
      coarsenFineBuckets(timeline, fineBuckets);
      cleanup();
      const done = results.filter((r): r is WorkerResult => r !== undefined);
      const failed = done.find((r) => r.status === 'failed');
      const status: LoadStatus = failure || failed ? 'failed' : cancelled || done.length < workers.length ? 'cancelled' : 'complete';
      const wall = measuringSince !== undefined ? measuringEnded - measuringSince : 0;
      const cpuPercent = cpuEnd && wall > 0 ? ((cpuEnd.user + cpuEnd.system) / 1000 / wall) * 100 : 0;
      const loadResult = result(status, {
        error: failure ?? failed?.error,
        workers: done,
        timeline,
        cpuPercent,
        // Wall-clock start of measuring, so that runs from several machines line up (rbench merge).
        measuredFrom: measuringSince !== undefined ? new Date(Date.parse(startedAt) + (measuringSince - loadStart)).toISOString() : undefined,
      });
      options.onTick?.({
        elapsedMs: performance.now() - loadStart,
        requests: loadResult.total.requests,
        errors: loadResult.total.errors,
        fraction: status === 'complete' ? 1 : fraction(),
        lastSecond: timeline[timeline.length - 1],
        warmingUp: false,
      });
      resolve(loadResult);
    };

    workers.forEach((worker, w) => {
      worker.on('message', (message: WorkerToMain) => {
        switch (message.type) {
          case 'ready':
            if (++ready === workers.length && phaseName === 'connecting') {
              phaseName = 'running';
              for (const each of workers) each.postMessage({ type: 'start' });
            }
            break;
          case 'connect-failed':
            if (phaseName === 'connecting') {
              phaseName = 'done';
              cleanup();
              reject(new LoadError(message.message));
            }
            break;
          case 'measuring':
            if (measuringSince === undefined) {
              measuringSince = performance.now();
              cpuStart = process.cpuUsage();
            }
            break;
          case 'second': {
            progress[w] = { requests: message.requests, errors: message.errors };
            const entry = mergeSecond(message.second);
            if (entry.reports === workers.length) {
              const lastSecond = closeSecond(message.second.t, entry);
              options.onTick?.({
                elapsedMs: performance.now() - loadStart,
                requests: measured(),
                errors: progress.reduce((sum, p) => sum + p.errors, 0),
                fraction: fraction(),
                lastSecond,
                warmingUp: false,
              });
            }
            break;
          }
          case 'result':
            results[w] = message.result;
            if (message.lastSecond) mergeSecond(message.lastSecond);
            if (message.result.status === 'failed') {
              failure ??= message.result.error;
              stopAll();
            }
            if (results.every((r, i) => r !== undefined || exited[i])) {
              cpuEnd = process.cpuUsage(cpuStart);
              measuringEnded = performance.now();
              finish();
            }
            break;
        }
      });
      // A worker that dies while connecting fails the load; later, the others stop and what they measured is kept.
      const workerFailed = (message: string, hasExited: boolean) => {
        if (phaseName === 'connecting') {
          phaseName = 'done';
          cleanup();
          reject(new LoadError(message));
          return;
        }
        failure ??= message;
        if (hasExited) exited[w] = true;
        if (hasExited && workers.every((_, i) => results[i] !== undefined || exited[i])) finish();
        else stopAll();
      };
      worker.on('exit', (code) => {
        if (results[w] !== undefined || phaseName === 'done') return;
        workerFailed(`the engine worker stopped unexpectedly (exit code ${code})`, true);
      });
      worker.on('error', (error) => workerFailed(`the engine worker crashed: ${error.stack ?? error.message}`, false));
    });
  });
  if (!cluster) return loaded;
  const done = await loaded;
  // The slot ranges each master served at the end of the load (a reshard may have moved some).
  if (done.cluster) await cluster.finalSlots(done.cluster);
  return done;
}

/** The cluster's layout before a load: what makes it unreadable or refused ends the load as a LoadError. */
async function loadTopology(connection: ConnectionOptions) {
  try {
    return await discoverTopology(connection);
  } catch (error) {
    throw error instanceof ClusterTopologyError ? new LoadError(error.message) : error;
  }
}

/**
 * The rows a test records: one per distinct command label, each command's index among them. A command group
 * records its unit first (UNIT_LABEL: the test's total), then its commands' rows.
 */
export function testLabels(test: TestPlan): { labels: string[]; labelIndexes: number[] } {
  const commandLabels = [...new Set(test.commands.map((c) => c.command.label))];
  const first = test.group ? 1 : 0;
  return {
    labels: test.group ? [test.name, ...commandLabels] : commandLabels,
    labelIndexes: test.commands.map((c) => first + commandLabels.indexOf(c.command.label)),
  };
}

interface AssemblyParts {
  status: LoadStatus;
  startedAt: string;
  seed: number;
  threads: number;
  labels: string[];
  error?: string;
  workers?: WorkerResult[];
  timeline?: TimelineSecond[];
  cpuPercent?: number;
  measuredFrom?: string;
}

/**
 * A count-based load that outlasted the fine limit has 100 ms buckets for its first 10 s and seconds after:
 * regroup the fine ones into seconds so the whole timeline has one bucket length (from the recorded
 * histograms, not interpolated).
 */
function coarsenFineBuckets(timeline: TimelineSecond[], fine: FineBucket[]): void {
  const limit = FINE_TIMELINE_LIMIT_MS / 1000;
  if (fine.length === 0 || !timeline.some((s) => s.t >= limit)) return;
  const seconds = new Map<number, { count: number; errors: number; moved: number; ask: number; spanMs: number; recorder: LatencyRecorder }>();
  for (const bucket of fine) {
    const t = Math.floor(bucket.t + 1e-9);
    let second = seconds.get(t);
    if (!second) seconds.set(t, (second = { count: 0, errors: 0, moved: 0, ask: 0, spanMs: 0, recorder: new LatencyRecorder() }));
    second.count += bucket.count;
    second.errors += bucket.errors;
    second.moved += bucket.moved;
    second.ask += bucket.ask;
    second.spanMs += bucket.spanMs;
    second.recorder.addSparse(bucket.counts);
  }
  const coarse: TimelineSecond[] = [...seconds].map(([t, s]) => ({
    t,
    ops: Math.round((s.count * 1000) / Math.max(1, s.spanMs)),
    errors: s.errors,
    p50Us: s.recorder.valueAtPercentile(50),
    p99Us: s.recorder.valueAtPercentile(99),
    maxUs: s.recorder.maxValue(),
    ...(timeline.some((b) => b.moved !== undefined) ? { moved: s.moved, ask: s.ask } : {}),
  }));
  const rest = timeline.filter((s) => s.t >= limit);
  timeline.splice(0, timeline.length, ...coarse, ...rest);
}

export function commandResult(name: string, reports: LabelReport[], durationMs: number): CommandResult {
  const recorder = new LatencyRecorder();
  // Error kinds are the server's words (`-constructor oops` is the kind `constructor`): Maps, never plain objects.
  const errorsByKind = new Map<string, number>();
  const errorExamples = new Map<string, string>();
  let requests = 0;
  let errors = 0;
  let windowReplies = 0;
  for (const report of reports) {
    recorder.addSparse(report.histogram);
    requests += report.requests;
    errors += report.errors;
    windowReplies += report.windowReplies;
    addCounts(errorsByKind, report.errorsByKind);
    addFirsts(errorExamples, report.errorExamples);
  }
  const { latency, histogram } = summarize(recorder);
  return {
    command: name,
    requests,
    errors,
    errorsByKind: recordFromMap(errorsByKind),
    errorExamples: recordFromMap(errorExamples),
    // Replies inside the window over the window's length: a silent server lowers it, a drain cannot raise it.
    opsPerSec: durationMs > 0 ? (windowReplies * 1000) / durationMs : 0,
    latency,
    histogram,
  };
}

function assembleResult(request: LoadRequest, parts: AssemblyParts): LoadResult {
  const workers = parts.workers ?? [];
  const durationMs = workers.reduce((max, w) => Math.max(max, w.durationMs), 0);
  // A group's total is its units (UNIT_LABEL); its commands' rows follow.
  const first = request.test.group ? 1 : 0;
  const commands = parts.labels.slice(first).map((label, i) =>
    commandResult(
      label,
      workers.map((w) => w.labels[first + i]),
      durationMs,
    ),
  );
  const total = commandResult(
    'total',
    request.test.group ? workers.map((w) => w.labels[UNIT_LABEL]) : workers.flatMap((w) => w.labels),
    durationMs,
  );
  const utilization = workers.reduce((max, w) => Math.max(max, w.eventLoopUtilization), 0);
  const plan = request.phase.load;
  const scheduled = workers.reduce((sum, w) => sum + w.scheduledSends, 0);
  const late = workers.reduce((sum, w) => sum + w.lateSends, 0);
  const lateShare = plan.rate !== undefined && scheduled > 0 ? late / scheduled : undefined;
  const health: ClientHealth = {
    threads: parts.threads,
    cpuPercent: parts.cpuPercent ?? 0,
    eventLoopLagP99Ms: workers.reduce((max, w) => Math.max(max, w.eventLoopLagP99Ms), 0),
    eventLoopUtilization: utilization,
    ...(lateShare !== undefined ? { lateShare } : {}),
    bottleneck: bottleneck(workers, durationMs, parts.threads, parts.cpuPercent ?? 0, lateShare),
  };
  const stallReason = parts.status === 'complete' ? stallWhy(workers, total.requests, plan, durationMs) : undefined;
  const errorStatusReason = parts.status === 'complete' ? stallReason ?? errorStatusWhy(total) : undefined;
  const drainMs = workers.reduce((max, w) => Math.max(max, w.drainMs ?? 0), 0);
  return {
    test: request.test.name,
    phase: request.phase.name,
    measured: request.phase.measured,
    client: request.client,
    status: errorStatusReason ? 'complete-with-errors' : parts.status,
    ...(parts.error !== undefined ? { error: parts.error } : {}),
    ...(errorStatusReason ? { errorStatusReason } : {}),
    startedAt: parts.startedAt,
    ...(parts.measuredFrom !== undefined ? { measuredFrom: parts.measuredFrom } : {}),
    durationMs,
    windowMs: durationMs,
    windowKind: stallReason
      ? 'first-send-to-stall'
      : parts.status === 'complete'
        ? plan.durationMs !== undefined
          ? 'planned-duration'
          : 'first-send-to-last-reply'
        : 'until-stopped',
    ...(drainMs > 0 ? { drainMs } : {}),
    total,
    commands,
    timeline: parts.timeline ?? [],
    ...(plan.rate !== undefined
      ? { openLoop: { targetRate: plan.rate, lateSends: workers.reduce((sum, w) => sum + w.lateSends, 0) } }
      : {}),
    connections: {
      opened: workers.reduce((sum, w) => sum + w.opened, 0),
      reconnects: workers.reduce((sum, w) => sum + w.reconnects, 0),
    },
    health,
    seed: parts.seed,
  };
}

/**
 * Whether the client was the limit, from its own CPU time: the busiest thread busy (its CPU time where the
 * runtime can tell, else event-loop busy time, which no longer counts waiting since the open loop sleeps
 * on timers) and the process using about a core per thread; in the open loop, sends late as well.
 */
function bottleneck(workers: WorkerResult[], durationMs: number, threads: number, cpuPercent: number, lateShare: number | undefined): ClientHealth['bottleneck'] {
  if (workers.length === 0 || durationMs === 0) return 'unknown';
  const busy = workers.reduce((max, w) => Math.max(max, w.threadCpuMs !== undefined ? w.threadCpuMs / durationMs : w.eventLoopUtilization), 0);
  const processBusy = cpuPercent / 100 / Math.max(1, threads);
  const behind = lateShare === undefined || lateShare > CLIENT_BOUND_LATE_SHARE;
  if (busy >= CLIENT_BOUND_UTILIZATION && processBusy >= CLIENT_BOUND_UTILIZATION * 0.9 && behind) return 'client';
  if (busy < SERVER_BOUND_UTILIZATION || !behind) return 'server';
  return 'unknown';
}

/** A load that ended because the server stopped answering: how long it was silent, and what was sent of the plan. */
function stallWhy(workers: WorkerResult[], sent: number, plan: LoadRequest['phase']['load'], windowMs: number): string | undefined {
  const stalled = workers.filter((w) => w.stall !== undefined);
  if (stalled.length === 0) return undefined;
  const silentS = Math.max(...stalled.map((w) => w.stall!.silentMs)) / 1000;
  const outstanding = stalled.reduce((sum, w) => sum + w.stall!.outstanding, 0);
  const format = (n: number) => n.toLocaleString('en-US');
  const seconds = (s: number) => `${s < 10 ? s.toFixed(1).replace(/\.0$/, '') : Math.round(s)} s`;
  const sentOfPlan =
    plan.requests !== undefined
      ? `${format(sent)} of ${format(plan.requests)} planned requests sent`
      : `stopped after ${seconds(windowMs / 1000)} of the planned ${seconds(plan.durationMs! / 1000)}`;
  return `the server sent no reply for ${seconds(silentS)} with ${format(outstanding)} requests outstanding (now TIMEOUT errors); ${sentOfPlan}`;
}

/** Why a load that ran to its end counts as failed work: nothing succeeded, or errors above the threshold. */
export function errorStatusWhy(total: CommandResult): string | undefined {
  if (total.requests === 0 || total.errors === 0) return undefined;
  const share = total.errors / total.requests;
  const kinds = Object.entries(total.errorsByKind)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, count]) => `${kind} ${count.toLocaleString('en-US')}`)
    .join(', ');
  const percent = `${(share * 100).toFixed(share < 0.1 ? 2 : 1)}%`;
  if (total.errors >= total.requests) return `nothing succeeded: all ${total.requests.toLocaleString('en-US')} requests failed (${kinds})`;
  if (share > ERROR_STATUS_THRESHOLD) {
    return `${percent} of requests failed (${kinds}), above the ${ERROR_STATUS_THRESHOLD * 100}% threshold`;
  }
  return undefined;
}

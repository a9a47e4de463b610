// `rbench merge`: joins the runs of one plan made on several load machines (`rbench run --shard I/N`) into
// one run. Latency histograms are added (hdr-histogram-js) and every percentile is read from the sum —
// never averaged; counts are added; throughput is the parts' requests within the window they all measured
// in, over that window (togetherRate); timelines line up by wall clock. Each part's figures stay in `parts`.
import type { JsHistogram } from 'hdr-histogram-js';
import { decodeFromCompressedBase64 } from 'hdr-histogram-js/dist/encoding';
import {
  LatencyRecorder,
  summarize,
  toHdrHistogram,
  type CommandResult,
  type LoadPart,
  type LoadResult,
  type LoadStatus,
  type TimelineSecond,
} from '../engine';
import type { PhasePlan, ScenarioPlan } from '../scenario/plan';
import { planDifference } from './planIdentity';
import { runId, type KeysAfterPrefill, type MergedPart, type PointResult, type RunFile, type RunStatus } from './runFile';
import { summariseRepeats } from './summary';
import { mergeClusterResults } from './mergeCluster';
import { bytesPerSecond, mergeServerDeltas } from './serverDelta';
import { addChosenPercentiles } from './chosenPercentiles';
import { throughputPercentiles } from './timelineSeconds';
import { evaluateThresholds } from './thresholds';
import { addCounts, addFirsts, recordFromMap } from '../gates/plainData';
import { bottleneckOf } from './bottleneck';
import { mergeConsumers, mergePubSub, mergeReplies } from './mergeGroupFigures';

export class MergeError extends Error {}

export interface MergeOutcome {
  run: RunFile;
  /** Things to know about the merged figures (missing parts, parts that did not complete). */
  warnings: string[];
}

/** `shard 2/3`, or the run id of an unsharded run. */
export function partName(run: RunFile): string {
  return run.plan.shard ? `shard ${run.plan.shard.index}/${run.plan.shard.count}` : run.id;
}

/** Adds compressed base64 histograms and summarises the sum exactly as the engine summarises a load. */
export function mergeHistograms(encoded: readonly string[]): ReturnType<typeof summarize> {
  const sum = toHdrHistogram(new LatencyRecorder());
  for (const text of encoded) {
    if (!text) continue;
    const part = decodeFromCompressedBase64(text, 64, false);
    sum.add(part);
    part.destroy();
  }
  // The engine's recorder has hdr-histogram-js's slot layout: copying slot by slot is lossless.
  const recorder = new LatencyRecorder();
  const histogram = sum as JsHistogram;
  for (let index = 0; index < histogram.countsArrayLength; index++) {
    const count = histogram.getCountAtIndex(index);
    if (count > 0) recorder.record(histogram.valueFromIndex(index), count);
  }
  sum.destroy();
  return summarize(recorder);
}

/** The plan with what a part changes removed: the runs to merge must agree on everything else. */
function comparablePlan(plan: ScenarioPlan): ScenarioPlan {
  const comparable: unknown = {
    ...plan,
    shard: undefined,
    points: plan.points.map((point) => ({
      ...point,
      // A part's clients, requests and rate are its share; the scenario's client count stays (shard.totalClients).
      phases: point.phases.map((phase) => ({
        ...comparablePhase(phase),
        // A client group's load is split like a phase's.
        ...(phase.groups ? { groups: phase.groups.map((group) => ({ ...group, phase: comparablePhase(group.phase) })) } : {}),
      })),
    })),
  };
  return comparable as ScenarioPlan;
}

function comparablePhase(phase: PhasePlan): PhasePlan {
  const load: unknown = {
    ...phase.load,
    clients: undefined,
    requests: undefined,
    rate: undefined,
    shard: phase.load.shard && { totalClients: phase.load.shard.totalClients },
  };
  return { ...phase, load: load as PhasePlan['load'] };
}

function checkMergeable(runs: RunFile[], names: string[]): string[] {
  if (runs.length < 2) throw new MergeError('name at least two run files to merge (one per load machine)');
  const reference = comparablePlan(runs[0].plan);
  runs.forEach((run, i) => {
    // Settings only (results/planIdentity.ts): a comment line added on one machine moves ranges, not the plan.
    const difference = i > 0 ? planDifference(comparablePlan(run.plan), reference) : undefined;
    if (difference) {
      throw new MergeError(
        `${names[i]} and ${names[0]} ran different plans (${difference}): ` +
          'merge joins parts of one scenario — run the same file, with the same variables and rbench version, on every machine',
      );
    }
  });
  const sharded = runs.filter((run) => run.plan.shard);
  if (sharded.length > 0 && sharded.length < runs.length) {
    throw new MergeError(
      `${names[runs.indexOf(runs.find((run) => !run.plan.shard)!)]} is a whole run, the others are parts (--shard): merge either parts of one split or whole runs`,
    );
  }
  const warnings: string[] = [];
  if (sharded.length > 0) {
    const count = runs[0].plan.shard!.count;
    const seen = new Map<number, string>();
    runs.forEach((run, i) => {
      const shard = run.plan.shard!;
      if (shard.count !== count)
        throw new MergeError(`${names[i]} is part ${shard.index}/${shard.count}, ${names[0]} a part of ${count}: merge the parts of one split`);
      const twice = seen.get(shard.index);
      if (twice) throw new MergeError(`${names[i]} and ${twice} are both part ${shard.index}/${count}: give each part once`);
      seen.set(shard.index, names[i]);
    });
    const runIds = [...new Set(runs.map((run) => run.plan.shard!.runId ?? 'none'))];
    if (runIds.length > 1) {
      warnings.push(
        `The parts carry different run ids (${runIds.join(', ')}): they were not started as one run (give every part the same --start-at or --run-id), so each counted the others as foreign load.`,
      );
    }
    const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !seen.has(index));
    if (missing.length > 0) {
      warnings.push(
        `Parts ${missing.map((index) => `${index}/${count}`).join(', ')} are missing: these figures are ${seen.size} of ${count} parts, not the whole scenario.`,
      );
    }
  }
  const targets = [...new Set(runs.map((run) => run.target.display))];
  if (targets.length > 1) warnings.push(`The parts name different targets (${targets.join(', ')}): make sure they are one server.`);
  for (const [i, run] of runs.entries()) {
    if (run.status !== 'complete') warnings.push(`${names[i]} is ${run.status}${run.error ? ` (${run.error})` : ''}: its figures cover only what it measured.`);
  }
  return warnings;
}

/** The worst status: a failed part fails the merge, a cancelled one leaves it cancelled. */
function worstStatus<T extends string>(statuses: T[]): T {
  const rank = (status: string) => (status === 'failed' ? 3 : status === 'cancelled' ? 2 : status === 'complete' ? 0 : 1);
  return statuses.reduce((worst, status) => (rank(status) > rank(worst) ? status : worst));
}

const measuredStart = (load: LoadResult) => Date.parse(load.measuredFrom ?? load.startedAt);

/**
 * The merged load's rate per request counted (ops/s = requests × this). While every part measured, the server
 * ran all of their load at once: the parts' requests within that common window (the latest start of measuring to
 * the earliest end), over its length, is the parts' rates there added up — the whole's throughput. Requests over
 * the union window instead (first start to last end) count the stretches where only some parts ran as if all had:
 * two parts 1 s apart in a 3 s test came out 25 % below the sum. A part's requests in the window are its total
 * times the share of its timeline there (a bucket's requests spread evenly over its span; with no timeline, over
 * its measured window). A command's rate is its requests at the same rate per request: every part sends the
 * scenario's mix. Parts that never measured together have no common window: requests over the union then.
 */
function togetherRate(loads: LoadResult[]): { perRequest: number; commonMs: number } {
  const from = Math.max(...loads.map(measuredStart));
  const to = Math.min(...loads.map((load) => measuredStart(load) + load.durationMs));
  const requests = loads.reduce((sum, load) => sum + load.total.requests, 0);
  if (to <= from || requests === 0) {
    const union = Math.max(...loads.map((load) => measuredStart(load) + load.durationMs)) - Math.min(...loads.map(measuredStart));
    return { perRequest: union > 0 && requests > 0 ? 1000 / union : 0, commonMs: 0 };
  }
  const within = loads.reduce((sum, load) => sum + load.total.requests * shareWithin(load, from - measuredStart(load), to - measuredStart(load)), 0);
  return { perRequest: (within * 1000) / (to - from) / requests, commonMs: to - from };
}

/** The share (0…1) of a load's requests measured between `fromMs` and `toMs` after its own start of measuring. */
function shareWithin(load: LoadResult, fromMs: number, toMs: number): number {
  const overlap = (start: number, end: number) => Math.max(0, Math.min(end, toMs) - Math.max(start, fromMs));
  let all = 0;
  let inside = 0;
  for (const bucket of load.timeline) {
    const start = bucket.t * 1000;
    const span = bucket.partialMs ?? 1000;
    all += bucket.ops * span;
    inside += bucket.ops * overlap(start, start + span);
  }
  if (all > 0) return inside / all;
  return load.durationMs > 0 ? overlap(0, load.durationMs) / load.durationMs : 1;
}

/** The parts' connections added up; their set-up times as one histogram. */
function mergeConnections(loads: LoadResult[]): LoadResult['connections'] {
  const sum = (figure: (c: LoadResult['connections']) => number | undefined) => loads.reduce((total, load) => total + (figure(load.connections) ?? 0), 0);
  const cycles = sum((c) => c.cycles);
  const idle = sum((c) => c.idle);
  const setups = loads.flatMap((load) => (load.connections.setup ? [load.connections.setup.histogram] : []));
  return {
    opened: sum((c) => c.opened),
    reconnects: sum((c) => c.reconnects),
    ...(cycles > 0 ? { cycles } : {}),
    ...(idle > 0 ? { idle } : {}),
    ...(setups.length > 0 ? { setup: mergeHistograms(setups) } : {}),
  };
}

function mergeCommand(name: string, results: CommandResult[], perRequest: number): CommandResult {
  // Error kinds are the server's words (`-constructor oops` is the kind `constructor`): Maps, never plain objects.
  const errorsByKind = new Map<string, number>();
  const errorExamples = new Map<string, string>();
  for (const result of results) {
    addCounts(errorsByKind, result.errorsByKind);
    addFirsts(errorExamples, result.errorExamples);
  }
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  const { latency, histogram } = mergeHistograms(results.map((r) => r.histogram));
  const replies = mergeReplies(results);
  return {
    command: name,
    requests,
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    errorsByKind: recordFromMap(errorsByKind),
    errorExamples: recordFromMap(errorExamples),
    // A read's misses add up over the parts (each part counted its own replies).
    ...(results.length > 0 && results.every((r) => r.misses !== undefined) ? { misses: results.reduce((sum, r) => sum + r.misses!, 0) } : {}),
    ...(results.some((r) => r.lookups !== undefined) ? { lookups: results.reduce((sum, r) => sum + (r.lookups ?? r.requests - r.errors), 0) } : {}),
    ...(replies ? { replies } : {}),
    opsPerSec: requests * perRequest,
    latency,
    histogram,
  };
}

/**
 * Seconds of all parts on one wall clock (shifted by whole seconds). Requests are added (a partial
 * second counts for its length); per-second histograms are not stored, so a merged second's p50, p99
 * and max are the highest of the parts' — an upper bound of the true value, never below it.
 */
/** The engine's bucket width (s): 100 ms for a test under 10 s, else 1 s; the coarsest when parts differ. */
function bucketWidthS(loads: LoadResult[]): number {
  return loads.some((load) => load.durationMs >= 10_000) ? 1 : 0.1;
}

function mergeTimelines(loads: LoadResult[], origin: number): TimelineSecond[] {
  type Bucket = { second: TimelineSecond; requests: number; spanMs: number };
  const merged = new Map<number, Bucket>();
  const width = bucketWidthS(loads);
  for (const load of loads) {
    // Bucket k of the merged timeline starts k × width after the earliest part began measuring; a part's
    // finer buckets inside one merged bucket add up (requests and span), then parts add their requests.
    const shift = Math.round((measuredStart(load) - origin) / 1000 / width);
    const own = new Map<number, Bucket>();
    for (const second of load.timeline) {
      const key = Math.floor(second.t / width + 1e-6) + shift;
      const spanMs = second.partialMs ?? 1000;
      const requests = (second.ops * spanMs) / 1000;
      const entry = own.get(key);
      if (!entry) own.set(key, { second: { ...second, t: Math.round(key * width * 10) / 10 }, requests, spanMs });
      else addBucket(entry, { second, requests, spanMs }, true);
    }
    for (const [key, bucket] of own) {
      const entry = merged.get(key);
      if (!entry) merged.set(key, bucket);
      else addBucket(entry, bucket, false);
    }
  }
  return [...merged.values()]
    .sort((a, b) => a.second.t - b.second.t)
    .map(({ second, requests, spanMs }) => {
      const bucket: TimelineSecond = { ...second, ops: Math.round((requests * 1000) / spanMs) };
      delete bucket.partialMs;
      if (spanMs < 1000) bucket.partialMs = spanMs;
      return bucket;
    });
}

/** Adds `from` into `into`: requests and errors add; the span adds along one part's time (`consecutive`), else the longest counts; latencies take the highest (an upper bound: per-bucket histograms are not stored). */
function addBucket(
  into: { second: TimelineSecond; requests: number; spanMs: number },
  from: { second: TimelineSecond; requests: number; spanMs: number },
  consecutive: boolean,
): void {
  into.requests += from.requests;
  into.spanMs = consecutive ? into.spanMs + from.spanMs : Math.max(into.spanMs, from.spanMs);
  into.second.errors += from.second.errors;
  if (from.second.moved !== undefined) into.second.moved = (into.second.moved ?? 0) + from.second.moved;
  if (from.second.ask !== undefined) into.second.ask = (into.second.ask ?? 0) + from.second.ask;
  into.second.p50Us = Math.max(into.second.p50Us, from.second.p50Us);
  into.second.p99Us = Math.max(into.second.p99Us, from.second.p99Us);
  into.second.maxUs = Math.max(into.second.maxUs, from.second.maxUs);
}

function mergeLoads(
  loads: LoadResult[],
  partNames: string[],
  clients: number[],
  percentiles: readonly number[] | undefined,
  sameMachine: boolean,
  warn: (line: string) => void,
): LoadResult {
  const first = loads[0];
  const origin = Math.min(...loads.map(measuredStart));
  const end = Math.max(...loads.map((load) => measuredStart(load) + load.durationMs));
  const windowMs = end - origin;
  const { perRequest, commonMs } = togetherRate(loads);
  if (commonMs === 0 && loads.length > 1)
    warn(`${first.test}: the parts never measured at the same time, so its throughput is the requests over the whole window, not what the server ran at once.`);
  const labels = [...new Set(loads.flatMap((load) => load.commands.map((c) => c.command)))];
  const openLoops = loads.filter((load) => load.openLoop);
  const merged: LoadResult = {
    test: first.test,
    phase: first.phase,
    measured: first.measured,
    client: first.client,
    status: worstStatus<LoadStatus>(loads.map((load) => load.status)),
    startedAt: new Date(Math.min(...loads.map((load) => Date.parse(load.startedAt)))).toISOString(),
    measuredFrom: new Date(origin).toISOString(),
    durationMs: windowMs,
    total: mergeCommand(
      'total',
      loads.map((load) => load.total),
      perRequest,
    ),
    commands: labels.map((label) =>
      mergeCommand(
        label,
        loads.flatMap((load) => load.commands.filter((c) => c.command === label)),
        perRequest,
      ),
    ),
    timeline: mergeTimelines(loads, origin),
    connections: mergeConnections(loads),
    health: {
      threads: loads.reduce((sum, load) => sum + load.health.threads, 0),
      cpuPercent: Math.max(...loads.map((load) => load.health.cpuPercent)),
      eventLoopLagP99Ms: Math.max(...loads.map((load) => load.health.eventLoopLagP99Ms)),
      eventLoopUtilization: Math.max(...loads.map((load) => load.health.eventLoopUtilization ?? 0)),
      // One saturated machine understates the server for the whole.
      bottleneck: loads.some((load) => load.health.bottleneck === 'client')
        ? 'client'
        : loads.every((load) => load.health.bottleneck === 'server')
          ? 'server'
          : 'unknown',
    },
    seed: first.seed,
    parts: loads.map((load, i): LoadPart => {
      const { histogram: _histogram, ...total } = load.total;
      return {
        part: partNames[i],
        clients: clients[i],
        status: load.status,
        ...(load.measuredFrom ? { measuredFrom: load.measuredFrom } : {}),
        durationMs: load.durationMs,
        seed: load.seed,
        total,
      };
    }),
  };
  const cluster = mergeClusterResults(loads, (name, results) => mergeCommand(name, results, perRequest));
  if (cluster) merged.cluster = cluster;
  const server = mergeServerDeltas(loads);
  if (server) merged.server = server;
  const error = loads.find((load) => load.error)?.error;
  if (error) merged.error = error;
  if (openLoops.length > 0) {
    merged.openLoop = {
      targetRate: openLoops.reduce((sum, load) => sum + load.openLoop!.targetRate, 0),
      lateSends: openLoops.reduce((sum, load) => sum + load.openLoop!.lateSends, 0),
    };
  }
  if (first.group) merged.group = { ...first.group };
  const consumer = mergeConsumers(loads, mergeHistograms);
  if (consumer) merged.consumer = consumer;
  const pubsub = mergePubSub(loads, sameMachine);
  if (pubsub) merged.pubsub = pubsub;
  merged.bottleneck = bottleneckOf(merged);
  // Figures derived from the joined histograms, timeline and server counters, not copied from a part.
  addChosenPercentiles(merged, percentiles);
  const throughput = throughputPercentiles(merged);
  if (throughput) merged.throughputPercentiles = throughput;
  const bytes = bytesPerSecond(merged.server);
  if (bytes) merged.bytesPerSec = bytes;
  return merged;
}

/** The scenario's own plan: the parts' clients, requests and rates added back together. */
/** The highest of the parts' key counts after the prefill, or none. */
function mostKeys(runs: readonly RunFile[]): KeysAfterPrefill[] {
  const counts = runs.flatMap((run) => run.keysAfterPrefill ?? []);
  return counts.length === 0 ? [] : [counts.reduce((most, count) => (count.keys > most.keys ? count : most))];
}

function wholePlan(runs: RunFile[]): ScenarioPlan {
  const plan = structuredClone(runs[0].plan);
  delete plan.shard;
  plan.points.forEach((point, p) =>
    point.phases.forEach((phase, f) => {
      const parts = runs.map((run) => run.plan.points[p].phases[f].load);
      phase.load.clients = parts.reduce((sum, load) => sum + load.clients, 0);
      if (phase.load.requests !== undefined) phase.load.requests = parts.reduce((sum, load) => sum + (load.requests ?? 0), 0);
      if (phase.load.rate !== undefined) phase.load.rate = parts.reduce((sum, load) => sum + (load.rate ?? 0), 0);
      delete phase.load.shard;
      phase.groups?.forEach((group, g) => {
        const groupParts = runs.map((run) => run.plan.points[p].phases[f].groups?.[g]?.phase.load).filter((load) => load !== undefined);
        group.phase.load.clients = groupParts.reduce((sum, load) => sum + load.clients, 0);
        if (group.phase.load.requests !== undefined) group.phase.load.requests = groupParts.reduce((sum, load) => sum + (load.requests ?? 0), 0);
        if (group.phase.load.rate !== undefined) group.phase.load.rate = groupParts.reduce((sum, load) => sum + (load.rate ?? 0), 0);
        delete group.phase.load.shard;
      });
    }),
  );
  return plan;
}

/** Joins the runs of one plan made on several machines; throws MergeError when they do not belong together. */
export function mergeRuns(input: RunFile[], names: string[] = input.map((run) => run.id)): MergeOutcome {
  const warnings = checkMergeable(input, names);
  // Parts in shard order (unsharded runs in start order), so that part 1 leads.
  const order = input.map((run, i) => ({ run, name: names[i] }));
  order.sort((a, b) => (a.run.plan.shard?.index ?? 0) - (b.run.plan.shard?.index ?? 0) || Date.parse(a.run.startedAt) - Date.parse(b.run.startedAt));
  const runs = order.map((entry) => entry.run);
  const partNames = runs.map(partName);
  const started = Math.min(...runs.map((run) => Date.parse(run.startedAt)));
  const finished = Math.max(...runs.map((run) => Date.parse(run.finishedAt)));
  const first = runs[0];
  // Machine facts alike do not prove one machine, but facts that differ prove several (a subscriber's clock).
  const sameMachine = new Set(runs.map((r) => JSON.stringify(r.machine))).size === 1;

  const points: PointResult[] = first.plan.points
    .map((pointPlan) => {
      const sources = runs.map((run) => run.points.find((point) => point.label === pointPlan.label));
      const repeatCount = Math.max(0, ...sources.map((point) => point?.repeats.length ?? 0));
      const repeats: LoadResult[][] = [];
      for (let r = 0; r < repeatCount; r++) {
        const loadCount = Math.max(0, ...sources.map((point) => point?.repeats[r]?.length ?? 0));
        const loads: LoadResult[] = [];
        for (let l = 0; l < loadCount; l++) {
          const present = sources
            .map((point, i) => ({ load: point?.repeats[r]?.[l], name: partNames[i], run: runs[i] }))
            .filter((entry) => entry.load !== undefined);
          const clients = present.map(({ run, load }) => {
            const phase = run.plan.points.find((p) => p.label === pointPlan.label)?.phases.find((f) => f.name === load!.phase);
            // A client group's clients are its own, not its phase's shared setting.
            return (load!.group ? phase?.groups?.find((group) => group.name === load!.group!.name)?.phase : phase)?.load.clients ?? 0;
          });
          loads.push(
            mergeLoads(
              present.map((entry) => entry.load!),
              present.map((entry) => entry.name),
              clients,
              runs[0].plan.percentiles,
              sameMachine,
              (line) => warnings.push(line),
            ),
          );
        }
        repeats.push(loads);
      }
      return { label: pointPlan.label, sweep: pointPlan.sweep, repeats, summary: summariseRepeats(repeats) };
    })
    .filter((point) => point.repeats.length > 0);

  const plan = wholePlan(runs);
  const errors = runs.filter((run) => run.error).map((run) => `${partName(run)}: ${run.error}`);
  const samplesFrom = runs.find((run) => run.server.samples.length > 0) ?? first;
  const shift = Date.parse(samplesFrom.startedAt) - started;
  const run: RunFile = {
    ...structuredClone(first),
    id: `${runId(new Date(started), first.scenario.name)}-merged`,
    plan,
    startedAt: new Date(started).toISOString(),
    finishedAt: new Date(finished).toISOString(),
    durationMs: finished - started,
    status: worstStatus<RunStatus>(runs.map((r) => r.status)),
    points,
    // Every machine sampled the same server: one machine's samples, on the merged clock.
    server: {
      ...structuredClone(samplesFrom.server),
      samples: samplesFrom.server.samples.map((sample) => ({ ...sample, t: sample.t + shift })),
      events: samplesFrom.server.events.map((event) => ({ ...event, t: event.t + shift })),
    },
    // Each machine counted the keys after its own share of the prefill: the highest count saw the most of it.
    thresholds: evaluateThresholds(plan.expects, points, mostKeys(runs)),
    merged: {
      parts: runs.map((r, i): MergedPart => ({
        part: partNames[i],
        id: r.id,
        startedAt: r.startedAt,
        finishedAt: r.finishedAt,
        status: r.status,
        ...(r.error ? { error: r.error } : {}),
        machine: r.machine,
        target: r.target.display,
      })),
    },
  };
  if (runs.some((r) => r.target.tlsInsecure)) run.target.tlsInsecure = true;
  // A Sentinel target: every primary any machine measured, each once, in the order the parts met them.
  const primaries = [...new Set(runs.flatMap((r) => r.target.primaries ?? []))];
  if (primaries.length > 0) run.target.primaries = primaries;
  delete run.error;
  if (errors.length > 0) run.error = errors.join('; ');
  const cleaned = runs.filter((r) => r.cleanedUpKeys !== undefined);
  if (cleaned.length > 0) run.cleanedUpKeys = cleaned.reduce((sum, r) => sum + r.cleanedUpKeys!, 0);
  else delete run.cleanedUpKeys;
  // Every load machine's clean-up scanned the same server: the keys one left alone, the others saw too.
  const leftAlone = Math.max(0, ...runs.map((r) => r.cleanupLeftAlone ?? 0));
  if (leftAlone > 0) run.cleanupLeftAlone = leftAlone;
  else delete run.cleanupLeftAlone;
  // The parts that left `cleanup` to the last: the merged run says so only when no part cleaned.
  const left = runs.flatMap((r) => (r.cleanupLeft ? [r.cleanupLeft] : []));
  if (cleaned.length === 0 && left.length > 0) run.cleanupLeft = left.reduce((most, next) => (next.ended > most.ended ? next : most));
  else delete run.cleanupLeft;
  return { run, warnings };
}

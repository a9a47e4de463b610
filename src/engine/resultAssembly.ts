// The LoadResult of a load: its workers' figures summed per command and in total, the client's health
// and the verdicts (verdicts.ts).
import { addCounts, addFirsts, recordFromMap } from '../gates/plainData';
import { handshakeCommands } from './fast/connect';
import { withRecorder, type LatencyRecorder } from './measure/histogram';
import { summarize } from './measure/summary';
import type { ClientHealth, CommandResult, LoadRequest, LoadResult, LoadStatus, RampStep, TimelineSecond } from './types';
import { UNIT_LABEL } from './measure/unitTally';
import { summarizePauses } from './measure/pauseSummary';
import { joinSilences } from './measure/silences';
import { bottleneck, errorStatusWhy, stallWhy } from './verdicts';
import type { LabelReport, PublishReport, WorkerResult } from './workerMessages';
import { keysAskedOf } from '../scenario/replyMisses';

export interface AssemblyParts {
  status: LoadStatus;
  startedAt: string;
  seed: number;
  threads: number;
  labels: string[];
  error?: string;
  workers?: WorkerResult[];
  timeline?: TimelineSecond[];
  /** `ramp`: the steps of the staircase (measure/rampSteps.ts). */
  ramp?: RampStep[];
  cpuPercent?: number;
  measuredFrom?: string;
}

export function commandResult(name: string, reports: LabelReport[], durationMs: number): CommandResult {
  return withRecorder((recorder) => commandResultThrough(recorder, name, reports, durationMs));
}

function commandResultThrough(recorder: LatencyRecorder, name: string, reports: LabelReport[], durationMs: number): CommandResult {
  // Error kinds are the server's words (`-constructor oops` is the kind `constructor`): Maps, never plain objects.
  const errorsByKind = new Map<string, number>();
  const errorExamples = new Map<string, string>();
  let requests = 0;
  let errors = 0;
  let windowReplies = 0;
  let misses = 0;
  let notRun = 0;
  const replies = new Map<string, number>();
  // Misses of a row whose every report counts them (a total of reads only).
  const countsMisses = reports.length > 0 && reports.every((report) => report.misses !== undefined);
  for (const report of reports) {
    misses += report.misses ?? 0;
    notRun += report.notRun ?? 0;
    if (report.replyCounts) addCounts(replies, report.replyCounts);
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
    ...(countsMisses ? { misses } : {}),
    // A queued read in transactions that did not run asked for nothing: its hits and misses count over the others.
    ...(countsMisses && notRun > 0 ? { lookups: requests - errors - notRun } : {}),
    ...(replies.size > 0 ? { replies: recordFromMap(replies) } : {}),
    // Replies inside the window over the window's length: a silent server lowers it, a drain cannot raise it.
    opsPerSec: durationMs > 0 ? (windowReplies * 1000) / durationMs : 0,
    latency,
    histogram,
  };
}

/**
 * Requests the workers wrote, warm-up and drain included, per label name and in total: what the server's
 * call counters should show. A group counts its commands (its unit row, the test's name, is not a command).
 */
function sentRequests(labels: string[], workers: WorkerResult[], request: LoadRequest): LoadResult['sent'] {
  const grouped = request.test.group !== undefined;
  const byLabel = new Map<string, number>();
  let requests = 0;
  for (let index = grouped ? 1 : 0; index < labels.length; index++) {
    const count = workers.reduce((sum, w) => sum + (w.sent[index] ?? 0), 0);
    byLabel.set(labels[index], (byLabel.get(labels[index]) ?? 0) + count);
    requests += count;
  }
  const handshake = handshakes(request, workers);
  return { requests, byLabel: recordFromMap(byLabel), ...(handshake ? { handshakes: handshake } : {}) };
}

/**
 * Per-key reads (MGET k1 k2 k3): their rows' keys asked (scenario/replyMisses.ts keysAskedOf), and the total's, which
 * counts the other rows' answered replies, one key each. Changes `commands` in place; returns `total` with its own.
 */
function withLookups(request: LoadRequest, commands: CommandResult[], total: CommandResult): CommandResult {
  let any = false;
  for (const row of commands) {
    const template = request.test.commands.find((c) => c.command.label === row.command)?.command;
    const asked = template && row.misses !== undefined ? keysAskedOf(template) : undefined;
    if (asked === undefined) continue;
    row.lookups = (row.lookups ?? row.requests - row.errors) * asked;
    any = true;
  }
  if (!any || total.misses === undefined || request.test.group) return total;
  return { ...total, lookups: commands.reduce((sum, row) => sum + (row.lookups ?? row.requests - row.errors), 0) };
}

export function assembleResult(request: LoadRequest, parts: AssemblyParts): LoadResult {
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
  const totalReports = request.test.group ? workers.map((w) => w.labels[UNIT_LABEL]) : workers.flatMap((w) => w.labels);
  const total = withLookups(request, commands, commandResult('total', totalReports, durationMs));
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
    ...clientTimes(workers, totalReports),
  };
  const stalls = workers.some((w) => w.silences)
    ? joinSilences(
        workers.map((w) => w.silences),
        workers.reduce((sum, w) => sum + w.opened, 0),
        total.latency.p99Us,
      )
    : undefined;
  const stallReason = parts.status === 'complete' ? stallWhy(workers, total.requests, plan, durationMs) : undefined;
  const errorStatusReason = parts.status === 'complete' ? (stallReason ?? errorStatusWhy(total, commands)) : undefined;
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
    ...(parts.ramp ? { ramp: parts.ramp } : {}),
    ...(plan.rate !== undefined ? { openLoop: { targetRate: plan.rate, lateSends: workers.reduce((sum, w) => sum + w.lateSends, 0) } } : {}),
    connections: connectionFigures(workers),
    health,
    seed: parts.seed,
    ...(stalls ? { stalls } : {}),
    ...(workers.length > 0 ? { sent: sentRequests(parts.labels, workers, request) } : {}),
    ...publisherFigures(workers),
    ...serverThreadOf(workers),
  };
}

/** The local server's main thread over the window, as the one thread given its pid read it. */
function serverThreadOf(workers: WorkerResult[]): Pick<LoadResult, 'serverThread'> {
  const read = workers.find((w) => w.serverThread)?.serverThread;
  return read ? { serverThread: { runMs: read.runMs, runnableWaitMs: read.runnableWaitMs } } : {};
}

/** A publisher's replies summed over its threads: the deliveries its subscribers should count. */
function publisherFigures(workers: WorkerResult[]): Pick<LoadResult, 'pubsub'> {
  const reports = workers.flatMap((w) => (w.published ? [w.published] : []));
  if (reports.length === 0) return {};
  const sum = (figure: (report: PublishReport) => number) => reports.reduce((total, report) => total + figure(report), 0);
  return { pubsub: { role: 'publisher', published: sum((r) => r.replies), expected: sum((r) => r.receivers), unheard: sum((r) => r.unheard) } };
}

/** The connections the load made: opened, lost and reopened, cycled, idle, and how long each took to set up. */
function connectionFigures(workers: WorkerResult[]): LoadResult['connections'] {
  const sum = (figure: (w: WorkerResult) => number | undefined) => workers.reduce((total, w) => total + (figure(w) ?? 0), 0);
  const cycles = sum((w) => w.cycles);
  const idle = sum((w) => w.idle);
  const setup = withRecorder((recorder) => {
    for (const worker of workers) if (worker.connectTimes) recorder.addSparse(worker.connectTimes);
    return recorder.totalCount > 0 ? summarize(recorder) : undefined;
  });
  return {
    opened: sum((w) => w.opened),
    reconnects: sum((w) => w.reconnects),
    ...(cycles > 0 ? { cycles } : {}),
    ...(idle > 0 ? { idle } : {}),
    ...(setup ? { setup } : {}),
  };
}

/**
 * The handshake commands the load's connections sent (each opening and reconnect sends the same ones), by the
 * server's names: known exactly on the fast single-node path; ioredis and cluster discovery send what their
 * versions choose, so those paths leave it out.
 */
function handshakes(request: LoadRequest, workers: WorkerResult[]): Record<string, number> | undefined {
  if (request.client !== 'fast' || request.connection.cluster) return undefined;
  const openings = workers.reduce((sum, w) => sum + w.opened + w.reconnects + (w.cycles ?? 0) + (w.idle ?? 0), 0);
  const counts = new Map<string, number>();
  for (const { args } of handshakeCommands(request.connection)) counts.set(args[0].toLowerCase(), (counts.get(args[0].toLowerCase()) ?? 0) + openings);
  return recordFromMap(counts);
}

/** The busiest thread's CPU and wait for a core (where the system tells), and the threads' pauses added up. */
function clientTimes(workers: WorkerResult[], totalReports: LabelReport[]): Pick<ClientHealth, 'threadCpu' | 'pauses'> {
  const schedules = workers.flatMap((w) => (w.threadCpu ? [w.threadCpu] : []));
  // The thread that had work longest (ran or waited for a core): a starved thread runs least, yet it is the one holding the load up.
  const had = (s: (typeof schedules)[number]) => s.runMs + s.runnableWaitMs;
  const busiest = schedules.reduce<(typeof schedules)[number] | undefined>((best, s) => (best === undefined || had(s) > had(best) ? s : best), undefined);
  const pauses = summarizePauses(
    workers.flatMap((w) => (w.pauses ? [w.pauses] : [])),
    totalReports.map((r) => r.histogram),
  );
  return {
    ...(busiest ? { threadCpu: { runMs: busiest.runMs, runnableWaitMs: busiest.runnableWaitMs } } : {}),
    ...(pauses ? { pauses } : {}),
  };
}

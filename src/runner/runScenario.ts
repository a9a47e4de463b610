// Runs one resolved scenario end to end: server facts, INFO sampling, every point × repeat × phase × test
// through the engine, clean-up, summaries and thresholds. Returns the run file's content; a run that
// fails or is cancelled midway keeps what it measured. Used by the CLI and the extension alike.
import { checkConnectionCapacity, openRawControl, runLoad } from '../engine';
import { withNetworkRule } from '../gates/network';
import type { LoadResult, LoadTick } from '../engine';
import { deleteKeysMatching } from '../redis/cleanup';
import { CommandTally } from '../redis/commandTally';
import type { ControlLink } from '../redis/controlLink';
import { readServerFacts, serverCountersOff } from '../redis/info';
import { ServerMonitor, persistenceEvents } from '../redis/monitor';
import { sentinelAsDataNode, withCurrentPrimary } from '../redis/sentinel';
import type { ConnectionOptions, ServerSample } from '../redis/types';
import { crossSlotRefusal } from '../scenario/clusterKeys';
import { phaseConnections } from '../scenario/clientGroupPlan';
import type { ClientGroupPlan, ScenarioPlan, TestPlan } from '../scenario/plan';
import type { Accounting } from '../results/serverDelta';
import { countersAfter, countersBefore, sendsOf, settleLoad, type CountersRead, type LoadSource, type LoadSurroundings } from './afterLoad';
import { runClientGroups, type GroupOutcome } from './clientGroups';
import { evaluateThresholds } from '../results/thresholds';
import { bottleneckOf } from '../results/bottleneck';
import { summariseRepeats } from '../results/summary';
import { machineFacts, runId, RUN_FILE_VERSION, type PointResult, type RunFile, type RunStatus } from '../results/runFile';
import { TOOL_VERSION } from '../version';
import type { ClusterMonitor } from './clusterMonitor';
import { clusterMonitor, deleteClusterKeysMatching } from './clusterNodes';
import { pointCount, pointsToRun, thresholdPoints } from '../results/rateSearch';
import { notePrimary, recordPrimary } from './sentinelPrimaries';
import { OtherRunsWatch, runClientName } from './otherRuns';
import { countLeftKeys, ownKeyPatterns, ownKeyShapes, REPORTED_KEYS } from './leftKeys';
import { moduleCommands, probeNestedCalls, type NestedCalls, type ServerFlags } from './nestedCalls';
import { countPartEnded } from './partsCleanup';
import { countKeys, keysCountedBefore } from './keysAfterPrefill';

export interface LoadPosition {
  point: string;
  phase: string;
  test: string;
  repeat: number;
  measured: boolean;
  /** 0-based index of this load among all loads of the run, and their count. */
  index: number;
  total: number;
}

/** `[2/3] value=100 GET (prefill)`: which load of the run this is (the CLI's progress lines, the editor's notification and output channel). */
export function formatLoadName(at: LoadPosition): string {
  return `[${at.index + 1}/${at.total}] ${at.point ? `${at.point} ` : ''}${at.test}${at.measured ? '' : ' (prefill)'}`;
}

export type RunProgress =
  | { kind: 'load-start'; at: LoadPosition }
  | { kind: 'tick'; at: LoadPosition; tick: LoadTick }
  | { kind: 'load-end'; at: LoadPosition; result: LoadResult }
  | { kind: 'server-sample'; sample: ServerSample };

export interface ScenarioRunContext {
  connection: ConnectionOptions;
  /** The target as shown to people: URL without password. */
  targetDisplay: string;
  /** A throwaway server started for this run. */
  local: boolean;
  /** The scenario's text, stored in the run file. */
  source: string;
  file?: string;
  signal?: AbortSignal;
  onProgress?: (event: RunProgress) => void;
  /** CONFIG GET these too, besides the usual facts (`sweep server`: the directives a point sets). */
  configKeys?: readonly string[];
  /**
   * When set, `cleanup` deletes only the matching keys this accepts: the run's own (src/runner/ownKeys.ts), on a
   * server that is not a throwaway one unless the user allowed destruction; the others are counted and left alone.
   */
  cleanupOwns?: (key: string) => boolean;
}

/** How many loads a plan runs (at most, for a rate search): points × repeats × Σ tests over phases. */
export function countLoads(plan: ScenarioPlan): number {
  // A phase's client groups run at once, each a load of its own: `tests` holds one per group.
  const perPoint = (point: ScenarioPlan['points'][number]) => plan.repeat * point.phases.reduce((phaseSum, phase) => phaseSum + phase.tests.length, 0);
  return plan.rateSearch ? pointCount(plan) * perPoint(plan.points[0]) : plan.points.reduce((sum, point) => sum + perPoint(point), 0);
}

export async function runScenario(plan: ScenarioPlan, context: ScenarioRunContext): Promise<RunFile> {
  const started = new Date();
  const run: RunFile = {
    version: RUN_FILE_VERSION,
    tool: { name: 'rbench', version: TOOL_VERSION },
    id: runId(started, plan.name),
    scenario: { name: plan.name, index: plan.index, file: context.file, source: context.source },
    plan,
    target: { display: context.targetDisplay, local: context.local, ...(context.connection.tls?.rejectUnauthorized === false ? { tlsInsecure: true } : {}) },
    client: plan.target.client,
    machine: machineFacts(),
    startedAt: started.toISOString(),
    finishedAt: started.toISOString(),
    durationMs: 0,
    status: 'complete',
    points: [],
    server: { samples: [], events: [] },
    thresholds: [],
  };

  let control: ControlLink | undefined;
  let monitor: ServerMonitor | ClusterMonitor | undefined;
  // A Sentinel target: the primary found now names the target in messages; every connection asks the sentinels again.
  // The network gate's rule is fixed now, before any contact: a cluster detected below stays undeclared.
  // The run's own name on its control and sampling connections: other runs see it, and it sees theirs.
  let connection: ConnectionOptions = { ...withNetworkRule(context.connection), clientName: runClientName(plan.name, plan.shard) };
  let clusterDetected = false;
  let others: OtherRunsWatch | undefined;
  // Every command the control and sampling connections send: RBench's own, not foreign load.
  const tally = new CommandTally();
  let modules: ServerFlags = { modules: new Set(), readOnly: new Set() };
  const nestedByTest = new Map<TestPlan, NestedCalls>();
  try {
    control = await openRawControl(connection, tally);
    others = new OtherRunsWatch(control, connection.clientName!, started.getTime());
    connection = await withCurrentPrimary(connection);
    if (connection.sentinel) recordPrimary(run.target, connection);
    run.target.server = await readServerFacts(control, context.configKeys);
    // The scenario's module commands: their calls inside the server are learned by a probe before their test.
    if (!serverCountersOff()) modules = await moduleCommands(control, plan, context.targetDisplay);
    const notData = sentinelAsDataNode(connection, run.target.server.mode);
    if (notData) throw new Error(notData);
    // A cluster node the target did not declare: run in cluster mode and say it was detected (LoadResult.cluster.detected).
    // Undeclared, it may reach no node but the seed (src/gates/network.ts): one that announces others stops here.
    if (!connection.cluster && run.target.server.mode === 'cluster') {
      const crossSlot = crossSlotRefusal(plan, `the target ${context.targetDisplay}`);
      if (crossSlot) throw new Error(crossSlot);
      connection = { ...connection, cluster: true };
      clusterDetected = true;
    }
    const monitorOptions = {
      timeOrigin: started.getTime(),
      tally,
      open: openRawControl,
      onSample: (sample: ServerSample) => context.onProgress?.({ kind: 'server-sample', sample }),
    };
    monitor = connection.cluster ? await clusterMonitor(connection, monitorOptions) : new ServerMonitor(connection, monitorOptions);
    await monitor.open();
    run.server.before = await monitor.sampleNow();
    // DBSIZE counted the seed's keys only; on a cluster the masters' sum is the target's count.
    if (connection.cluster && run.target.server.keys !== undefined) run.target.server.keys = run.server.before.keys;
    await monitor.start(1000);
    await others.start();
  } catch (error) {
    return finish(run, started, 'failed', (error as Error).message, control, monitor, false, others);
  }

  const total = countLoads(plan);
  // Who else used the server since a load started, and the run's settings every load's figures are read with.
  const surroundings = (before: CountersRead | undefined, after: CountersRead | undefined, sinceT: number): LoadSurroundings => ({
    before,
    after,
    siblingParts: others?.siblingsSince(sinceT).length ?? 0,
    ...(plan.shard ? { shardParts: plan.shard.count } : {}),
    otherRuns: (others?.seenSince(sinceT) ?? []).map((other) => other.name),
    local: context.local,
    appendfsync: run.target.server?.config.appendfsync,
    percentiles: plan.percentiles,
  });
  let index = 0;
  let status: RunStatus = 'complete';
  let failure: string | undefined;
  /** A load ended by the stall limit: the server is not answering, so the `after` snapshot is skipped. */
  let stalled = false;
  outer: for (const point of pointsToRun(plan, run.points)) {
    const pointResult: PointResult = { label: point.label, sweep: point.sweep, repeats: [], summary: [] };
    run.points.push(pointResult);
    for (let repeat = 0; repeat < plan.repeat; repeat++) {
      const measuredLoads: LoadResult[] = [];
      pointResult.repeats.push(measuredLoads);
      const countBefore = keysCountedBefore(plan, point.phases);
      for (const [phaseIndex, phase] of point.phases.entries()) {
        if (phaseIndex === countBefore) {
          const keys = await countKeys(control, monitor, connection.cluster === true);
          const prefill = point.phases[phaseIndex - 1]?.name ?? '';
          if (keys !== undefined) (run.keysAfterPrefill ??= []).push({ point: point.label, repeat, phase: prefill, keys });
        }
        if (phase.groups) {
          if (context.signal?.aborted) {
            status = 'cancelled';
            break outer;
          }
          const groups = phase.groups;
          const ats = groups.map((group, i): LoadPosition => ({
            point: point.label,
            phase: phase.name,
            test: group.name,
            repeat,
            measured: phase.measured,
            index: index + i,
            total,
          }));
          for (const at of ats) context.onProgress?.({ kind: 'load-start', at });
          const before = await countersBefore(monitor, context.local, tally);
          await others?.poll();
          const loadStartT = Date.now() - started.getTime();
          let outcomes: GroupOutcome[];
          try {
            // All groups' connections together, checked before any opens (each load checks only its own).
            await checkConnectionCapacity(connection, phaseConnections(groups, connection.cluster === true || clusterDetected));
            outcomes = await runClientGroups(groups, {
              connection,
              client: plan.target.client,
              clusterDetected,
              signal: context.signal,
              onTick: (i, tick) => context.onProgress?.({ kind: 'tick', at: ats[i], tick }),
            });
          } catch (error) {
            status = 'failed';
            failure = (error as Error).message;
            break outer;
          }
          index += groups.length;
          const results = outcomes.flatMap((outcome) => ('result' in outcome ? [outcome.result] : []));
          const groupStalled = results.some((result) => result.windowKind === 'first-send-to-stall');
          const after = groupStalled ? undefined : await countersAfter(monitor, tally);
          if (!groupStalled) await others?.poll();
          const around = surroundings(before, after, loadStartT);
          const sends = outcomes.map((outcome) => ('result' in outcome ? sendsOf(groupSource(outcome.group), outcome.result) : undefined));
          outcomes.forEach((outcome, i) => {
            if (!('result' in outcome)) return;
            const siblingGroups = sends.filter((each, j): each is Accounting => j !== i && each !== undefined);
            settleLoad(outcome.result, { ...groupSource(outcome.group), siblingGroups }, around);
            context.onProgress?.({ kind: 'load-end', at: ats[i], result: outcome.result });
            if (phase.measured) measuredLoads.push(outcome.result);
          });
          await notePrimary(run.target, connection);
          if (groupStalled) stalled = true;
          // A group that could not start, or ended failed, fails the run; the others' figures are kept.
          const refused = outcomes.find((outcome): outcome is Extract<GroupOutcome, { error: string }> => 'error' in outcome);
          const broken = results.find((result) => result.status !== 'complete' && result.status !== 'complete-with-errors');
          const erring = results.find((result) => result.status === 'complete-with-errors');
          if (refused || broken) {
            status = broken?.status === 'cancelled' && !refused ? 'cancelled' : 'failed';
            failure = refused?.error ?? (broken ? `client group ${broken.test}: ${broken.error ?? broken.status}` : undefined);
            break outer;
          }
          if (erring && !(plan.rateSearch && phase.measured)) {
            status = 'complete-with-errors';
            failure ??= `${erring.test}: ${erring.errorStatusReason ?? 'too many errors'}`;
          }
          continue;
        }
        for (const test of phase.tests) {
          if (context.signal?.aborted) {
            status = 'cancelled';
            break outer;
          }
          const at: LoadPosition = { point: point.label, phase: phase.name, test: test.name, repeat, measured: phase.measured, index, total };
          context.onProgress?.({ kind: 'load-start', at });
          let result: LoadResult;
          if (monitor && modules.modules.size > 0 && !nestedByTest.has(test)) {
            const counters = monitor;
            nestedByTest.set(
              test,
              await probeNestedCalls(phase, test, modules, {
                connection,
                client: plan.target.client,
                clusterDetected,
                readCounters: () => counters.readCounters(),
                tally,
              }),
            );
          }
          const before = await countersBefore(monitor, context.local, tally);
          // Read with the counters: the engine reads its main thread where the load's window opens and closes.
          const serverPid = before ? await monitor?.verifiedPid() : undefined;
          await others?.poll();
          const loadStartT = Date.now() - started.getTime();
          try {
            result = await runLoad(
              { phase, test, connection, client: plan.target.client, ...(clusterDetected ? { clusterDetected } : {}) },
              { signal: context.signal, onTick: (tick) => context.onProgress?.({ kind: 'tick', at, tick }), ...(serverPid !== undefined ? { serverPid } : {}) },
            );
          } catch (error) {
            // The load could not start (connection refused, wrong password, unsupported plan).
            status = 'failed';
            failure = (error as Error).message;
            break outer;
          }
          index++;
          // After a stall the server may still be frozen: the `after` read would only wait on it.
          const after = result.windowKind === 'first-send-to-stall' ? undefined : await countersAfter(monitor, tally);
          if (result.windowKind !== 'first-send-to-stall') await others?.poll();
          settleLoad(result, { test, warmupMs: phase.load.warmupMs, probed: nestedByTest.get(test) }, surroundings(before, after, loadStartT));
          await notePrimary(run.target, connection);
          context.onProgress?.({ kind: 'load-end', at, result });
          // A prefill's numbers are not results, but its failure is the run's.
          if (phase.measured) measuredLoads.push(result);
          // Errors past the threshold mark the run, which goes on: the figures of the other tests still count.
          if (result.windowKind === 'first-send-to-stall') stalled = true;
          // A rate search's probe that failed on errors found the rate too high (results/errorStatus.ts).
          if (result.status === 'complete-with-errors' && plan.rateSearch && phase.measured) continue;
          if (result.status === 'complete-with-errors') {
            status = 'complete-with-errors';
            failure ??= `${test.name}: ${result.errorStatusReason ?? 'too many errors'}`;
          } else if (result.status !== 'complete') {
            status = result.status;
            failure = result.error;
            break outer;
          }
        }
      }
    }
  }
  for (const point of run.points) {
    point.repeats = point.repeats.filter((loads) => loads.length > 0);
    point.summary = summariseRepeats(point.repeats);
  }
  run.points = run.points.filter((point) => point.repeats.length > 0);

  // After a stall the server may still be frozen: clean-up would only wait on it.
  const cleans = plan.cleanup && control && !stalled && (await lastPartCleans(run, control));
  if (plan.cleanup && control && status !== 'failed' && cleans) {
    try {
      const owns = context.cleanupOwns;
      const cleanup = connection.cluster
        ? await deleteClusterKeysMatching(connection, plan.cleanup, owns)
        : await deleteKeysMatching(control, plan.cleanup, { owns });
      run.cleanedUpKeys = cleanup.deleted;
      if (cleanup.leftAlone > 0) run.cleanupLeftAlone = cleanup.leftAlone;
    } catch (error) {
      run.server.error = `clean-up of ${plan.cleanup} failed: ${(error as Error).message}`;
    }
  }
  // A user's server keeps what the run wrote: say what is there (never deleting what the scenario did not ask to).
  if (!context.local && !connection.cluster && control && status !== 'failed' && !stalled) {
    const patterns = ownKeyPatterns(plan);
    const left = patterns.length > 0 ? await countLeftKeys(connection, patterns, { owns: ownKeyShapes(plan), mostKeys: REPORTED_KEYS }).catch(() => []) : [];
    if (left.length > 0) run.leftKeys = left;
  }
  run.thresholds = evaluateThresholds(plan.expects, thresholdPoints(plan, run.points), run.keysAfterPrefill);
  return finish(run, started, status, failure, control, monitor, stalled, others);
}

/**
 * True when this run cleans up: a whole run does; a part of a sharded run only when it is the last of its run's
 * parts to end (src/runner/partsCleanup.ts), else the run file says how many had ended. A part whose siblings
 * it cannot count with the server (refused, or no run id) leaves the keys: deleting keys a sibling still uses
 * would break its load.
 */
async function lastPartCleans(run: RunFile, control: ControlLink): Promise<boolean> {
  const shard = run.plan.shard;
  if (!shard || shard.count === 1) return true;
  if (!shard.runId) {
    run.server.error ??= `clean-up of ${run.plan.cleanup} skipped: the parts were given neither --run-id nor --start-at, so none can tell when all have ended`;
    return false;
  }
  try {
    const ended = await countPartEnded(control, { count: shard.count, runId: shard.runId });
    if (ended.last) return true;
    run.cleanupLeft = { ended: ended.ended, parts: shard.count };
  } catch (error) {
    run.server.error ??= `clean-up of ${run.plan.cleanup} skipped: the parts could not count their ends on the server (${(error as Error).message})`;
  }
  return false;
}

/** A client group's load as the server's accounting sees it: its one test and its warm-up. */
function groupSource(group: ClientGroupPlan): LoadSource {
  return { test: group.phase.tests[0], warmupMs: group.phase.load.warmupMs };
}

/** Every measured load's verdict with the run's persistence events, which the per-load verdict could not see yet. */
function judgeAgain(run: RunFile): void {
  if (run.server.events.length === 0) return;
  const context = { events: run.server.events, runStartedAt: run.startedAt };
  for (const point of run.points) for (const loads of point.repeats) for (const load of loads) load.bottleneck = bottleneckOf(load, context);
}

async function finish(
  run: RunFile,
  started: Date,
  status: RunStatus,
  error: string | undefined,
  control: ControlLink | undefined,
  monitor: ServerMonitor | ClusterMonitor | undefined,
  stalled = false,
  others?: OtherRunsWatch,
): Promise<RunFile> {
  const otherRuns = others?.stop() ?? [];
  if (otherRuns.length > 0) run.otherRuns = otherRuns;
  if (monitor) {
    run.server.samples = await monitor.stop();
    run.server.events = persistenceEvents(run.server.samples);
    judgeAgain(run);
    if (status !== 'failed' && !stalled) run.server.after = await monitor.sampleNow().catch(() => undefined);
    if (monitor.lastError && !run.server.error) run.server.error = monitor.lastError;
    if (monitor.gaps.length > 0) run.server.gaps = monitor.gaps;
    await monitor.close();
  }
  control?.disconnect();
  const finished = new Date();
  run.status = status;
  if (error) run.error = error;
  run.finishedAt = finished.toISOString();
  run.durationMs = finished.getTime() - started.getTime();
  return run;
}

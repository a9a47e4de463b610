// The result table of a run: one row per measured test at each point, with the settings that shaped it.
// The CLI's table, the CSV and Markdown exports and the results panel all read these rows.
import type { Bottleneck, CommandResult, LoadResult } from '../engine';
import { ownValue } from '../gates/plainData';
import { bottleneckOf } from './bottleneck';
import type { PhasePlan, ValuePlan } from '../scenario/plan';
import type { RunFile, TestSummary } from './runFile';
import { representativeLoad } from './summary';
import { testKeyLength } from './keyLength';
import { missRateOf } from './missRate';

export interface ResultRow {
  point: string;
  phase: string;
  test: string;
  /** `total` for the test, or a command label inside a mix. */
  command: string;
  /** A background client group's row (`load NAME background`): shown, not judged by `expect`. */
  background?: boolean;
  requests: number;
  clients: number;
  pipeline: number;
  /** Characters of the keys the test sends (its `__key__` argument, or its first argument). */
  keySize: number;
  valueSize: string;
  opsPerSec: number;
  /** Over repeats: min and max throughput; absent for a single run. */
  opsRange?: [number, number];
  meanUs: number;
  minUs: number;
  p50Us: number;
  p90Us: number;
  p95Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
  /** The scenario's chosen percentiles (`percentiles`, `--percentiles`), name → µs, in the order chosen; absent when none were chosen. */
  percentiles?: Record<string, number>;
  errors: number;
  errorsByKind: Record<string, number>;
  /** A read's replies that found nothing (nil or an empty collection), and their share of the replies that were not errors; absent for other rows. */
  misses?: number;
  missRate?: number;
  /** A per-key read (MGET): the keys asked, against which its misses count (engine/types.ts CommandResult.lookups). */
  lookups?: number;
  status: LoadResult['status'];
  /** A test's total row: percentiles of its per-second throughput, and its bytes per second (LoadResult's, where known). */
  throughputPercentiles?: LoadResult['throughputPercentiles'];
  bytesPerSec?: LoadResult['bytesPerSec'];
  /** A breakdown row under its test's total (src/results/breakdownRows.ts): a cluster node, a merged run's load machine, or a ramp's step. */
  detail?: 'node' | 'part' | 'step';
  /** A cluster node's row: its role and the slots it served at the end. */
  node?: { role: 'master' | 'replica'; slots?: string };
  /** Cluster loads: MOVED and ASK redirections (the load's on its total row, a node's on its row). */
  redirections?: { moved: number; ask: number };
  /** The server's time per call (µs, from INFO commandstats) for the test's commands, or this command's; absent when not read. */
  serverUsPerCall?: number;
  /**
   * A test's total row when it churned connections (`reconnect every`, `idle-connections`): how long its connections
   * took to set up (connect, TLS, handshake) and how many it made.
   */
  connect?: { count: number; p50Us: number; p99Us: number };
  /** A test's total row: what set its pace (the run file's verdict, or judged now for a file written before verdicts). */
  bottleneck?: Bottleneck;
  /** A test's total row: how long its load ran (ms, warm-up included), as the user waited for it. */
  durationMs?: number;
}

/** A column of a result table (the CLI's text table, Markdown): its header, alignment and cell text. */
export interface TableColumn {
  header: string;
  align: 'left' | 'right';
  cell: (row: ResultRow) => string;
}

export function describeValueSize(value: ValuePlan): string {
  switch (value.kind) {
    case 'fixed':
      return String(value.size);
    case 'range':
      return `${value.min}..${value.max}`;
    case 'weighted':
      return value.choices.map((c) => c.size).join('/');
  }
}

/**
 * What a phase's value-size cell says: its value plan, or for `fields from FILE` the file's row sizes (a row's
 * field names and values, in bytes), since its hashes are written from the file and no `__value__` is sized.
 */
export function phaseValueSize(phase: PhasePlan): string {
  const fields = phase.fields;
  if (!fields) return describeValueSize(phase.value);
  return fields.minLength === fields.maxLength ? String(fields.maxLength) : `${fields.minLength}..${fields.maxLength}`;
}

/** The plan of a phase at a sweep point, found by their labels (a rate search's probes share its one point). */
export function findPhase(run: RunFile, pointLabel: string, phaseName: string): PhasePlan | undefined {
  const point = run.plan.points.find((p) => p.label === pointLabel) ?? (run.plan.rateSearch ? run.plan.points[0] : undefined);
  return point?.phases.find((phase) => phase.name === phaseName);
}

/** The plan a test ran with: its phase's, or, for a `load NAME` client group, the group's own (its clients, keys, values). */
export function findTestPhase(run: RunFile, pointLabel: string, phaseName: string, testName: string): PhasePlan | undefined {
  const phase = findPhase(run, pointLabel, phaseName);
  return phase?.groups?.find((group) => group.name === testName)?.phase ?? phase;
}

export function rowFrom(run: RunFile, pointLabel: string, summary: TestSummary, load: LoadResult, result: CommandResult, isTotal: boolean): ResultRow {
  const phase = findTestPhase(run, pointLabel, summary.phase, summary.test);
  const repeated = summary.runs > 1 && isTotal;
  return {
    point: pointLabel,
    phase: summary.phase,
    test: summary.test,
    command: isTotal ? 'total' : result.command,
    requests: result.requests,
    clients: phase?.load.clients ?? 0,
    pipeline: phase?.load.pipeline ?? 0,
    keySize: phase
      ? testKeyLength(
          phase,
          phase.tests.find((test) => test.name === summary.test),
        )
      : 0,
    valueSize: phase ? phaseValueSize(phase) : '',
    opsPerSec: repeated ? summary.opsPerSec.median : result.opsPerSec,
    opsRange: repeated ? [summary.opsPerSec.min, summary.opsPerSec.max] : undefined,
    meanUs: result.latency.meanUs,
    minUs: result.latency.minUs,
    p50Us: result.latency.p50Us,
    p90Us: result.latency.p90Us,
    p95Us: result.latency.p95Us,
    p99Us: result.latency.p99Us,
    p999Us: result.latency.p999Us,
    maxUs: result.latency.maxUs,
    ...(result.latency.percentiles ? { percentiles: result.latency.percentiles } : {}),
    errors: result.errors,
    errorsByKind: result.errorsByKind,
    ...(result.misses !== undefined ? { misses: result.misses, missRate: missRateOf(result) } : {}),
    ...(result.lookups !== undefined ? { lookups: result.lookups } : {}),
    status: load.status,
    ...(isTotal ? { durationMs: load.durationMs } : {}),
    ...(load.group?.background ? { background: true } : {}),
    ...(isTotal && load.throughputPercentiles ? { throughputPercentiles: load.throughputPercentiles } : {}),
    ...(isTotal && load.bytesPerSec ? { bytesPerSec: load.bytesPerSec } : {}),
    ...serverFields(load, result, isTotal),
    ...(isTotal ? connectFields(load) : {}),
  };
}

/** A load that opened connections beyond one per client: its set-up times belong in the table. */
function connectFields(load: LoadResult): Pick<ResultRow, 'connect'> {
  const { setup, cycles, idle } = load.connections;
  if (!setup || !(cycles || idle)) return {};
  return { connect: { count: setup.latency.count, p50Us: setup.latency.p50Us, p99Us: setup.latency.p99Us } };
}

/** The server's time per call (the load's for a total, the command's by its server name otherwise) and the verdict, where known. */
function serverFields(load: LoadResult, result: CommandResult, isTotal: boolean): Pick<ResultRow, 'serverUsPerCall' | 'bottleneck'> {
  const usPerCall = isTotal ? load.server?.usecPerCall : ownValue(load.server?.commands, result.command.toLowerCase())?.usecPerCall;
  return { ...(usPerCall !== undefined ? { serverUsPerCall: usPerCall } : {}), ...(isTotal ? { bottleneck: load.bottleneck ?? bottleneckOf(load) } : {}) };
}

/** Rows of a run: each test's total, followed by its commands when the test is a mix or a command group (the total is then its units). */
export function resultRows(run: RunFile, options: { commands?: boolean } = {}): ResultRow[] {
  const rows: ResultRow[] = [];
  for (const point of run.points) {
    for (const summary of point.summary) {
      const load = representativeLoad(point.repeats, summary);
      if (!load) continue;
      rows.push(rowFrom(run, point.label, summary, load, load.total, true));
      const group = findPhase(run, point.label, summary.phase)?.tests.find((test) => test.name === summary.test)?.group;
      // A client group's total is the group's: its commands follow it, one or several.
      if (options.commands !== false && (load.commands.length > 1 || group || load.group)) {
        for (const command of load.commands) rows.push(rowFrom(run, point.label, summary, load, command, false));
      }
    }
  }
  return rows;
}

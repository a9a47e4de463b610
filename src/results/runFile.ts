// The run file: one JSON document per scenario run (a sweep: one file with a result per point).
// Documented in docs/run-file.md. Written atomically by runFileWriter.ts; never holds a password.
import { statSync } from 'node:fs';
import { arch, cpus, platform, release, totalmem } from 'node:os';
import { describeSystemError, FileGateError, readBoundedText, readBoundedTextAsync, type Place } from '../gates/files';
import type { ClientPath, ExpectMetric, ScenarioPlan } from '../scenario/plan';
import type { LoadResult, LoadStatus } from '../engine';
import type { ServerFacts, ServerSample } from '../redis/types';
import { parseJson } from '../gates/plainData';
import { RUN_FILE_FORMAT_VERSION } from './runFileVersion';

/**
 * The checks of run files read back, loaded on first use: their schema (zod, ~0.7 MB) costs every start
 * ~30 ms of CPU, and writing a run file (every `rbench run`) never needs it.
 */
function schema(): typeof import('./runFileSchema') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./runFileSchema') as typeof import('./runFileSchema');
}

export const RUN_FILE_VERSION = RUN_FILE_FORMAT_VERSION;
/** Run files end with this, so the editor can open them in the results view. */
export const RUN_FILE_SUFFIX = '.rbench-run.json';

export interface MachineFacts {
  platform: string;
  release: string;
  arch: string;
  cpuModel: string;
  cores: number;
  totalMemoryBytes: number;
  node: string;
}

/** The keys in the database once a point's prefill phases had run (before its first measured phase). */
export interface KeysAfterPrefill {
  point: string;
  repeat: number;
  /** The last prefill phase. */
  phase: string;
  keys: number;
}

export interface ThresholdOutcome {
  /** The `expect` line as written. */
  expectation: string;
  metric: ExpectMetric;
  point: string;
  test: string;
  phase: string;
  /** The measured value in the expectation's unit (ops/s, µs, count, fraction); null when nothing was measured. */
  actual: number | null;
  passed: boolean;
}

/** The spread of one number over the repeats of a point. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  stddev: number;
}

/** One measured test (phase × test) at one point, summarised over its repeats. */
export interface TestSummary {
  phase: string;
  test: string;
  runs: number;
  opsPerSec: Spread;
  p50Us: Spread;
  p99Us: Spread;
  /** Index into `repeats` of the run closest to the median throughput: its full result stands for the point. */
  representative: number;
}

export interface PointResult {
  label: string;
  sweep: Record<string, number>;
  /** repeats[r] lists the measured loads of repeat r, in the order they ran. */
  repeats: LoadResult[][];
  summary: TestSummary[];
  /** `sweep server`: the throwaway server this point ran on, with the swept directives as CONFIG GET read them. */
  server?: { display: string; version?: string; config: Record<string, string> };
}

export type RunStatus = LoadStatus;

export interface PersistenceEvent {
  t: number;
  kind: string;
}

export interface RunFile {
  version: typeof RUN_FILE_VERSION;
  tool: { name: 'rbench'; version: string };
  id: string;
  scenario: {
    name: string;
    index: number;
    /** The scenario file, relative to the folder the run was started from when possible. */
    file?: string;
    /** The scenario's own text (its `###` block, file-level lines first). */
    source: string;
  };
  plan: ScenarioPlan;
  target: {
    /** URL without password. */
    display: string;
    /** A throwaway local redis-server started for this run. */
    local: boolean;
    /** TLS without certificate verification (`tls-insecure on`): the server was not authenticated. */
    tlsInsecure?: boolean;
    /** A Sentinel target: the primary measured (`host:port`) when the run started, then each one a failover moved it to. */
    primaries?: string[];
    /** The modules the throwaway server loaded (absolute paths; `--module`, rbench.localServer.modules). */
    modules?: string[];
    /** The RDB file the throwaway server loaded at start (`--rdb`, absolute path). */
    rdb?: string;
    server?: ServerFacts;
  };
  client: ClientPath;
  machine: MachineFacts;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  status: RunStatus;
  error?: string;
  points: PointResult[];
  server: {
    before?: ServerSample;
    after?: ServerSample;
    /** INFO once a second; `t` is milliseconds since `startedAt`. */
    samples: ServerSample[];
    events: PersistenceEvent[];
    /** Set when sampling missed samples (server unreachable for a while) or stopped early (INFO refused). */
    error?: string;
    /** Stretches without samples while the server was unreachable (`t` as in samples); sampling resumed at `toT`. */
    gaps?: { fromT: number; toT?: number; reason: string }[];
  };
  thresholds: ThresholdOutcome[];
  /** `expect keys`: DBSIZE after the prefill phases, per point and repeat (src/runner/runScenario.ts). */
  keysAfterPrefill?: KeysAfterPrefill[];
  /** Keys deleted by `cleanup` after the run. */
  cleanedUpKeys?: number;
  /** Keys matching `cleanup` that the run did not create, left on a server that is not a throwaway one (no --allow-destructive). */
  cleanupLeftAlone?: number;
  /** A part of a sharded run that left `cleanup` to the last part to end (src/runner/partsCleanup.ts): `ended` of `parts` had ended with it. */
  cleanupLeft?: { ended: number; parts: number };
  /** Other RBench runs whose connections were on the server while this one ran (src/runner/otherRuns.ts). */
  otherRuns?: OtherRun[];
  /** On a server that is not a throwaway one: keys matching the scenario's own patterns after the run (src/runner/leftKeys.ts). */
  leftKeys?: LeftKeys[];
  /** Set by `rbench merge`: the runs (one per load machine) this run joins. */
  merged?: { parts: MergedPart[] };
}

/** Another RBench run seen on the server: its connection name and address, and when (ms since this run started). */
export interface OtherRun {
  name: string;
  addr?: string;
  firstT: number;
  lastT: number;
}

/** Keys matching one of the scenario's own patterns left on the server; `capped`: the bounded count stopped early (at least `count`). */
export interface LeftKeys {
  pattern: string;
  count: number;
  capped?: boolean;
}

export interface MergedPart {
  /** `shard 2/3`, or the run id when the runs were not sharded. */
  part: string;
  id: string;
  startedAt: string;
  finishedAt: string;
  status: RunStatus;
  error?: string;
  machine: MachineFacts;
  target: string;
}

export function machineFacts(): MachineFacts {
  const cpuList = cpus();
  return {
    platform: platform(),
    release: release(),
    arch: arch(),
    cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
    cores: cpuList.length,
    totalMemoryBytes: totalmem(),
    node: process.version,
  };
}

/** A file-name-safe slug of a scenario name. */
export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      // Accents come off their letters: é → e, not e-.
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'scenario'
  );
}

/** `20261129-224000-123-set-and-get`: sorts by time, names the scenario. */
export function runId(startedAt: Date, scenarioName: string): string {
  const stamp = startedAt
    .toISOString()
    .replace(/[-:]/g, '')
    .replace('T', '-')
    .replace(/\.(\d+)Z$/, '-$1');
  return `${stamp}-${slug(scenarioName)}`;
}

export function runFileName(run: Pick<RunFile, 'id'>): string {
  return run.id + RUN_FILE_SUFFIX;
}

export class RunFileError extends Error {}

/** Reads and checks a run file; throws RunFileError with a message naming the file and the problem. */
export function readRunFile(path: string, place: Place = { userNamed: true }): RunFile {
  return parseRunFile(readRunFileJson(path, place), path);
}

/**
 * The JSON of a file that should hold runs: refused unread when too large, not a regular file, or (with a
 * root) outside it or reached through a link (src/gates/files.ts); RunFileError when not JSON.
 */
export function readRunFileJson(path: string, place: Place = { userNamed: true }): unknown {
  let text: string;
  try {
    text = readBoundedText(path, { maxBytes: schema().MAX_RUN_FILE_BYTES, ...place });
  } catch (error) {
    throw runFileGateError(error, path, 'measured');
  }
  return parseRunFileJson(text, path);
}

/**
 * The text of a file that should hold runs, read without blocking (the editor's readers): refused unread
 * when too large (RunFileError naming the limit), not a regular file, or (with a root) outside it or
 * reached through a link; those refusals stay the file gate's FileGateError, for the caller to word.
 */
export async function readRunFileTextAsync(path: string, place: Place): Promise<string> {
  try {
    return await readBoundedTextAsync(path, { maxBytes: schema().MAX_RUN_FILE_BYTES, ...place });
  } catch (error) {
    throw runFileGateError(error, path, 'limit');
  }
}

/**
 * What a run-file reader throws for an error of the file gate (anything else unchanged). A file too large
 * is a RunFileError: `measured` (the sync reader) names its size, `limit` (the async one) the limit alone.
 * Other refusals: `measured` makes them RunFileErrors, a system error's cause named; `limit` leaves them.
 */
function runFileGateError(error: unknown, path: string, wording: 'measured' | 'limit'): unknown {
  if (!(error instanceof FileGateError)) return error;
  if (error.problem === 'too-large') {
    if (wording === 'limit') return new RunFileError(schema().runFileLimitProblem(path));
    return new RunFileError(schema().runFileSizeProblem(error.size ?? statSync(error.path).size, path) ?? error.message);
  }
  if (wording === 'limit') return error;
  if (error.problem === 'io' || error.problem === 'missing')
    return new RunFileError(`${path}: not a readable run file (${error.code ? describeSystemError(error) : error.message})`);
  return new RunFileError(error.message);
}

/** The JSON of a run file, objects without prototypes and `__proto__` keys (src/gates/plainData.ts): a stranger's file stays data. */
export function parseRunFileJson(text: string, where: string): unknown {
  try {
    return parseJson(text);
  } catch (error) {
    throw new RunFileError(schema().runFileJsonProblem(error, text, where));
  }
}

/** A run file's text, parsed and checked; RunFileError names `where` and the problem. */
export function parseRunFileText(text: string, where: string): RunFile {
  return parseRunFile(parseRunFileJson(text, where), where);
}

/** Checks a parsed run file against the schema (runFileSchema.ts) before anything reads it. */
export function parseRunFile(value: unknown, where = 'run file'): RunFile {
  const problem = schema().runFileProblem(value, where);
  if (problem) throw new RunFileError(problem);
  return value as RunFile;
}

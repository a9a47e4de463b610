// The run file: one JSON document per scenario run (a sweep: one file with a result per point).
// Documented in docs/run-file.md. Written atomically; never holds a password.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform, release, totalmem } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { ClientPath, ExpectMetric, ScenarioPlan } from '../scenario/plan';
import type { LoadResult, LoadStatus } from '../engine/types';
import type { ServerFacts, ServerSample } from '../redis/types';

export const RUN_FILE_VERSION = 1;
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
  /** Keys deleted by `cleanup` after the run. */
  cleanedUpKeys?: number;
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
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'scenario'
  );
}

/** `20261129-224000-123-set-and-get`: sorts by time, names the scenario. */
export function runId(startedAt: Date, scenarioName: string): string {
  const stamp = startedAt.toISOString().replace(/[-:]/g, '').replace('T', '-').replace(/\.(\d+)Z$/, '-$1');
  return `${stamp}-${slug(scenarioName)}`;
}

export function runFileName(run: Pick<RunFile, 'id'>): string {
  return run.id + RUN_FILE_SUFFIX;
}

/** Writes the run file atomically (temp file + rename) into `folder`, creating it; returns the path. */
export function writeRunFile(folder: string, run: RunFile): string {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, runFileName(run));
  writeJsonAtomically(path, run);
  return path;
}

export function writeJsonAtomically(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  writeFileSync(temp, JSON.stringify(value, null, 1) + '\n');
  renameSync(temp, path);
}

export class RunFileError extends Error {}

/** Reads and checks a run file; throws RunFileError with a message naming the file and the problem. */
export function readRunFile(path: string): RunFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new RunFileError(`${path}: not a readable run file (${(error as Error).message})`);
  }
  return parseRunFile(parsed, path);
}

export function parseRunFile(value: unknown, where = 'run file'): RunFile {
  if (!value || typeof value !== 'object') throw new RunFileError(`${where}: not a JSON object`);
  const run = value as Partial<RunFile>;
  if (run.version !== RUN_FILE_VERSION) {
    throw new RunFileError(`${where}: run file version ${String(run.version)} is not supported (this RBench reads version ${RUN_FILE_VERSION})`);
  }
  if (!run.scenario || !Array.isArray(run.points) || !run.plan) throw new RunFileError(`${where}: missing scenario, plan or points`);
  return run as RunFile;
}

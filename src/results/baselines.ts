// Pinned baselines: `.rbench/baselines.json` in the workspace (or the folder `rbench` runs from) maps each
// scenario — `<scenario file>#<scenario name>`, the file relative to that folder with forward slashes — to
// the run file it is compared against. Meant to be committed: keys are sorted and the file is written
// atomically, so diffs stay clean. Shared by the CLI (`--pin`, `--baseline pinned`) and the editor.
import { isAbsolute, join, relative, resolve } from 'node:path';
import { FileGateError, isInside, isReadable, readBoundedText, readBoundedTextAsync, writeFileSafely, type Place } from '../gates/files';
import { dictionary, parseJson } from '../gates/plainData';
import { parseRunFile, readRunFileJson, RunFileError, type RunFile } from './runFile';

export const BASELINES_FILE = '.rbench/baselines.json';
/** A baselines file maps scenarios to paths: far below this. */
export const MAX_BASELINES_BYTES = 1024 * 1024;

/** Scenario key → run file path (relative to the root, forward slashes). */
export type Baselines = Record<string, string>;

export class BaselinesError extends Error {}

/** A path relative to `root` with forward slashes (kept absolute when it is on another drive). */
export function relativePath(root: string, path: string): string {
  const rel = relative(root, resolve(root, path));
  return (isAbsolute(rel) ? rel : rel || '.').replace(/\\/g, '/');
}

/** `bench/cache.rbench#SET and GET`. */
export function baselineKey(root: string, scenarioFile: string, scenarioName: string): string {
  return `${relativePath(root, scenarioFile)}#${scenarioName}`;
}

export function baselinesPath(root: string): string {
  return join(root, BASELINES_FILE);
}

/**
 * The pinned baselines under `root`; empty when the file does not exist. Read through the file gate: a
 * regular file inside `root`, no link followed, at most MAX_BASELINES_BYTES. Throws BaselinesError on a
 * broken or refused file.
 */
export function readBaselines(root: string): Baselines {
  let text: string | undefined;
  try {
    text = readBoundedText(BASELINES_FILE, { root, maxBytes: MAX_BASELINES_BYTES });
  } catch (error) {
    text = baselinesReadProblem(error);
  }
  return text === undefined ? dictionary<string>() : parseBaselines(text, baselinesPath(root));
}

/** readBaselines without blocking the thread (CodeLens, the history view). */
export async function readBaselinesAsync(root: string): Promise<Baselines> {
  let text: string | undefined;
  try {
    text = await readBoundedTextAsync(BASELINES_FILE, { root, maxBytes: MAX_BASELINES_BYTES });
  } catch (error) {
    text = baselinesReadProblem(error);
  }
  return text === undefined ? dictionary<string>() : parseBaselines(text, baselinesPath(root));
}

/**
 * The entries whose run file lies inside `root` (the editor drops the others: a shared baselines.json may
 * name `/dev/zero` or `../../x`; the CLI refuses them when it reads them, with a message).
 */
export function baselinesInside(root: string, baselines: Baselines): Baselines {
  const kept = dictionary<string>();
  for (const [key, path] of Object.entries(baselines)) if (isInside(resolve(root), resolve(root, path))) kept[key] = path;
  return kept;
}

/**
 * The entries whose run file the file gate would read inside `root`: not outside it (as baselinesInside), not
 * through a link out of it, and regular files. The editor opens the rest as user-chosen files (the comparison panel).
 */
export async function readableBaselines(root: string, baselines: Baselines): Promise<Baselines> {
  const kept = dictionary<string>();
  for (const [key, path] of Object.entries(baselines)) if (await isReadable(path, { root })) kept[key] = path;
  return kept;
}

/** A missing file is no baselines (undefined); any other refusal is a BaselinesError naming the file. */
function baselinesReadProblem(error: unknown): undefined {
  if (!(error instanceof FileGateError)) throw error;
  if (error.problem === 'missing') return undefined;
  throw new BaselinesError(error.message);
}

function parseBaselines(text: string, path: string): Baselines {
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch (error) {
    throw new BaselinesError(`${path}: not readable JSON (${(error as Error).message})`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new BaselinesError(`${path}: expected an object of "file#scenario": "run file" entries`);
  // No prototype: a scenario key such as `constructor` is looked up as data, never inherited.
  const baselines = dictionary<string>();
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') throw new BaselinesError(`${path}: the entry "${key}" is not a run file path`);
    baselines[key] = value;
  }
  return baselines;
}

/** Writes the baselines with sorted keys, atomically. */
export function writeBaselines(root: string, baselines: Baselines): void {
  const sorted = dictionary<string>();
  for (const key of Object.keys(baselines).sort()) sorted[key] = baselines[key];
  try {
    writeFileSafely(BASELINES_FILE, JSON.stringify(sorted, null, 1) + '\n', { root });
  } catch (error) {
    if (!(error instanceof FileGateError)) throw error;
    throw new BaselinesError(`${BASELINES_FILE} could not be written: ${error.message}`);
  }
}

export interface PinRequest {
  /** The scenario file (absolute, or relative to root). */
  scenarioFile: string;
  scenarioName: string;
  /** The run file to compare later runs of this scenario against (absolute, or relative to root). */
  runFile: string;
}

/** Pins a run as its scenario's baseline; returns the key and the stored path. */
export function pinBaseline(root: string, request: PinRequest): { key: string; runFile: string } {
  const baselines = readBaselines(root);
  const key = baselineKey(root, request.scenarioFile, request.scenarioName);
  const runFile = relativePath(root, request.runFile);
  baselines[key] = runFile;
  writeBaselines(root, baselines);
  return { key, runFile };
}

/** The pinned run file of a scenario, as an absolute path; undefined when none is pinned. */
export function baselineFor(root: string, scenarioFile: string, scenarioName: string): string | undefined {
  const pinned = readBaselines(root)[baselineKey(root, scenarioFile, scenarioName)];
  return pinned === undefined ? undefined : resolve(root, pinned);
}

/**
 * Reads a run file, or the JSON array `rbench run --json` writes (one run per scenario). Throws
 * RunFileError with a message naming the file and the problem.
 */
export function readRunFiles(path: string, place: Place = { userNamed: true }): RunFile[] {
  const parsed = readRunFileJson(path, place);
  if (!Array.isArray(parsed)) return [parseRunFile(parsed, path)];
  if (parsed.length === 0) throw new RunFileError(`${path}: an empty list of runs`);
  return parsed.map((run, i) => parseRunFile(run, `${path} [${i}]`));
}

/**
 * The baseline among `candidates` (the runs of a `--baseline` file) for a run: when one scenario is run
 * against a file holding one run, that run; otherwise the candidate of the same scenario name (and file,
 * when several share the name).
 */
export function matchBaseline(candidates: RunFile[], run: RunFile, scenariosRun: number): RunFile | undefined {
  if (candidates.length === 1 && scenariosRun <= 1) return candidates[0];
  const sameName = candidates.filter((c) => c.scenario.name === run.scenario.name);
  return sameName.find((c) => c.scenario.file === run.scenario.file) ?? sameName[0];
}

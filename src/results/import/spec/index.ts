// `rbench import` of redis-benchmarks-specification test files (one YAML file or a folder of them): each
// test as a `.rbench` scenario file, and a summary of what came over. Files are found and read through the
// file gate (src/gates/files.ts); the scenario text comes from the one writer (specScenario.ts).
import { basename, extname, join } from 'node:path';
import { FileGateError, isUserNamedFolder, listUserNamedFolder, writeFileSafely, type Place } from '../../../gates/files';
import { readSpecFile, SpecReadError } from './specYaml';
import { specScenario, type SpecScenario } from './specScenario';

export { MAX_SPEC_ALIASES, MAX_SPEC_DEPTH, MAX_SPEC_FILE_BYTES } from './specYaml';

/** The spec holds about 500 tests; a folder with ten times as many is not it. */
export const MAX_SPEC_FILES = 5000;
/** Names of the not-importable tests the summary line lists before `…`. */
const SUMMARY_NAMES = 20;

export class SpecImportError extends Error {}

/** The spec files a path names: itself, or a folder's `.yml`/`.yaml` regular files (not its subfolders), sorted. */
export function specFiles(path: string): string[] {
  if (!isUserNamedFolder(path)) return [path];
  let names: string[];
  try {
    names = listUserNamedFolder(path, { match: /\.ya?ml$/i, maxEntries: MAX_SPEC_FILES });
  } catch (error) {
    if (error instanceof FileGateError) throw new SpecImportError(error.message);
    throw error;
  }
  if (names.length === 0) throw new SpecImportError(`${path}: no .yml or .yaml file in this folder`);
  return names.map((name) => join(path, name));
}

export interface SpecImported {
  file: string;
  scenario: SpecScenario;
  /** Where the scenario was written. */
  written?: string;
}

/** A file name for a test: its name's plain characters (a stranger's name reaches no path but this one). */
function fileNameFor(name: string, taken: Set<string>): string {
  const stem =
    name
      .replace(/[^A-Za-z0-9_.-]+/g, '-')
      .replace(/^[.-]+/, '')
      .slice(0, 120) || 'test';
  let candidate = `${stem}.rbench`;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem}-${n}.rbench`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** One spec file as a scenario (a file that cannot be read is a test that cannot be imported). */
export function importSpecFile(file: string): SpecScenario {
  const fallback = basename(file, extname(file));
  let value: unknown;
  try {
    value = readSpecFile(file);
  } catch (error) {
    if (error instanceof SpecReadError) return { name: fallback, notes: [], refused: error.message };
    throw error;
  }
  return specScenario(value, basename(file), fallback);
}

/**
 * Imports every file and writes each scenario into `folder` (inside `place`'s root, or where the user named).
 * A scenario that cannot be written is reported as not importable, with the reason.
 */
export function importSpec(files: readonly string[], folder: string, place: Place): SpecImported[] {
  const taken = new Set<string>();
  return files.map((file) => {
    const scenario = importSpecFile(file);
    if (scenario.text === undefined) return { file, scenario };
    const path = join(folder, fileNameFor(scenario.name, taken));
    try {
      return { file, scenario, written: writeFileSafely(path, scenario.text, place) };
    } catch (error) {
      if (!(error instanceof FileGateError)) throw error;
      return { file, scenario: { ...scenario, text: undefined, refused: error.message } };
    }
  });
}

/** `412 imported, 73 with notes, 15 not importable: a, b, …`. */
export function specSummary(results: readonly SpecImported[]): string {
  const imported = results.filter((result) => result.written);
  const withNotes = imported.filter((result) => result.scenario.notes.length > 0);
  const refused = results.filter((result) => !result.written);
  const names = refused.slice(0, SUMMARY_NAMES).map((result) => result.scenario.name);
  const more = refused.length > SUMMARY_NAMES ? `, … (${refused.length - SUMMARY_NAMES} more)` : '';
  return `${imported.length} imported, ${withNotes.length} with notes, ${refused.length} not importable${refused.length > 0 ? `: ${names.join(', ')}${more}` : ''}`;
}

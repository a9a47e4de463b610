// What an imported run file says about where it came from: another tool's output turned into a run file
// (`rbench import`), with each thing that tool did not record named as absent, never filled in.
import type { RunFile } from '../runFile';

export type ImportFormat = 'redis-benchmark-csv' | 'memtier-json';

export interface ImportedFrom {
  /** `redis-benchmark` or `memtier_benchmark`. */
  tool: string;
  format: ImportFormat;
  /** The file imported, as named. */
  file: string;
  /** The tool's command line the plan was built from, when given or recorded. */
  command?: string;
  /** Compared metrics the tool did not report (`p90`, `p99.9`): shown as gaps, never as 0. */
  absentMetrics: string[];
  /** Field → why it is absent (`machine`: `redis-benchmark --csv does not record the machine`). Fields listed hold placeholders. */
  absent: Record<string, string>;
}

/** The import record of a run file, when it has a well-formed one (a run file is untrusted: checked here, not assumed). */
export function importedOf(run: RunFile): ImportedFrom | undefined {
  const value = (run as RunFile & { imported?: unknown }).imported;
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Partial<Record<keyof ImportedFrom, unknown>>;
  if (typeof record.tool !== 'string' || typeof record.format !== 'string' || typeof record.file !== 'string') return undefined;
  const metrics = Array.isArray(record.absentMetrics) ? record.absentMetrics.filter((m): m is string => typeof m === 'string') : [];
  const absent: Record<string, string> = Object.create(null) as Record<string, string>;
  if (record.absent && typeof record.absent === 'object')
    for (const [key, why] of Object.entries(record.absent)) if (typeof why === 'string') absent[key] = why;
  return {
    tool: record.tool,
    format: record.format as ImportFormat,
    file: record.file,
    ...(typeof record.command === 'string' ? { command: record.command } : {}),
    absentMetrics: metrics,
    absent,
  };
}

/** An import error a user can fix: the file, the line (1-based) when there is one, and what is wrong. */
export class ImportError extends Error {}

export function importError(file: string, line: number | undefined, problem: string): ImportError {
  return new ImportError(`${file}${line !== undefined ? `:${line}` : ''}: ${problem}`);
}

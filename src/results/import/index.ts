// `rbench import`: another tool's output file into a run file. The file is untrusted input: read through the
// file gate with a size cap, JSON parsed into null-prototype records (src/gates/plainData.ts), and checked
// against the run-file schema before it is written by the one run-file writer.
import { FileGateError, readBoundedText } from '../../gates/files';
import { parseJson } from '../../gates/plainData';
import { parseRunFile, RunFileError, type RunFile } from '../runFile';
import type { ScenarioPlan } from '../../scenario';
import { buildRun, type ImportedRun, type ImportedTest } from './buildRun';
import { importError, ImportError } from './imported';
import { looksLikeMemtier, memtierRun } from './memtierJson';
import { benchmarkCommand } from './redisBenchmarkCommand';
import { looksLikeRedisBenchmarkCsv, parseRedisBenchmarkCsv, type BenchmarkRow } from './redisBenchmarkCsv';

export { ImportError } from './imported';

/** No output of either tool comes near this (memtier's per-second series included). */
export const MAX_IMPORT_BYTES = 16 * 1024 * 1024;

export interface ImportOptions {
  /** redis-benchmark's command line (the CSV does not record it). */
  command?: string;
}

/** The label a redis-benchmark title stands for: `LRANGE_100 (first 100 elements)` → `LRANGE_100`. */
const labelOf = (title: string) => title.replace(/\s*\(.*$/, '');

function csvTests(rows: BenchmarkRow[], file: string): (plan: ScenarioPlan) => ImportedTest[] {
  return (plan) => {
    const tests = plan.points[0].phases.flatMap((phase) => (phase.measured ? phase.tests : []));
    return rows.map((row, i) => {
      const test = tests[i];
      if (!test || test.commands[0].command.label !== labelOf(row.title))
        throw importError(
          file,
          row.line,
          `test "${row.title}" is not the plan's ${test ? `"${test.name}"` : 'end'}: the --command line is not the one that wrote this file`,
        );
      const requests = test.commands.length === 1 ? (plan.points[0].phases.find((p) => p.tests.includes(test))!.load.requests ?? 0) : 0;
      const { opsPerSec, meanUs, minUs, p50Us, p95Us, p99Us, maxUs } = row;
      return {
        test: test.name,
        total: { command: test.name, requests, errors: 0, opsPerSec, latency: { meanUs, minUs, p50Us, p95Us, p99Us, maxUs } },
        commands: [],
        durationMs: opsPerSec > 0 ? Math.round((requests / opsPerSec) * 1000) : 0,
        timeline: [],
      };
    });
  };
}

function csvRun(text: string, file: string, options: ImportOptions): ImportedRun {
  const rows = parseRedisBenchmarkCsv(text, file);
  if (!options.command)
    throw importError(
      file,
      undefined,
      'a redis-benchmark CSV does not record how it ran (clients, requests, pipeline, value size, keys): give its command line, e.g. --command "redis-benchmark -t set,get -n 100000"',
    );
  const command = benchmarkCommand(options.command);
  if (typeof command === 'string') throw importError(file, undefined, command);
  return {
    scenario: command.scenario,
    target: command.target,
    // The CSV holds no time: the run is dated when it was imported, and says so (listed as absent).
    startedAt: new Date(),
    tests: csvTests(rows, file),
    imported: {
      tool: 'redis-benchmark',
      format: 'redis-benchmark-csv',
      file,
      command: command.display,
      absent: {
        startedAt: 'the CSV holds no time: startedAt is when the file was imported, not when redis-benchmark ran',
        errors: 'redis-benchmark --csv does not report errors: 0 means not reported',
        client: "redis-benchmark's own client: the run file's client field holds a placeholder",
      },
    },
  };
}

/** The run file of another tool's output; ImportError naming the file (and line) for anything it cannot read. */
export function importRun(file: string, options: ImportOptions = {}): RunFile {
  let text: string;
  try {
    text = readBoundedText(file, { maxBytes: MAX_IMPORT_BYTES, userNamed: true });
  } catch (error) {
    if (error instanceof FileGateError) throw new ImportError(error.message);
    throw error;
  }
  let source: ImportedRun;
  if (looksLikeRedisBenchmarkCsv(text)) source = csvRun(text, file, options);
  else if (/^\uFEFF?\s*\{/.test(text)) {
    let value: unknown;
    try {
      value = parseJson(text);
    } catch (error) {
      const lines = text.split('\n');
      throw importError(file, lines.length, `not complete JSON (${(error as Error).message}): the file is cut short or not memtier --json-out-file output`);
    }
    if (!looksLikeMemtier(value)) throw importError(file, 1, 'JSON without memtier\'s "ALL STATS" → "Totals": not memtier_benchmark --json-out-file output');
    source = memtierRun(value as Record<string, unknown>, file);
  } else {
    const first = text.split('\n')[0].slice(0, 80);
    throw importError(
      file,
      1,
      `neither redis-benchmark --csv output (a "test","rps",… header) nor memtier_benchmark --json-out-file output (JSON); it starts ${JSON.stringify(first)}`,
    );
  }
  const run = buildRun(source, file);
  try {
    // The writer's readers check every run file against the schema: so does the import, before writing.
    return parseRunFile(JSON.parse(JSON.stringify(run)), file);
  } catch (error) {
    if (error instanceof RunFileError) throw new ImportError(`${file}: the import did not make a valid run file (${error.message})`);
    throw error;
  }
}

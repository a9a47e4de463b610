// redis-benchmark's `--csv` output (Redis 7: a header `"test","rps","avg_latency_ms","min_latency_ms",
// "p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"`, then a line per test), read
// strictly: a line cut short, a field that is no number, or a header of another shape is refused with its line.
import { importError } from './imported';

import { REDIS_BENCHMARK_CSV_HEADER } from '../export';

export { REDIS_BENCHMARK_CSV_HEADER };

export interface BenchmarkRow {
  /** 1-based line in the file. */
  line: number;
  /** As redis-benchmark printed it: `LRANGE_100 (first 100 elements)`. */
  title: string;
  opsPerSec: number;
  /** Microseconds. */
  meanUs: number;
  minUs: number;
  p50Us: number;
  p95Us: number;
  p99Us: number;
  maxUs: number;
}

/** True when the text starts like redis-benchmark's CSV (its header line). */
export function looksLikeRedisBenchmarkCsv(text: string): boolean {
  return /^\uFEFF?\s*"test","rps"/.test(text);
}

/** One CSV line's fields: every field double-quoted, `""` for a quote inside; undefined when the line is not such. */
function fields(line: string): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  while (i < line.length) {
    if (line[i] !== '"') return undefined;
    let value = '';
    i++;
    for (;;) {
      if (i >= line.length) return undefined; // an open quote at the end: the line was cut short
      if (line[i] === '"') {
        if (line[i + 1] === '"') {
          value += '"';
          i += 2;
          continue;
        }
        i++;
        break;
      }
      value += line[i++];
    }
    out.push(value);
    if (i === line.length) break;
    if (line[i] !== ',') return undefined;
    i++;
    if (i === line.length) return undefined; // a trailing comma: a field is missing
  }
  return out;
}

/** The rows of a redis-benchmark CSV; ImportError naming `file:line` for anything else. */
export function parseRedisBenchmarkCsv(text: string, file: string): BenchmarkRow[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const header = fields(lines[0] ?? '');
  if (!header || header.join(',') !== REDIS_BENCHMARK_CSV_HEADER.join(',')) {
    throw importError(
      file,
      1,
      `not redis-benchmark's CSV header (expected ${REDIS_BENCHMARK_CSV_HEADER.map((h) => `"${h}"`).join(',')}, as redis-benchmark 7 --csv prints it)`,
    );
  }
  const rows: BenchmarkRow[] = [];
  for (let index = 1; index < lines.length; index++) {
    const line = index + 1;
    if (lines[index].trim() === '') continue;
    const values = fields(lines[index]);
    if (!values || values.length !== header.length) {
      throw importError(
        file,
        line,
        `${values ? `${values.length} fields where the header has ${header.length}` : 'not a line of quoted fields'}: the file is cut short or not redis-benchmark's CSV`,
      );
    }
    const numbers = values.slice(1).map(Number);
    const bad = numbers.findIndex((n, i) => values[i + 1] === '' || !Number.isFinite(n) || n < 0);
    if (bad >= 0) throw importError(file, line, `${header[bad + 1]} is "${values[bad + 1]}", not a number`);
    const [rps, avg, min, p50, p95, p99, max] = numbers;
    const us = (ms: number) => Math.round(ms * 1000);
    rows.push({ line, title: values[0], opsPerSec: rps, meanUs: us(avg), minUs: us(min), p50Us: us(p50), p95Us: us(p95), p99Us: us(p99), maxUs: us(max) });
  }
  if (rows.length === 0) throw importError(file, lines.length, 'the header and no test: the file is cut short');
  if (text.length > 0 && !/\n$/.test(text)) {
    // redis-benchmark ends every line: a last line without one was cut while being written.
    throw importError(file, lines.length, 'the last line has no end: the file is cut short');
  }
  return rows;
}

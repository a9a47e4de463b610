// A data file's text → its entries: one value per line, a JSON Lines field, a CSV column (csv-parse), or
// for `fields from` each row's field/value pairs. A problem names the data file's line (1-based) and
// what is wrong there; the caller prefixes the file's name.
import type { parse as CsvParse } from 'csv-parse/sync';
import { groupDigits } from './numberText';

export type DataFormat = 'csv' | 'jsonl' | 'lines';

export interface DataTake {
  take: 'values' | 'fields';
  column?: string;
  field?: string;
}

export type ParsedData = { ok: true; entries: Uint8Array[]; names?: string[]; minLength: number; maxLength: number; bytes: number } | DataProblem;
export interface DataProblem {
  ok: false;
  line: number;
  message: string;
}

/** At most this many entries (a line each at least): more is refused at the line past it. */
export const DATA_FILE_MAX_ENTRIES = 10_000_000;

const problem = (line: number, message: string): DataProblem => ({ ok: false, line, message });

/** The format a file's name says: `.csv`, `.jsonl`/`.ndjson`, anything else one value per line. */
export function formatOf(file: string): DataFormat {
  const lower = file.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  return 'lines';
}

const FATAL_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text, or the first line whose bytes are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): { ok: true; text: string } | DataProblem {
  try {
    return { ok: true, text: FATAL_UTF8.decode(bytes) };
  } catch {
    let line = 1;
    let start = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i < bytes.length && bytes[i] !== 0x0a) continue;
      try {
        FATAL_UTF8.decode(bytes.subarray(start, i));
      } catch {
        return problem(line, 'not valid UTF-8 text — save the file as UTF-8 (data files are text)');
      }
      line++;
      start = i + 1;
    }
    return problem(line, 'not valid UTF-8 text — save the file as UTF-8 (data files are text)');
  }
}

/** Collects entries with their sizes; past the entry cap, the problem names the line. */
class Entries {
  readonly entries: Uint8Array[] = [];
  minLength = Infinity;
  maxLength = 0;
  bytes = 0;

  add(entry: Uint8Array, length: number, line: number): DataProblem | undefined {
    if (this.entries.length >= DATA_FILE_MAX_ENTRIES)
      return problem(line, `more than ${groupDigits(DATA_FILE_MAX_ENTRIES)} entries — use a smaller sample of the data`);
    this.entries.push(entry);
    if (length < this.minLength) this.minLength = length;
    if (length > this.maxLength) this.maxLength = length;
    this.bytes += length;
    return undefined;
  }

  done(names?: string[]): ParsedData {
    if (this.entries.length === 0) return problem(1, 'no entries in the file — it needs at least one value');
    return { ok: true, entries: this.entries, ...(names ? { names } : {}), minLength: this.minLength, maxLength: this.maxLength, bytes: this.bytes };
  }
}

export function parseData(text: string, format: DataFormat, take: DataTake): ParsedData {
  if (format === 'csv') return parseCsvData(text, take);
  if (format === 'jsonl') return parseJsonLines(text, take);
  if (take.take === 'fields')
    return problem(1, 'one value per line has no field names — `fields from` takes a `.csv` (its header names the fields) or a `.jsonl` file');
  return parseLines(text);
}

/** Every line a value (a `\r` before the `\n` dropped); the newline ending the last line ends no value. */
function parseLines(text: string): ParsedData {
  const entries = new Entries();
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
    const bytes = Buffer.from(line, 'utf8');
    const refused = entries.add(bytes, bytes.length, i + 1);
    if (refused) return refused;
  }
  return entries.done();
}

/** A JSON value as a Redis value: a string's own text, anything else its JSON text. */
function valueBytes(value: unknown): Buffer {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
}

/** `$len\r\nname\r\n$len\r\nvalue\r\n…`: a row's pairs as RESP bulk strings, encoded once. */
function encodePairs(pairs: [string, Buffer][]): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of pairs) {
    const nameBytes = Buffer.from(name, 'utf8');
    parts.push(Buffer.from(`$${nameBytes.length}\r\n`), nameBytes, Buffer.from(`\r\n$${value.length}\r\n`), value, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

function parseJsonLines(text: string, take: DataTake): ParsedData {
  const entries = new Entries();
  const lines = text.split('\n');
  let pairCount: { count: number; line: number } | undefined;
  let names: string[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const source = lines[i].trim();
    if (source === '') continue;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      return problem(line, `not JSON (${(error as Error).message}) — each line of a JSON Lines file is one JSON value`);
    }
    const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
    if (take.take === 'fields') {
      if (!isObject) return problem(line, 'not a JSON object — `fields from` needs one object per line, its keys the hash fields');
      const pairs = Object.entries(value as Record<string, unknown>).map(([name, field]): [string, Buffer] => [name, valueBytes(field)]);
      if (pairs.length === 0) return problem(line, 'an empty object — each line needs at least one field');
      if (pairCount && pairs.length !== pairCount.count)
        return problem(line, `${pairs.length} fields, but line ${pairCount.line} has ${pairCount.count} — every line needs the same number of fields`);
      pairCount ??= { count: pairs.length, line };
      names ??= pairs.map(([name]) => name);
      const refused = entries.add(
        encodePairs(pairs),
        pairs.reduce((sum, [name, field]) => sum + Buffer.byteLength(name) + field.length, 0),
        line,
      );
      if (refused) return refused;
      continue;
    }
    let picked: unknown = value;
    if (take.field !== undefined) {
      if (!isObject) return problem(line, `not a JSON object, so it has no field \`${take.field}\``);
      if (!Object.hasOwn(value as object, take.field)) return problem(line, `no field \`${take.field}\` — every line needs it`);
      picked = (value as Record<string, unknown>)[take.field];
    } else if (isObject) {
      return problem(line, 'a JSON object — name the field to take: `values from FILE field NAME`');
    }
    const bytes = valueBytes(picked);
    const refused = entries.add(bytes, bytes.length, line);
    if (refused) return refused;
  }
  return entries.done(names);
}

interface CsvFailure {
  code?: string;
  lines?: number;
  message: string;
}

function csvProblem(error: CsvFailure): DataProblem {
  const line = error.lines ?? 1;
  switch (error.code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH': {
      const counts = /expect (\d+), got (\d+)/.exec(error.message);
      const detail = counts ? `${counts[2]} field${counts[2] === '1' ? '' : 's'}, the header has ${counts[1]}` : 'a different number of fields than the header';
      return problem(line, `${detail} — every row needs one field per column (quote a field that holds a comma)`);
    }
    case 'CSV_QUOTE_NOT_CLOSED':
      return problem(line, 'a quoted field is never closed — add the closing `"`');
    case 'CSV_INVALID_CLOSING_QUOTE':
      return problem(line, 'a closing quote is followed by other characters — double a quote inside a quoted field (`""`)');
    default:
      return problem(line, `not valid CSV (${error.message})`);
  }
}

/** The header is the first row: it names the columns (`column name`); `column 2` counts from 1. */
/** csv-parse, loaded on first use: dist/cli.js keeps it in a file of its own (esbuild.mjs), which a run without a CSV data file never reads. */
function csvParser(): typeof CsvParse {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('csv-parse/sync') as typeof import('csv-parse/sync')).parse;
}

function parseCsvData(text: string, take: DataTake): ParsedData {
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = csvParser()(text, { bom: true, skip_empty_lines: true, info: true, relax_column_count: false }) as unknown as {
      record: string[];
      info: { lines: number };
    }[];
  } catch (error) {
    return csvProblem(error as CsvFailure);
  }
  if (rows.length === 0) return problem(1, 'no header row — the first row names the columns');
  const header = rows[0].record;
  const entries = new Entries();
  if (take.take === 'fields') {
    const empty = header.findIndex((name) => name === '');
    if (empty >= 0) return problem(rows[0].info.lines, `column ${empty + 1} has no name in the header — every column names a hash field`);
    for (let i = 1; i < rows.length; i++) {
      const pairs = rows[i].record.map((value, c): [string, Buffer] => [header[c], Buffer.from(value, 'utf8')]);
      const length = pairs.reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + value.length, 0);
      const refused = entries.add(encodePairs(pairs), length, rows[i].info.lines);
      if (refused) return refused;
    }
    return entries.done(header);
  }
  const column = csvColumn(header, take.column);
  if (typeof column !== 'number') return problem(rows[0].info.lines, column);
  for (let i = 1; i < rows.length; i++) {
    const bytes = Buffer.from(rows[i].record[column], 'utf8');
    const refused = entries.add(bytes, bytes.length, rows[i].info.lines);
    if (refused) return refused;
  }
  return entries.done();
}

function csvColumn(header: string[], column: string | undefined): number | string {
  const list = header.map((name) => `\`${name}\``).join(', ');
  if (column === undefined) {
    if (header.length === 1) return 0;
    return `${header.length} columns (${list}) — name one: \`values from FILE column NAME\``;
  }
  const byName = header.indexOf(column);
  if (byName >= 0) return byName;
  if (/^\d+$/.test(column)) {
    const index = Number(column) - 1;
    if (index >= 0 && index < header.length) return index;
    return `no column ${column}: the header has ${header.length} (${list})`;
  }
  return `no column \`${column}\` in the header (it has ${list})`;
}

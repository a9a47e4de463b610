// A data file's text → its entries: one value per line, a JSON Lines field, a CSV column (csv-parse), or
// for `fields from` each row's field/value pairs. A problem names the data file's line (1-based) and
// what is wrong there; the caller prefixes the file's name.
import type { parse as CsvParse } from 'csv-parse/sync';
import { groupDigits } from './numberText';
import { TableWriter, type SharedTable } from './valueTable';

export type DataFormat = 'csv' | 'jsonl' | 'lines';

export interface DataTake {
  take: 'values' | 'fields';
  column?: string;
  field?: string;
}

/** The entries packed as the engine reads them (valueTable.ts); lengths and bytes count names and values, not RESP framing. */
export type ParsedData = { ok: true; table: SharedTable; names?: string[]; minLength: number; maxLength: number; bytes: number } | DataProblem;
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

/** Packs entries as they come, with their sizes; past the entry cap, the problem names the line. */
class Entries {
  private readonly table = new TableWriter();
  minLength = Infinity;
  maxLength = 0;
  bytes = 0;

  /** A value's text. */
  addText(text: string, line: number): DataProblem | undefined {
    const refused = this.refusal(line);
    if (refused) return refused;
    this.table.begin();
    this.table.text(text);
    this.counted(this.table.end());
    return undefined;
  }

  /** A row's field/value pairs as RESP bulk strings, `$len\r\nname\r\n$len\r\nvalue\r\n…`: `names` as fieldNames made them. */
  addPairs(names: readonly FieldName[], values: readonly string[], line: number): DataProblem | undefined {
    const refused = this.refusal(line);
    if (refused) return refused;
    let length = 0;
    this.table.begin();
    for (let i = 0; i < values.length; i++) {
      const valueBytes = Buffer.byteLength(values[i], 'utf8');
      this.table.raw(names[i].bulk);
      this.table.text(`$${valueBytes}\r\n`);
      this.table.text(values[i]);
      this.table.text('\r\n');
      length += names[i].bytes + valueBytes;
    }
    this.table.end();
    this.counted(length);
    return undefined;
  }

  done(names?: string[]): ParsedData {
    if (this.table.count === 0) return problem(1, 'no entries in the file — it needs at least one value');
    return {
      ok: true,
      table: this.table.done(names?.length),
      ...(names ? { names } : {}),
      minLength: this.minLength,
      maxLength: this.maxLength,
      bytes: this.bytes,
    };
  }

  private refusal(line: number): DataProblem | undefined {
    if (this.table.count < DATA_FILE_MAX_ENTRIES) return undefined;
    return problem(line, `more than ${groupDigits(DATA_FILE_MAX_ENTRIES)} entries — use a smaller sample of the data`);
  }

  private counted(length: number): void {
    if (length < this.minLength) this.minLength = length;
    if (length > this.maxLength) this.maxLength = length;
    this.bytes += length;
  }
}

/** A field's name as a row's entry starts it: its RESP bulk string, and its length in bytes. */
interface FieldName {
  bulk: Buffer;
  bytes: number;
}

function fieldNames(names: readonly string[]): FieldName[] {
  return names.map((name) => {
    const bytes = Buffer.byteLength(name, 'utf8');
    return { bulk: Buffer.from(`$${bytes}\r\n${name}\r\n`, 'utf8'), bytes };
  });
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
    const refused = entries.addText(line, i + 1);
    if (refused) return refused;
  }
  return entries.done();
}

/** A JSON value as a Redis value: a string's own text, anything else its JSON text. */
function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function parseJsonLines(text: string, take: DataTake): ParsedData {
  const entries = new Entries();
  const lines = text.split('\n');
  let pairCount: { count: number; line: number } | undefined;
  let names: string[] | undefined;
  // The first line's names, encoded once: a line with the same keys in the same order (the usual file) reuses them.
  let encodedNames: FieldName[] | undefined;
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
      const keys = Object.keys(value as Record<string, unknown>);
      if (keys.length === 0) return problem(line, 'an empty object — each line needs at least one field');
      if (pairCount && keys.length !== pairCount.count)
        return problem(line, `${keys.length} fields, but line ${pairCount.line} has ${pairCount.count} — every line needs the same number of fields`);
      pairCount ??= { count: keys.length, line };
      names ??= keys;
      encodedNames ??= fieldNames(keys);
      const fields = keys.map((key) => valueText((value as Record<string, unknown>)[key]));
      const sameNames = keys.every((key, i) => key === names![i]);
      const refused = entries.addPairs(sameNames ? encodedNames : fieldNames(keys), fields, line);
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
    const refused = entries.addText(valueText(picked), line);
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
  const entries = new Entries();
  // Each row is taken as csv-parse reads it (on_record, keeping none): the rows of a 64 MiB file held at once, with
  // their line info, were most of a run's memory and of its collector's time.
  let header: string[] | undefined;
  let names: FieldName[] | undefined;
  let column = -1;
  let stopped: DataProblem | undefined;
  const takeRow = (record: string[], lines: number): DataProblem | undefined => {
    if (!header) {
      header = record;
      if (take.take === 'fields') {
        const empty = header.findIndex((name) => name === '');
        if (empty >= 0) return problem(lines, `column ${empty + 1} has no name in the header — every column names a hash field`);
        names = fieldNames(header);
        return undefined;
      }
      const found = csvColumn(header, take.column);
      if (typeof found !== 'number') return problem(lines, found);
      column = found;
      return undefined;
    }
    return names ? entries.addPairs(names, record, lines) : entries.addText(record[column], lines);
  };
  try {
    csvParser()(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: false,
      on_record: (record: string[], info: { lines: number }) => {
        stopped = takeRow(record, info.lines);
        // csv-parse stops at a throw; the problem itself is kept above.
        if (stopped) throw new Error('stopped');
        return null;
      },
    });
  } catch (error) {
    if (stopped) return stopped;
    return csvProblem(error as CsvFailure);
  }
  if (!header) return problem(1, 'no header row — the first row names the columns');
  return entries.done(take.take === 'fields' ? header : undefined);
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

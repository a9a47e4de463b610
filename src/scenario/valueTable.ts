// A data file's values packed once into shared memory: every value's bytes back to back in one
// SharedArrayBuffer and their offsets in another, so the engine hands the same two buffers to each
// worker thread (structured clone shares a SharedArrayBuffer, it never copies it) and a request only
// copies the bytes of the value it draws. The tables loaded in this thread are kept by their identity
// (the file's hash and what was taken from it): the plan records that identity, never the data.
import type { DataSourcePlan } from './plan';

export interface SharedTable {
  /** The values' bytes, back to back. */
  bytes: SharedArrayBuffer;
  /** count + 1 offsets into `bytes` (Uint32): value i is bytes[offsets[i] … offsets[i+1]). */
  offsets: SharedArrayBuffer;
  count: number;
  /** The longest value, in bytes. */
  maxLength: number;
  /** For `fields from`: field/value pairs per row (each entry then is the row's RESP bulk strings). */
  pairs?: number;
}

/** Packs `values` (already encoded) into a table. */
export function packTable(values: readonly Uint8Array[], pairs?: number): SharedTable {
  const writer = new TableWriter();
  for (const value of values) {
    writer.begin();
    writer.raw(value);
    writer.end();
  }
  return writer.done(pairs);
}

/**
 * Builds a table value by value, straight into buffers that double as they fill: no object per value. A data file
 * of 20 MB (600,000 CSV rows) held a Buffer per row, each field's Buffer and csv-parse's row objects at once: 690 MiB
 * of peak RSS and 7.7 s of CPU, more than half of it the collector's (issue 46).
 */
export class TableWriter {
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private offsets = new Uint32Array(1024);
  private used = 0;
  private longest = 0;
  /** Values ended so far. */
  count = 0;

  /** Starts the next value. */
  begin(): void {
    if (this.count + 1 >= this.offsets.length) {
      const grown = new Uint32Array(this.offsets.length * 2);
      grown.set(this.offsets);
      this.offsets = grown;
    }
    this.offsets[this.count] = this.used;
  }

  /** Appends `text`, UTF-8, to the value begun. */
  text(text: string): void {
    // A UTF-16 unit takes at most 3 bytes of UTF-8 (a lone surrogate becomes U+FFFD, 3 bytes).
    this.reserve(text.length * 3);
    this.used += this.bytes.write(text, this.used, 'utf8');
  }

  /** Appends `bytes` to the value begun. */
  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.used);
    this.used += bytes.length;
  }

  /** Ends the value begun; its length in bytes. */
  end(): number {
    const length = this.used - this.offsets[this.count];
    this.count++;
    if (length > this.longest) this.longest = length;
    return length;
  }

  /** The table, copied once into shared memory of its exact size. */
  done(pairs?: number): SharedTable {
    this.offsets[this.count] = this.used;
    const bytes = new SharedArrayBuffer(Math.max(1, this.used));
    new Uint8Array(bytes).set(this.bytes.subarray(0, this.used));
    const offsets = new SharedArrayBuffer(4 * (this.count + 1));
    new Uint32Array(offsets).set(this.offsets.subarray(0, this.count + 1));
    return { bytes, offsets, count: this.count, maxLength: this.longest, ...(pairs !== undefined ? { pairs } : {}) };
  }

  private reserve(more: number): void {
    if (this.used + more <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.used + more) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.bytes.copy(grown, 0, 0, this.used);
    this.bytes = grown;
  }
}

/** Value `index` of a table, as a view (no copy). */
export function tableValue(table: SharedTable, index: number): Uint8Array {
  const offsets = new Uint32Array(table.offsets);
  return new Uint8Array(table.bytes, offsets[index], offsets[index + 1] - offsets[index]);
}

/** What identifies a table: the file's content and what was taken from it. */
export function tableKey(source: Pick<DataSourcePlan, 'sha256' | 'format' | 'column' | 'field' | 'take'>): string {
  return `${source.sha256}:${source.take}:${source.format}:${source.column ?? ''}:${source.field ?? ''}`;
}

/** Tables kept in this thread, newest use last; bounded by their bytes (a long editor session checks many files). */
const kept = new Map<string, SharedTable>();
export const KEPT_TABLE_BYTES = 512 * 1024 * 1024;

export function keepTable(key: string, table: SharedTable): void {
  kept.delete(key);
  kept.set(key, table);
  let total = 0;
  for (const entry of kept.values()) total += entry.bytes.byteLength + entry.offsets.byteLength;
  for (const [oldest, entry] of kept) {
    if (total <= KEPT_TABLE_BYTES || oldest === key) break;
    total -= entry.bytes.byteLength + entry.offsets.byteLength;
    kept.delete(oldest);
  }
}

/** The table a plan's data source names, when this thread has loaded it. */
export function keptTable(source: DataSourcePlan): SharedTable | undefined {
  const key = tableKey(source);
  const table = kept.get(key);
  if (table) keepTable(key, table);
  return table;
}

/** Drops every table this thread keeps (the next run reads its files again): tests, and a plan that must re-read. */
export function forgetTables(): void {
  kept.clear();
}

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
  let total = 0;
  let maxLength = 0;
  for (const value of values) {
    total += value.length;
    if (value.length > maxLength) maxLength = value.length;
  }
  const bytes = new SharedArrayBuffer(Math.max(1, total));
  const offsets = new SharedArrayBuffer(4 * (values.length + 1));
  const view = new Uint8Array(bytes);
  const at = new Uint32Array(offsets);
  let offset = 0;
  values.forEach((value, i) => {
    at[i] = offset;
    view.set(value, offset);
    offset += value.length;
  });
  at[values.length] = offset;
  return { bytes, offsets, count: values.length, maxLength, ...(pairs !== undefined ? { pairs } : {}) };
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

// Values and hash rows from a data file, on the request path. The table arrives once per worker thread
// in shared memory (WorkerConfig.data: no serialisation) and the thread copies it once into memory of its
// own: V8 copies out of shared memory element by element (it may be written concurrently), which would
// double the cost of each request, while a copy of the thread's own is a plain memcpy. Each connection
// keeps a cursor over it that picks an entry per request, by the request's key number (key mod count) or
// in order (the sequential key rule over the entries): no copy beyond the one into the batch buffer.
import type { DataSourcePlan, PhasePlan, TtlPlan } from '../../scenario/plan';
import { keptTable, type SharedTable } from '../../scenario/valueTable';
import { LoadError } from '../errors';
import { createKeySource, type KeySource, type KeySourceContext, type Random } from './random';

/** A data table as a worker gets it. */
export interface TableShare {
  table: SharedTable;
  order: DataSourcePlan['order'];
}

/** What a worker's requests draw from besides keys and sizes: the data tables and the expiry range. */
export interface WorkerData {
  values?: TableShare;
  fields?: TableShare;
  ttl?: TtlPlan;
}

function share(source: DataSourcePlan | undefined): TableShare | undefined {
  if (!source) return undefined;
  const table = keptTable(source);
  if (!table) throw new LoadError(`the data of \`${source.file}\` is not loaded in this process — check the scenario again before running it`);
  return { table, order: source.order };
}

/** The tables and expiry of a phase, for its workers (the same shared buffers for every thread). */
export function workerData(phase: PhasePlan): WorkerData | undefined {
  if (!phase.values && !phase.fields && !phase.ttl) return undefined;
  const values = share(phase.values);
  const fields = share(phase.fields);
  return { ...(values ? { values } : {}), ...(fields ? { fields } : {}), ...(phase.ttl ? { ttl: phase.ttl } : {}) };
}

/** This thread's own copy of each shared table, made once and shared by its connections. */
const copies = new WeakMap<SharedArrayBuffer, Buffer>();

function threadCopy(shared: SharedArrayBuffer): Buffer {
  let copy = copies.get(shared);
  if (!copy) {
    // A fresh ArrayBuffer of its own (never the pooled one): offsets are read through a Uint32Array over it.
    copy = Buffer.from(new ArrayBuffer(shared.byteLength));
    copy.set(new Uint8Array(shared));
    copies.set(shared, copy);
  }
  return copy;
}

/** One connection's position in a table. */
export class TableCursor {
  readonly maxLength: number;
  /** For rows: field/value pairs in each (RESP arguments: twice as many). */
  readonly pairs: number;
  readonly byKey: boolean;
  private readonly bytes: Buffer;
  private readonly offsets: Uint32Array;
  private readonly count: number;
  private readonly sequence: KeySource | undefined;
  private start = 0;
  private end = 0;

  constructor(share: TableShare, context: KeySourceContext) {
    const { table } = share;
    this.bytes = threadCopy(table.bytes);
    this.offsets = new Uint32Array(threadCopy(table.offsets).buffer, 0, table.count + 1);
    this.count = table.count;
    this.maxLength = table.maxLength;
    this.pairs = table.pairs ?? 0;
    this.byKey = share.order === 'key';
    this.sequence = this.byKey
      ? undefined
      : createKeySource({ space: table.count, distribution: 'sequential', zipfExponent: 0, gaussianStddev: 0, size: 1 }, context);
  }

  /** Picks the entry of the request whose key number is `key`; returns its length in bytes. */
  select(key: number): number {
    const index = this.sequence ? this.sequence.next() : key % this.count;
    this.start = this.offsets[index];
    this.end = this.offsets[index + 1];
    return this.end - this.start;
  }

  /** The entry selected last (a view into the shared table). */
  current(): Uint8Array {
    return this.bytes.subarray(this.start, this.end);
  }

  /** Copies the entry selected last to `offset`; returns the offset after it. */
  writeInto(target: Uint8Array, offset: number): number {
    return offset + this.bytes.copy(target, offset, this.start, this.end);
  }

  restart(): void {
    this.sequence?.restart();
  }

  claimed(first: number): void {
    this.sequence?.claimed?.(first);
  }
}

/** A connection's expiry draws: uniform in min … max. */
export class TtlDraw {
  readonly maxDigits: number;
  constructor(private readonly ttl: TtlPlan) {
    this.maxDigits = String(ttl.max).length;
  }

  next(random: Random): number {
    return this.ttl.min + random.nextInt(this.ttl.max - this.ttl.min + 1);
  }
}

/** The cursors and expiry draw of one connection. */
export function dataCursors(data: WorkerData | undefined, context: KeySourceContext): { values?: TableCursor; fields?: TableCursor; ttl?: TtlDraw } {
  if (!data) return {};
  return {
    ...(data.values ? { values: new TableCursor(data.values, context) } : {}),
    ...(data.fields ? { fields: new TableCursor(data.fields, context) } : {}),
    ...(data.ttl ? { ttl: new TtlDraw(data.ttl) } : {}),
  };
}

/** A row's RESP bulk strings back into arguments (the ioredis path sends arguments, not bytes). */
export function rowArguments(row: Uint8Array): Buffer[] {
  const args: Buffer[] = [];
  const bytes = Buffer.from(row.buffer, row.byteOffset, row.byteLength);
  let at = 0;
  while (at < bytes.length) {
    const lineEnd = bytes.indexOf(13, at);
    const length = Number(bytes.toString('latin1', at + 1, lineEnd));
    args.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + length));
    at = lineEnd + 4 + length;
  }
  return args;
}

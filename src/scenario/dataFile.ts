// `values from FILE` and `fields from FILE`: the data file read once, through the file gate, and packed
// into a shared table (valueTable.ts). The safety rule: a scenario may read only files inside its own
// folder tree. A shared scenario must never be able to send a user's other files to a server, so the
// path must be relative without `..` and without hidden parts (`.env`, `.git/config`), every folder on the way is resolved to its real path and must
// stay inside the scenario's real folder, the file itself may not be a symbolic link, and only a
// regular file is read (no folder, FIFO or device), at most DATA_FILE_MAX_BYTES of it.
import { createHash } from 'node:crypto';
import { isAbsolute, posix, resolve, win32 } from 'node:path';
import { FileGateError, readableIdentity, readBoundedFile } from '../gates/files';
import type { DataSourcePlan, ScenarioPlan } from './plan';
import { decodeUtf8, formatOf, parseData, type DataTake } from './dataFormats';
import { keepTable, keptTable, tableKey } from './valueTable';

/** The largest data file read (64 MiB); a larger one is refused before any byte of it is read. */
export const DATA_FILE_MAX_BYTES = 64 * 1024 * 1024;

export interface DataSelection extends DataTake {
  /** As written in the scenario. */
  file: string;
  order: DataSourcePlan['order'];
}

export type DataRead = { ok: true; source: DataSourcePlan } | { ok: false; code: string; message: string };

const refuse = (code: string, message: string): DataRead => ({ ok: false, code, message });

/** Why a path as written may not name a data file, before looking at the disk. */
export function dataPathRefusal(file: string): string | undefined {
  if (file === '') return 'an empty file name — name a file inside the scenario folder, such as `data/values.jsonl`';
  if (file.includes('\0')) return `\`${file}\`: a file name cannot hold a NUL character`;
  if (isAbsolute(file) || posix.isAbsolute(file) || win32.isAbsolute(file))
    return `\`${file}\`: an absolute path — a data file must lie inside the scenario's own folder; write a path relative to it, such as \`data/values.jsonl\``;
  const parts = file.split(/[\\/]/);
  if (parts.includes('..'))
    return `\`${file}\`: \`..\` leaves the scenario's folder — a data file must lie inside it (a shared scenario may not read your other files); move or copy the file there`;
  // `.env`, `.git/config`, `.vscode/…`: files of yours that live in a cloned folder and may hold secrets.
  if (parts.some((part) => part.startsWith('.') && part !== '.'))
    return `\`${file}\`: a hidden file or folder — data files cannot be hidden (\`.env\`, \`.git/config\` and the like hold secrets); rename it without the leading dot`;
  return undefined;
}

/** The gate's refusal reworded for the file as written (its message starts with the absolute path). */
function gateRefusal(file: string, error: FileGateError): DataRead {
  const reason = error.message.startsWith(error.path) ? error.message.slice(error.path.length).replace(/^:\s*/, '') : error.message;
  switch (error.problem) {
    case 'link':
      return refuse(
        'data-file-link',
        `\`${file}\`: ${reason.startsWith('a symbolic link on the way') ? 'a symbolic link on the way leads outside the scenario folder' : 'a symbolic link'} — a data file must be a real file inside the scenario's folder (a shared scenario may not read your other files); copy the file there`,
      );
    case 'too-large':
      return refuse(
        'data-file-too-large',
        `\`${file}\`: larger than ${DATA_FILE_MAX_BYTES / 1024 / 1024} MiB, the data file limit — not read; use a smaller sample of the data`,
      );
    case 'missing':
      return refuse('data-file-missing', `\`${file}\`: not found next to the scenario file — check the name (it is relative to the scenario's folder)`);
    case 'outside':
      return refuse('data-file-outside', `\`${file}\`: outside the scenario's folder — a data file must lie inside it`);
    default:
      return refuse('data-file-unreadable', `\`${file}\`: ${reason}`);
  }
}

/** Sources read by this thread, by folder, file and selection, with the identity of the file they came from. */
const reads = new Map<string, { identity: string; source: DataSourcePlan }>();
const MAX_READS = 64;

/**
 * Reads the data file a `values from` / `fields from` line names, in the scenario's folder `baseDir`.
 * The file is read once while it stays the same (same size, change time and inode): the editor checks
 * on every edit.
 */
export function readDataSource(selection: DataSelection, baseDir: string | undefined): DataRead {
  const { file } = selection;
  const pathRefusal = dataPathRefusal(file);
  if (pathRefusal) return refuse('data-file-outside', pathRefusal);
  if (!baseDir) return refuse('data-file-unsaved', `\`${file}\`: this scenario has no folder yet — save it, and put the data file next to it`);
  const place = { root: baseDir, maxBytes: DATA_FILE_MAX_BYTES };
  const format = formatOf(file);
  const cacheKey = `${resolve(baseDir)}\0${file}\0${selection.take}\0${selection.column ?? ''}\0${selection.field ?? ''}`;
  let identity: string;
  let bytes: Buffer;
  try {
    const id = readableIdentity(file, place);
    if (id.size > DATA_FILE_MAX_BYTES) return gateRefusal(file, new FileGateError('', '', 'too-large'));
    identity = `${id.dev}:${id.ino}:${id.size}:${id.mtimeMs}`;
    const known = reads.get(cacheKey);
    if (known && known.identity === identity && keptTable(known.source)) return { ok: true, source: { ...known.source, order: selection.order } };
    bytes = readBoundedFile(file, place);
  } catch (error) {
    if (error instanceof FileGateError) return gateRefusal(file, error);
    throw error;
  }
  const text = decodeUtf8(bytes);
  if (!text.ok) return refuse('data-file-invalid', `${file}:${text.line}: ${text.message}`);
  const parsed = parseData(text.text, format, selection);
  if (!parsed.ok) return refuse('data-file-invalid', `${file}:${parsed.line}: ${parsed.message}`);
  const source: DataSourcePlan = {
    file,
    format,
    take: selection.take,
    ...(selection.column !== undefined ? { column: selection.column } : {}),
    ...(selection.field !== undefined ? { field: selection.field } : {}),
    order: selection.order,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    count: parsed.table.count,
    minLength: parsed.minLength,
    maxLength: parsed.maxLength,
    bytes: parsed.bytes,
    ...(parsed.names ? { names: parsed.names } : {}),
  };
  keepTable(tableKey(source), parsed.table);
  if (reads.size >= MAX_READS) reads.clear();
  reads.set(cacheKey, { identity, source });
  return { ok: true, source };
}

/**
 * Makes sure this thread holds the tables of a plan's data sources (a plan checked in another thread,
 * the editor's check worker, arrives without them): each is read again from `baseDir` and must be the
 * file that was checked. Returns a plain message when one cannot be had.
 */
export function loadDataTables(sources: readonly DataSourcePlan[], baseDir: string | undefined): string | undefined {
  for (const source of sources) {
    if (keptTable(source)) continue;
    const read = readDataSource(source, baseDir);
    if (!read.ok) return read.message;
    if (read.source.sha256 !== source.sha256)
      return `\`${source.file}\` changed after the scenario was checked — run it again (the values sent are the file's as checked)`;
  }
  return undefined;
}

/** The data sources of every phase of a plan, each once. */
export function planDataSources(plan: ScenarioPlan): DataSourcePlan[] {
  const sources = new Map<string, DataSourcePlan>();
  for (const point of plan.points)
    for (const phase of point.phases) for (const source of [phase.values, phase.fields]) if (source) sources.set(tableKey(source), source);
  return [...sources.values()];
}

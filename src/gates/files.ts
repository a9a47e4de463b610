// The file gate: every read of a named path and every write RBench makes passes here (issue 18).
// A cloned repository can commit symbolic links, FIFOs and paths such as `../../x` or `/dev/zero`; so
// - a read takes regular files only, never blocks (O_NONBLOCK), never reads more than its cap, and stays
//   inside its root (the workspace folder) unless the user named the path;
// - a write never follows a link below its root, creates missing folders one at a time, and replaces a
//   file by a temp file renamed inside the same real folder; a non-regular file the user named
//   (/dev/stdout, a FIFO) is written in place, never replaced.
// Node builtins only: everything above may use it.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * node:fs/promises, for the reads that must not block the thread (the editor's): required when first needed, as the
 * command line reads synchronously and loading it (with the readline it loads) cost ~2 ms of every start (issue 46).
 */
let fsPromises: typeof import('node:fs/promises') | undefined;
function promises(): typeof import('node:fs/promises') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (fsPromises ??= require('node:fs/promises') as typeof import('node:fs/promises'));
}

/**
 * Where a path may lead. `root`: inside this folder (the workspace folder, or the folder `rbench` runs
 * from), no symbolic link followed below it. `userNamed`: a path the user typed (a CLI argument, a user
 * setting): anywhere, links followed.
 */
export type Place = { root: string; userNamed?: false } | { userNamed: true; root?: undefined };

export type FileGateProblem = 'outside' | 'link' | 'not-regular' | 'system-file' | 'too-large' | 'missing' | 'io';

export class FileGateError extends Error {
  constructor(
    message: string,
    /** The path the problem is about (the link, the file, the folder). */
    readonly path: string,
    readonly problem: FileGateProblem,
    /** The system's error code, for `io` and `missing` (`EACCES`, `ENOSPC`, `ENOENT`…). */
    readonly code?: string,
    /** For `too-large`, the size the opened file had when it was refused; none when it grew past the cap while read. */
    readonly size?: number,
  ) {
    super(message);
  }
}

/**
 * Folders of the kernel's pseudo files (endless, or secrets such as /proc/self/environ): never read. On
 * Windows a resolved path starts with a drive or `\\`, so none matches there.
 */
const SYSTEM_FOLDERS = ['/proc', '/sys', '/dev'];

const CAUSES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the folder is on a read-only file system',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOTDIR: 'a file stands where a folder is needed',
  EEXIST: 'a file stands where the folder should be',
  EISDIR: 'it is a folder',
  ENXIO: 'nothing is reading it',
  ENOENT: 'not found',
};

/** `permission denied (EACCES)`: the cause of a system error in words, with its code. */
export function describeSystemError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const cause = code ? CAUSES[code] : undefined;
  return cause ? `${cause} (${code})` : (error as Error).message;
}

/** True when `path` (absolute) is `root` or lies below it. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  // The root itself gives '' (neither `..` nor absolute).
  return rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel);
}

/** `path` (absolute, or relative to `root`) made absolute; FileGateError when it leaves `root`. */
export function resolveInside(root: string, path: string): string {
  const absolute = resolve(root, path);
  if (!isInside(resolve(root), absolute)) {
    throw new FileGateError(`${path}: outside ${root} — RBench reads and writes only inside that folder here; name a path inside it`, absolute, 'outside');
  }
  return absolute;
}

/** What a non-regular file is, in words (exported for its unit test). */
export function kindOf(stats: Stats): string {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'folder';
  if (stats.isFIFO()) return 'FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  if (stats.isSocket()) return 'socket';
  if (stats.isSymbolicLink()) return 'symbolic link';
  return 'special file';
}

function notRegular(path: string, stats: Stats): FileGateError {
  return new FileGateError(`${path}: not a regular file (it is a ${kindOf(stats)}) — name a regular file`, path, 'not-regular');
}

function linkRefused(path: string): FileGateError {
  return new FileGateError(
    `${path}: a symbolic link — RBench does not follow links here (a shared folder could send files anywhere); replace it with a real file or folder`,
    path,
    'link',
  );
}

function systemError(path: string, error: unknown, doing: string): FileGateError {
  if (error instanceof FileGateError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return linkRefused(path);
  if (code === 'ENOENT') return new FileGateError(`${path}: not found`, path, 'missing', code);
  return new FileGateError(`${path}: cannot ${doing} (${describeSystemError(error)})`, path, 'io', code);
}

function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(1)} MB` : bytes >= 1024 ? `${+(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;
}

function tooLarge(path: string, maxBytes: number, size?: number): FileGateError {
  return new FileGateError(`${path}: larger than ${megabytes(maxBytes)} — not read; name a smaller file`, path, 'too-large', undefined, size);
}

/** The system folder `path` (absolute) lies in (`/dev`, `/proc`, `/sys`), if any. */
function systemFolderOf(path: string): string | undefined {
  return SYSTEM_FOLDERS.find((folder) => path === folder || path.startsWith(folder + '/'));
}

function refuseSystemFile(shown: string, real: string): void {
  const folder = systemFolderOf(real);
  if (folder) throw new FileGateError(`${shown}: a system file under ${folder} — not read; name a regular file`, shown, 'system-file');
}

export interface ReadOptions {
  /** The most bytes read; a larger file is refused (counted while reading: /proc files claim size 0). */
  maxBytes: number;
}

// Undefined on Windows, where `|` reads them as 0.
const NOFOLLOW: number = constants.O_NOFOLLOW;
const NONBLOCK: number = constants.O_NONBLOCK;

/** The checks before opening, on a path already made absolute: returns the path to open and its flags. */
interface ReadPlan {
  shown: string;
  open: string;
  flags: number;
}

function checkBeforeOpen(shown: string, stats: Stats, real: string): void {
  if (stats.isSymbolicLink()) throw linkRefused(shown);
  refuseSystemFile(shown, real);
  if (!stats.isFile()) throw notRegular(shown, stats);
}

/** The checks again on the opened file: the path may have been swapped between the checks and the open (exported for its unit test). */
export function checkOpened(shown: string, stats: Stats, maxBytes: number): void {
  if (!stats.isFile()) throw notRegular(shown, stats);
  if (stats.size > maxBytes) throw tooLarge(shown, maxBytes, stats.size);
}

function planReadSync(path: string, place: Place): ReadPlan {
  if (place.userNamed) {
    const absolute = resolve(path);
    try {
      refuseSystemFile(path, absolute);
      const real = realpathSync(absolute);
      checkBeforeOpen(path, statSync(real), real);
      return { shown: path, open: real, flags: constants.O_RDONLY | NONBLOCK };
    } catch (error) {
      throw systemError(path, error, 'read it');
    }
  }
  const absolute = resolveInside(place.root, path);
  try {
    const realRoot = realpathSync(place.root);
    const realFolder = realpathSync(dirname(absolute));
    if (!isInside(realRoot, realFolder)) throw outsideThroughLink(absolute, place.root);
    const real = join(realFolder, basename(absolute));
    checkBeforeOpen(absolute, lstatSync(real), real);
    return { shown: absolute, open: real, flags: constants.O_RDONLY | NONBLOCK | NOFOLLOW };
  } catch (error) {
    throw systemError(absolute, error, 'read it');
  }
}

async function planRead(path: string, place: Place): Promise<ReadPlan> {
  if (place.userNamed) {
    const absolute = resolve(path);
    try {
      refuseSystemFile(path, absolute);
      const { realpath, stat } = promises();
      const real = await realpath(absolute);
      checkBeforeOpen(path, await stat(real), real);
      return { shown: path, open: real, flags: constants.O_RDONLY | NONBLOCK };
    } catch (error) {
      throw systemError(path, error, 'read it');
    }
  }
  const absolute = resolveInside(place.root, path);
  try {
    const { lstat, realpath } = promises();
    const realRoot = await realpath(place.root);
    const realFolder = await realpath(dirname(absolute));
    if (!isInside(realRoot, realFolder)) throw outsideThroughLink(absolute, place.root);
    const real = join(realFolder, basename(absolute));
    checkBeforeOpen(absolute, await lstat(real), real);
    return { shown: absolute, open: real, flags: constants.O_RDONLY | NONBLOCK | NOFOLLOW };
  } catch (error) {
    throw systemError(absolute, error, 'read it');
  }
}

function outsideThroughLink(path: string, root: string): FileGateError {
  return new FileGateError(
    `${path}: a symbolic link on the way leads outside ${root} — RBench does not follow links out of that folder; replace the link with a real folder`,
    path,
    'link',
  );
}

/**
 * Collects at most `maxBytes`: the buffer starts at the size the file claims and grows (files under
 * /proc claim 0 bytes); one byte past the cap refuses the file.
 */
/** What scanBoundedFile reads at a time. */
const SCAN_CHUNK_BYTES = 1024 * 1024;

export class CappedReader {
  buffer: Buffer;
  length = 0;

  constructor(
    private readonly shown: string,
    private readonly maxBytes: number,
    claimedSize: number,
  ) {
    this.buffer = Buffer.alloc(Math.min(claimedSize, maxBytes) + 1);
  }

  room(): number {
    return this.buffer.length - this.length;
  }

  /** Counts `read` bytes; false at the end of the file. */
  more(read: number): boolean {
    if (read === 0) return false;
    this.length += read;
    if (this.length > this.maxBytes) throw tooLarge(this.shown, this.maxBytes);
    if (this.length === this.buffer.length) {
      const grown = Buffer.alloc(Math.min(this.buffer.length * 2, this.maxBytes + 1));
      this.buffer.copy(grown);
      this.buffer = grown;
    }
    return true;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

/** Opens a file within the rules above and hands `body` its descriptor (checked, closed after); any failure becomes FileGateError. */
function withOpenedFile<T>(path: string, options: ReadOptions & Place, body: (fd: number, stats: Stats, shown: string) => T): T {
  const plan = planReadSync(path, options);
  let fd: number;
  try {
    fd = openSync(plan.open, plan.flags);
  } catch (error) {
    throw systemError(plan.shown, error, 'read it');
  }
  try {
    const stats = fstatSync(fd);
    checkOpened(plan.shown, stats, options.maxBytes);
    return body(fd, stats, plan.shown);
  } catch (error) {
    throw systemError(plan.shown, error, 'read it');
  } finally {
    closeSync(fd);
  }
}

/** Reads a file within the rules above; FileGateError (a plain message naming the path and the fix) otherwise. */
export function readBoundedFile(path: string, options: ReadOptions & Place): Buffer {
  return withOpenedFile(path, options, (fd, stats, shown) => {
    const reader = new CappedReader(shown, options.maxBytes, stats.size);
    while (reader.more(readSync(fd, reader.buffer, reader.length, reader.room(), null)));
    return reader.bytes();
  });
}

/**
 * Reads a file within the rules above a chunk at a time, handing each to `chunk` (false stops the read): a large
 * file read for a few of its bytes (a module's header and symbol names) costs one chunk of memory, not the file.
 */
export function scanBoundedFile(path: string, options: ReadOptions & Place, chunk: (bytes: Buffer) => boolean): void {
  withOpenedFile(path, options, (fd, _stats, shown) => {
    const buffer = Buffer.alloc(SCAN_CHUNK_BYTES);
    for (let total = 0; ;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) return;
      total += read;
      if (total > options.maxBytes) throw tooLarge(shown, options.maxBytes);
      if (!chunk(buffer.subarray(0, read))) return;
    }
  });
}

/**
 * Copies a file the user named (read within the rules above, at most `maxBytes`) into the real folder `folder`
 * as `name`, a chunk at a time (never the whole file in memory), through a temp file renamed over `name`.
 * Returns the bytes copied; FileGateError otherwise, and nothing is left behind.
 */
export function copyUserNamedFile(path: string, folder: string, name: string, maxBytes: number): number {
  const target = join(folder, name);
  const temp = join(folder, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number | undefined;
  let copied = 0;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
    const out = fd;
    scanBoundedFile(path, { userNamed: true, maxBytes }, (bytes) => {
      writeAll(out, bytes);
      copied += bytes.length;
      return true;
    });
    closeSync(fd);
    fd = undefined;
    renameSync(temp, target);
    return copied;
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw systemError(target, error, 'copy the file there');
  }
}

/** readBoundedFile without blocking the thread (the editor's extension host). */
export async function readBoundedFileAsync(path: string, options: ReadOptions & Place): Promise<Buffer> {
  const plan = await planRead(path, options);
  let handle;
  try {
    handle = await promises().open(plan.open, plan.flags);
  } catch (error) {
    throw systemError(plan.shown, error, 'read it');
  }
  try {
    const stats = await handle.stat();
    checkOpened(plan.shown, stats, options.maxBytes);
    const reader = new CappedReader(plan.shown, options.maxBytes, stats.size);
    while (reader.more((await handle.read(reader.buffer, reader.length, reader.room(), null)).bytesRead));
    return reader.bytes();
  } catch (error) {
    throw systemError(plan.shown, error, 'read it');
  } finally {
    await handle.close();
  }
}

/** Whether `path` passes the read rules of `place` (inside, no link, a regular file), without reading it. */
export async function isReadable(path: string, place: Place): Promise<boolean> {
  try {
    await planRead(path, place);
    return true;
  } catch (error) {
    if (error instanceof FileGateError) return false;
    throw error;
  }
}

/**
 * What identifies the file `readBoundedFile` would read (size, change time, inode), without reading it:
 * the same rules, so a cache keyed by it never holds a file the gate refuses.
 */
export function readableIdentity(path: string, place: Place): { size: number; mtimeMs: number; ino: number; dev: number } {
  const plan = planReadSync(path, place);
  try {
    const stats = statSync(plan.open);
    return { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino, dev: stats.dev };
  } catch (error) {
    throw systemError(plan.shown, error, 'read it');
  }
}

/** readBoundedFile as UTF-8 text. */
export function readBoundedText(path: string, options: ReadOptions & Place): string {
  return readBoundedFile(path, options).toString('utf8');
}

export async function readBoundedTextAsync(path: string, options: ReadOptions & Place): Promise<string> {
  return (await readBoundedFileAsync(path, options)).toString('utf8');
}

/** True when the path the user named is a folder (links followed); false for anything else, or nothing there. */
export function isUserNamedFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The names of the regular files in a folder the user named whose names `match` (sorted; subfolders, links
 * and devices left out, so nothing leads out of the folder), at most `maxEntries`: more is FileGateError.
 */
export function listUserNamedFolder(path: string, options: { match: RegExp; maxEntries: number }): string[] {
  let names: string[];
  try {
    names = readdirSync(path, { withFileTypes: true })
      .filter((entry) => entry.isFile() && options.match.test(entry.name))
      .map((entry) => entry.name);
  } catch (error) {
    throw systemError(path, error, 'list the folder');
  }
  if (names.length > options.maxEntries)
    throw new FileGateError(`${path}: ${names.length} files to read, more than ${options.maxEntries} — name a smaller folder`, path, 'too-large');
  return names.sort();
}

/**
 * The real folder for `folder` (absolute, inside `root`), created when missing one level at a time; a
 * symbolic link or a file on the way is refused. Returns the real path.
 */
export function ensureFolderInside(root: string, folder: string): string {
  const absolute = resolveInside(root, folder);
  let real: string;
  try {
    real = realpathSync(root);
  } catch (error) {
    throw systemError(root, error, 'use the folder');
  }
  let shown = resolve(root);
  for (const part of relative(resolve(root), absolute).split(sep).filter(Boolean)) {
    real = join(real, part);
    shown = join(shown, part);
    let stats: Stats | undefined;
    try {
      stats = lstatSync(real);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw systemError(shown, error, 'use the folder');
    }
    if (stats === undefined) {
      try {
        mkdirSync(real);
      } catch (error) {
        throw systemError(shown, error, 'create the folder');
      }
      stats = lstatSync(real);
    }
    if (stats.isSymbolicLink()) throw linkRefused(shown);
    if (!stats.isDirectory())
      throw new FileGateError(`${shown}: not a folder (it is a ${kindOf(stats)}) — move it away or choose another folder`, shown, 'not-regular');
  }
  return real;
}

/** Writes `data` in full to an open file descriptor. */
function writeAll(fd: number, data: Uint8Array): void {
  let written = 0;
  while (written < data.length) written += writeSync(fd, data, written);
}

/** Replaces `name` in the real folder `folder` by a temp file renamed over it (a reader never sees half a file). */
function replaceAtomically(folder: string, name: string, data: Uint8Array, shown: string): void {
  const temp = join(folder, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o666);
    writeAll(fd, data);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, join(folder, name));
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    try {
      rmSync(temp);
    } catch {
      // Never created (a name the system refuses, ENOENT): nothing to remove.
    }
    throw systemError(shown, error, 'write it');
  }
}

function bytesOf(data: string | Uint8Array): Uint8Array {
  return Buffer.from(data); // a string as UTF-8; bytes copied as they are
}

function lstatOrUndefined(path: string, shown: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw systemError(shown, error, 'write it');
  }
}

/** A path the user named: links followed; an existing non-regular file written in place; a folder refused. */
function writeUserNamed(path: string, data: Uint8Array): void {
  const absolute = resolve(path);
  const own = lstatOrUndefined(absolute, path);
  let stats = own;
  if (own?.isSymbolicLink()) {
    try {
      // The kernel follows the link (also /dev/stdout's /proc/self/fd/1, which realpath cannot name).
      stats = statSync(absolute);
    } catch (error) {
      // A link to nothing: writing would create a file wherever it points.
      throw new FileGateError(`${path}: a symbolic link to a missing file (${describeSystemError(error)}) — name the file itself`, path, 'link');
    }
  }
  if (stats?.isDirectory()) throw new FileGateError(`${path}: a folder — name a file inside it`, path, 'not-regular');
  // A device, a FIFO, or /dev/stdout leading to the very file the shell sends output to: appended to, never replaced.
  if (stats !== undefined && (!stats.isFile() || systemFolderOf(absolute) !== undefined)) {
    let fd: number | undefined;
    try {
      fd = openSync(absolute, constants.O_WRONLY | constants.O_APPEND);
      writeAll(fd, data);
    } catch (error) {
      throw systemError(path, error, 'write it');
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    return;
  }
  let real: string;
  try {
    // A regular file through a link: the file it points to is replaced, the link kept.
    real = own?.isSymbolicLink() ? realpathSync(absolute) : absolute;
    mkdirSync(dirname(real), { recursive: true });
    real = join(realpathSync(dirname(real)), basename(real));
  } catch (error) {
    throw systemError(dirname(path), error, 'create the folder');
  }
  replaceAtomically(dirname(real), basename(real), data, path);
}

/**
 * Writes a whole file within the rules above: inside `root` (no link followed, missing folders created)
 * or where the user named. Returns the absolute path written. FileGateError otherwise.
 */
export function writeFileSafely(path: string, data: string | Uint8Array, place: Place): string {
  const bytes = bytesOf(data);
  if (place.userNamed) {
    writeUserNamed(path, bytes);
    return resolve(path);
  }
  const absolute = resolveInside(place.root, path);
  const folder = ensureFolderInside(place.root, dirname(absolute));
  const name = basename(absolute);
  const stats = lstatOrUndefined(join(folder, name), absolute);
  if (stats?.isSymbolicLink()) throw linkRefused(absolute);
  if (stats && !stats.isFile()) throw notRegular(absolute, stats);
  replaceAtomically(folder, name, bytes, absolute);
  return absolute;
}

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import fc from 'fast-check';
import { createServer } from 'node:net';
import { join } from 'node:path';
import {
  CappedReader,
  checkOpened,
  describeSystemError,
  ensureFolderInside,
  FileGateError,
  isInside,
  isReadable,
  kindOf,
  readBoundedFile,
  readBoundedFileAsync,
  readBoundedText,
  readBoundedTextAsync,
  resolveInside,
  scanBoundedFile,
  writeFileSafely,
  type FileGateProblem,
} from '../../../src/gates/files';

/** Asserts a FileGateError with this problem (and, when given, a message matching). */
function refused(problem: FileGateProblem, message?: RegExp): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof FileGateError, `not a FileGateError: ${String(error)}`);
    assert.equal(error.problem, problem, error.message);
    if (message) assert.match(error.message, message);
    return true;
  };
}

/** Stats that answer true to `kind` only (isFile, isFIFO…): no device file needed to test the words for one. */
function statsOf(kind: string | undefined, size = 0): Stats {
  const answers = ['isFile', 'isDirectory', 'isFIFO', 'isCharacterDevice', 'isBlockDevice', 'isSocket', 'isSymbolicLink'];
  return Object.fromEntries([...answers.map((name) => [name, () => name === kind]), ['size', size]]) as unknown as Stats;
}

/** How many file descriptors this process holds open (Linux). */
function openFds(): number {
  return readdirSync('/proc/self/fd').length;
}

function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

describe('file gate: paths', () => {
  it('isInside: the root itself and paths below it, nothing else', () => {
    assert.equal(isInside('/w', '/w'), true);
    assert.equal(isInside('/w', '/w/a/b'), true);
    assert.equal(isInside('/w', '/w/..foo'), true, 'a name starting with two dots stays inside');
    assert.equal(isInside('/w', '/'), false);
    assert.equal(isInside('/w', '/w2'), false);
    assert.equal(isInside('/w', '/etc/passwd'), false);
    assert.equal(isInside('/w/a', '/w'), false);
  });

  it('resolveInside: relative paths start at the root; leaving it is refused with the path and the fix', () => {
    assert.equal(resolveInside('/w', 'a/b.json'), '/w/a/b.json');
    assert.equal(resolveInside('/w', '/w/a'), '/w/a');
    assert.equal(resolveInside('/w', '.'), '/w');
    assert.throws(
      () => resolveInside('/w', '../../x'),
      refused('outside', /^\.\.\/\.\.\/x: outside \/w — RBench reads and writes only inside that folder here; name a path inside it$/),
    );
    assert.throws(() => resolveInside('/w', '/etc/passwd'), refused('outside', /^\/etc\/passwd: outside \/w/));
    assert.throws(
      () => resolveInside('/w', 'a/../../x'),
      (error: unknown) => error instanceof FileGateError && error.path === '/x',
    );
  });

  it('describeSystemError names the cause in words with its code, else keeps the message', () => {
    const error = (code: string) => Object.assign(new Error(`raw ${code}`), { code });
    assert.equal(describeSystemError(error('ENOSPC')), 'the disk is full (ENOSPC)');
    assert.equal(describeSystemError(error('EACCES')), 'permission denied (EACCES)');
    assert.equal(describeSystemError(error('EPERM')), 'permission denied (EPERM)');
    assert.equal(describeSystemError(error('EROFS')), 'the folder is on a read-only file system (EROFS)');
    assert.equal(describeSystemError(error('EDQUOT')), 'the disk quota is used up (EDQUOT)');
    assert.equal(describeSystemError(error('ENOTDIR')), 'a file stands where a folder is needed (ENOTDIR)');
    assert.equal(describeSystemError(error('EEXIST')), 'a file stands where the folder should be (EEXIST)');
    assert.equal(describeSystemError(error('EISDIR')), 'it is a folder (EISDIR)');
    assert.equal(describeSystemError(error('ENXIO')), 'nothing is reading it (ENXIO)');
    assert.equal(describeSystemError(error('ENOENT')), 'not found (ENOENT)');
    assert.equal(describeSystemError(error('EWEIRD')), 'raw EWEIRD');
    assert.equal(describeSystemError(new Error('no code')), 'no code');
  });

  it('kindOf names each kind of file in words', () => {
    assert.equal(kindOf(statsOf('isFile')), 'file');
    assert.equal(kindOf(statsOf('isDirectory')), 'folder');
    assert.equal(kindOf(statsOf('isFIFO')), 'FIFO (named pipe)');
    assert.equal(kindOf(statsOf('isCharacterDevice')), 'character device');
    assert.equal(kindOf(statsOf('isBlockDevice')), 'block device');
    assert.equal(kindOf(statsOf('isSocket')), 'socket');
    assert.equal(kindOf(statsOf('isSymbolicLink')), 'symbolic link');
    assert.equal(kindOf(statsOf(undefined)), 'special file');
  });

  it('checkOpened refuses what the path turned into after the checks: not a regular file, or past the cap', () => {
    checkOpened('p', statsOf('isFile', 10), 10);
    assert.throws(
      () => checkOpened('p', statsOf('isFIFO', 0), 10),
      refused('not-regular', /^p: not a regular file \(it is a FIFO \(named pipe\)\) — name a regular file$/),
    );
    assert.throws(() => checkOpened('p', statsOf('isFile', 11), 10), refused('too-large', /^p: larger than 10 bytes — not read; name a smaller file$/));
  });
});

describe('file gate: reading', function () {
  this.timeout(5000); // nothing here may block: a hang fails fast
  let dir: string;
  let outside: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'rbench-gate-')));
    outside = realpathSync(mkdtempSync(join(tmpdir(), 'rbench-gate-outside-')));
    writeFileSync(join(outside, 'secret'), 'SECRET');
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('reads a regular file up to exactly the cap; one byte more is refused', async () => {
    writeFileSync(join(dir, 'f'), 'abcde');
    assert.equal(readBoundedText(join(dir, 'f'), { userNamed: true, maxBytes: 5 }), 'abcde');
    assert.equal(await readBoundedTextAsync(join(dir, 'f'), { userNamed: true, maxBytes: 5 }), 'abcde');
    assert.equal(readBoundedText('f', { root: dir, maxBytes: 5 }), 'abcde');
    assert.equal(await readBoundedTextAsync('f', { root: dir, maxBytes: 5 }), 'abcde');
    assert.throws(
      () => readBoundedFile(join(dir, 'f'), { userNamed: true, maxBytes: 4 }),
      refused('too-large', /f: larger than 4 bytes — not read; name a smaller file$/),
    );
    await assert.rejects(readBoundedFileAsync(join(dir, 'f'), { userNamed: true, maxBytes: 4 }), refused('too-large'));
    assert.throws(() => readBoundedFile('f', { root: dir, maxBytes: 4 }), refused('too-large'));
    await assert.rejects(readBoundedFileAsync('f', { root: dir, maxBytes: 4 }), refused('too-large'));
  });

  it('scans a file a chunk at a time under the same rules: stops when told, refuses past the cap and outside its folder', () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 5, 7);
    writeFileSync(join(dir, 'big'), big);
    let seen = 0;
    let chunks = 0;
    scanBoundedFile(join(dir, 'big'), { userNamed: true, maxBytes: big.length }, (chunk) => ((seen += chunk.length), ++chunks > 0));
    assert.equal(seen, big.length);
    assert.equal(chunks, 4, 'three chunks of 1 MiB and the rest');
    chunks = 0;
    scanBoundedFile('big', { root: dir, maxBytes: big.length }, () => ++chunks < 2);
    assert.equal(chunks, 2, 'the read stops where the reader says');
    assert.throws(() => scanBoundedFile(join(dir, 'big'), { userNamed: true, maxBytes: 1024 }, () => true), refused('too-large'));
    assert.throws(() => scanBoundedFile('../big', { root: join(dir, 'sub'), maxBytes: big.length }, () => true), refused('outside'));
  });

  it('an empty file reads as nothing', async () => {
    writeFileSync(join(dir, 'empty'), '');
    assert.equal(readBoundedFile(join(dir, 'empty'), { userNamed: true, maxBytes: 10 }).length, 0);
    assert.equal((await readBoundedFileAsync('empty', { root: dir, maxBytes: 10 })).length, 0);
  });

  it('sizes in the message read as KB and MB past a thousand bytes', () => {
    writeFileSync(join(dir, 'big'), Buffer.alloc(2 * 1024 * 1024 + 1));
    assert.throws(() => readBoundedFile(join(dir, 'big'), { userNamed: true, maxBytes: 2 * 1024 * 1024 }), /larger than 2 MB —/);
    assert.throws(() => readBoundedFile(join(dir, 'big'), { userNamed: true, maxBytes: 1536 }), /larger than 1\.5 KB —/);
    assert.throws(() => readBoundedFile(join(dir, 'big'), { userNamed: true, maxBytes: 1024 }), /larger than 1 KB —/);
    assert.throws(() => readBoundedFile(join(dir, 'big'), { userNamed: true, maxBytes: 1023 }), /larger than 1023 bytes —/);
    assert.throws(() => readBoundedFile(join(dir, 'big'), { userNamed: true, maxBytes: 1024 * 1024 }), /larger than 1 MB —/);
  });

  it('a missing file is `missing`, naming the path', async () => {
    assert.throws(() => readBoundedFile(join(dir, 'nope'), { userNamed: true, maxBytes: 10 }), refused('missing', /nope: not found$/));
    await assert.rejects(readBoundedFileAsync(join(dir, 'nope'), { userNamed: true, maxBytes: 10 }), refused('missing'));
    assert.throws(() => readBoundedFile('nope', { root: dir, maxBytes: 10 }), refused('missing'));
    assert.throws(() => readBoundedFile('no/such/file', { root: dir, maxBytes: 10 }), refused('missing'));
    await assert.rejects(readBoundedFileAsync('no/such/file', { root: dir, maxBytes: 10 }), refused('missing'));
    assert.throws(
      () => readBoundedFile('x', { root: join(dir, 'no-root'), maxBytes: 10 }),
      (error: unknown) => error instanceof FileGateError && error.code === 'ENOENT',
    );
  });

  it('a folder, a FIFO and device files are refused at once, without blocking', async () => {
    mkfifo(join(dir, 'fifo'));
    mkdirSync(join(dir, 'sub'));
    for (const place of [{ userNamed: true as const }, { root: dir }]) {
      assert.throws(
        () => readBoundedFile(join(dir, 'fifo'), { ...place, maxBytes: 10 }),
        refused('not-regular', /fifo: not a regular file \(it is a FIFO \(named pipe\)\) — name a regular file$/),
      );
      await assert.rejects(readBoundedFileAsync(join(dir, 'fifo'), { ...place, maxBytes: 10 }), refused('not-regular'));
      assert.throws(() => readBoundedFile(join(dir, 'sub'), { ...place, maxBytes: 10 }), refused('not-regular', /it is a folder/));
      await assert.rejects(readBoundedFileAsync(join(dir, 'sub'), { ...place, maxBytes: 10 }), refused('not-regular', /it is a folder/));
    }
    for (const device of ['/dev/zero', '/dev/null', '/dev/urandom', '/dev/stdin', '/dev/stdout', '/proc/self/environ', '/proc/self/maps', '/sys/kernel/mm']) {
      assert.throws(
        () => readBoundedFile(device, { userNamed: true, maxBytes: 1024 }),
        (error: unknown) => error instanceof FileGateError && ['system-file', 'not-regular'].includes(error.problem),
        device,
      );
      await assert.rejects(
        readBoundedFileAsync(device, { userNamed: true, maxBytes: 1024 }),
        (error: unknown) => error instanceof FileGateError && ['system-file', 'not-regular'].includes(error.problem),
        device,
      );
    }
    assert.throws(
      () => readBoundedFile('/dev/zero', { userNamed: true, maxBytes: 1024 }),
      refused('system-file', /^\/dev\/zero: a system file under \/dev — not read; name a regular file$/),
    );
    assert.throws(() => readBoundedFile('/proc/self/environ', { userNamed: true, maxBytes: 1024 }), refused('system-file', /under \/proc/));
    assert.throws(() => readBoundedFile('/proc', { userNamed: true, maxBytes: 1024 }), refused('system-file'));
    assert.throws(() => readBoundedFile('/sys', { userNamed: true, maxBytes: 1024 }), refused('system-file', /under \/sys/));
  });

  it('a link the user named is followed to a regular file; a link to a device is still refused', async () => {
    symlinkSync(join(outside, 'secret'), join(dir, 'named'));
    symlinkSync('/dev/zero', join(dir, 'zero'));
    assert.equal(readBoundedText(join(dir, 'named'), { userNamed: true, maxBytes: 10 }), 'SECRET');
    assert.equal(await readBoundedTextAsync(join(dir, 'named'), { userNamed: true, maxBytes: 10 }), 'SECRET');
    assert.throws(() => readBoundedFile(join(dir, 'zero'), { userNamed: true, maxBytes: 10 }), refused('system-file', /zero: a system file under \/dev/));
  });

  it('inside a root: paths leaving it, links and links on the way out are refused before anything is read', async () => {
    symlinkSync(join(outside, 'secret'), join(dir, 'link'));
    symlinkSync(outside, join(dir, 'folder-link'));
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'f'), 'ok');
    symlinkSync(join(dir, 'real'), join(dir, 'inner-link'));
    const root = { root: dir, maxBytes: 100 };
    assert.throws(() => readBoundedFile('../x', root), refused('outside'));
    assert.throws(() => readBoundedFile(join(outside, 'secret'), root), refused('outside'));
    await assert.rejects(readBoundedFileAsync('/etc/passwd', root), refused('outside'));
    assert.throws(
      () => readBoundedFile('link', root),
      refused('link', /link: a symbolic link — RBench does not follow links here .* replace it with a real file or folder$/),
    );
    await assert.rejects(readBoundedFileAsync('link', root), refused('link'));
    assert.throws(
      () => readBoundedFile('folder-link/secret', root),
      refused('link', /folder-link\/secret: a symbolic link on the way leads outside .* replace the link with a real folder$/),
    );
    await assert.rejects(readBoundedFileAsync('folder-link/secret', root), refused('link', /leads outside/));
    // A link that stays inside the root leads nowhere new: read.
    assert.equal(readBoundedText('inner-link/f', root), 'ok');
    assert.equal(await readBoundedTextAsync('inner-link/f', root), 'ok');
  });

  it('a file standing where a folder should be, and a socket, are refused with their cause', async () => {
    writeFileSync(join(dir, 'file'), 'x');
    assert.throws(
      () => readBoundedFile('file/x', { root: dir, maxBytes: 10 }),
      refused('io', /file\/x: cannot read it \(a file stands where a folder is needed \(ENOTDIR\)\)$/),
    );
    assert.throws(
      () => readBoundedFile(join(dir, 'file', 'x'), { userNamed: true, maxBytes: 10 }),
      (error: unknown) => error instanceof FileGateError && error.code === 'ENOTDIR',
    );
    const server = createServer();
    await new Promise<void>((done) => server.listen(join(dir, 'sock'), done));
    try {
      assert.throws(() => readBoundedFile('sock', { root: dir, maxBytes: 10 }), refused('not-regular', /sock: not a regular file \(it is a socket\)/));
      assert.throws(() => readBoundedFile(join(dir, 'sock'), { userNamed: true, maxBytes: 10 }), refused('not-regular', /it is a socket/));
      assert.throws(() => writeFileSafely('sock', 'x', { root: dir }), refused('not-regular', /it is a socket/));
      assert.throws(
        () => writeFileSafely(join(dir, 'sock'), 'x', { userNamed: true }),
        refused('io', /sock: cannot write it \(nothing is reading it \(ENXIO\)\)$/),
      );
      assert.equal(lstatSync(join(dir, 'sock')).isSocket(), true, 'never replaced');
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('a link loop is refused as a link; a name merely starting like a system folder is not a system file', async () => {
    symlinkSync('loop', join(dir, 'loop'));
    assert.throws(
      () => readBoundedFile(join(dir, 'loop'), { userNamed: true, maxBytes: 10 }),
      refused('link', /loop: a symbolic link — RBench does not follow links here/),
    );
    await assert.rejects(readBoundedFileAsync(join(dir, 'loop'), { userNamed: true, maxBytes: 10 }), refused('link'));
    assert.throws(() => readBoundedFile('/procfoo-rbench-none', { userNamed: true, maxBytes: 10 }), refused('missing', /^\/procfoo-rbench-none: not found$/));
    assert.throws(() => readBoundedFile('/devices-rbench-none', { userNamed: true, maxBytes: 10 }), refused('missing'));
  });

  it('a system error while planning the read names the path and what failed, sync and async, for both places', async () => {
    writeFileSync(join(dir, 'file'), 'x');
    const userPath = join(dir, 'file', 'x');
    const expected = (path: string) =>
      new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: cannot read it \\(a file stands where a folder is needed \\(ENOTDIR\\)\\)$`);
    assert.throws(() => readBoundedFile(userPath, { userNamed: true, maxBytes: 10 }), refused('io', expected(userPath)));
    await assert.rejects(readBoundedFileAsync(userPath, { userNamed: true, maxBytes: 10 }), refused('io', expected(userPath)));
    await assert.rejects(readBoundedFileAsync('file/x', { root: dir, maxBytes: 10 }), refused('io', expected(userPath)));
  });

  it('every read closes its file, also when it refuses one past the cap', async () => {
    writeFileSync(join(dir, 'f'), 'abcde');
    const before = openFds();
    for (let i = 0; i < 5; i++) {
      readBoundedFile(join(dir, 'f'), { userNamed: true, maxBytes: 10 });
      assert.throws(() => readBoundedFile('f', { root: dir, maxBytes: 4 }), refused('too-large'));
      await readBoundedFileAsync('f', { root: dir, maxBytes: 10 });
      await assert.rejects(readBoundedFileAsync(join(dir, 'f'), { userNamed: true, maxBytes: 4 }), refused('too-large'));
    }
    assert.equal(openFds(), before);
  });

  it('isReadable answers the read rules without reading', async () => {
    writeFileSync(join(dir, 'f'), 'x');
    symlinkSync(join(outside, 'secret'), join(dir, 'link'));
    assert.equal(await isReadable('f', { root: dir }), true);
    assert.equal(await isReadable('link', { root: dir }), false);
    assert.equal(await isReadable(join(dir, 'link'), { userNamed: true }), true);
    assert.equal(await isReadable('../x', { root: dir }), false);
    assert.equal(await isReadable('missing', { root: dir }), false);
    assert.equal(await isReadable('/dev/zero', { userNamed: true }), false);
    // Not a refusal but a caller's mistake: passed on.
    await assert.rejects(isReadable(42 as unknown as string, { userNamed: true }), TypeError);
  });

  it('CappedReader grows past a claimed size of 0 (files under /proc) and refuses one byte past the cap', () => {
    const reader = new CappedReader('p', 10, 0);
    assert.equal(reader.buffer.length, 1);
    assert.equal(reader.room(), 1);
    assert.equal(reader.more(1), true);
    assert.equal(reader.buffer.length, 2, 'doubled when full');
    assert.equal(reader.length, 1);
    reader.buffer.write('b', 1);
    assert.equal(reader.more(1), true);
    assert.equal(reader.buffer.length, 4);
    assert.equal(reader.bytes().length, 2);
    assert.equal(reader.more(2), true);
    assert.equal(reader.buffer.length, 8);
    assert.equal(reader.more(4), true);
    assert.equal(reader.buffer.length, 11, 'never more than cap + 1');
    assert.equal(reader.more(2), true);
    assert.equal(reader.length, 10);
    assert.equal(reader.more(0), false);
    assert.throws(() => reader.more(1), refused('too-large', /^p: larger than 10 bytes/));
    const claimed = new CappedReader('q', 10, 4);
    assert.equal(claimed.buffer.length, 5);
    assert.equal(claimed.more(2), true);
    assert.equal(claimed.buffer.length, 5, 'not grown while there is room');
    assert.equal(claimed.room(), 3);
    assert.equal(new CappedReader('r', 10, 50).buffer.length, 11);
  });
});

describe('file gate: writing', function () {
  this.timeout(5000);
  let dir: string;
  let outside: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'rbench-gate-')));
    outside = realpathSync(mkdtempSync(join(tmpdir(), 'rbench-gate-outside-')));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('inside a root: creates missing folders, writes, replaces a regular file, leaves no temp file', () => {
    assert.equal(writeFileSafely('a/b/c.json', 'one', { root: dir }), join(dir, 'a/b/c.json'));
    assert.equal(readFileSync(join(dir, 'a/b/c.json'), 'utf8'), 'one');
    writeFileSafely(join(dir, 'a/b/c.json'), Buffer.from('two'), { root: dir });
    assert.equal(readFileSync(join(dir, 'a/b/c.json'), 'utf8'), 'two');
    assert.deepEqual(readdirSync(join(dir, 'a/b')), ['c.json']);
    assert.equal(writeFileSafely('top.json', '', { root: dir }), join(dir, 'top.json'));
    assert.equal(readFileSync(join(dir, 'top.json'), 'utf8'), '');
  });

  it('inside a root: a link at any position is refused and nothing is written through it', () => {
    symlinkSync(outside, join(dir, '.rbench'));
    assert.throws(
      () => writeFileSafely('.rbench/runs/x.json', 'x', { root: dir }),
      refused('link', /\.rbench: a symbolic link — RBench does not follow links here/),
    );
    mkdirSync(join(dir, 'real'));
    symlinkSync(outside, join(dir, 'real', 'runs'));
    assert.throws(() => writeFileSafely('real/runs/x.json', 'x', { root: dir }), refused('link', /real\/runs: a symbolic link/));
    symlinkSync(join(outside, 'target'), join(dir, 'real', 'final.json'));
    assert.throws(() => writeFileSafely('real/final.json', 'x', { root: dir }), refused('link', /final\.json: a symbolic link/));
    // Even a link that stays inside is not followed on a write.
    symlinkSync(join(dir, 'real'), join(dir, 'inner'));
    assert.throws(() => writeFileSafely('inner/x.json', 'x', { root: dir }), refused('link'));
    assert.deepEqual(readdirSync(outside), []);
    assert.equal(lstatSync(join(dir, 'real', 'final.json')).isSymbolicLink(), true, 'the link is not replaced');
  });

  it('inside a root: leaving it, a FIFO, a folder or a file on the way are refused', () => {
    mkfifo(join(dir, 'fifo'));
    mkdirSync(join(dir, 'folder'));
    writeFileSync(join(dir, 'file'), 'x');
    assert.throws(() => writeFileSafely('../x.json', 'x', { root: dir }), refused('outside'));
    assert.throws(() => writeFileSafely('fifo', 'x', { root: dir }), refused('not-regular', /fifo: not a regular file \(it is a FIFO/));
    assert.equal(lstatSync(join(dir, 'fifo')).isFIFO(), true);
    assert.throws(() => writeFileSafely('folder', 'x', { root: dir }), refused('not-regular', /it is a folder/));
    assert.throws(
      () => writeFileSafely('file/x.json', 'x', { root: dir }),
      refused('not-regular', /\/file: not a folder \(it is a file\) — move it away or choose another folder$/),
    );
    assert.throws(
      () => ensureFolderInside(dir, join(dir, 'fifo', 'x')),
      refused('not-regular', /fifo: not a folder \(it is a FIFO \(named pipe\)\) — move it away or choose another folder$/),
    );
    assert.throws(
      () => writeFileSafely('x.json', 'x', { root: join(dir, 'missing-root') }),
      (error: unknown) => error instanceof FileGateError && error.code === 'ENOENT',
    );
  });

  it('a failed write leaves neither a temp file nor a changed target (the temp name is too long here)', () => {
    const name = 'n'.repeat(240); // fine as a name; the temp file's longer name is refused by the system
    writeFileSync(join(dir, name), 'old');
    assert.throws(() => writeFileSafely(name, 'new', { root: dir }), refused('io', /: cannot write it \(.*ENAMETOOLONG/));
    assert.throws(() => writeFileSafely(join(dir, name), 'new', { userNamed: true }), refused('io', /ENAMETOOLONG/));
    assert.deepEqual(readdirSync(dir), [name]);
    assert.equal(readFileSync(join(dir, name), 'utf8'), 'old');
  });

  it('ensureFolderInside names what failed: the root, or a level the system refuses to look at', () => {
    writeFileSync(join(dir, 'file'), 'x');
    const root = join(dir, 'file', 'root');
    assert.throws(
      () => ensureFolderInside(root, join(root, 'a')),
      (error: unknown) => {
        assert.ok(error instanceof FileGateError);
        assert.equal(error.message, `${root}: cannot use the folder (a file stands where a folder is needed (ENOTDIR))`);
        return true;
      },
    );
    const long = join(dir, 'n'.repeat(300));
    assert.throws(
      () => ensureFolderInside(dir, join(long, 'x')),
      (error: unknown) => {
        assert.ok(error instanceof FileGateError);
        assert.match(error.message, /: cannot use the folder \(.*ENAMETOOLONG/);
        assert.equal(error.path, long);
        return true;
      },
    );
    assert.deepEqual(readdirSync(dir), ['file']);
  });

  it('ensureFolderInside returns the real folder, creating each level', () => {
    assert.equal(ensureFolderInside(dir, join(dir, 'p', 'q')), join(dir, 'p', 'q'));
    assert.equal(lstatSync(join(dir, 'p', 'q')).isDirectory(), true);
    assert.equal(ensureFolderInside(dir, dir), dir);
    assert.throws(() => ensureFolderInside(dir, outside), refused('outside'));
  });

  it('a path the user named: folders created, a regular file replaced in its real folder through a link', () => {
    writeFileSafely(join(dir, 'new', 'out.json'), 'x', { userNamed: true });
    assert.equal(readFileSync(join(dir, 'new', 'out.json'), 'utf8'), 'x');
    writeFileSync(join(outside, 'real.json'), 'old');
    symlinkSync(join(outside, 'real.json'), join(dir, 'link.json'));
    assert.equal(writeFileSafely(join(dir, 'link.json'), 'new', { userNamed: true }), join(dir, 'link.json'));
    assert.equal(readFileSync(join(outside, 'real.json'), 'utf8'), 'new');
    assert.equal(lstatSync(join(dir, 'link.json')).isSymbolicLink(), true, 'the link stays a link');
    assert.deepEqual(readdirSync(outside), ['real.json'], 'no temp file left');
  });

  it('a path the user named: a link to nothing and a folder are refused', () => {
    symlinkSync(join(outside, 'nothing'), join(dir, 'dangling'));
    assert.throws(
      () => writeFileSafely(join(dir, 'dangling'), 'x', { userNamed: true }),
      refused('link', /dangling: a symbolic link to a missing file \(not found \(ENOENT\)\) — name the file itself$/),
    );
    assert.deepEqual(readdirSync(outside), []);
    assert.throws(() => writeFileSafely(dir, 'x', { userNamed: true }), refused('not-regular', /: a folder — name a file inside it$/));
    writeFileSync(join(dir, 'blocker'), '');
    const blocked = join(dir, 'blocker', 'x.json');
    assert.throws(
      () => writeFileSafely(blocked, 'x', { userNamed: true }),
      (error: unknown) => {
        assert.ok(error instanceof FileGateError);
        assert.equal(error.message, `${blocked}: cannot write it (a file stands where a folder is needed (ENOTDIR))`);
        assert.equal(error.problem, 'io');
        return true;
      },
    );
    // A link to nothing on the way: the folders cannot be made there.
    symlinkSync(join(outside, 'nowhere'), join(dir, 'gone'));
    assert.throws(
      () => writeFileSafely(join(dir, 'gone', 'x.json'), 'x', { userNamed: true }),
      (error: unknown) => {
        assert.ok(error instanceof FileGateError);
        assert.equal(error.message, `${join(dir, 'gone')}: not found`);
        assert.equal(error.problem, 'missing');
        return true;
      },
    );
    assert.deepEqual(readdirSync(outside), []);
  });

  // A temp folder of our own under /dev (tmpfs /dev/shm): only our own file could be replaced there.
  it('a regular file the user named under /dev is appended to in place, never replaced (/dev/stdout sent to a file)', () => {
    const shm = realpathSync(mkdtempSync('/dev/shm/rbench-gate-'));
    try {
      const file = join(shm, 'out.txt');
      writeFileSync(file, 'old ');
      writeFileSafely(file, 'new', { userNamed: true });
      assert.equal(readFileSync(file, 'utf8'), 'old new');
      assert.deepEqual(readdirSync(shm), ['out.txt']);
    } finally {
      rmSync(shm, { recursive: true, force: true });
    }
  });

  // Never a real device here: a broken gate (or a mutant) running as root would rename a file over it.
  it('a non-regular file the user named is written in place, never replaced: a FIFO with a reader, through a link too', async () => {
    const fifo = join(dir, 'fifo');
    mkfifo(fifo);
    const { spawn } = await import('node:child_process');
    const reader = spawn('cat', [fifo]);
    let read = '';
    reader.stdout.on('data', (chunk) => (read += chunk));
    const closed = new Promise((done) => reader.on('close', done));
    writeFileSafely(fifo, 'through the pipe', { userNamed: true });
    await closed;
    assert.equal(read, 'through the pipe');
    assert.equal(lstatSync(fifo).isFIFO(), true, 'still a FIFO');
    assert.deepEqual(readdirSync(dir), ['fifo']);
    symlinkSync(fifo, join(dir, 'link'));
    const second = spawn('cat', [fifo]);
    let more = '';
    second.stdout.on('data', (chunk) => (more += chunk));
    const secondClosed = new Promise((done) => second.on('close', done));
    writeFileSafely(join(dir, 'link'), 'via the link', { userNamed: true });
    await secondClosed;
    assert.equal(more, 'via the link');
    assert.equal(lstatSync(join(dir, 'link')).isSymbolicLink(), true);
    assert.equal(lstatSync(fifo).isFIFO(), true);
  });
});

describe('file gate: generated variants', function () {
  this.timeout(20_000);
  const name = fc.stringMatching(/^[a-z][a-z0-9._-]{0,6}$/).filter((n) => n !== '..' && n !== '.');

  it('a write inside a root follows no link, at whatever position it stands, and writes nothing outside', () => {
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 4 }), fc.nat(), fc.boolean(), (parts, at, linked) => {
        const root = realpathSync(mkdtempSync(join(tmpdir(), 'rbench-gate-prop-')));
        const outside = realpathSync(mkdtempSync(join(tmpdir(), 'rbench-gate-prop-out-')));
        try {
          const position = at % parts.length; // the component replaced by a link (the last one is the file)
          let path = root;
          parts.forEach((part, i) => {
            path = join(path, part);
            if (linked && i === position) symlinkSync(i === parts.length - 1 ? join(outside, 'file') : outside, path);
            else if (i < parts.length - 1 && !(linked && i > position)) mkdirSync(path);
          });
          const relativePath = parts.join('/');
          if (linked) {
            assert.throws(() => writeFileSafely(relativePath, 'x', { root }), refused('link'));
            assert.deepEqual(readdirSync(outside), []);
          } else {
            writeFileSafely(relativePath, 'x', { root });
            assert.equal(readFileSync(join(root, relativePath), 'utf8'), 'x');
          }
        } finally {
          rmSync(root, { recursive: true, force: true });
          rmSync(outside, { recursive: true, force: true });
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a read of anything but a regular file inside the root is refused at once, sync and async', async () => {
    const kinds = [
      'regular',
      'link',
      'folder-link',
      'fifo',
      'folder',
      'escape',
      'absolute',
      '/dev/zero',
      '/dev/null',
      '/dev/full',
      '/dev/urandom',
      '/dev/stdin',
      '/proc/self/environ',
      '/proc/self/status',
    ] as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...kinds), name, fc.boolean(), async (kind, file, userNamed) => {
        const root = realpathSync(mkdtempSync(join(tmpdir(), 'rbench-gate-prop-')));
        const outside = realpathSync(mkdtempSync(join(tmpdir(), 'rbench-gate-prop-out-')));
        writeFileSync(join(outside, file), 'SECRET');
        try {
          let path = join(root, file);
          if (kind === 'regular') writeFileSync(path, 'ok');
          else if (kind === 'link') symlinkSync(join(outside, file), path);
          else if (kind === 'folder-link') {
            symlinkSync(outside, join(root, 'sub'));
            path = join(root, 'sub', file);
          } else if (kind === 'fifo') mkfifo(path);
          else if (kind === 'folder') mkdirSync(path);
          else if (kind === 'escape') path = join(root, '..', outside.split('/').pop()!, file);
          else if (kind === 'absolute') path = join(outside, file);
          else path = kind;
          const place =
            userNamed && kind !== 'regular' && !kind.includes('link') && kind !== 'escape' && kind !== 'absolute' ? ({ userNamed: true } as const) : { root };
          if (kind === 'regular') {
            assert.equal(readBoundedText(path, { ...place, maxBytes: 64 }), 'ok');
            assert.equal(await readBoundedTextAsync(path, { ...place, maxBytes: 64 }), 'ok');
            return;
          }
          const started = performance.now();
          assert.throws(() => readBoundedFile(path, { ...place, maxBytes: 64 }), FileGateError);
          await assert.rejects(readBoundedFileAsync(path, { ...place, maxBytes: 64 }), FileGateError);
          assert.ok(performance.now() - started < 1000);
        } finally {
          rmSync(root, { recursive: true, force: true });
          rmSync(outside, { recursive: true, force: true });
        }
      }),
      { numRuns: 80 },
    );
  });
});

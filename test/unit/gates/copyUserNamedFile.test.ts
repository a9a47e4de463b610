// The file gate's copy of a file the user named into a folder of RBench's (`rbench run --rdb`'s dataset into
// the throwaway server's folder): the same bytes, through a temp file; a device, a FIFO or a file past the cap
// is refused with a plain message, and nothing is left in the folder.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyUserNamedFile, FileGateError } from '../../../src/gates/files';

describe('file gate: copyUserNamedFile (issue 44, --rdb)', () => {
  let dir: string;
  let folder: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rbench-copy-'));
    folder = mkdtempSync(join(tmpdir(), 'rbench-copy-to-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  });

  it('copies the bytes (more than one chunk) and returns their count', () => {
    const bytes = Buffer.alloc(3_000_000, 7);
    bytes[2_999_999] = 1;
    writeFileSync(join(dir, 'a.rdb'), bytes);
    assert.equal(copyUserNamedFile(join(dir, 'a.rdb'), folder, 'dump.rdb', 4_000_000), 3_000_000);
    assert.deepEqual(readFileSync(join(folder, 'dump.rdb')), bytes);
    assert.deepEqual(readdirSync(folder), ['dump.rdb'], 'no temp file left');
  });

  it('refuses a file past the cap, a FIFO and a device, leaving the folder empty', () => {
    writeFileSync(join(dir, 'big.rdb'), Buffer.alloc(2000));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    for (const [path, problem] of [
      [join(dir, 'big.rdb'), /larger than|limit/i],
      [join(dir, 'fifo'), /FIFO|not a regular file|fifo/i],
      ['/dev/zero', /system file|not a regular file|device/i],
      [join(dir, 'missing.rdb'), /not found/],
    ] as const) {
      assert.throws(
        () => copyUserNamedFile(path, folder, 'dump.rdb', 1000),
        (error: unknown) => error instanceof FileGateError && problem.test(error.message),
        path,
      );
      assert.deepEqual(readdirSync(folder), [], `${path}: nothing left behind`);
    }
  });
});

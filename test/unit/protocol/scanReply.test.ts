// The keys of a SCAN reply read in place (src/protocol/scanReply.ts): every key's bytes exactly, whatever they
// hold, the cursor as sent, and anything but a SCAN reply's shape refused with a message (never a key made up
// from a malformed reply, never a read past its bytes).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readScanReply, ScanReplyError } from '../../../src/protocol/scanReply';

function scanReply(cursor: string, keys: Uint8Array[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*2\r\n$${cursor.length}\r\n${cursor}\r\n*${keys.length}\r\n`)];
  for (const key of keys) parts.push(Buffer.from(`$${key.length}\r\n`), Buffer.from(key), Buffer.from('\r\n'));
  return Buffer.concat(parts);
}

function read(bytes: Uint8Array): { cursor: string; keys: string[] } {
  const keys: string[] = [];
  const cursor = readScanReply(bytes, (b, start, end) => keys.push(Buffer.from(b.subarray(start, end)).toString('hex')));
  return { cursor, keys };
}

describe('readScanReply (the keys of a SCAN reply, in place)', () => {
  it('gives each key as its bytes, whatever they hold (CRLF, $, *, empty), and the cursor', () => {
    fc.assert(
      fc.property(fc.bigUint64Array({ minLength: 1, maxLength: 1 }), fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 60 }), ([cursor], keys) => {
        const bytes = scanReply(String(cursor), keys);
        // Bytes after the reply (the next one) are not read.
        const result = read(Buffer.concat([bytes, Buffer.from('*2\r\n')]));
        assert.equal(result.cursor, String(cursor));
        assert.deepEqual(
          result.keys,
          keys.map((key) => Buffer.from(key).toString('hex')),
        );
      }),
      { numRuns: 500 },
    );
  });

  it("reads a key at the reply's offset in a larger buffer (a view, as a chunk is)", () => {
    const whole = Buffer.concat([Buffer.from('xxxx'), scanReply('7', [Buffer.from('bench:1'), Buffer.from('bench:22')])]);
    assert.deepEqual(read(whole.subarray(4)), { cursor: '7', keys: [Buffer.from('bench:1').toString('hex'), Buffer.from('bench:22').toString('hex')] });
  });

  const refused: [string, string, RegExp][] = [
    ['an error reply', "-NOPERM this user has no permissions to run the 'scan' command\r\n", /refused SCAN: NOPERM this user/],
    ['a simple string', '+OK\r\n', /'\+' where the reply of a SCAN reply belongs/],
    ['three elements', '*3\r\n$1\r\n0\r\n*0\r\n:1\r\n', /3 elements, not 2/],
    ['a nil array', '*-1\r\n', /malformed length/],
    ['a cursor that is a number reply', '*2\r\n:0\r\n*0\r\n', /':' where the cursor/],
    ['a cursor with letters', '*2\r\n$2\r\n0x\r\n*0\r\n', /not a number/],
    ['an empty cursor', '*2\r\n$0\r\n\r\n*0\r\n', /cursor of 0 bytes/],
    ['a cursor of 21 digits', `*2\r\n$21\r\n${'9'.repeat(21)}\r\n*0\r\n`, /cursor of 21 bytes/],
    ['keys as a map (RESP3 %)', '*2\r\n$1\r\n0\r\n%1\r\n$1\r\na\r\n$1\r\nb\r\n', /'%' where the keys/],
    ['a key that is an integer', '*2\r\n$1\r\n0\r\n*1\r\n:5\r\n', /':' where a key/],
    ['a nil key', '*2\r\n$1\r\n0\r\n*1\r\n$-1\r\n', /malformed length in a key/],
    ['a key longer than the bytes', '*2\r\n$1\r\n0\r\n*1\r\n$100\r\nabc\r\n', /past the end/],
    ['a key whose length is wrong', '*2\r\n$1\r\n0\r\n*1\r\n$2\r\nabc\r\n', /does not end in CRLF/],
    ['fewer keys than declared', '*2\r\n$1\r\n0\r\n*3\r\n$1\r\na\r\n', /the end of the reply where a key/],
    ['a length of eleven digits', '*2\r\n$1\r\n0\r\n*1\r\n$99999999999\r\na\r\n', /malformed length/],
    ['an empty length', '*2\r\n$1\r\n0\r\n*\r\n', /empty length/],
    ['a header without CRLF', '*2\n$1\n0\n*0\n', /malformed length/],
    ['nothing', '', /the end of the reply where the reply/],
  ];
  for (const [what, bytes, message] of refused) {
    it(`refuses ${what}`, () => {
      const keys: number[] = [];
      assert.throws(
        () => readScanReply(Buffer.from(bytes, 'latin1'), (_b, start, end) => keys.push(end - start)),
        (error: Error) => error instanceof ScanReplyError && message.test(error.message),
      );
    });
  }

  it('bounds the text of an error reply it repeats', () => {
    assert.throws(
      () => readScanReply(Buffer.from(`-ERR ${'x'.repeat(100_000)}\r\n`), () => undefined),
      (error: Error) => error instanceof ScanReplyError && error.message.length < 600,
    );
  });
});

// A SCAN reply read as its chunks come (src/protocol/scanReply.ts ScanReplyReader): the reader is its own framer
// (issue 46: each byte of the keys a run counts read once, not framed and then read again), so split
// anywhere it gives exactly the keys and cursor of the whole reply, and a hostile reply is still bounded by the
// control limits (bytes and declared elements) and refused with the framer's messages.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readScanReply, ScanReplyError, ScanReplyReader } from '../../../src/protocol/scanReply';
import { ReplyLimitError } from '../../../src/protocol/replyReader';
import { RespProtocolError } from '../../../src/protocol/respScanner';

function scanReply(cursor: string, keys: Uint8Array[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*2\r\n$${cursor.length}\r\n${cursor}\r\n*${keys.length}\r\n`)];
  for (const key of keys) parts.push(Buffer.from(`$${key.length}\r\n`), Buffer.from(key), Buffer.from('\r\n'));
  return Buffer.concat(parts);
}

/** Feeds `bytes` cut at `cuts`, each chunk a copy that is overwritten after the call (as the shared read buffer is). */
function readInChunks(bytes: Buffer, cuts: number[], limits = { bytes: 1 << 20, elements: 1000 }) {
  const keys: string[] = [];
  const reader = new ScanReplyReader((b, start, end) => keys.push(Buffer.from(b.subarray(start, end)).toString('hex')), limits);
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  let cursor: string | undefined;
  const answers: { to: number; answer: string | undefined }[] = [];
  for (const to of [...points, bytes.length]) {
    const chunk = Buffer.from(bytes.subarray(from, to));
    cursor = reader.feed(chunk);
    chunk.fill(0x78);
    answers.push({ to, answer: cursor });
    from = to;
  }
  return { cursor, keys, answers };
}

describe('ScanReplyReader (a SCAN reply framed and read as it comes)', () => {
  it('split anywhere, gives the keys and cursor of the whole reply, and answers only once it is whole', () => {
    fc.assert(
      fc.property(
        fc.bigUint64Array({ minLength: 1, maxLength: 1 }),
        fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        ([cursor], keys, cuts) => {
          const bytes = scanReply(String(cursor), keys);
          const whole: string[] = [];
          assert.equal(
            readScanReply(bytes, (b, start, end) => whole.push(Buffer.from(b.subarray(start, end)).toString('hex'))),
            String(cursor),
          );
          const split = readInChunks(bytes, cuts);
          assert.equal(split.cursor, String(cursor));
          assert.deepEqual(split.keys, whole);
          // No answer before the last byte is in.
          for (const { to, answer } of split.answers) assert.equal(answer, to === bytes.length ? String(cursor) : undefined);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a reply fed one byte at a time: every key, the cursor at the last byte', () => {
    const keys = Array.from({ length: 50 }, (_, i) => Buffer.from(`bench:${String(i).padStart(12, '0')}`));
    const bytes = scanReply('1234', keys);
    const cuts = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
    const read = readInChunks(bytes, cuts);
    assert.equal(read.cursor, '1234');
    assert.deepEqual(
      read.keys,
      keys.map((key) => key.toString('hex')),
    );
    assert.deepEqual(
      read.answers.filter((each) => each.answer !== undefined),
      [{ to: bytes.length, answer: '1234' }],
    );
  });

  it('refuses a reply declaring more keys than the limits before reading any key', () => {
    let seen = 0;
    const reader = new ScanReplyReader(() => seen++, { bytes: 1 << 20, elements: 1000 });
    assert.throws(
      () => reader.feed(Buffer.from('*2\r\n$1\r\n0\r\n*1001\r\n$1\r\na\r\n')),
      (error: Error) => error instanceof ReplyLimitError && /more than 1,000 elements/.test(error.message),
    );
    assert.equal(seen, 0);
  });

  it('refuses a key that streams past the byte limit, keeping no more than it', () => {
    const reader = new ScanReplyReader(() => assert.fail('no key'), { bytes: 64 * 1024, elements: 1000 });
    assert.equal(reader.feed(Buffer.from('*2\r\n$1\r\n0\r\n*1\r\n$999999999\r\n')), undefined);
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    let refusal: Error | undefined;
    let fed = 0;
    for (; fed < 100 && !refusal; fed++) {
      try {
        reader.feed(chunk);
      } catch (error) {
        refusal = error as Error;
      }
    }
    assert.ok(refusal instanceof ReplyLimitError, String(refusal));
    assert.match(refusal.message, /more than 0.0625 MiB/);
    assert.ok(fed <= 5, `refused after ${fed} chunks`);
  });

  it("an error reply cut by the chunks is refused with the server's words, once its line is whole", () => {
    const reader = new ScanReplyReader(() => undefined);
    assert.equal(reader.feed(Buffer.from('-NOPERM this user has no perm')), undefined);
    assert.throws(
      () => reader.feed(Buffer.from("issions to run the 'scan' command\r\n")),
      (error: Error) => error instanceof ScanReplyError && /refused SCAN: NOPERM this user has no permissions/.test(error.message),
    );
  });

  it('bytes that are not RESP at all are a protocol error, as the framer says of them', () => {
    const reader = new ScanReplyReader(() => undefined);
    assert.throws(
      () => reader.feed(Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n')),
      (error: Error) => error instanceof RespProtocolError && /not valid RESP/.test(error.message),
    );
  });

  it('a key whose length is wrong is refused even when its CRLF comes in the next chunk', () => {
    const reader = new ScanReplyReader(() => undefined);
    assert.equal(reader.feed(Buffer.from('*2\r\n$1\r\n0\r\n*1\r\n$2\r\nab')), undefined);
    assert.throws(() => reader.feed(Buffer.from('c\r\n')), /does not end in CRLF/);
  });
});

// The one check of every reader of whole replies (src/protocol/replyReader.ts): replies read whole however
// the chunks cut them, and a reply past its limits (bytes, declared elements) refused while it arrives.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ReplyCollector, ReplyFramer, ReplyLimitError } from '../../../src/protocol/replyReader';
import { RespErrorReply, type RespValue } from '../../../src/protocol/respValue';
import { RespProtocolError } from '../../../src/protocol/respScanner';

type Value = string | number | null | { error: string } | Value[];

function encode(value: Value): string {
  if (value === null) return '$-1\r\n';
  if (typeof value === 'number') return `:${value}\r\n`;
  if (typeof value === 'string') return `$${Buffer.byteLength(value)}\r\n${value}\r\n`;
  if (Array.isArray(value)) return `*${value.length}\r\n${value.map(encode).join('')}`;
  return `-${value.error}\r\n`;
}

function expected(value: Value): RespValue {
  if (Array.isArray(value)) return value.map(expected);
  if (value !== null && typeof value === 'object') return new RespErrorReply(value.error);
  return value;
}

const { value } = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.integer(),
    fc.constant(null),
    fc.record({ error: fc.stringMatching(/^[A-Z]{1,6} [a-z ]{0,20}$/) }),
    fc.array(tie('value'), { maxLength: 5 }),
  ),
}));

const LIMITS = { bytes: 1 << 20, elements: 10_000 };

describe('ReplyCollector (whole replies, within limits)', () => {
  it('reads every reply whole, however the chunks cut the bytes', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 20 }), (replies, cuts) => {
        const bytes = Buffer.from(replies.map(encode).join(''));
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const collector = new ReplyCollector(LIMITS);
        const read: RespValue[] = [];
        let from = 0;
        for (const to of [...points, bytes.length]) {
          read.push(...collector.feed(bytes.subarray(from, to)));
          from = to;
        }
        assert.deepEqual(read, replies.map(expected));
      }),
      { numRuns: 1500 },
    );
  });

  it('refuses a reply declaring more elements than allowed at its header, and one past the byte limit while it streams', () => {
    const collector = new ReplyCollector({ bytes: 1000, elements: 10 });
    assert.throws(
      () => collector.feed(Buffer.from('*2\r\n*5\r\n:1\r\n:1\r\n:1\r\n:1\r\n:1\r\n*6\r\n')),
      (e: Error) => e instanceof ReplyLimitError && /more than 10 elements/.test(e.message),
    );
    const framer = new ReplyFramer({ bytes: 1000, elements: 10 });
    framer.feed(Buffer.from('$100000\r\n'));
    for (let i = 0; i < 9; i++) framer.feed(Buffer.alloc(100, 'x'));
    assert.throws(
      () => framer.feed(Buffer.alloc(100, 'x')),
      (e: Error) => e instanceof ReplyLimitError && /reply of more than [\d.]+ MiB/.test(e.message),
    );
  });

  it('counts only the reply being read: many whole replies, each under the limit, pass', () => {
    const collector = new ReplyCollector({ bytes: 100, elements: 3 });
    let read = 0;
    for (let i = 0; i < 1000; i++) read += collector.feed(Buffer.from(`*3\r\n$20\r\n${'a'.repeat(20)}\r\n:1\r\n:2\r\n`)).length;
    assert.equal(read, 1000);
  });

  it('refuses bytes that are not RESP', () => {
    assert.throws(() => new ReplyCollector(LIMITS).feed(Buffer.from('HTTP/1.1 400 Bad Request\r\n')), RespProtocolError);
  });
});

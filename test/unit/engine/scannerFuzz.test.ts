import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { PerformanceObserver } from 'node:perf_hooks';
import fc from 'fast-check';
import { encodeRespCommand } from '../../../src/protocol/respEncode';
import { MAX_BULK_LENGTH, MAX_NESTING, ReplyScanner, RespProtocolError } from '../../../src/protocol/respScanner';
import { useRedisServer } from '../../helpers/redis';

// Differential fuzzing of the RESP reply scanner: a plain recursive reader written from the protocol
// description says what a byte stream holds (replies, a partial reply, or a protocol error at a
// byte); the streaming scanner must say the same however the stream is cut into chunks.

const SEED = 20261130;

type Verdict = { replies: number; idle: boolean; error?: undefined } | { error: string; replies: number };

/** Reference reader: whole-buffer, recursive, strict (CRLF, lengths, limits) — slow but obvious. */
function reference(bytes: Buffer): Verdict {
  let at = 0;
  class Partial extends Error {}
  class Broken extends Error {}
  const line = (): string => {
    const lf = bytes.indexOf(10, at);
    if (lf < 0) throw new Partial();
    if (lf === at || bytes[lf - 1] !== 13) throw new Broken('bare LF');
    const text = bytes.toString('latin1', at, lf - 1);
    at = lf + 1;
    return text;
  };
  const length = (limit: number): number => {
    const text = line();
    if (!/^(-1|\d+)$/.test(text)) throw new Broken(`length ${JSON.stringify(text)}`);
    const value = Number(text);
    if (value > limit) throw new Broken('too long');
    return value;
  };
  /** Reads one value; returns false for one that is not an element (an attribute or a top-level push). */
  const value = (depth: number): boolean => {
    if (at >= bytes.length) throw new Partial();
    const type = bytes[at++];
    switch (String.fromCharCode(type)) {
      case '+':
      case '-':
      case ':':
      case ',':
      case '#':
      case '_':
      case '(':
        line();
        return true;
      case '$':
      case '=':
      case '!': {
        const n = length(MAX_BULK_LENGTH);
        if (n < 0) return true;
        if (bytes.length < at + n + 2) {
          // What is there must still fit: a CRLF missing at its place is an error even when cut short.
          if (bytes.length > at + n && bytes[at + n] !== 13) throw new Broken('bulk end');
          throw new Partial();
        }
        if (bytes[at + n] !== 13 || bytes[at + n + 1] !== 10) throw new Broken('bulk end');
        at += n + 2;
        return true;
      }
      case '*':
      case '~':
      case '%':
      case '|':
      case '>': {
        const kind = String.fromCharCode(type);
        const n = length(2 ** 30 - 1);
        const elements = n < 0 ? 0 : kind === '%' || kind === '|' ? n * 2 : n;
        if (elements > 0 && depth >= MAX_NESTING) throw new Broken('nesting');
        for (let i = 0; i < elements;) if (value(depth + 1)) i++;
        if (kind === '|') return false;
        if (kind === '>' && depth === 0) return false;
        return true;
      }
      default:
        throw new Broken(`type ${type}`);
    }
  };
  let replies = 0;
  while (at < bytes.length) {
    try {
      if (value(0)) replies++;
    } catch (error) {
      if (error instanceof Partial) return { replies, idle: false };
      return { error: (error as Error).message, replies };
    }
  }
  return { replies, idle: true };
}

/** The scanner over `bytes` cut at `cuts` (offsets, any order). */
function scanned(bytes: Buffer, cuts: number[]): Verdict {
  const scanner = new ReplyScanner();
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  let replies = 0;
  let from = 0;
  try {
    for (const to of [...points, bytes.length]) {
      replies += scanner.scan(bytes.subarray(from, to));
      from = to;
    }
  } catch (error) {
    assert.ok(error instanceof RespProtocolError, `not a protocol error: ${(error as Error).stack}`);
    assert.match(error.message, /^protocol error: .+ — the reply is not valid RESP: is it a Redis server, on the right port\?$/);
    return { error: error.message, replies: replies + error.completedReplies };
  }
  return { replies, idle: scanner.idle };
}

/** The scanner agrees with the reference: same count, or an error where the reference has one. */
function agrees(bytes: Buffer, cuts: number[]): void {
  const expected = reference(bytes);
  const actual = scanned(bytes, cuts);
  const show = () =>
    `${JSON.stringify(bytes.toString('latin1').slice(0, 300))} cut at ${cuts.join(',')}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  if (expected.error !== undefined) {
    assert.ok(actual.error !== undefined, `no protocol error: ${show()}`);
    assert.equal(actual.replies, expected.replies, show());
  } else if (!expected.idle && actual.error !== undefined) {
    // The scanner reads byte by byte, so it may see a broken partial reply before the reference,
    // which waits for whole lines; the replies before it must still be the same.
    assert.equal(actual.replies, expected.replies, show());
  } else {
    assert.equal(actual.error, undefined, show());
    assert.deepEqual(actual, expected, show());
  }
}

// Generated RESP2/RESP3 values, as bytes.
const crlf = (text: string) => `${text}\r\n`;
const bulk = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('\r\n', '*1\r\n', '$3\r\n', '')).map((text) => {
  const body = Buffer.from(text, 'latin1').toString('latin1');
  return `$${body.length}\r\n${body}\r\n`;
});
const scalar = fc.oneof(
  fc.stringMatching(/^[A-Za-z ]{0,10}$/).map((text) => crlf(`+${text}`)),
  fc.stringMatching(/^[A-Z]{1,8} [a-z ]{0,10}$/).map((text) => crlf(`-${text}`)),
  fc.integer().map((n) => crlf(`:${n}`)),
  bulk,
  fc.constantFrom(
    '$-1\r\n',
    '*-1\r\n',
    '_\r\n',
    ',3.14\r\n',
    '#t\r\n',
    '(123456789012345678901234567890\r\n',
    '=7\r\ntxt:abc\r\n',
    '!9\r\nERR oops!\r\n',
    '%0\r\n',
    '*0\r\n',
  ),
);
const { resp } = fc.letrec((tie) => ({
  resp: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('aggregate') as fc.Arbitrary<string>),
  aggregate: fc
    .tuple(
      fc.constantFrom('*', '~', '%', '>'),
      fc.array(tie('resp') as fc.Arbitrary<string>, { minLength: 1, maxLength: 4 }),
      fc.option(tie('resp') as fc.Arbitrary<string>),
    )
    .map(([kind, items, attribute]) => {
      const list = kind === '%' && items.length % 2 === 1 ? [...items, ':0\r\n'] : items;
      const head = `${kind}${kind === '%' ? list.length / 2 : list.length}\r\n${list.join('')}`;
      return attribute ? `|1\r\n+attr\r\n${attribute}${head}` : head;
    }),
}));
const stream = fc.array(resp, { minLength: 1, maxLength: 8 }).map((values) => Buffer.from(values.join(''), 'latin1'));
const cuts = fc.array(fc.nat(), { maxLength: 8 });

const SPECIAL_BYTES = [13, 10, 0x2a, 0x24, 0x2d, 0x3a, 0x30, 0x39, 0x3f, 0x25, 0x7c, 0x3e, 0];

describe('RESP scanner fuzzing (fast-check)', () => {
  it('the reference reader is right about known streams', () => {
    assert.deepEqual(reference(Buffer.from('+OK\r\n*2\r\n:1\r\n$1\r\nx\r\n>1\r\n+p\r\n')), { replies: 2, idle: true });
    assert.deepEqual(reference(Buffer.from('*2\r\n:1\r\n')), { replies: 0, idle: false });
    assert.ok(reference(Buffer.from('$2\r\nabc\r\n')).error);
  });

  it('generated reply streams, cut anywhere, are counted exactly', () => {
    fc.assert(
      fc.property(stream, cuts, (bytes, at) => agrees(bytes, at)),
      { seed: SEED, numRuns: 1500 },
    );
  });

  it('merged streams cut at every single point are counted exactly', () => {
    fc.assert(
      fc.property(stream, (bytes) => {
        for (let cut = 0; cut <= bytes.length; cut++) agrees(bytes, [cut]);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it('corrupted streams are counted as the protocol says, or fail with a protocol error', () => {
    const corrupted = fc
      .tuple(stream, fc.array(fc.tuple(fc.nat(), fc.nat(2), fc.oneof(fc.constantFrom(...SPECIAL_BYTES), fc.nat(255))), { minLength: 1, maxLength: 4 }))
      .map(([bytes, edits]) => {
        const out = [...bytes];
        for (const [at, kind, byte] of edits) {
          const i = at % (out.length + 1);
          if (kind === 0) out[Math.min(i, out.length - 1)] = byte;
          else if (kind === 1) out.splice(i, 0, byte);
          else out.splice(i, 1);
        }
        return Buffer.from(out);
      });
    fc.assert(
      fc.property(corrupted, cuts, (bytes, at) => agrees(bytes, at)),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('random bytes never throw anything but a protocol error, and never take long', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), cuts, (bytes, at) => agrees(Buffer.from(bytes), at)),
      { seed: SEED, numRuns: 3000 },
    );
    const noise = Buffer.alloc(8 << 20);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const started = performance.now();
    assert.ok(scanned(noise, [1 << 20, 3 << 20]).error);
    assert.ok(performance.now() - started < 1000);
  });

  it('refuses bulk lengths over 512 MB and absurd aggregate lengths at once, without waiting for the bytes', () => {
    for (const text of [
      '$1073741824\r\n',
      '$99999999999999999999999999\r\n',
      '!536870913\r\n',
      '*2147483648\r\n',
      '%1073741824\r\n',
      '$-2\r\n',
      '*-5\r\n',
      '$1-1\r\n',
      '$\r\n',
      '$?\r\n',
      '$5\n',
      '+OK\n',
    ]) {
      const actual = scanned(Buffer.from(text, 'latin1'), []);
      assert.ok(actual.error, `${JSON.stringify(text)} is refused`);
    }
    assert.match(scanned(Buffer.from('$1073741824\r\n'), []).error!, /bulk string length 1073741824… is over Redis's limit of 512 MB/);
    // 512 MB itself is allowed: the scanner waits for it (skipping, not buffering).
    assert.deepEqual(scanned(Buffer.from(`$${MAX_BULK_LENGTH}\r\n`), []), { replies: 0, idle: false });
  });

  it(`accepts nesting ${MAX_NESTING} deep and refuses deeper, in RESP2 and RESP3 aggregates`, () => {
    for (const open of ['*1\r\n', '~1\r\n', '%1\r\n:0\r\n', '>1\r\n']) {
      assert.deepEqual(
        scanned(Buffer.from(open.repeat(MAX_NESTING) + ':1\r\n+OK\r\n'), [7, 5000]),
        open === '>1\r\n' ? { replies: 1, idle: true } : { replies: 2, idle: true },
      );
      assert.match(scanned(Buffer.from(open.repeat(MAX_NESTING + 1) + ':1\r\n'), [3]).error!, /nested more than 4096 deep/);
    }
  });

  it('allocates nothing per reply: 2 million replies cause no garbage collection', async () => {
    const one = Buffer.from('+OK\r\n:12345\r\n$5\r\nhello\r\n*2\r\n$1\r\na\r\n%1\r\n+k\r\n,1.5\r\n_\r\n');
    const bytes = Buffer.concat(Array.from({ length: 400_000 }, () => one));
    const prefix = bytes.subarray(0, 64 << 10);
    // The chunks (socket-sized views) are cut before measuring: the test's own objects are not the scanner's garbage.
    const chunks: Buffer[] = [];
    for (let at = 64 << 10; at < bytes.length; at += 1500) chunks.push(bytes.subarray(at, Math.min(at + 1500, bytes.length)));
    // Other work in a long test process (sockets closing, timers) can collect during one pass: the least of three
    // passes is the scanner's own. An object per reply would be 2 million of them in every pass.
    const counts: number[] = [];
    for (let pass = 0; pass < 3 && (counts.length === 0 || Math.min(...counts) > 1); pass++) {
      // Each pass a fresh scanner, warmed up on the stream's start (which also warms the JIT).
      const scanner = new ReplyScanner();
      scanner.scan(prefix);
      let collections = 0;
      const observer = new PerformanceObserver((list) => (collections += list.getEntries().length));
      observer.observe({ entryTypes: ['gc'] });
      let replies = 0;
      for (const chunk of chunks) replies += scanner.scan(chunk);
      await new Promise((resolve) => setTimeout(resolve, 50));
      observer.disconnect();
      assert.ok(replies > 1_900_000);
      counts.push(collections);
    }
    assert.ok(Math.min(...counts) <= 1, `${counts.join(', ')} garbage collections while scanning (per pass)`);
  });

  describe('real reply streams from redis-server', () => {
    const server = useRedisServer();

    /** The bytes redis-server answers to `commands`, read until `replies` replies arrived. */
    async function capture(commands: string[][], hello3 = false): Promise<Buffer> {
      const all = hello3 ? [['HELLO', '3'], ...commands] : commands;
      const socket = connect(server().port, '127.0.0.1');
      const chunks: Buffer[] = [];
      const counter = new ReplyScanner();
      let replies = 0;
      await new Promise<void>((resolve, reject) => {
        socket.on('error', reject);
        socket.on('data', (chunk) => {
          chunks.push(chunk);
          replies += counter.scan(chunk);
          if (replies >= all.length) resolve();
        });
        socket.write(Buffer.concat(all.map((args) => encodeRespCommand(args))));
      });
      socket.destroy();
      return Buffer.concat(chunks);
    }

    const COMMANDS = [
      ['SET', 'k', 'v\r\n*1\r\n'],
      ['GET', 'k'],
      ['GET', 'nope'],
      ['INCR', 'n'],
      ['INCR', 'k'],
      ['RPUSH', 'l', 'a', 'b', 'c'],
      ['LRANGE', 'l', '0', '-1'],
      ['HSET', 'h', 'f1', '1', 'f2', '2'],
      ['HGETALL', 'h'],
      ['SADD', 's', 'x'],
      ['SMEMBERS', 's'],
      ['ZADD', 'z', '1.5', 'm'],
      ['ZRANGE', 'z', '0', '-1', 'WITHSCORES'],
      ['XADD', 'x', '*', 'f', 'v'],
      ['XRANGE', 'x', '-', '+'],
      ['EVAL', 'return {1, {2, {3, "x"}}, redis.status_reply("OK"), redis.error_reply("ERR nested")}', '0'],
      ['CONFIG', 'GET', 'maxmemory*'],
      ['CLIENT', 'INFO'],
      ['COMMAND', 'DOCS', 'GET'],
      ['NOPE'],
      ['EXISTS', 'k', 'nope'],
      ['PING'],
      ['DEL', 'k'],
    ];

    for (const hello3 of [false, true]) {
      it(`${hello3 ? 'RESP3' : 'RESP2'}: counts every reply at every split point`, async () => {
        const bytes = await capture(COMMANDS, hello3);
        const expected = COMMANDS.length + (hello3 ? 1 : 0);
        assert.deepEqual(reference(bytes), { replies: expected, idle: true });
        for (let cut = 0; cut <= bytes.length; cut++) assert.deepEqual(scanned(bytes, [cut]), { replies: expected, idle: true }, `cut at ${cut}`);
        fc.assert(
          fc.property(cuts, (at) => assert.deepEqual(scanned(bytes, at), { replies: expected, idle: true })),
          { seed: SEED, numRuns: 500 },
        );
      });
    }
  });
});

import assert from 'node:assert/strict';
import { ReplyScanner, errorKind } from '../../../src/protocol/respScanner';

interface Scanned {
  replies: number;
  errors: { kind: string; text: string; index: number }[];
}

/** Feeds `chunks` to a fresh scanner; error indexes are made absolute (replies before the chunk + index in it). */
function scanChunks(chunks: Buffer[]): Scanned {
  const scanner = new ReplyScanner();
  const result: Scanned = { replies: 0, errors: [] };
  scanner.onError = (kind, text, index) => result.errors.push({ kind, text, index: result.replies + index });
  for (const chunk of chunks) result.replies += scanner.scan(chunk);
  return result;
}

/** Every way of cutting `bytes` in two, plus one byte at a time. */
function splits(bytes: Buffer): Buffer[][] {
  const ways: Buffer[][] = [];
  for (let cut = 0; cut <= bytes.length; cut++) ways.push([bytes.subarray(0, cut), bytes.subarray(cut)]);
  ways.push([...bytes].map((b) => Buffer.from([b])));
  return ways;
}

// One complete reply of each type; replies are counted at top level only.
const REPLIES: Record<string, string> = {
  'simple string': '+OK\r\n',
  integer: ':12345\r\n',
  'negative integer': ':-7\r\n',
  'bulk string': '$5\r\nhello\r\n',
  'bulk string holding CRLF and type bytes': '$8\r\n\r\n*2\r\n+:\r\n',
  'empty bulk string': '$0\r\n\r\n',
  'null bulk string': '$-1\r\n',
  'array of mixed values': '*3\r\n$3\r\nfoo\r\n:1\r\n+bar\r\n',
  'empty array': '*0\r\n',
  'null array': '*-1\r\n',
  'nested arrays': '*2\r\n*2\r\n:1\r\n*1\r\n$1\r\nx\r\n*0\r\n',
  'array holding an error': '*2\r\n-ERR inside\r\n:1\r\n',
  'RESP3 null': '_\r\n',
  'RESP3 double': ',3.14\r\n',
  'RESP3 boolean': '#t\r\n',
  'RESP3 big number': '(3492890328409238509324850943850943825024385\r\n',
  'RESP3 verbatim string': '=15\r\ntxt:Some string\r\n',
  'RESP3 map': '%2\r\n+first\r\n:1\r\n$6\r\nsecond\r\n*2\r\n:2\r\n:3\r\n',
  'RESP3 empty map': '%0\r\n',
  'RESP3 set': '~3\r\n+a\r\n+b\r\n+c\r\n',
  'RESP3 value with attribute': '|1\r\n+key-popularity\r\n%2\r\n$1\r\na\r\n,0.1923\r\n$1\r\nb\r\n,0.0012\r\n*2\r\n:2039123\r\n:9543892\r\n',
  'RESP3 attribute inside an array': '*2\r\n|1\r\n+ttl\r\n:3600\r\n:1\r\n:2\r\n',
};

describe('RESP reply scanner', () => {
  for (const [name, text] of Object.entries(REPLIES)) {
    it(`counts one ${name}, however the bytes are split`, () => {
      const bytes = Buffer.from(text, 'latin1');
      for (const chunks of splits(bytes)) {
        const scanned = scanChunks(chunks);
        assert.equal(scanned.replies, 1, `split ${chunks.map((c) => JSON.stringify(c.toString('latin1'))).join(' | ')}`);
      }
    });
  }

  it('counts every reply of a long stream of all types split at every boundary', () => {
    const all = Buffer.from(Object.values(REPLIES).join(''), 'latin1');
    const expected = Object.keys(REPLIES).length;
    for (const chunks of splits(all)) assert.equal(scanChunks(chunks).replies, expected);
    // Three-way splits at a stride, to cut several values at once.
    for (let a = 0; a < all.length; a += 3) {
      for (let b = a; b < all.length; b += 7) {
        assert.equal(scanChunks([all.subarray(0, a), all.subarray(a, b), all.subarray(b)]).replies, expected);
      }
    }
  });

  it('does not count RESP3 push messages as replies, even between replies', () => {
    const bytes = Buffer.from('+OK\r\n>3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$2\r\nhi\r\n:1\r\n>0\r\n', 'latin1');
    for (const chunks of splits(bytes)) assert.equal(scanChunks(chunks).replies, 2);
  });

  it('reports top-level errors with their kind, text and position, split anywhere', () => {
    const oom = "OOM command not allowed when used memory > 'maxmemory'.";
    const wrongType = 'WRONGTYPE Operation against a key holding the wrong kind of value';
    const bytes = Buffer.from(`+OK\r\n-${oom}\r\n*1\r\n-ERR nested is not a reply error\r\n!${wrongType.length}\r\n${wrongType}\r\n:3\r\n`, 'latin1');
    for (const chunks of splits(bytes)) {
      const scanned = scanChunks(chunks);
      assert.equal(scanned.replies, 5);
      assert.deepEqual(scanned.errors, [
        { kind: 'OOM', text: oom, index: 1 },
        { kind: 'WRONGTYPE', text: wrongType, index: 3 },
      ]);
    }
  });

  it('keeps long error texts bounded and still counts the reply', () => {
    const long = 'ERR ' + 'y'.repeat(5000);
    const scanned = scanChunks([Buffer.from(`-${long}\r\n+OK\r\n`)]);
    assert.equal(scanned.replies, 2);
    assert.equal(scanned.errors[0].kind, 'ERR');
    assert.equal(scanned.errors[0].text, long.slice(0, 512));
  });

  it('skips large bulk payloads by length across many chunks', () => {
    const payload = Buffer.alloc(100_000, 0x2a); // '*' bytes inside the payload must not be parsed
    const bytes = Buffer.concat([Buffer.from(`$${payload.length}\r\n`), payload, Buffer.from('\r\n:1\r\n')]);
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 1500) chunks.push(bytes.subarray(at, at + 1500));
    assert.equal(scanChunks(chunks).replies, 2);
  });

  it('handles nesting deeper than its initial stack', () => {
    const depth = 100;
    const text = '*1\r\n'.repeat(depth) + ':1\r\n' + '+OK\r\n';
    assert.equal(scanChunks([Buffer.from(text)]).replies, 2);
  });

  it('rejects bytes that cannot start a reply', () => {
    assert.throws(() => scanChunks([Buffer.from('hello\r\n')]), /unexpected byte/);
  });

  it('takes the first word of an error as its kind', () => {
    assert.equal(errorKind('MISCONF Redis is configured to save RDB snapshots'), 'MISCONF');
    assert.equal(errorKind('NOAUTH Authentication required.'), 'NOAUTH');
    assert.equal(errorKind('ERR'), 'ERR');
    assert.equal(errorKind(''), 'ERR');
  });
});

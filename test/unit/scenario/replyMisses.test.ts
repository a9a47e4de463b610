// Which replies are misses (issue 43): reads only, decided from the command table's flags and key specs; nil
// for every read, an empty collection for reads of a key's contents; integers never. And the reply scanner
// reports the top-level nils and empty aggregates the fast path counts, wherever the chunks are cut.
import assert from 'node:assert/strict';
import { ReplyScanner } from '../../../src/protocol/respScanner';
import {
  isMissReply,
  keysAskedOf,
  missRuleOf,
  missRulesOf,
  MISS_NIL,
  MISS_NIL_ELEMENTS,
  MISS_NIL_OR_EMPTY,
  MISS_NONE,
} from '../../../src/scenario/replyMisses';
import { missesIn } from '../../../src/scenario/missRules';
import { command, groupTest, mixTest } from '../engine/plans';

describe('reply misses: the rule of each command', () => {
  const cases: [string, number][] = [
    ['GET k:__key__', MISS_NIL],
    ['HGET h:__key__ f', MISS_NIL],
    ['LINDEX l:__key__ 0', MISS_NIL],
    ['ZSCORE z:__key__ m', MISS_NIL],
    // Per key: each nil element of the array.
    ['MGET a b', MISS_NIL_ELEMENTS],
    ['HMGET h:__key__ f g', MISS_NIL_ELEMENTS],
    ['ZMSCORE z:__key__ m n', MISS_NIL_ELEMENTS],
    ['HGETALL h:__key__', MISS_NIL_OR_EMPTY],
    ['LRANGE l:__key__ 0 99', MISS_NIL_OR_EMPTY],
    ['ZRANGE z:__key__ 0 -1', MISS_NIL_OR_EMPTY],
    ['SMEMBERS s:__key__', MISS_NIL_OR_EMPTY],
    ['XRANGE x:__key__ - +', MISS_NIL_OR_EMPTY],
    // Integer answers are answers.
    ['EXISTS k:__key__', MISS_NIL],
    // Writes, even those answering nil (SET NX, LPOP), count no misses.
    ['SET k:__key__ v', MISS_NONE],
    ['LPOP l:__key__', MISS_NONE],
    ['GETDEL k:__key__', MISS_NONE],
    // Reads of the server's state have no key to miss.
    ['PING', MISS_NONE],
    ['DBSIZE', MISS_NONE],
    ['INFO', MISS_NONE],
    // Unknown commands (a module's) are taken for the most dangerous: no read.
    ['MY.READ k', MISS_NONE],
  ];
  for (const [line, rule] of cases) {
    it(`${line} → ${rule}`, () => assert.equal(missRuleOf(command(line)), rule));
  }

  it("a mix: each row its own rule; a group: its unit none, its commands theirs; a transaction: its commands theirs (read from EXEC's elements)", () => {
    const mix = mixTest([
      [1, 'GET a:__key__'],
      [1, 'SET a:__key__ v'],
      [1, 'HGETALL h:__key__'],
    ]);
    assert.deepEqual(missRulesOf(mix, ['GET', 'SET', 'HGETALL']), [MISS_NIL, MISS_NONE, MISS_NIL_OR_EMPTY]);
    const group = groupTest('pair', ['SET a:__key__ v', 'GET a:__key__']);
    assert.deepEqual(missRulesOf(group, ['pair', 'SET', 'GET']), [MISS_NONE, MISS_NONE, MISS_NIL]);
    const tx = groupTest('tx', ['MULTI', 'GET a:__key__', 'EXEC']);
    assert.deepEqual(missRulesOf(tx, ['tx', 'MULTI', 'GET', 'EXEC']), [MISS_NONE, MISS_NONE, MISS_NIL, MISS_NONE]);
  });

  it('whole replies (the ioredis path): nil misses under any read rule, an empty array only where the rule says', () => {
    assert.equal(isMissReply(MISS_NIL, null), true);
    assert.equal(isMissReply(MISS_NIL, []), false);
    assert.equal(isMissReply(MISS_NIL, ''), false, 'an empty string is a value');
    assert.equal(isMissReply(MISS_NIL_OR_EMPTY, []), true);
    assert.equal(isMissReply(MISS_NIL_OR_EMPTY, ['f', 'v']), false);
    assert.equal(isMissReply(MISS_NONE, null), false);
    assert.equal(isMissReply(MISS_NIL, 0), false, 'integers are answers');
    assert.equal(isMissReply(MISS_NIL_OR_EMPTY, {}), true, "ioredis's empty HGETALL object");
    assert.equal(isMissReply(MISS_NIL_OR_EMPTY, { f: 'v' }), false);
  });

  it('per-key reads: the nil elements are the misses, the keys or fields asked the denominator', () => {
    assert.equal(missesIn(MISS_NIL_ELEMENTS, ['a', null, 'b', null, null]), 3);
    assert.equal(missesIn(MISS_NIL_ELEMENTS, []), 0);
    assert.equal(missesIn(MISS_NIL_ELEMENTS, null), 0);
    assert.equal(missesIn(MISS_NIL, null), 1);
    assert.equal(keysAskedOf(command('MGET a b c')), 3);
    assert.equal(keysAskedOf(command('HMGET h f g')), 2);
    assert.equal(keysAskedOf(command('GET a')), undefined);
  });
});

describe('reply scanner: top-level nils and empty aggregates', () => {
  function scan(bytes: string, cut: number): { nulls: number[]; empties: number[]; replies: number } {
    const scanner = new ReplyScanner();
    const seen = { nulls: [] as number[], empties: [] as number[], replies: 0 };
    scanner.onNull = (index) => seen.nulls.push(seen.replies + index);
    scanner.onEmpty = (index) => seen.empties.push(seen.replies + index);
    const buffer = Buffer.from(bytes, 'latin1');
    for (const chunk of [buffer.subarray(0, cut), buffer.subarray(cut)]) seen.replies += scanner.scan(chunk);
    return seen;
  }

  // A value, a nil bulk, an empty array, a nil array, an array holding an empty array and a nil, RESP3 null, empty set, empty map, an empty string.
  const stream = '$3\r\nabc\r\n$-1\r\n*0\r\n*-1\r\n*2\r\n*0\r\n$-1\r\n_\r\n~0\r\n%0\r\n$0\r\n\r\n:0\r\n';
  it('nils at 1, 3, 5; empties at 2, 6, 7; nested ones are not replies — wherever the chunk is cut', () => {
    for (let cut = 0; cut <= stream.length; cut++) assert.deepEqual(scan(stream, cut), { nulls: [1, 3, 5], empties: [2, 6, 7], replies: 10 }, `cut at ${cut}`);
  });
});

describe('reply scanner: nils and empty aggregates one level inside an array (MGET, EXEC)', () => {
  function scan(bytes: string, cut: number): { nested: string[]; replies: number } {
    const scanner = new ReplyScanner();
    const seen = { nested: [] as string[], replies: 0 };
    scanner.onNestedMiss = (index, element, empty) => seen.nested.push(`${seen.replies + index}.${element}${empty ? ' empty' : ''}`);
    const buffer = Buffer.from(bytes, 'latin1');
    for (const chunk of [buffer.subarray(0, cut), buffer.subarray(cut)]) seen.replies += scanner.scan(chunk);
    return seen;
  }

  // 0: an MGET of 4 keys, 2nd and 4th missing; 1: a top-level nil (not nested); 2: EXEC's reply [OK, nil, [], [nil]] —
  // the nil inside the inner array is two levels down; 3: RESP3 null and empty set inside an array; 4: a push with a nil
  // (out of band, not a reply); 5: an array after an attribute with a nil (the attribute's nil is not an element).
  const stream =
    '*4\r\n$1\r\na\r\n$-1\r\n$1\r\nb\r\n*-1\r\n' +
    '$-1\r\n' +
    '*4\r\n+OK\r\n$-1\r\n*0\r\n*1\r\n$-1\r\n' +
    '*3\r\n_\r\n~0\r\n:1\r\n' +
    '>2\r\n$-1\r\n$-1\r\n' +
    '|1\r\n+k\r\n_\r\n*2\r\n:1\r\n_\r\n';
  it('reports each with its reply and element, wherever the chunk is cut', () => {
    for (let cut = 0; cut <= stream.length; cut++) {
      assert.deepEqual(scan(stream, cut), { nested: ['0.1', '0.3', '2.1', '2.2 empty', '3.0', '3.1 empty', '4.1'], replies: 5 }, `cut at ${cut}`);
    }
  });
});

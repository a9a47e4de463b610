// The reply scanner's nils two levels down (issue 43): a key an MGET queued in a transaction did not find is a nil
// inside MGET's element of EXEC's reply. Reported with the reply and the element of the top-level array, wherever a
// chunk is cut; not deeper, not inside a push or an attribute, and one level down stays onNestedMiss's.
import assert from 'node:assert/strict';
import { ReplyScanner } from '../../../src/protocol/respScanner';

function scan(bytes: string, cut: number): { deep: string[]; nested: string[]; replies: number } {
  const scanner = new ReplyScanner();
  const seen = { deep: [] as string[], nested: [] as string[], replies: 0 };
  scanner.onDeepNil = (index, element) => seen.deep.push(`${seen.replies + index}.${element}`);
  scanner.onNestedMiss = (index, element) => seen.nested.push(`${seen.replies + index}.${element}`);
  const buffer = Buffer.from(bytes, 'latin1');
  for (const chunk of [buffer.subarray(0, cut), buffer.subarray(cut)]) seen.replies += scanner.scan(chunk);
  return seen;
}

describe('reply scanner: nils two levels down (an MGET inside EXEC)', () => {
  // 0: EXEC's reply [OK, MGET [a, nil, b, _], [nil, *-1]]; 1: an MGET of its own [nil, a] (one level down); 2: a nil
  // three levels down; a push with an array holding a nil (out of band, not a reply); 3: an array whose attribute holds
  // a nil (not an element), then [[nil], 1].
  const stream =
    '*3\r\n+OK\r\n*4\r\n$1\r\na\r\n$-1\r\n$1\r\nb\r\n_\r\n*2\r\n$-1\r\n*-1\r\n' +
    '*2\r\n$-1\r\n$1\r\na\r\n' +
    '*1\r\n*1\r\n*1\r\n$-1\r\n' +
    '>2\r\n+x\r\n*1\r\n$-1\r\n' +
    '*2\r\n|1\r\n+k\r\n_\r\n*1\r\n$-1\r\n:1\r\n';

  it('reports each with its reply and its element of the top-level array, wherever the chunk is cut', () => {
    for (let cut = 0; cut <= stream.length; cut++) {
      assert.deepEqual(scan(stream, cut), { deep: ['0.1', '0.1', '0.2', '0.2', '3.0'], nested: ['1.0'], replies: 4 }, `cut at ${cut}`);
    }
  });
});

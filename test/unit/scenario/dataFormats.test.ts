// A JSON Lines file's `fields from` rows (dataFormats.ts): each row is its own object, so its pairs carry its own
// keys in its own order, whatever the first line's were (the first line's names are encoded once and reused only
// by rows with the same keys in the same order).
import assert from 'node:assert/strict';
import { parseData } from '../../../src/scenario/dataFormats';
import { tableValue } from '../../../src/scenario/valueTable';

describe('data formats: JSON Lines fields', () => {
  it("packs each row's pairs under its own keys, in its own order", () => {
    const text = '{"a":"1","b":"2"}\n{"a":"3","b":"4"}\n{"b":"5","a":"6"}\n{"c":"7","dé":8}\n';
    const parsed = parseData(text, 'jsonl', { take: 'fields' });
    assert.ok(parsed.ok, JSON.stringify(parsed));
    const rows = Array.from({ length: parsed.table.count }, (_, i) => Buffer.from(tableValue(parsed.table, i)).toString('utf8'));
    assert.deepEqual(rows, [
      '$1\r\na\r\n$1\r\n1\r\n$1\r\nb\r\n$1\r\n2\r\n',
      '$1\r\na\r\n$1\r\n3\r\n$1\r\nb\r\n$1\r\n4\r\n',
      '$1\r\nb\r\n$1\r\n5\r\n$1\r\na\r\n$1\r\n6\r\n',
      '$1\r\nc\r\n$1\r\n7\r\n$3\r\ndé\r\n$1\r\n8\r\n',
    ]);
    assert.deepEqual(parsed.names, ['a', 'b']);
  });
});

// Issue 46: a data file's entries are packed as they are read, not held as an object each. Seen: a 20 MB CSV of
// 600,000 rows (`fields from`) took 690 MiB of peak RSS and 7.7 s of CPU, more than half of it the collector's:
// csv-parse's rows with their line info, a Buffer per field and one per row, all alive at once. The condition is
// made, not timed: each format is parsed in a child Node whose old generation is capped at 40 MiB, which 200,000
// entries held as objects overflow (400,000 lines; the child then dies of it) and the packed table never nears.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const scenario = join(__dirname, '../../../src/scenario');
const ROWS = 200_000;
// Lines are the leanest objects: it takes twice as many of them to overflow the cap (seen: 200,000 fit).
const LINES = 400_000;

// The child: builds the file's text, parses it, and prints what the table holds (count, a few entries) and the
// heap it ended with.
const child = (format: string, take: string, rows: number) => `
const { parseData } = require(${JSON.stringify(join(scenario, 'dataFormats.js'))});
const { tableValue } = require(${JSON.stringify(join(scenario, 'valueTable.js'))});
const rows = ${rows};
const make = {
  lines: () => Array.from({ length: rows }, (_, i) => 'value-' + i).join('\\n') + '\\n',
  csv: () => 'name,email,age\\n' + Array.from({ length: rows }, (_, i) => 'user' + i + ',u' + i + '@example.com,' + (i % 90)).join('\\n') + '\\n',
  jsonl: () => Array.from({ length: rows }, (_, i) => JSON.stringify({ name: 'user' + i, email: 'u' + i + '@example.com', age: i % 90 })).join('\\n') + '\\n',
};
const take = ${take};
const parsed = parseData(make[${JSON.stringify(format)}](), ${JSON.stringify(format)}, take);
if (!parsed.ok) throw new Error(parsed.line + ': ' + parsed.message);
const text = (i) => Buffer.from(tableValue(parsed.table, i)).toString('utf8');
process.stdout.write(JSON.stringify({ count: parsed.table.count, first: text(0), last: text(rows - 1), names: parsed.names, bytes: parsed.bytes }));
`;

/** Row `i` as its entry holds it: each field's name and value as RESP bulk strings. */
const bulk = (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`;
const row = (i: number) => ['name', `user${i}`, 'email', `u${i}@example.com`, 'age', String(i % 90)].map(bulk).join('');

/** `fields from` either format: the same rows, the same entries. */
const asFields = { take: "{ take: 'fields' }", first: row(0), last: row(ROWS - 1), names: ['name', 'email', 'age'] };

const cases: { name: string; format: string; take: string; first: string; last: string; names?: string[]; rows?: number }[] = [
  { name: 'one value per line', format: 'lines', take: "{ take: 'values' }", first: 'value-0', last: `value-${LINES - 1}`, rows: LINES },
  { name: 'a CSV column', format: 'csv', take: "{ take: 'values', column: 'email' }", first: 'u0@example.com', last: `u${ROWS - 1}@example.com` },
  { name: 'a CSV’s rows as hash fields', format: 'csv', ...asFields },
  { name: 'a JSON Lines field', format: 'jsonl', take: "{ take: 'values', field: 'name' }", first: 'user0', last: `user${ROWS - 1}` },
  { name: 'JSON Lines objects as hash fields', format: 'jsonl', ...asFields },
];

describe('a data file’s entries are packed as they are read (issue 46)', function () {
  this.timeout(60_000);
  for (const c of cases) {
    const rows = c.rows ?? ROWS;
    it(`${c.name}: ${rows.toLocaleString('en-US')} entries parsed within a 40 MiB old generation, each exact`, () => {
      const ran = spawnSync(process.execPath, ['--max-old-space-size=40', '-e', child(c.format, c.take, rows)], { encoding: 'utf8' });
      assert.equal(ran.status, 0, `the child died (${ran.signal ?? ran.status}): ${ran.stderr.split('\n').slice(0, 8).join('\n')}`);
      const seen = JSON.parse(ran.stdout) as { count: number; first: string; last: string; names?: string[] };
      assert.equal(seen.count, rows);
      assert.equal(seen.first, c.first);
      assert.equal(seen.last, c.last);
      assert.deepEqual(seen.names, c.names);
    });
  }
});

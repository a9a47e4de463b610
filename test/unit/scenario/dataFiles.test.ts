// Issue 23, data from files: `values from FILE`, `fields from FILE` and `ttl` as the checker reads them. The
// path rules (a shared scenario must never send the user's other files to a server), each refused with its
// message at the line naming the file; the bad inputs (a 2 GB file, ragged CSV rows, invalid UTF-8) named
// by the data file's line; the source the plan records (name, size, SHA-256, count), never the data.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkDiagnostics, type PhasePlan, type ResolvedFile } from '../../../src/scenario';
import { DATA_FILE_MAX_BYTES } from '../../../src/scenario/dataFile';
import { estimateMemory } from '../../../src/scenario/memory';
import { keptTable, tableValue } from '../../../src/scenario/valueTable';
import { check, errors } from './helpers';

function phaseOf(resolved: ResolvedFile): PhasePlan {
  return resolved.scenarios[0].points[0].phases[0];
}

function only(resolved: ResolvedFile): { line: number; code: string; message: string } {
  const found = errors(resolved);
  assert.equal(found.length, 1, found.map((d) => d.message).join('\n'));
  return { line: found[0].range.start.line, code: found[0].code, message: found[0].message };
}

describe('data files: values from, fields from (issue 23)', () => {
  let root: string;
  let folder: string;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'rbench-data-')));
    folder = join(root, 'scenarios');
    mkdirSync(join(folder, 'data'), { recursive: true });
    writeFileSync(join(root, 'secret.txt'), 'the user password\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const scenario = (line: string, command = 'SET k:__key__ __value__') => `### data\nkeys 10\n${line}\n${command}\n`;
  const checkLine = (line: string, command?: string) => check(scenario(line, command), { baseDir: folder });

  describe('the path rules, each refused with its message', () => {
    it('`..` out of the folder', () => {
      const problem = only(checkLine('values from ../secret.txt'));
      assert.equal(problem.line, 2);
      assert.equal(problem.code, 'data-file-outside');
      assert.match(problem.message, /`\.\.\/secret\.txt`: `\.\.` leaves the scenario's folder — a data file must lie inside it/);
    });

    it('`..` in the middle of a path that would come back inside', () => {
      assert.match(only(checkLine('values from data/../data/x.txt')).message, /`\.\.` leaves the scenario's folder/);
    });

    it('an absolute path, even to a file inside the folder', () => {
      writeFileSync(join(folder, 'data', 'inside.txt'), 'a\n');
      const problem = only(checkLine(`values from ${join(folder, 'data', 'inside.txt')}`));
      assert.equal(problem.code, 'data-file-outside');
      assert.match(problem.message, /an absolute path — a data file must lie inside the scenario's own folder; write a path relative to it/);
    });

    it('a hidden file or folder (`.env`, `.git/config`: yours, in the cloned folder, often secrets)', () => {
      writeFileSync(join(folder, '.env'), 'TOKEN=secret\n');
      for (const file of ['.env', '.git/config', 'data/.hidden/x.txt']) {
        const problem = only(checkLine(`values from ${file}`));
        assert.equal(problem.code, 'data-file-outside');
        assert.match(problem.message, /a hidden file or folder — data files cannot be hidden/);
      }
      writeFileSync(join(folder, 'data', 'x.txt'), 'a\n');
      assert.deepEqual(errors(checkLine('values from ./data/x.txt')), [], '`./` is not hidden');
    });

    it('a symbolic link to a file outside', () => {
      symlinkSync(join(root, 'secret.txt'), join(folder, 'data', 'values.txt'));
      const problem = only(checkLine('values from data/values.txt'));
      assert.equal(problem.code, 'data-file-link');
      assert.match(problem.message, /`data\/values\.txt`: a symbolic link — a data file must be a real file inside the scenario's folder/);
    });

    it('a folder on the way that is a link out of the tree', () => {
      symlinkSync(root, join(folder, 'data', 'up'));
      const problem = only(checkLine('values from data/up/secret.txt'));
      assert.equal(problem.code, 'data-file-link');
      assert.match(problem.message, /a symbolic link on the way leads outside the scenario folder/);
    });

    it('a folder', () => {
      mkdirSync(join(folder, 'data', 'values.txt'));
      assert.match(only(checkLine('values from data/values.txt')).message, /`data\/values\.txt`: not a regular file \(it is a folder\)/);
    });

    it('a FIFO is refused without blocking', () => {
      execFileSync('mkfifo', [join(folder, 'data', 'pipe.txt')]);
      assert.match(only(checkLine('values from data/pipe.txt')).message, /not a regular file \(it is a FIFO \(named pipe\)\)/);
    });

    it('a missing file', () => {
      assert.match(only(checkLine('values from data/none.txt')).message, /`data\/none\.txt`: not found next to the scenario file/);
    });

    it("the editor's diagnostics (checkDiagnostics, also in its check worker) say the same", () => {
      const text = scenario('values from ../secret.txt');
      assert.deepEqual(
        checkDiagnostics(text, { env: {}, baseDir: folder }).map((d) => d.message),
        errors(check(text, { baseDir: folder })).map((d) => d.message),
      );
    });

    it('a scenario without a folder (unsaved) reads nothing', () => {
      const resolved = check(scenario('values from data/x.txt'));
      assert.match(only(resolved).message, /this scenario has no folder yet — save it/);
    });
  });

  describe('bad data, named by the data file’s line', () => {
    it('a 2 GB file: refused at the cap, nothing of it read', () => {
      const path = join(folder, 'data', 'huge.txt');
      const fd = openSync(path, 'w');
      closeSync(fd);
      // Sparse: 2 GB on paper, no block on disk; reading it would take seconds and 2 GB of memory.
      execFileSync('truncate', ['-s', '2G', path]);
      const before = process.memoryUsage().rss;
      const started = Date.now();
      const problem = only(checkLine('values from data/huge.txt'));
      assert.equal(problem.code, 'data-file-too-large');
      assert.match(problem.message, new RegExp(`larger than ${DATA_FILE_MAX_BYTES / 1024 / 1024} MiB, the data file limit — not read`));
      assert.ok(Date.now() - started < 2000, 'refused without reading');
      assert.ok(process.memoryUsage().rss - before < 256 * 1024 * 1024, 'no buffer of the file was allocated');
    });

    it('a CSV with a ragged row', () => {
      writeFileSync(join(folder, 'data', 'users.csv'), 'name,age\nalice,30\nbob\ncarol,41\n');
      const problem = only(checkLine('values from data/users.csv column name'));
      assert.equal(problem.code, 'data-file-invalid');
      assert.match(problem.message, /^data\/users\.csv:3: 1 field, the header has 2 — every row needs one field per column/);
    });

    it('a CSV quote never closed', () => {
      writeFileSync(join(folder, 'data', 'users.csv'), 'name\nalice\n"bob\n');
      assert.match(only(checkLine('values from data/users.csv')).message, /^data\/users\.csv:\d+: a quoted field is never closed/);
    });

    it('invalid UTF-8', () => {
      writeFileSync(
        join(folder, 'data', 'words.txt'),
        Buffer.concat([Buffer.from('one\ntwo\n'), Buffer.from([0x66, 0xff, 0xfe, 0x0a]), Buffer.from('four\n')]),
      );
      const problem = only(checkLine('values from data/words.txt'));
      assert.match(problem.message, /^data\/words\.txt:3: not valid UTF-8 text/);
    });

    it('a JSON line without the field, and a line that is not JSON', () => {
      writeFileSync(join(folder, 'data', 'docs.jsonl'), '{"body":"a"}\n{"body":"b"}\n{"title":"c"}\n');
      assert.match(only(checkLine('values from data/docs.jsonl field body')).message, /^data\/docs\.jsonl:3: no field `body`/);
      writeFileSync(join(folder, 'data', 'docs.jsonl'), '{"body":"a"}\n{body:b}\n');
      assert.match(only(checkLine('values from data/docs.jsonl field body')).message, /^data\/docs\.jsonl:2: not JSON/);
    });

    it('a CSV column the header does not have', () => {
      writeFileSync(join(folder, 'data', 'users.csv'), 'name,age\nalice,30\n');
      assert.match(
        only(checkLine('values from data/users.csv column city')).message,
        /data\/users\.csv:1: no column `city` in the header \(it has `name`, `age`\)/,
      );
    });

    // Rows are taken as they are read (issue 46): the header's problems still name line 1, and the first problem in
    // the file is the one told.
    it('a CSV header: a column with no name, several columns and none named, no header, a header alone', () => {
      const csv = (text: string) => writeFileSync(join(folder, 'data', 'users.csv'), text);
      csv('name,,age\nalice,x,30\n');
      assert.match(
        errors(checkLine('fields from data/users.csv', 'HSET h:__key__ __fields__'))[0].message,
        /users\.csv:1: column 2 has no name in the header — every column names a hash field/,
      );
      csv('name,age\nalice,30\n');
      assert.match(only(checkLine('values from data/users.csv')).message, /users\.csv:1: 2 columns \(`name`, `age`\) — name one/);
      csv('\n\n');
      assert.match(only(checkLine('values from data/users.csv column name')).message, /users\.csv:1: no header row/);
      csv('name,age\n');
      assert.match(only(checkLine('values from data/users.csv column name')).message, /users\.csv:1: no entries in the file/);
      csv('name,,age\nalice,30\n');
      assert.match(
        errors(checkLine('fields from data/users.csv', 'HSET h:__key__ __fields__'))[0].message,
        /users\.csv:1: column 2 has no name/,
        'the header’s problem, before a later row’s',
      );
    });

    it('`fields from` with JSON lines of different widths', () => {
      writeFileSync(join(folder, 'data', 'rows.jsonl'), '{"a":1,"b":2}\n{"a":1}\n');
      assert.match(
        errors(checkLine('fields from data/rows.jsonl', 'HSET h:__key__ __fields__'))[0].message,
        /rows\.jsonl:2: 1 fields, but line 1 has 2 — every line needs the same number of fields/,
      );
    });
  });

  describe('what is read and what the plan records', () => {
    it('JSON Lines: each line’s field; strings as their text, anything else as JSON; the source, never the data', () => {
      const text = '{"bio":"héllo, \\"world\\""}\n\n{"bio":42}\n{"bio":{"nested":[1,2]}}\n';
      writeFileSync(join(folder, 'data', 'users.jsonl'), text);
      const resolved = check(scenario('values from data/users.jsonl field bio'), { baseDir: folder });
      assert.deepEqual(errors(resolved), []);
      const source = phaseOf(resolved).values!;
      assert.deepEqual(
        { file: source.file, format: source.format, field: source.field, size: source.size, count: source.count, order: source.order },
        { file: 'data/users.jsonl', format: 'jsonl', field: 'bio', size: Buffer.byteLength(text), count: 3, order: 'key' },
      );
      assert.equal(source.sha256, createHash('sha256').update(text).digest('hex'));
      const table = keptTable(source)!;
      const values = [0, 1, 2].map((i) => Buffer.from(tableValue(table, i)).toString('utf8'));
      assert.deepEqual(values, ['héllo, "world"', '42', '{"nested":[1,2]}']);
      assert.deepEqual(phaseOf(resolved).value, { kind: 'range', min: 2, max: Buffer.byteLength('{"nested":[1,2]}') });
      assert.ok(!JSON.stringify(resolved.scenarios[0]).includes('world'), 'the plan holds no value');
    });

    it('CSV: a quoted comma stays in its field; a column by name or number; `in order`', () => {
      writeFileSync(join(folder, 'data', 'cities.csv'), '\uFEFFid,city\r\n1,"New York, NY"\r\n2,Paris\r\n');
      for (const column of ['city', '2']) {
        const resolved = check(scenario(`values from data/cities.csv column ${column} in order`), { baseDir: folder });
        assert.deepEqual(errors(resolved), []);
        const source = phaseOf(resolved).values!;
        assert.equal(source.order, 'sequence');
        const table = keptTable(source)!;
        assert.deepEqual(
          [0, 1].map((i) => Buffer.from(tableValue(table, i)).toString()),
          ['New York, NY', 'Paris'],
        );
      }
    });

    it('one value per line: CRLF ends are dropped, the last newline ends no value', () => {
      writeFileSync(join(folder, 'data', 'words.txt'), 'alpha\r\nbeta\n\ngamma\n');
      const source = phaseOf(check(scenario('values from data/words.txt'), { baseDir: folder })).values!;
      const table = keptTable(source)!;
      assert.deepEqual(
        [0, 1, 2, 3].map((i) => Buffer.from(tableValue(table, i)).toString()),
        ['alpha', 'beta', '', 'gamma'],
      );
      assert.equal(source.count, 4);
    });

    it('a changed file is read again (its new hash); an unchanged one is not re-parsed', () => {
      const path = join(folder, 'data', 'words.txt');
      writeFileSync(path, 'one\n');
      const first = phaseOf(check(scenario('values from data/words.txt'), { baseDir: folder })).values!;
      const again = phaseOf(check(scenario('values from data/words.txt'), { baseDir: folder })).values!;
      assert.equal(again.sha256, first.sha256);
      writeFileSync(path, 'one\ntwo\nthree\n');
      const changed = phaseOf(check(scenario('values from data/words.txt'), { baseDir: folder })).values!;
      assert.equal(changed.count, 3);
      assert.notEqual(changed.sha256, first.sha256);
    });

    it('`fields from` a CSV: the header names the fields; `__fields__` without it, or inside an argument, is refused', () => {
      writeFileSync(join(folder, 'data', 'users.csv'), 'name,city\nalice,Paris\n');
      const resolved = check(scenario('fields from data/users.csv', 'HSET user:__key__ __fields__'), { baseDir: folder });
      assert.deepEqual(errors(resolved), []);
      assert.deepEqual(phaseOf(resolved).fields!.names, ['name', 'city']);
      assert.match(only(checkLine('keys 10', 'HSET user:__key__ __fields__')).message, /`__fields__` needs a data file — add `fields from FILE`/);
      assert.match(
        only(check(scenario('fields from data/users.csv', 'HSET user:__key__ x__fields__'), { baseDir: folder })).message,
        /`__fields__` stands for several arguments/,
      );
    });

    it('the memory estimate counts the table rbench holds and the values stored', () => {
      const values = Array.from({ length: 1000 }, (_, i) => `value-${i}-${'x'.repeat(1000)}`);
      writeFileSync(join(folder, 'data', 'big.txt'), values.join('\n') + '\n');
      const resolved = check('### data\nclients 1\nkeys 1000\nrequests 1000\nvalues from data/big.txt\nSET k:__key__ __value__\n', { baseDir: folder });
      const estimate = estimateMemory(resolved.scenarios[0]);
      const total = values.reduce((sum, value) => sum + value.length, 0);
      assert.ok(estimate.client.bytes >= total, `the table (${total} bytes) is counted: ${estimate.client.bytes}`);
      assert.match(estimate.client.detail, /of data-file values/);
      assert.ok(estimate.server.bytes >= total, `the stored values are counted: ${estimate.server.bytes}`);
    });
  });

  describe('`value` beside `values from`', () => {
    const warnings = (text: string) =>
      check(text, { baseDir: folder })
        .diagnostics.filter((d) => d.code === 'value-with-values-from')
        .map((d) => [d.range.start.line, d.message]);

    it('is named where it has no effect: in the same scope, in a closer one, or swept; the plan keeps the file’s sizes', () => {
      writeFileSync(join(folder, 'data', 'v.txt'), 'aa\nbbbb\n');
      const message =
        "`value` has no effect here: `values from data/v.txt` sends the file's values, at their own sizes (2–4 bytes) — remove this `value`, or the `values from` line";
      assert.deepEqual(warnings('### a\nvalue 100\nvalues from data/v.txt\nSET k:__key__ __value__\n'), [[1, message]]);
      assert.deepEqual(warnings('values from data/v.txt\n### a\nvalue 100\nSET k:__key__ __value__\n'), [[2, message]]);
      assert.deepEqual(warnings('values from data/v.txt\n### a\nsweep value 10, 100\nSET k:__key__ __value__\n'), [[2, message]]);
      // Once per line, however many scenarios the file-level lines reach.
      assert.deepEqual(warnings('value 100\nvalues from data/v.txt\n### a\nSET k:__key__ __value__\n### b\nGET k:__key__\n'), [[0, message]]);
      const resolved = check('### a\nvalue 100\nvalues from data/v.txt\nSET k:__key__ __value__\n', { baseDir: folder });
      assert.deepEqual(phaseOf(resolved).value, { kind: 'range', min: 2, max: 4 });
    });

    it('is not named where it serves other scenarios: a file-level `value`, `values from` in one scenario', () => {
      writeFileSync(join(folder, 'data', 'v.txt'), 'aa\n');
      assert.deepEqual(warnings('value 100\n### a\nvalues from data/v.txt\nSET k:__key__ __value__\n### b\nSET k:__key__ __value__\n'), []);
      assert.deepEqual(warnings('### a\nvalues from data/v.txt\nSET k:__key__ __value__\n'), []);
    });
  });

  describe('ttl', () => {
    const tests = (line: string, command: string) => phaseOf(check(`### t\nkeys 10\n${line}\n${command}\n`)).tests;

    it('SET gets its own EX option, in seconds for whole seconds', () => {
      const [test] = tests('ttl 60s..1h', 'SET k:__key__ __value__');
      assert.deepEqual(test.commands[0].command.args.slice(2), [['EX'], [{ placeholder: 'ttl' }]]);
      assert.deepEqual(phaseOf(check('### t\nttl 60s..1h\nSET k v\n')).ttl, { min: 60, max: 3600, unit: 's' });
    });

    it('milliseconds when finer: PX, PEXPIRE', () => {
      assert.deepEqual(phaseOf(check('### t\nttl 500ms..2s\nSET k v\n')).ttl, { min: 500, max: 2000, unit: 'ms' });
      assert.deepEqual(tests('ttl 500ms..2s', 'SET k v')[0].commands[0].command.args[2], ['PX']);
    });

    it('another write is followed by an EXPIRE of its key in the same unit', () => {
      const [test] = tests('ttl 10s', 'HSET h:__key__ f __value__');
      assert.equal(test.name, 'HSET+EXPIRE');
      assert.ok(test.group);
      assert.deepEqual(
        test.commands.map(({ command }) => [command.name, command.args]),
        [
          ['HSET', [['h:', { placeholder: 'key' }], ['f'], [{ placeholder: 'value' }]]],
          ['EXPIRE', [['h:', { placeholder: 'key' }], [{ placeholder: 'ttl' }]]],
        ],
      );
    });

    it('reads and SETs with their own expiry stay as written', () => {
      assert.deepEqual(tests('ttl 10s', 'GET k')[0].commands.length, 1);
      assert.deepEqual(tests('ttl 10s', 'SET k v EX 5')[0].commands[0].command.args, [['k'], ['v'], ['EX'], ['5']]);
    });

    it('bad ranges are refused', () => {
      assert.match(errors(check('### t\nttl 1h..60s\nSET k v\n'))[0].message, /runs backwards — write the shorter expiry first: `60s\.\.1h`/);
      assert.match(errors(check('### t\nttl 0s\nSET k v\n'))[0].message, /at least 1ms/);
      assert.match(errors(check('### t\nttl 60\nSET k v\n'))[0].message, /needs a unit/);
    });
  });
});

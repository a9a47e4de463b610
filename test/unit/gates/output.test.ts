// The output sanitizer (src/gates/output.ts): exact escapes, both sides of every rule, and properties over
// any string (no control character survives, escaping is idempotent, CSV cells read back as text).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { csvCell, escapeControl, markdownCell, markdownCode } from '../../../src/gates/output';

/** Every character escapeControl must escape: C0 but \n and \t, DEL, C1, bidi controls, U+2028/2029. */
const DANGEROUS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/; // eslint-disable-line no-control-regex

/** The inverse of escapeControl, up to text that already looked like an escape. */
function unescapeControls(text: string): string {
  return text.replace(/\\u([0-9a-f]{4})/g, (whole, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return DANGEROUS.test(char) ? char : whole;
  });
}

/** RFC 4180 fields of one record (quoted or not), as a spreadsheet would read them. */
function parseCsvRecord(line: string): string[] {
  const fields: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i++;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          value += '"';
          i += 2;
        } else if (line[i] === '"') break;
        else value += line[i++];
      }
      assert.equal(line[i], '"', `unterminated quoted field in ${JSON.stringify(line)}`);
      i++;
      fields.push(value);
    } else {
      const end = line.indexOf(',', i);
      fields.push(line.slice(i, end < 0 ? line.length : end));
      i = end < 0 ? line.length : end;
    }
    if (i >= line.length) break;
    assert.equal(line[i], ',', `expected a comma at ${i} in ${JSON.stringify(line)}`);
    i++;
  }
  return fields;
}

/** Characters that would make a spreadsheet run a cell as a formula. */
const FORMULA = /^[=+\-@\t\r]/;
const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** A string with a good share of the characters the sanitizer cares about. */
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      '\x1b',
      '\x07',
      '\x00',
      '\x7f',
      '\x9b',
      '\r',
      '\n',
      '\t',
      '\u202e',
      '\u2066',
      '\u2069',
      '\u200e',
      '\u061c',
      '\u2028',
      '\\',
      '"',
      ',',
      '|',
      '<',
      '>',
      '&',
      '`',
      '*',
      '_',
      '[',
      ']',
      '=',
      '+',
      '-',
      '@',
      'u',
      '0',
      '1',
      '.',
      'e',
    ),
    fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }),
  ),
  maxLength: 40,
});

describe('gates/output: escapeControl', () => {
  it('shows ESC, BEL and an OSC 52 clipboard write as text', () => {
    assert.equal(escapeControl('\x1b]52;c;SGVsbG8=\x07'), '\\u001b]52;c;SGVsbG8=\\u0007');
    assert.equal(escapeControl('\x1b[31mred\x1b[0m'), '\\u001b[31mred\\u001b[0m');
  });

  it('keeps newlines, tabs and printable text; escapes CR, NUL, DEL and C1', () => {
    assert.equal(escapeControl('a\nb\tc'), 'a\nb\tc');
    assert.equal(escapeControl('a\rb'), 'a\\u000db');
    assert.equal(escapeControl('\x00\x08\x0b\x0c\x1f'), '\\u0000\\u0008\\u000b\\u000c\\u001f');
    assert.equal(escapeControl('\x7f\x80\x9b\x9f'), '\\u007f\\u0080\\u009b\\u009f');
    assert.equal(escapeControl(' ~\xa0é€😀'), ' ~\xa0é€😀', 'the characters around the ranges stay');
  });

  it('escapes bidi overrides and isolates and the line separators, not the characters next to them', () => {
    assert.equal(escapeControl('\u202a\u202b\u202c\u202d\u202e'), '\\u202a\\u202b\\u202c\\u202d\\u202e');
    assert.equal(escapeControl('\u2066\u2067\u2068\u2069'), '\\u2066\\u2067\\u2068\\u2069');
    assert.equal(escapeControl('\u2028\u2029'), '\\u2028\\u2029');
    assert.equal(escapeControl('\u2027\u202f\u2065\u206a'), '\u2027\u202f\u2065\u206a');
  });

  it('escapes the bidi marks too (LRM, RLM, the Arabic letter mark), which reorder what a terminal shows as the overrides do', () => {
    assert.equal(escapeControl('a\u200eb\u200fc\u061cd'), 'a\\u200eb\\u200fc\\u061cd');
    assert.equal(escapeControl('\u200d\u2010\u061b\u061d'), '\u200d\u2010\u061b\u061d', 'the characters around them stay');
  });

  it('keeps JSON valid and equal in meaning (DEL and C1 are not escaped by JSON.stringify)', () => {
    const json = JSON.stringify({ name: '\x7f\x9b\u202e\x1b' });
    assert.deepEqual(JSON.parse(escapeControl(json)), { name: '\x7f\x9b\u202e\x1b' });
  });

  it('property: leaves no control character but \\n and \\t, and is idempotent', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const escaped = escapeControl(text);
        assert.ok(!DANGEROUS.test(escaped), JSON.stringify(escaped));
        assert.equal(escapeControl(escaped), escaped);
        // Nothing else changes: turning the escapes of control characters back gives what the input reads as.
        assert.equal(unescapeControls(escaped), unescapeControls(text));
      }),
      { numRuns: 500 },
    );
  });

  it('is linear: a megabyte of escapes takes one pass', () => {
    const started = process.hrtime.bigint();
    const escaped = escapeControl('\x1b'.repeat(1 << 20));
    assert.equal(escaped.length, 6 << 20);
    assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 2000);
  });
});

describe('gates/output: csvCell', () => {
  it('quotes every cell and doubles quotes (RFC 4180)', () => {
    assert.equal(csvCell('SET'), '"SET"');
    assert.equal(csvCell(''), '""');
    assert.equal(csvCell('a "b", c'), '"a ""b"", c"');
    assert.equal(csvCell('two\nlines'), '"two\nlines"');
  });

  it('marks a cell starting with = + - @ or a tab as text with a leading quote', () => {
    assert.equal(csvCell('=HYPERLINK("http://evil","x")'), '"\'=HYPERLINK(""http://evil"",""x"")"');
    assert.equal(csvCell('+cmd'), '"\'+cmd"');
    assert.equal(csvCell('-2+3'), '"\'-2+3"');
    assert.equal(csvCell('@SUM(A1)'), '"\'@SUM(A1)"');
    assert.equal(csvCell('\t=1'), '"\'\t=1"');
    assert.equal(csvCell('-'), '"\'-"');
    assert.equal(csvCell('a=1'), '"a=1"', 'only the first character counts');
  });

  it('leaves plain numbers numeric, negative ones included', () => {
    for (const number of ['-1.5', '+3', '-12', '2e-3', '-.5', '1.', '-1E+9', '0']) assert.equal(csvCell(number), `"${number}"`);
    // Several digits after the point and in the exponent, and an exponent without a sign.
    for (const number of ['-1.25', '+.25', '-1e5', '-1e10', '+2.50E-12']) assert.equal(csvCell(number), `"${number}"`);
    for (const formula of ['-1.5+1', '-e1', '+', '-1e', '--1', '-1.5 ']) assert.equal(csvCell(formula), `"'${formula}"`);
  });

  it('escapes control characters, so a carriage return cannot start a formula', () => {
    assert.equal(csvCell('\r=1'), '"\\u000d=1"');
    assert.equal(csvCell('\x1b[2J'), '"\\u001b[2J"');
  });

  it('property: reads back through a CSV parser as one field that no spreadsheet runs as a formula', () => {
    fc.assert(
      fc.property(fc.array(hostile, { minLength: 1, maxLength: 4 }), (values) => {
        const record = values.map(csvCell).join(',');
        // Newlines inside quoted fields belong to the field: parse the record whole.
        const fields = parseCsvRecord(record);
        assert.equal(fields.length, values.length);
        fields.forEach((field, i) => {
          assert.ok(!FORMULA.test(field) || NUMBER.test(field), JSON.stringify(field));
          assert.ok(!DANGEROUS.test(field));
          // The text is kept: the field is the escaped value, with the marker quote when one was needed.
          const escaped = escapeControl(values[i]);
          assert.ok(field === escaped || field === `'${escaped}`, JSON.stringify({ field, value: values[i] }));
        });
      }),
      { numRuns: 500 },
    );
  });
});

describe('gates/output: markdownCell and markdownCode', () => {
  it('turns HTML into entities and escapes what ends a cell, formats or links', () => {
    assert.equal(markdownCell('<img src=x onerror=alert(1)>'), '&lt;img src=x onerror=alert(1)&gt;');
    assert.equal(markdownCell('a|b'), 'a\\|b');
    assert.equal(markdownCell('&lt;'), '&amp;lt;');
    assert.equal(markdownCell('[x](javascript:y)'), '\\[x\\](javascript:y)');
    assert.equal(markdownCell('*b* _i_ `c` \\'), '\\*b\\* \\_i\\_ \\`c\\` \\\\');
    assert.equal(markdownCell('two\nlines'), 'two lines');
    assert.equal(markdownCell('412,345 (+3.1% ✅) ~ -1 # !'), '412,345 (+3.1% ✅) ~ -1 # !', 'our own marks stay readable');
  });

  it('escapes control characters before the Markdown, so their escapes show their backslash', () => {
    assert.equal(markdownCell('\x1b[2J'), '\\\\u001b\\[2J');
  });

  it('makes a code span that cannot be closed or broken early', () => {
    assert.equal(markdownCode('run-a'), '`run-a`');
    assert.equal(markdownCode('a`b\nc'), "`a'b c`");
    assert.equal(markdownCode('\x1b'), '`\\u001b`');
  });

  it('property: no unescaped `|`, no `<`, `>` or newline, no control character', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const cell = markdownCell(text);
        assert.ok(!/[<>\n]/.test(cell), JSON.stringify(cell));
        assert.ok(!DANGEROUS.test(cell));
        // Every `|` is preceded by an odd number of backslashes: escaped.
        for (const match of cell.matchAll(/(\\*)\|/g)) assert.equal(match[1].length % 2, 1, JSON.stringify(cell));
        // Every backtick too: no code span can open.
        for (const match of cell.matchAll(/(\\*)`/g)) assert.equal(match[1].length % 2, 1, JSON.stringify(cell));
      }),
      { numRuns: 500 },
    );
  });
});

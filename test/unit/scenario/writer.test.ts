// Issue 42: the one scenario writer. For any string in any place a writer puts one (title, comments, key
// prefixes, setting values, command arguments, a server's version), the written file parses, with the real
// parser, to exactly the intended lines — no setting that was not meant, no control, separator or bidi
// character — or the writer refuses with ScenarioWriteError (only for a character no file can hold).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseDocument } from '../../../src/scenario';
import { formatText } from '../../../src/scenario/features/formatting';
import { layout, lineText, scenarioToken, ScenarioWriteError, writeScenario, type WrittenArg, type WrittenLine } from '../../../src/scenario/writer';

/** Pieces a hostile string is made of: line breaks of every kind, controls, bidi, quotes, comment and header marks, setting names. */
const PIECES = [
  '\r',
  '\n',
  '\r\n',
  '\u2028',
  '\u2029',
  '\u0085',
  '\x00',
  '\x07',
  '\x1b',
  '\x1b]52;c;aGk=\x07',
  '\x7f',
  '\x9b',
  '\u00ad',
  '\u00a0',
  '\ufeff',
  '\u200b',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
  '\t',
  '\f',
  ' ',
  '  ',
  '"',
  "'",
  '\\',
  '\\x41',
  '#',
  '###',
  ' # ',
  'target redis://127.0.0.1:1',
  'password env:HOME',
  'cleanup *',
  '@x = 1',
  '{{',
  '}}',
  '{{x}}',
  '${',
  '${env:HOME}',
  '*5',
  '(',
  ')',
  ')*3',
  '50%',
  '__key__',
  'é',
  '😀',
  '\ud800',
  'a',
  'Z',
  '1',
];

/** A character above U+00FF that no file may hold: the one reason an argument may be refused. */
const UNWRITABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
// eslint-disable-next-line no-control-regex -- U+0000…U+00FF: the characters the lexer's `\xHH` escapes write
const refusable = (value: string) => UNWRITABLE.test(value.replace(/[\x00-\xff]/g, ''));

const stringOf = (pieces: string[]) =>
  fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ unit: 'binary', maxLength: 3 })), { maxLength: 8 }).map((parts) => parts.join(''));
/** Any string: for comments and titles, which take anything. */
const hostile = stringOf(PIECES);
/** A string an argument can hold (mostly: a binary unit may still bring a refused character, which the property allows). */
const hostileArg = stringOf(PIECES.filter((piece) => !refusable(piece)));
// eslint-disable-next-line no-control-regex -- the point is to find them
const UNSAFE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\ufeff\u00ad\u200b]/;

interface Places {
  version: string;
  title: string;
  note: string;
  prefix: string;
  user: string;
  fill: string;
  arg: string;
  member: string;
  weight: number;
}

const places: fc.Arbitrary<Places> = fc.record({
  version: hostile,
  title: hostile,
  note: hostile,
  prefix: hostileArg,
  user: hostileArg,
  fill: hostileArg,
  arg: hostileArg,
  member: hostileArg,
  weight: fc.double({ min: 0.01, max: 100, noNaN: true }),
});

function model(p: Places): WrittenLine[] {
  return [
    { kind: 'comment', text: `Captured from a server (Redis ${p.version})` },
    { kind: 'comment', text: p.note },
    { kind: 'setting', name: 'clients', args: ['4'] },
    { kind: 'blank' },
    { kind: 'header', title: p.title || 'scenario' },
    { kind: 'setting', name: 'user', args: [p.user] },
    { kind: 'setting', name: 'value-fill', args: [p.fill] },
    { kind: 'phase', measured: false, name: 'keyspace-1' },
    { kind: 'command', name: 'SET', args: [`${p.prefix}__key__`, '__value__'] },
    { kind: 'phase', measured: true, name: 'traffic' },
    { kind: 'command', weight: p.weight, name: 'GET', args: [`${p.prefix}__key__`] },
    { kind: 'command', weight: 1, name: 'RPUSH', args: [p.arg, { repeat: '__value__', times: 3 }] },
    { kind: 'command', weight: 2, name: 'ZADD', args: [p.arg, { group: ['__rand_int__', p.member], times: 4 }] },
    { kind: 'command', weight: 3, name: 'HSET', args: [p.member, p.arg, p.prefix] },
  ];
}

/** What the parser reads from `text`: every line that is not blank, as the model would say it. */
function readBack(text: string): unknown[] {
  return parseDocument(text).lines.flatMap((line): unknown[] => {
    switch (line.kind) {
      case 'comment':
        return [['comment']];
      case 'header':
        return [['header', line.name]];
      case 'setting':
        return [['setting', line.setting.name, ...line.args.map((a) => a.value)]];
      case 'phase':
        return [['phase', line.measured, line.name?.text]];
      case 'command':
        return [['command', line.name, ...line.args.map((a) => (a.repeat ? `${a.kind}:${a.value}*${a.repeat.text}` : `${a.kind}:${a.value}`))]];
      case 'blank':
        return [];
      default:
        return [['unexpected', line.kind, line.text]];
    }
  });
}

function intended(lines: WrittenLine[]): unknown[] {
  const arg = (a: WrittenArg): string[] =>
    typeof a === 'string'
      ? [`word:${a}`]
      : 'repeat' in a
        ? [`word:${a.repeat}*${a.times}`]
        : ['group-open:(', ...a.group.map((g) => `word:${g}`), `group-close:)*${a.times}`];
  return lines.flatMap((line): unknown[] => {
    switch (line.kind) {
      case 'comment':
        return [['comment']];
      case 'header':
        return [['header', lineText(line.title).trim()]];
      case 'setting':
        return [['setting', line.name, ...line.args]];
      case 'phase':
        return [['phase', line.measured, line.name]];
      case 'command':
        return [['command', line.name, ...line.args.flatMap(arg)]];
      default:
        return [];
    }
  });
}

describe('issue 42: the scenario writer', () => {
  it('any string in any place reads back as exactly the intended lines, or is refused for a character no file can hold', () => {
    let refused = 0;
    fc.assert(
      fc.property(places, (p) => {
        const lines = model(p);
        let text: string;
        try {
          text = writeScenario(lines);
        } catch (error) {
          assert.ok(error instanceof ScenarioWriteError, String(error));
          assert.ok([p.prefix, p.user, p.fill, p.arg, p.member].some(refusable), `refused without cause: ${(error as Error).message}`);
          refused++;
          return;
        }
        assert.doesNotMatch(text, UNSAFE);
        assert.deepEqual(readBack(text), intended(lines));
        // No interpolation, and the file is as the formatter would leave it.
        assert.ok(parseDocument(text).lines.every((line) => line.interpolations.length === 0));
        assert.equal(formatText(text), text);
      }),
      { numRuns: 400 },
    );
    // The property is about what is written: most runs must write.
    assert.ok(refused < 100, `${refused} of 400 refused`);
  });

  it('an argument with a character no file can hold safely is refused, wherever it is', () => {
    const unwritable = fc.constantFrom(...PIECES.filter(refusable));
    fc.assert(
      fc.property(hostileArg, unwritable, hostileArg, fc.integer({ min: 0, max: 2 }), (before, bad, after, where) => {
        const value = before + bad + after;
        const args = [
          ['k', value],
          [value, 'v'],
          ['k', { group: ['__rand_int__', value], times: 2 }],
        ][where] as WrittenArg[];
        assert.throws(
          () =>
            writeScenario([
              { kind: 'header', title: 's' },
              { kind: 'command', name: 'ZADD', args },
            ]),
          ScenarioWriteError,
        );
      }),
      { numRuns: 200 },
    );
  });

  it('comments and titles take any string: one line of visible text', () => {
    fc.assert(
      fc.property(hostile, hostile, (title, note) => {
        const text = writeScenario([
          { kind: 'comment', text: note },
          { kind: 'header', title },
          { kind: 'command', name: 'PING', args: [] },
        ]);
        assert.doesNotMatch(text, UNSAFE);
        const doc = parseDocument(text);
        assert.deepEqual(
          doc.lines.map((line) => line.kind),
          ['comment', 'blank', 'header', 'command', 'blank'],
        );
      }),
      { numRuns: 300 },
    );
  });

  it('the seen version string: its CRs, OSC and bidi override become visible escapes in one comment', () => {
    const version = '7.2.4\rtarget redis://127.0.0.1:1\rpassword env:HOME\rcleanup *\r# x\x1b]52;c;aGk=\x07\u202e';
    const text = writeScenario([{ kind: 'comment', text: `Redis ${version}` }]);
    assert.equal(text, '# Redis 7.2.4\\u000dtarget redis://127.0.0.1:1\\u000dpassword env:HOME\\u000dcleanup *\\u000d# x\\u001b]52;c;aGk=\\u0007\\u202e\n');
  });

  it('arguments: bare when plain, else double-quoted in the lexer’s escapes; interpolation and repetition stay literal', () => {
    assert.equal(scenarioToken('user:{tag}:__key__'), 'user:{tag}:__key__');
    assert.equal(scenarioToken('a b'), '"a b"');
    assert.equal(scenarioToken(''), '""');
    assert.equal(scenarioToken('#x'), '"#x"');
    assert.equal(scenarioToken('a*2'), '"a*2"');
    assert.equal(scenarioToken('{{x}}'), '"\\x7b\\x7bx}}"');
    assert.equal(scenarioToken('${env:HOME}'), '"\\x24\\x7benv:HOME}"');
    assert.equal(scenarioToken('a\rb"c\\'), '"a\\rb\\"c\\\\"');
    assert.equal(scenarioToken('\x1b\u0085\u00a0'), '"\\x1b\\x85\\xa0"');
    assert.throws(() => scenarioToken('x\u202ey', 'the key prefix'), /^Error: the key prefix holds U\+202E/);
    assert.throws(() => scenarioToken('x\u2028y'), ScenarioWriteError);
  });

  it('refuses a line the parser would read as something else, naming the line', () => {
    // A command named like a setting is no command: the parser reads it as an unknown line.
    assert.throws(
      () =>
        writeScenario([
          { kind: 'header', title: 's' },
          { kind: 'command', name: 'target', args: ['redis://x'] },
        ]),
      (error: Error) => error instanceof ScenarioWriteError && /line 2, `TARGET redis:\/\/x`/.test(error.message),
    );
    assert.throws(() => writeScenario([{ kind: 'setting', name: 'no-such-setting', args: [] }]), /is not a setting/);
    assert.throws(() => writeScenario([{ kind: 'phase', measured: true, name: 'a b' }]), /is not a phase name/);
    assert.throws(
      () =>
        writeScenario([
          { kind: 'header', title: 's' },
          { kind: 'command', name: 'RPUSH', args: ['k', { repeat: 'a b', times: 2 }] },
        ]),
      /needs a plain word/,
    );
  });

  it("writes RBench's own expectations, and refuses one that would hold a comment or an interpolation", () => {
    assert.equal(
      writeScenario([
        { kind: 'header', title: 's' },
        { kind: 'command', name: 'GET', args: ['k'] },
        { kind: 'expect', condition: 'p99 < 5ms' },
      ]),
      '### s\nGET k\nexpect p99 < 5ms\n',
    );
    assert.throws(() => writeScenario([{ kind: 'expect', condition: 'p99 < 5ms # x' }]), ScenarioWriteError);
    assert.throws(() => writeScenario([{ kind: 'expect', condition: 'p99 < {{x}}' }]), ScenarioWriteError);
    assert.throws(() => writeScenario([{ kind: 'expect', condition: 'p99 < 5ms\ncleanup *' }]), ScenarioWriteError);
  });

  it('lays blank lines out as the formatter does: none at the ends or twice, one before each header', () => {
    const lines = layout([
      { kind: 'blank' },
      { kind: 'comment', text: 'x' },
      { kind: 'blank' },
      { kind: 'blank' },
      { kind: 'header', title: 'a' },
      { kind: 'header', title: 'b' },
      { kind: 'blank' },
    ]);
    assert.deepEqual(
      lines.map((line) => line.kind),
      ['comment', 'blank', 'header', 'blank', 'header'],
    );
  });
});

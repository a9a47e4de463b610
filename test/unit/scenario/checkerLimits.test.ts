import assert from 'node:assert/strict';
import { DIAGNOSTIC_LIMIT } from '../../../src/scenario';
import { MAX_GROUP_DEPTH } from '../../../src/scenario/arguments';
import { DiagnosticSink, rangeOf, REMEMBERED_PROBLEMS } from '../../../src/scenario/diagnostics';
import { MAX_VARIABLE_DEPTH } from '../../../src/scenario/interpolate';
import { MAX_PHASE_TESTS } from '../../../src/scenario/phaseTests';
import { LINE_PROBLEM_LIMIT, QUOTE_LIMIT, quoteText, scanLine } from '../../../src/scenario/lexer';
import { hover } from '../../../src/scenario/features';
import { check, codes } from './helpers';

/** `@v1 = {{v0}}` … `@vN = {{vN-1}}` and a command using `vN`: N variables deep. */
function chain(depth: number): string {
  const lines = ['@v0 = x'];
  for (let i = 1; i <= depth; i++) lines.push(`@v${i} = {{v${i - 1}}}`);
  return `${lines.join('\n')}\n### s\nSET k {{v${depth}}}\n`;
}

describe('checker limits (issue 18: costly input)', () => {
  describe('lexer', () => {
    it('quotes at most QUOTE_LIMIT characters of a bad name, with an ellipsis', () => {
      assert.equal(QUOTE_LIMIT, 40);
      assert.equal(quoteText('x'.repeat(40), 0, 40), 'x'.repeat(40));
      assert.equal(quoteText('y'.repeat(41), 0, 41), `${'y'.repeat(40)}…`);
      assert.equal(quoteText('abcdef', 1, 4), 'bcd');
      const long = scanLine(`x {{${'a b'.repeat(30)}}}`).problems[0];
      assert.equal(
        long.message,
        `\`${'a b'.repeat(30).slice(0, 40)}…\` is not a variable name — names are letters, digits, \`_\`, \`-\` and \`.\`, starting with a letter or \`_\``,
      );
      const env = scanLine(`x \${env:${'-'.repeat(50)}}`).problems[0];
      assert.match(env.message, new RegExp(`^\`${'-'.repeat(40)}…\` is not an environment variable name`));
      const other = scanLine(`x \${${'q'.repeat(50)}}`).problems[0];
      assert.equal(other.message, `\`\${${'q'.repeat(40)}…}\` is not supported — write \`\${env:NAME}\` or \`\${env:NAME:-default}\``);
    });

    it('reads names as before: trimmed, up to the first `}}` or `}`, a default after `:-`', () => {
      const scan = scanLine('SET {{\u2003a.b-c }} {{ {{x}} }} ${env:A_1:-d:-e} ${env:B:x} {{ }}');
      assert.deepEqual(
        scan.interpolations.map((ref) => [ref.kind, ref.name, ref.start, ref.end, ref.nameStart, ref.nameEnd, ref.defaultValue]),
        [
          ['variable', 'a.b-c', 4, 15, 7, 12, undefined],
          ['variable', 'x', 19, 24, 21, 22, undefined],
          ['env', 'A_1', 28, 44, 34, 37, 'd:-e'],
        ],
      );
      assert.deepEqual(
        scan.problems.map((problem) => [problem.code, problem.start, problem.end, problem.message.slice(0, 12)]),
        [
          ['invalid-variable-name', 16, 24, '`{{x` is not'],
          ['invalid-env-name', 45, 55, '`B:x` is not'],
          ['invalid-variable-name', 56, 61, 'empty `{{}}`'],
        ],
      );
      assert.deepEqual(
        scanLine('${env:}').problems.map((problem) => problem.message.slice(0, 6)),
        ['`` is '],
      );
      assert.deepEqual(
        scanLine('${env}').problems.map((problem) => problem.code),
        ['unknown-interpolation'],
      );
      assert.deepEqual(
        scanLine('${en}').problems.map((problem) => problem.code),
        ['unknown-interpolation'],
      );
    });

    it('lists LINE_PROBLEM_LIMIT problems of a line and counts the rest', () => {
      assert.equal(LINE_PROBLEM_LIMIT, DIAGNOSTIC_LIMIT);
      const exact = scanLine('{{}}'.repeat(LINE_PROBLEM_LIMIT));
      assert.deepEqual([exact.problems.length, exact.moreProblems], [LINE_PROBLEM_LIMIT, 0]);
      const over = scanLine('{{}}'.repeat(LINE_PROBLEM_LIMIT + 3) + ' ${x} ${env:1} ${');
      assert.deepEqual([over.problems.length, over.moreProblems], [LINE_PROBLEM_LIMIT, 6]);
      assert.equal(scanLine('plain').moreProblems, 0);
    });

    it('a file of such lines counts every problem it does not list', () => {
      const line = '{{}}'.repeat(LINE_PROBLEM_LIMIT + 10);
      const resolved = check(`${line}\n${line}\n`);
      assert.equal(resolved.diagnostics.length, DIAGNOSTIC_LIMIT + 1);
      // 2 × 1010 empty names, 2 unknown first words, no scenario.
      assert.equal(resolved.diagnostics[DIAGNOSTIC_LIMIT].message, `${2 * 1010 + 3 - DIAGNOSTIC_LIMIT} more problems not shown — fix the ones above first`);
    });
  });

  describe('diagnostic sink', () => {
    it('counts problems past the cap without repeats while it remembers them, then counts every report', () => {
      assert.equal(REMEMBERED_PROBLEMS, 10 * DIAGNOSTIC_LIMIT);
      const sink = new DiagnosticSink();
      for (let i = 0; i < REMEMBERED_PROBLEMS; i++) sink.error(rangeOf(i, 0, 1), 'c', 'm');
      assert.deepEqual([sink.items.length, sink.dropped, sink.reported], [DIAGNOSTIC_LIMIT, REMEMBERED_PROBLEMS - DIAGNOSTIC_LIMIT, REMEMBERED_PROBLEMS]);
      sink.error(rangeOf(0, 0, 1), 'c', 'm'); // a repeat, no longer looked up
      assert.deepEqual([sink.dropped, sink.reported], [REMEMBERED_PROBLEMS - DIAGNOSTIC_LIMIT + 1, REMEMBERED_PROBLEMS + 1]);
    });

    it('drops a repeat while it still remembers', () => {
      const sink = new DiagnosticSink();
      for (let i = 0; i < DIAGNOSTIC_LIMIT + 5; i++) sink.error(rangeOf(i, 0, 1), 'c', 'm');
      sink.error(rangeOf(DIAGNOSTIC_LIMIT + 1, 0, 1), 'c', 'm');
      assert.equal(sink.dropped, 5);
    });

    it('countDropped adds to the dropped and reported counts', () => {
      const sink = new DiagnosticSink();
      sink.countDropped(7);
      assert.deepEqual([sink.items.length, sink.dropped, sink.reported], [0, 7, 7]);
      assert.equal(sink.finish().at(-1)?.message, '7 more problems not shown — fix the ones above first');
    });
  });

  describe('plan size', () => {
    it(`a phase keeps at most ${MAX_PHASE_TESTS.toLocaleString('en-US')} tests and says where it passes them`, () => {
      assert.equal(MAX_PHASE_TESTS, 50_000);
      const lines = MAX_PHASE_TESTS / 20; // `suite default` is 20 tests
      const full = check(`### s\n${'suite default\n'.repeat(lines)}`);
      assert.deepEqual(codes(full), []);
      assert.equal(full.scenarios[0].points[0].phases[0].tests.length, MAX_PHASE_TESTS);
      const over = check(`### s\n${'suite default\n'.repeat(lines)}GET k\nGET k\n`);
      assert.deepEqual(codes(over), ['too-many-tests']);
      assert.deepEqual(over.diagnostics[0].range, rangeOf(lines + 1, 0, 5));
      assert.equal(
        over.diagnostics[0].message,
        'this phase passes 50,000 tests here (each runs for its own duration) — split it into several scenarios, or use fewer command and `suite` lines',
      );
      assert.equal(over.scenarios[0].points[0].phases[0].tests.length, MAX_PHASE_TESTS);
    });

    it('suite tests still get arguments of their own (placeholders are drawn per occurrence)', () => {
      const resolved = check('### s\nsuite mset\nsuite mset\n');
      const [first, second] = resolved.scenarios[0].points[0].phases[0].tests.map((test) => test.commands[0].command.args);
      assert.deepEqual(first, second);
      assert.notEqual(first, second);
      assert.notEqual(first[0], second[0]);
      assert.notEqual(first[0][1], first[2][1], 'each repetition of the group is its own placeholder object');
    });
  });

  describe('nesting', () => {
    it(`variables resolve ${MAX_VARIABLE_DEPTH} deep and are refused deeper, at the use, without a stack overflow`, () => {
      assert.equal(MAX_VARIABLE_DEPTH, 100);
      const fine = check(chain(MAX_VARIABLE_DEPTH - 1));
      assert.deepEqual(codes(fine), []);
      assert.deepEqual(fine.scenarios[0].points[0].phases[0].tests[0].commands[0].command.args, [['k'], ['x']]);
      const deep = check(chain(MAX_VARIABLE_DEPTH));
      assert.deepEqual(codes(deep), ['variable-depth']);
      assert.equal(
        deep.diagnostics[0].message,
        `variable \`v0\` is reached through more than ${MAX_VARIABLE_DEPTH} variables using each other — define it with fewer levels of \`{{…}}\``,
      );
      assert.deepEqual(deep.diagnostics[0].range, rangeOf(1, 8, 10));
      assert.ok(!codes(check(chain(6000))).includes('internal-error'));
    });

    it('hover on a variable thousands deep answers (no stack overflow) and still masks a secret at the bottom', () => {
      const text = chain(5000).replace('@v0 = x', '@v0 = {{token}}\n@token = s3cret');
      const line = text.split('\n').findIndex((candidate) => candidate.startsWith('SET'));
      const answer = hover(text, { line, character: 9 }, { env: {} });
      assert.ok(answer);
      assert.match(answer.contents, /••••••/);
      assert.doesNotMatch(answer.contents, /s3cret/);
    });

    it(`groups nest ${MAX_GROUP_DEPTH} deep and are refused deeper, at the first \`(\` too deep`, () => {
      assert.equal(MAX_GROUP_DEPTH, 32);
      const nested = (depth: number) => `### s\nSET k ${'( '.repeat(depth)}a ${') '.repeat(depth)}\n`;
      assert.deepEqual(codes(check(nested(MAX_GROUP_DEPTH))), []);
      const deep = check(nested(MAX_GROUP_DEPTH + 1));
      assert.deepEqual(codes(deep), ['group-too-deep']);
      assert.deepEqual(deep.diagnostics[0].range, rangeOf(1, 6 + 2 * MAX_GROUP_DEPTH, 7 + 2 * MAX_GROUP_DEPTH));
      assert.equal(
        deep.diagnostics[0].message,
        `groups nest more than ${MAX_GROUP_DEPTH} deep here — write the inner groups out, or multiply their \`*N\` counts`,
      );
      assert.ok(!codes(check(`### s\nSET k ${'( '.repeat(20_000)}a ${')*2 '.repeat(20_000)}`)).includes('internal-error'));
    });
  });
});

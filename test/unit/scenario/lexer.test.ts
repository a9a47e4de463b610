import assert from 'node:assert/strict';
import { scanLine, splitLines, tokenizeArgs, type LexProblem } from '../../../src/scenario/lexer';

function args(text: string, groups = true) {
  const problems: LexProblem[] = [];
  const tokens = tokenizeArgs(text, 0, text.length, groups, problems);
  return { tokens, problems };
}

describe('lexer', () => {
  it('splits lines on LF, CRLF and CR', () => {
    assert.deepEqual(splitLines('a\r\nb\nc\rd'), ['a', 'b', 'c', 'd']);
    assert.deepEqual(splitLines(''), ['']);
  });

  it('finds trailing comments only after a space and outside quotes and interpolations', () => {
    assert.equal(scanLine('requests 1M   # a comment').contentEnd, 11);
    assert.equal(scanLine('requests 1M   # a comment').commentStart, 14);
    assert.equal(scanLine('SET tag#1 x').commentStart, undefined);
    assert.equal(scanLine('SET k "a # b"').commentStart, undefined);
    assert.equal(scanLine("SET k 'a # b'").commentStart, undefined);
    assert.equal(scanLine('@x = ${env:A:-a # b}').commentStart, undefined);
    assert.equal(scanLine('# whole line').commentStart, 0);
  });

  it('finds variable and env references with exact offsets', () => {
    const scan = scanLine('SET {{ prefix }}:k ${env:HOME:-/root}');
    assert.equal(scan.interpolations.length, 2);
    const [variable, env] = scan.interpolations;
    assert.deepEqual([variable.kind, variable.name, variable.start, variable.end, variable.nameStart, variable.nameEnd], ['variable', 'prefix', 4, 16, 7, 13]);
    assert.deepEqual([env.kind, env.name, env.defaultValue, env.start, env.end], ['env', 'HOME', '/root', 19, 37]);
  });

  it('reports unterminated and malformed interpolations and reads the rest literally', () => {
    const scan = scanLine('SET {{prefix k ${env:X}');
    assert.equal(scan.problems.length, 1);
    assert.equal(scan.problems[0].code, 'unterminated-variable');
    assert.deepEqual([scan.problems[0].start, scan.problems[0].end], [4, 23]);
    assert.equal(scan.interpolations.length, 0, 'nothing after an unterminated `{{` is interpolated');
    assert.equal(scanLine('x ${env:A').problems[0].code, 'unterminated-env');
    assert.equal(scanLine('x ${foo}').problems[0].code, 'unknown-interpolation');
    assert.equal(scanLine('x {{a b}}').problems[0].code, 'invalid-variable-name');
    assert.equal(scanLine('x ${env:1A}').problems[0].code, 'invalid-env-name');
  });

  it('tokenizes quotes, escapes and adjacent quoted text into one argument', () => {
    const { tokens } = args(`HSET "a b" 'c "d"' "x\\"y\\n\\x41" pre"mid"post`);
    assert.deepEqual(
      tokens.map((token) => token.value),
      ['HSET', 'a b', 'c "d"', 'x"y\nA', 'premidpost'],
    );
    assert.deepEqual(
      tokens.map((token) => [token.start, token.end]),
      [
        [0, 4],
        [5, 10],
        [11, 18],
        [19, 31],
        [32, 44],
      ],
    );
    assert.equal(tokens[1].quoted, true);
  });

  it('reports an unterminated quote with its range', () => {
    const { tokens, problems } = args('SET k "open');
    assert.equal(tokens[2].value, 'open');
    assert.deepEqual(
      problems.map((problem) => [problem.code, problem.start, problem.end]),
      [['unterminated-quote', 6, 11]],
    );
  });

  it('reads `*N` repetition and `( … )*N` groups only when asked', () => {
    const { tokens } = args('RPUSH l __value__*100 (k __value__)*10 "a*2" *5');
    assert.deepEqual(
      tokens.map((token) => [token.kind, token.value, token.repeat?.text]),
      [
        ['word', 'RPUSH', undefined],
        ['word', 'l', undefined],
        ['word', '__value__', '100'],
        ['group-open', '(', undefined],
        ['word', 'k', undefined],
        ['word', '__value__', undefined],
        ['group-close', ')', '10'],
        ['word', 'a*2', undefined],
        ['word', '*5', undefined],
      ],
    );
    const plain = args('sweep (a)*2 b*3', false).tokens;
    assert.deepEqual(
      plain.map((token) => token.value),
      ['sweep', '(a)*2', 'b*3'],
    );
  });
});

// MULTI/EXEC written as separate command lines run as separate tests and cannot form a transaction:
// `check` says so, with the server's reply and the fix: a command group (test/unit/scenario/groups.test.ts).
import assert from 'node:assert/strict';
import { check } from './helpers';

describe('transactions on separate lines', () => {
  it("are errors at MULTI, EXEC and DISCARD, naming the server's reply and the fix", () => {
    const resolved = check('### tx\nMULTI\nSET k:__key__ v\nEXEC\n### discard\nmulti\nDISCARD\n');
    const found = resolved.diagnostics.filter((d) => d.code === 'transaction-lines');
    assert.deepEqual(
      found.map((d) => [d.severity, d.range.start.line, d.range.start.character, d.range.end.character]),
      [
        ['error', 1, 0, 5],
        ['error', 3, 0, 4],
        ['error', 5, 0, 5],
        ['error', 6, 0, 7],
      ],
    );
    assert.match(found[0].message, /^`MULTI` cannot work on a line of its own: each command line is a test of its own.*"ERR MULTI calls can not be nested"/);
    assert.match(found[1].message, /"ERR EXEC without MULTI"/);
    assert.match(found[3].message, /"ERR DISCARD without MULTI"/);
    assert.match(
      found[0].message,
      /Put the transaction in a command group, so that it is sent as one request unit: a `group` line, `MULTI`, the commands, `EXEC`, then `end`$/,
    );
    assert.equal(resolved.diagnostics.length, found.length, 'SET itself is fine');
  });

  it('the suggested Lua script checks clean', () => {
    const resolved = check(`### lua\nEVAL "redis.call('SET', KEYS[1], ARGV[1]) return redis.call('GET', KEYS[1])" 1 key:__key__ __value__\n`);
    assert.deepEqual(resolved.diagnostics, []);
    assert.equal(resolved.scenarios[0].points[0].phases[0].tests[0].name, 'EVAL');
  });
});

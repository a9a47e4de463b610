// Command groups (`group … end`) and MULTI … EXEC transactions in the language: the plan, the checks,
// and the editor features (hover, completion, formatting, outline).
import assert from 'node:assert/strict';
import { completions, documentSymbols, foldingRanges, formatText, hover } from '../../../src/scenario/features';
import { applyEdits } from '../features/helpers';
import { check, codes, errors } from './helpers';

const TRANSACTION = `### tx
keys 1000
group counter-tx
  MULTI
  SET k:__key__ __value__
  INCR hits:__key__
  EXEC
end
GET k:__key__
`;

describe('command groups in the language', () => {
  it("make one test of the group's commands, in order, and accept MULTI/EXEC inside it", () => {
    const resolved = check(TRANSACTION);
    assert.deepEqual(resolved.diagnostics, []);
    const tests = resolved.scenarios[0].points[0].phases[0].tests;
    assert.deepEqual(
      tests.map((test) => [test.name, test.commands.map((c) => c.command.name), test.group?.transaction]),
      [
        ['counter-tx', ['MULTI', 'SET', 'INCR', 'EXEC'], true],
        ['GET', ['GET'], undefined],
      ],
    );
    assert.equal(tests[0].group?.source?.start.line, 2);
  });

  it('name an unnamed group after its commands, and keep groups without MULTI plain', () => {
    const resolved = check('### g\ngroup\nSET k:__key__ v\nGET k:__key__\nDEL k:__key__\nend\ngroup\nSET k:__key__ v\nGET k:__key__\nDEL k:__key__\nend\n');
    assert.deepEqual(resolved.diagnostics, []);
    const tests = resolved.scenarios[0].points[0].phases[0].tests;
    assert.deepEqual(
      tests.map((test) => [test.name, test.group?.transaction]),
      [
        ['SET+GET+DEL', false],
        ['SET+GET+DEL #2', false],
      ],
    );
  });

  it('still refuse MULTI, EXEC and DISCARD outside a group', () => {
    const resolved = check('### tx\ngroup\nMULTI\nEXEC\nend\nMULTI\nEXEC\n');
    assert.deepEqual(
      resolved.diagnostics.map((d) => [d.code, d.range.start.line]),
      [
        ['transaction-lines', 5],
        ['transaction-lines', 6],
      ],
    );
  });

  it('offer to put a loose MULTI … EXEC into a group, which then checks clean', () => {
    const text = '### tx\nkeys 10\nMULTI\n  SET k:__key__ v\n# why\n\nEXEC\nGET k\n';
    const multi = check(text).diagnostics.find((d) => d.code === 'transaction-lines' && d.range.start.line === 2)!;
    assert.equal(multi.fixes?.length, 1);
    const fixed = applyEdits(text, [{ range: multi.fixes![0].range, newText: multi.fixes![0].newText }]);
    assert.equal(fixed, '### tx\nkeys 10\ngroup\n  MULTI\n  SET k:__key__ v\n  # why\n\n  EXEC\nend\nGET k\n');
    const resolved = check(fixed);
    assert.deepEqual(resolved.diagnostics, []);
    assert.deepEqual(
      resolved.scenarios[0].points[0].phases[0].tests.map((t) => [t.name, t.group?.transaction]),
      [
        ['MULTI+SET+EXEC', true],
        ['GET', undefined],
      ],
    );
    // No fix when a setting sits in between (it cannot go into a group), or nothing closes the transaction.
    for (const other of ['### tx\nMULTI\npipeline 2\nEXEC\n', '### tx\nMULTI\nSET k v\n']) {
      const found = check(other).diagnostics.find((d) => d.code === 'transaction-lines' && d.range.start.line === 1)!;
      assert.equal(found.fixes, undefined, other);
    }
  });

  it('report a malformed group or transaction where it is, with the fix', () => {
    const cases: [string, string, number, RegExp][] = [
      ['### a\ngroup\nGET k\n', 'unclosed-group', 1, /add an `end` line/],
      ['### a\nGET k\nend\n', 'end-without-group', 2, /none is open/],
      ['### a\ngroup\ngroup\nGET k\nend\n', 'nested-group', 2, /cannot be nested/],
      ['### a\ngroup\nend\nGET k\n', 'empty-group', 1, /no commands/],
      ['### a\ngroup\nMULTI\nSET k v\nend\n', 'multi-without-exec', 2, /add `EXEC`/],
      ['### a\ngroup\nSET k v\nEXEC\nend\n', 'transaction-without-multi', 3, /ERR EXEC without MULTI/],
      ['### a\ngroup\nMULTI\nMULTI\nEXEC\nend\n', 'nested-multi', 3, /can not be nested/],
      ['### a\ngroup\nMULTI\nWATCH k\nEXEC\nend\n', 'watch-in-multi', 3, /before `MULTI`/],
      ['### a\ngroup\nGET k\npipeline 4\nend\n', 'setting-in-group', 3, /move it above the `group` line/],
      ['### a\ngroup\n50% GET k\nend\n', 'weight-in-group', 2, /remove the weight/],
      ['### a\ngroup two words\nGET k\nend\n', 'invalid-group-name', 1, /one word/],
      ['group\nGET k\nend\n### a\nGET k\n', 'wrong-scope', 0, /below a `### name` line/],
      ['### a\ngroup\nGET k\nphase two\nGET k\nend\n', 'unclosed-group', 1, /add an `end` line/],
      ['### a\n50% GET k\ngroup\nGET k\nend\n', 'mixed-weights', 2, /cannot share a phase/],
    ];
    for (const [text, code, line, message] of cases) {
      const found = errors(check(text)).find((d) => d.code === code);
      assert.ok(found, `${code} for ${JSON.stringify(text)}: got ${codes(check(text)).join(', ')}`);
      assert.equal(found.range.start.line, line, code);
      assert.match(found.message, message);
    }
  });

  it("format with the group's lines indented, idempotently, without changing the plan", () => {
    const messy =
      '### tx\nkeys 1000\ngroup   counter-tx\nMULTI\n      set   k:__key__ __value__\n  # a comment\nINCR hits:__key__\nEXEC\n    end\nGET k:__key__\n';
    const formatted = formatText(messy);
    assert.equal(
      formatted,
      '### tx\nkeys 1000\ngroup counter-tx\n  MULTI\n  SET k:__key__ __value__\n  # a comment\n  INCR hits:__key__\n  EXEC\nend\nGET k:__key__\n',
    );
    assert.equal(formatText(formatted), formatted, 'idempotent');
    assert.equal(formatText(TRANSACTION), TRANSACTION);
    const plan = (text: string) =>
      JSON.stringify(
        check(text).scenarios.map((s) =>
          s.points.map((p) =>
            p.phases.map((ph) => ph.tests.map((t) => [t.name, t.group?.transaction, t.commands.map((c) => [c.command.name, c.command.args])])),
          ),
        ),
      );
    assert.equal(plan(formatted), plan(messy));
  });

  it('fold from `group` to `end`', () => {
    const ranges = foldingRanges('### s\ngroup tx\n  MULTI\n  EXEC\nend\nGET k\ngroup\nGET a\n');
    assert.ok(
      ranges.some((r) => r.start === 1 && r.end === 4),
      JSON.stringify(ranges),
    );
    assert.ok(!ranges.some((r) => r.start === 6), 'an unclosed group does not fold');
  });

  it('show groups in the outline, inside their phase', () => {
    const symbols = documentSymbols('### s\ngroup tx\nMULTI\nEXEC\nend\nphase p\ngroup\nGET a\nGET b\nend\n');
    const scenario = symbols[0];
    assert.deepEqual(
      scenario.children.map((c) => [c.name, c.kind, c.detail]),
      [
        ['tx', 'group', 'transaction of 2 commands'],
        ['p', 'phase', 'phase'],
      ],
    );
    assert.deepEqual(
      scenario.children[1].children.map((c) => [c.name, c.kind, c.range.start.line, c.range.end.line]),
      [['GET+GET', 'group', 6, 9]],
    );
  });

  it('explain `group` and `end` on hover, and offer them in completion', () => {
    const info = hover(TRANSACTION, { line: 2, character: 2 });
    assert.match(info?.contents ?? '', /command group/);
    assert.match(hover(TRANSACTION, { line: 7, character: 1 })?.contents ?? '', /End the command group/);
    const offered = completions('### s\ngr', { line: 1, character: 2 }).map((item) => item.label);
    assert.ok(offered.includes('group'), offered.join(', '));
    // Inside a group: commands and `end`, no settings (they would be refused there).
    const inside = completions('### s\ngroup\n  GET k\n  \nend\n', { line: 3, character: 2 }).map((item) => item.label);
    assert.ok(inside.includes('end') && inside.includes('SET'), inside.slice(0, 20).join(', '));
    assert.ok(!inside.includes('pipeline') && !inside.includes('group'), 'no settings inside a group');
    const after = completions('### s\ngroup\n  GET k\nend\n\n', { line: 4, character: 0 }).map((item) => item.label);
    assert.ok(after.includes('pipeline') && after.includes('group'), 'settings again after `end`');
  });
});

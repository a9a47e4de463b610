import assert from 'node:assert/strict';
import { plainText } from '../../../src/editor/plainText';
import { describeErrors } from '../../../src/editor/scenarios';
import { checkText } from '../../../src/scenario';
import { codeActions } from '../../../src/scenario/features';

describe('editor: plain text for diagnostics, notifications and quick fixes', () => {
  it('turns `code` into "code"', () => {
    assert.equal(plainText('`value`: `10QB` has an unknown unit `QB`'), '"value": "10QB" has an unknown unit "QB"');
    assert.equal(plainText('write `"a b"` here'), 'write "a b" here');
    assert.equal(plainText('no code here'), 'no code here');
  });

  it('leaves no backtick in the messages a broken scenario gets', () => {
    const text = '### s\nvalue 10QB\nduration 5x\nrequests 1m\npipline 4\nSET k __value__\n';
    const resolved = checkText(text, { env: {} });
    assert.ok(resolved.diagnostics.length >= 4, JSON.stringify(resolved.diagnostics.map((d) => d.message)));
    assert.ok(resolved.diagnostics.some((d) => d.message.includes('`')), 'the language marks code with backticks');
    for (const diagnostic of resolved.diagnostics) assert.doesNotMatch(plainText(diagnostic.message), /`/);
    // The refusal toast when Run is pressed on it, and the quick-fix titles.
    assert.doesNotMatch(plainText(describeErrors(resolved.diagnostics)), /`/);
    const titles = codeActions(text, { start: { line: 4, character: 0 }, end: { line: 4, character: 3 } }, { env: {} }).map((a) => a.title);
    assert.ok(titles.length > 0);
    for (const title of titles) assert.doesNotMatch(plainText(title), /`/);
  });
});

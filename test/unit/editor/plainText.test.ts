import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { escapedOutputChannel } from '../../../src/editor/outputChannel';
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
    assert.ok(
      resolved.diagnostics.some((d) => d.message.includes('`')),
      'the language marks code with backticks',
    );
    for (const diagnostic of resolved.diagnostics) assert.doesNotMatch(plainText(diagnostic.message), /`/);
    // The refusal toast when Run is pressed on it, and the quick-fix titles.
    assert.doesNotMatch(plainText(describeErrors(resolved.diagnostics)), /`/);
    const titles = codeActions(text, { start: { line: 4, character: 0 }, end: { line: 4, character: 3 } }, { env: {} }).map((a) => a.title);
    assert.ok(titles.length > 0);
    for (const title of titles) assert.doesNotMatch(plainText(title), /`/);
  });
});

describe('editor: notifications and the output channel show control characters as text (issue 18, seen 11)', () => {
  const hostile = 'bench \x1b]52;c;cm0gLXJmIH4K\x07 \x1b[31mred\u202e';

  it('plainText escapes ESC, BEL and bidi overrides (notifications, test messages, the remote question)', () => {
    assert.equal(plainText(`\`${hostile}\` failed`), '"bench \\u001b]52;c;cm0gLXJmIH4K\\u0007 \\u001b[31mred\\u202e" failed');
    assert.equal(plainText(plainText(hostile)), plainText(hostile), 'a notice built from escaped text shows each escape once');
  });

  it('the output channel escapes whatever is appended, and passes the rest through', () => {
    const written: string[] = [];
    const calls: string[] = [];
    const fake = {
      name: 'RBench',
      append: (value: string) => written.push(`append:${value}`),
      appendLine: (value: string) => written.push(`line:${value}`),
      replace: (value: string) => written.push(`replace:${value}`),
      clear: () => calls.push('clear'),
      show: (...args: unknown[]) => calls.push(`show:${JSON.stringify(args)}`),
      hide: () => calls.push('hide'),
      dispose: () => calls.push('dispose'),
    } as unknown as vscode.OutputChannel;
    const channel = escapedOutputChannel(fake);
    channel.append('\x1b[2J');
    channel.appendLine(`run ${hostile}\nnext line`);
    channel.replace('\x07');
    channel.clear();
    channel.show(true);
    channel.show();
    channel.show(2 as vscode.ViewColumn, false);
    channel.hide();
    channel.dispose();
    assert.deepEqual(written, ['append:\\u001b[2J', 'line:run bench \\u001b]52;c;cm0gLXJmIH4K\\u0007 \\u001b[31mred\\u202e\nnext line', 'replace:\\u0007']);
    assert.deepEqual(calls, ['clear', 'show:[true]', 'show:[null]', 'show:[2,false]', 'hide', 'dispose']);
    assert.equal(channel.name, 'RBench');
  });
});

import assert from 'node:assert/strict';
import { parseDocument, type CommandLine, type SettingLine } from '../../../src/scenario';

describe('parser', () => {
  it('classifies every kind of line', () => {
    const doc = parseDocument(
      [
        '@prefix = bench',
        '',
        '# note',
        '### First',
        'pipeline 10',
        'phase read',
        '80% GET {{prefix}}:k',
        'expect p99 < 2ms',
        'SET k v',
        'bogus 1',
        'prefill',
      ].join('\n'),
    );
    assert.deepEqual(
      doc.lines.map((line) => line.kind),
      ['variable', 'blank', 'comment', 'header', 'setting', 'phase', 'command', 'expect', 'command', 'unknown', 'phase'],
    );
    assert.equal(doc.fileLines.length, 3);
    assert.equal(doc.scenarios.length, 1);
    assert.equal(doc.scenarios[0].name, 'First');
    assert.equal(doc.scenarios[0].lines.length, 7);
  });

  it('keeps exact ranges of keywords, arguments, weights and header names', () => {
    const doc = parseDocument('###   Mixed load  \n  pipeline  10   # ten\n 80% GET "a b"*2');
    const scenario = doc.scenarios[0];
    assert.deepEqual(scenario.nameRange, { start: { line: 0, character: 6 }, end: { line: 0, character: 16 } });
    assert.deepEqual(scenario.headerRange, { start: { line: 0, character: 0 }, end: { line: 0, character: 18 } });
    const setting = doc.lines[1] as SettingLine;
    assert.deepEqual([setting.keyword.start, setting.keyword.end, setting.args[0].start, setting.args[0].end], [2, 10, 12, 14]);
    assert.equal(setting.comment?.text, '# ten');
    assert.deepEqual(setting.value?.range, { start: { line: 1, character: 12 }, end: { line: 1, character: 14 } });
    const command = doc.lines[2] as CommandLine;
    assert.equal(command.name, 'GET');
    assert.deepEqual([command.weight?.percent, command.weight?.start, command.command.start, command.command.end], [80, 1, 5, 8]);
    // The argument's range covers what was written, `*2` included; the repeat count has its own.
    assert.deepEqual([command.args[0].value, command.args[0].start, command.args[0].end], ['a b', 9, 16]);
    assert.deepEqual([command.args[0].repeat?.text, command.args[0].repeat?.start, command.args[0].repeat?.end], ['2', 15, 16]);
  });

  it('treats lower-case setting names as settings and upper-case ones as commands', () => {
    const doc = parseDocument('### s\nkeys 100k\nKEYS *\nclient fast\nCLIENT LIST\nget k');
    assert.deepEqual(
      doc.lines.slice(1).map((line) => line.kind),
      ['setting', 'command', 'setting', 'command', 'command'],
    );
    assert.equal((doc.lines[5] as CommandLine).name, 'GET');
  });

  it('suggests the nearest setting or command with a fix replacing the word', () => {
    const doc = parseDocument('### s\n  pipline 10\ngte key\n');
    const [setting, command] = doc.diagnostics;
    assert.equal(setting.code, 'unknown-keyword');
    assert.equal(setting.message, 'unknown setting or command `pipline` — did you mean `pipeline`?');
    assert.deepEqual(setting.range, { start: { line: 1, character: 2 }, end: { line: 1, character: 9 } });
    assert.deepEqual(setting.fixes, [{ title: 'Change to `pipeline`', range: setting.range, newText: 'pipeline' }]);
    assert.equal(command.message, 'unknown setting or command `gte` — did you mean `GET`?');
    assert.equal(command.fixes?.[0].newText, 'GET');
  });

  it('tells that settings are lower case', () => {
    const doc = parseDocument('### s\nPipeline 10\nGET k');
    assert.equal(doc.diagnostics[0].message, 'settings are written in lower case — write `pipeline`');
  });

  it('makes a file without headers but with commands one scenario', () => {
    const doc = parseDocument('pipeline 10\nGET k\n');
    assert.equal(doc.scenarios.length, 1);
    assert.equal(doc.scenarios[0].name, 'scenario 1');
    assert.equal(doc.fileLines.length, 0);
    assert.deepEqual(doc.scenarios[0].range.end, { line: 2, character: 0 });
  });

  it('names bare headers by position and reports duplicate names at the second', () => {
    const doc = parseDocument('###\nGET k\n### same\nGET k\n### same\nGET k');
    assert.deepEqual(
      doc.scenarios.map((scenario) => scenario.name),
      ['scenario 1', 'same', 'same'],
    );
    const duplicate = doc.diagnostics.find((diagnostic) => diagnostic.code === 'duplicate-scenario');
    assert.deepEqual(duplicate?.range, { start: { line: 4, character: 4 }, end: { line: 4, character: 8 } });
    assert.match(duplicate!.message, /line 3/);
  });

  it('reports commands before the first header', () => {
    const doc = parseDocument('GET k\n### s\nGET k');
    assert.equal(doc.diagnostics[0].code, 'command-outside-scenario');
    assert.deepEqual(doc.diagnostics[0].range.start, { line: 0, character: 0 });
  });

  it('reports malformed variables, phases and weights', () => {
    const doc = parseDocument('### s\n@ = 1\n@name\nphase\nphase two words\n50%\n50% nope k');
    assert.deepEqual(
      doc.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.range.start.line]),
      [
        ['invalid-variable', 1],
        ['invalid-variable', 2],
        ['missing-phase-name', 3],
        ['invalid-phase-name', 4],
        ['missing-command', 5],
        ['unknown-command', 6],
      ],
    );
  });

  it('refuses a keyword coming from a variable', () => {
    const doc = parseDocument('### s\n{{cmd}} k');
    assert.equal(doc.diagnostics[0].code, 'interpolated-keyword');
  });
});

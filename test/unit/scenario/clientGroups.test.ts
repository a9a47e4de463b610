// Issue 43 (client groups), the language: `load NAME [background]` splits a scope into groups, each a plan of
// its own over the shared settings; the checker names a group without a command, a group of several tests, and
// groups whose sum exceeds the connection or memory budget, at the group's line, with the fix.
import assert from 'node:assert/strict';
import { checkText } from '../../../src/scenario';
import { ScenarioWriteError, writeScenario } from '../../../src/scenario/writer';

const errors = (text: string) =>
  checkText(text)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => `${d.range.start.line + 1} ${d.code}: ${d.message}`);

describe('client groups in the language (load NAME)', () => {
  it('builds a plan per group: shared settings above the first load line, each group overriding them', () => {
    const { scenarios, diagnostics } = checkText(
      '### cache\nkeys 100k\nduration 5s\nload writers background\nclients 8\nrate 1000/s\nSET cache:__key__ __value__\nload readers\nclients 50\n80% GET cache:__key__\n20% EXISTS cache:__key__\n',
    );
    assert.deepEqual(diagnostics, []);
    const [phase] = scenarios[0].points[0].phases;
    assert.equal(phase.name, 'main');
    assert.deepEqual(
      phase.groups?.map((group) => [
        group.name,
        group.kind,
        group.background,
        group.phase.name,
        group.phase.load.clients,
        group.phase.load.rate,
        group.phase.load.durationMs,
        group.phase.keys.space,
      ]),
      [
        ['writers', 'requests', true, 'main', 8, 1000, 5000, 100_000],
        ['readers', 'requests', false, 'main', 50, undefined, 5000, 100_000],
      ],
    );
    assert.deepEqual(
      phase.groups?.map((group) => group.phase.tests.map((test) => [test.name, test.commands.map((c) => c.command.name)])),
      [[['writers', ['SET']]], [['readers', ['GET', 'EXISTS']]]],
    );
    // The phase's tests are its groups' (what reads a phase's commands sees them all); the scenario writes.
    assert.deepEqual(
      phase.tests.map((test) => test.name),
      ['writers', 'readers'],
    );
    assert.equal(scenarios[0].writes, true);
  });

  it('groups inside a phase, after a prefill', () => {
    const { scenarios, diagnostics } = checkText('### q\nkeys 10\nprefill\nSET k:__key__ v\nphase mixed\nload a\nGET k:__key__\nload b\nclients 2\nINCR c\n');
    assert.deepEqual(diagnostics, []);
    const phases = scenarios[0].points[0].phases;
    assert.deepEqual(
      phases.map((phase) => [phase.name, phase.groups?.map((group) => group.name)]),
      [
        ['prefill', undefined],
        ['mixed', ['a', 'b']],
      ],
    );
  });

  it('names a group without a command, a command outside every group, a duplicate name and a wrong flag', () => {
    assert.deepEqual(errors('### s\nGET a\nload w\nclients 2\nload r foreground\nGET b\nload r\nGET c\n'), [
      "2 command-outside-load: this command belongs to no client group: the scope's groups start at the `load` line on line 3 — move it below a `load` line",
      '3 empty-load: client group `w` has no command — add a command line below its `load` line, such as `GET key`',
      '5 invalid-load-flag: `foreground` is not a group flag — write `load r background`, or nothing after the name',
      '7 duplicate-load: another client group is already named `r` here — give this one a different name',
    ]);
    assert.deepEqual(errors('### s\nload\nGET a\n'), ['2 missing-load-name: a client group needs a name — write `load NAME`, such as `load readers`']);
  });

  it('a group runs one test: unweighted commands in a group are an error with the fix', () => {
    assert.deepEqual(errors('### s\nload r\nGET a\nGET b\n'), [
      '4 load-several-tests: client group `r` runs one test beside the other groups, but its lines make 2 — give its commands weights (`50% GET …`), or give this one a `load` group of its own',
    ]);
  });

  it('the connection budget covers the sum of the groups, and names the largest', () => {
    assert.deepEqual(errors('### s\nload a\nclients 60000\nGET a\nload b\nclients 50000\nGET b\n'), [
      '2 load-clients-budget: the client groups here open 110,000 connections at once, more than the 100,000 a phase may — lower `clients` in group `a` (60,000) or in the others',
    ]);
  });

  it('the memory budget covers the sum of the groups, and names the heaviest', () => {
    // Each group alone stays under 1 GiB of payloads in flight; together they do not.
    const text = '### s\nvalue 1MB\nload a\nclients 600\nSET a:__key__ __value__\nload b\nclients 500\nSET b:__key__ __value__\n';
    const one = checkText('### s\nvalue 1MB\nclients 600\nSET a:__key__ __value__\n').diagnostics.filter((d) => d.code === 'memory-budget');
    assert.deepEqual(one, []);
    const { diagnostics } = checkText(text);
    const memory = diagnostics.filter((d) => d.code === 'memory-budget').map((d) => d.message);
    assert.equal(memory.length, 1, JSON.stringify(diagnostics));
    assert.match(memory[0], /2 client groups at once: a 600 MiB \+ b 500 MiB, group a\)/);
  });

  it('an expectation may name a group; inside a group it is an error that says where it goes', () => {
    assert.deepEqual(errors('### s\nexpect w errors = 0\nload w background\nSET a b\nload r\nGET a\n'), []);
    assert.deepEqual(errors('### s\nload w background\nSET a b\nexpect errors = 0\n'), [
      '4 wrong-scope: `expect` applies to the whole scenario — move it above the first `phase`, `prefill` or `load` line',
    ]);
  });

  it('the scenario writer writes client groups, and the checker reads them back as groups', () => {
    const text = writeScenario([
      { kind: 'header', title: 'cache' },
      { kind: 'setting', name: 'keys', args: ['1000'] },
      { kind: 'load', name: 'writers', background: true },
      { kind: 'setting', name: 'rate', args: ['1000/s'] },
      { kind: 'command', name: 'SET', args: ['c:__key__', '__value__'] },
      { kind: 'load', name: 'readers' },
      { kind: 'command', name: 'GET', args: ['c:__key__'] },
    ]);
    assert.equal(text, '### cache\nkeys 1000\nload writers background\nrate 1000/s\nSET c:__key__ __value__\nload readers\nGET c:__key__\n');
    const { scenarios, diagnostics } = checkText(text);
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(
      scenarios[0].points[0].phases[0].groups?.map((group) => [group.name, group.background]),
      [
        ['writers', true],
        ['readers', false],
      ],
    );
    assert.throws(
      () =>
        writeScenario([
          { kind: 'header', title: 's' },
          { kind: 'load', name: 'two words' },
        ]),
      ScenarioWriteError,
    );
  });
});

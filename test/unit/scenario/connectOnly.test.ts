// `connect-only on` in the language: the plan it makes (one `connect` test whose request is the handshake's PING, a
// connect-only load) and what the checker refuses with it, at the line, with the fix.
import assert from 'node:assert/strict';
import { hover } from '../../../src/scenario/features';
import { withCaret } from '../features/helpers';
import { check, clean, errors, only, span } from './helpers';

const phaseOf = (text: string) => clean(text).scenarios[0].points[0].phases[0];

describe('connect-only: a connection storm in the language', () => {
  it('a scenario of `connect-only on` and no command lines plans one `connect` test: PING, the handshake’s', () => {
    const phase = phaseOf('### storm\nclients 20\nrequests 1000\nconnect-only on\n');
    assert.equal(phase.load.connectOnly, true);
    assert.equal(phase.load.clients, 20);
    assert.equal(phase.load.requests, 1000);
    assert.deepEqual(
      phase.tests.map((test) => [test.name, test.commands.map(({ command }) => [command.name, command.label])]),
      [['connect', [['PING', 'connect']]]],
    );
  });

  it('set in a phase (or in the file for every scenario), the rest keep their commands', () => {
    const phases = clean('### s\nphase fill\nSET k v\nphase storm\nconnect-only on\nrequests 50\n').scenarios[0].points[0].phases;
    assert.deepEqual(
      phases.map((phase) => [phase.name, phase.load.connectOnly ?? false, phase.tests[0].name]),
      [
        ['fill', false, 'SET'],
        ['storm', true, 'connect'],
      ],
    );
    assert.equal(phaseOf('connect-only on\n\n### s\nrate 200/s\n').load.connectOnly, true);
    assert.equal(phaseOf('### s\nconnect-only off\nGET k\n').load.connectOnly, undefined);
  });

  it('command lines with `connect-only on` are refused at the setting, with the fix', () => {
    const found = only(check('### s\nconnect-only on\nGET k\n'), 'connect-only-commands');
    assert.match(found.message, /opens connections without sending commands — remove the command lines, or the `connect-only` line/);
    assert.deepEqual(span(found), [1, 13, 15]);
  });

  it('settings a storm cannot follow are refused at their lines', () => {
    const cases: [string, RegExp, number][] = [
      ['reconnect every 5', /already opens a new connection per request — remove the `reconnect` line/, 1],
      ['pipeline 8', /sends no commands to pipeline — remove the `pipeline` line/, 1],
      ['ramp clients 1..4 step 1 every 1s', /a ramp does not apply — remove the `ramp` line/, 1],
    ];
    for (const [line, message, row] of cases) {
      const found = errors(check(`### s\n${line}\nconnect-only on\n`)).filter((d) => d.code === 'connect-only-with');
      assert.equal(found.length, 1, `${line}: ${JSON.stringify(errors(check(`### s\n${line}\nconnect-only on\n`)).map((d) => d.message))}`);
      assert.match(found[0].message, message, line);
      assert.equal(span(found[0])[0], row, line);
    }
  });

  it('on a cluster target a storm checks clean (its connections go to the masters in turn)', () => {
    const phase = phaseOf('### storm\ncluster on\nclients 8\nrequests 600\nconnect-only on\n');
    assert.equal(phase.load.connectOnly, true);
    assert.equal(phase.tests[0].name, 'connect');
  });

  it('a client group can be a storm (`connect-only-in-group` is gone): its load connects only, its one test named after it', () => {
    const plan = clean('### s\nrequests 100\nload storm\nclients 20\nconnect-only on\nload readers\nclients 5\nGET k\n');
    const groups = plan.scenarios[0].points[0].phases[0].groups!;
    assert.deepEqual(
      groups.map((group) => [
        group.name,
        group.kind,
        group.phase.load.connectOnly ?? false,
        group.phase.load.clients,
        group.phase.tests.map((t) => [t.name, t.commands[0].command.label]),
      ]),
      [
        ['storm', 'requests', true, 20, [['storm', 'connect']]],
        ['readers', 'requests', false, 5, [['readers', 'GET']]],
      ],
    );
  });

  it('a storm group with command lines is refused at its `connect-only` line', () => {
    const found = only(check('### s\nload storm\nconnect-only on\nSET k v\nload readers\nGET k\n'), 'connect-only-commands');
    assert.equal(span(found)[0], 2);
  });

  it("a storm group's clients count in the groups' connection budget: past it, `check` names the storm group", () => {
    const found = only(check('### s\nload storm\nclients 90000\nconnect-only on\nload readers\nclients 20000\nGET k\n'), 'load-clients-budget');
    assert.match(found.message, /open 110,000 connections at once, more than the 100,000 a phase may — lower `clients` in group `storm` \(90,000\)/);
    assert.equal(span(found)[0], 1);
  });

  it('a scenario of no commands and no `connect-only` is still an error', () => {
    assert.ok(errors(check('### s\nclients 5\n')).some((d) => d.code === 'no-commands'));
  });

  it('hover explains the setting', () => {
    const at = withCaret('### s\nconnect-o‸nly on\n');
    assert.match(hover(at.text, at.position)?.contents ?? '', /A connection storm/);
  });
});

// `sweep server …`: each point a list of directives for a throwaway server of its own, checked against the
// same allow-list as `server` lines; a refused directive is named at its place.
import assert from 'node:assert/strict';
import { check, clean, errors } from './helpers';

const scenario = (sweep: string, extra = '') => `### aof\n${extra}requests 1000\n${sweep}\nSET k __value__\n`;

describe('sweep server', () => {
  it('reads each point as its directives, labelled like the other sweeps', () => {
    const [plan] = clean(scenario('sweep server "appendonly yes" "appendfsync always", "appendonly yes" "appendfsync no", appendonly no')).scenarios;
    assert.deepEqual(
      plan.points.map((point) => point.label),
      ['appendonly=yes appendfsync=always', 'appendonly=yes appendfsync=no', 'appendonly=no'],
    );
    assert.deepEqual(plan.points[0].server, [
      { name: 'appendonly', args: ['yes'] },
      { name: 'appendfsync', args: ['always'] },
    ]);
    assert.deepEqual(plan.points[2].server, [{ name: 'appendonly', args: ['no'] }]);
    assert.deepEqual(plan.sweepAxes, ['server']);
    // The point's number is no quantity: no numeric sweep value, so charts use the labels.
    assert.deepEqual(plan.points[0].sweep, {});
  });

  it('crosses with another sweep, the server varying slowest', () => {
    const [plan] = clean(`### x\nrequests 100\nsweep server "appendonly no", "appendonly yes"\nsweep clients 1, 4\nGET k\n`).scenarios;
    assert.deepEqual(
      plan.points.map((point) => point.label),
      ['appendonly=no clients=1', 'appendonly=no clients=4', 'appendonly=yes clients=1', 'appendonly=yes clients=4'],
    );
    assert.deepEqual(plan.points[1].sweep, { clients: 4 });
    assert.equal(plan.points[1].phases[0].load.clients, 4);
  });

  it('quotes arguments with spaces in the label', () => {
    const [plan] = clean(scenario(`sweep server "save ''", "save '60 1000'"`)).scenarios;
    assert.deepEqual(
      plan.points.map((point) => point.label),
      ['save=""', 'save="60 1000"'],
    );
    assert.deepEqual(plan.points[1].server, [{ name: 'save', args: ['60 1000'] }]);
  });

  for (const [directive, reason] of [
    ['loadmodule evil.so', /`server loadmodule` is refused: it would load and run a shared library/],
    ['dir /etc', /`dir` is managed by rbench/],
    ['logfile x.log', /`server logfile` is refused/],
    ['no-such-directive 1', /`server no-such-directive` is refused: it is not a tuning directive/],
  ] as const) {
    it(`names a refused directive at its place: ${directive.split(' ')[0]}`, () => {
      const text = scenario(`sweep server "appendonly yes" "${directive}", "appendonly no"`);
      const found = errors(check(text));
      assert.equal(found.length, 1, JSON.stringify(found));
      assert.match(found[0].message, reason);
      const line = text.split('\n')[2];
      assert.equal(found[0].range.start.line, 2);
      assert.equal(found[0].range.start.character, line.indexOf(directive.split(' ')[0]));
    });
  }

  it('refuses a point with a directive outside the quotes, an empty point, a repeated point and a missing value', () => {
    const messages = (sweep: string) => errors(check(scenario(sweep))).map((d) => d.message);
    assert.match(messages('sweep server "appendonly yes" appendfsync always')[0], /quote each directive/);
    assert.match(messages('sweep server "appendonly yes", , "appendonly no"')[0], /empty point/);
    assert.match(messages('sweep server "appendonly yes", "appendonly yes"')[0], /the same as point 1/);
    assert.match(messages('sweep server "appendonly"')[0], /`server appendonly` needs a value/);
    assert.match(messages('sweep server')[0], /`sweep server` needs points/);
    assert.match(messages('sweep server "appendonly yes" "appendonly no"')[0], /`appendonly` is set twice in this point/);
  });

  it('is refused with a target of its own: it would reconfigure that server', () => {
    const found = errors(check(scenario('sweep server "appendonly no", "appendonly yes"', 'target redis://10.0.0.5:6379\n')));
    assert.equal(found.length, 1);
    assert.equal(found[0].code, 'server-sweep-target');
    assert.match(found[0].message, /would reconfigure this scenario's `target`/);
  });
});

// `reconnect every N` and `idle-connections N` in the language: the plan they make, what the checker refuses,
// and what completion and hover offer.
import assert from 'node:assert/strict';
import { completions, hover } from '../../../src/scenario/features';
import { withCaret } from '../features/helpers';
import { check, clean, errors, only, span } from './helpers';

const load = (text: string) => clean(text).scenarios[0].points[0].phases[0].load;

describe('connection settings: reconnect and idle-connections', () => {
  it('`reconnect every N` and `idle-connections N` reach the plan; a phase may change them', () => {
    const text = '### s\nreconnect every 10\nidle-connections 200\nphase a\nGET k\nphase b\nreconnect every 1\nidle-connections 0\nGET k';
    const [a, b] = clean(text).scenarios[0].points[0].phases.map((phase) => phase.load);
    assert.equal(a.reconnectEvery, 10);
    assert.equal(a.idleConnections, 200);
    assert.equal(b.reconnectEvery, 1);
    assert.equal(b.idleConnections, undefined);
  });

  it('`reconnect off` (and no line) keeps one connection per client', () => {
    assert.equal(load('### s\nreconnect off\nGET k').reconnectEvery, undefined);
    assert.equal(load('### s\nGET k').reconnectEvery, undefined);
    assert.equal(load('### s\nGET k').idleConnections, undefined);
  });

  it('wrong forms are named at their place with the forms that work', () => {
    const cases: [string, RegExp, [number, number, number]][] = [
      ['reconnect 10', /`reconnect` takes `reconnect every N` \(requests per connection\) or `reconnect off`, not `10`/, [1, 10, 12]],
      ['reconnect every', /`reconnect every` needs a count/, [1, 10, 15]],
      ['reconnect every 0', /`reconnect` must be at least 1/, [1, 16, 17]],
      ['reconnect every ten', /`reconnect`:/, [1, 16, 19]],
      ['reconnect off 5', /`reconnect off` takes nothing more — remove `5`/, [1, 14, 15]],
      ['reconnect every 5 please', /`reconnect` takes/, [1, 18, 24]],
      ['idle-connections -1', /idle-connections/, [1, 17, 19]],
      ['idle-connections 100001', /`idle-connections` must be at most 100,000/, [1, 17, 23]],
    ];
    for (const [line, message, at] of cases) {
      const found = errors(check(`### s\n${line}\nGET k`));
      assert.equal(found.length, 1, `${line}: ${JSON.stringify(found.map((d) => d.message))}`);
      assert.match(found[0].message, message, line);
      assert.deepEqual(span(found[0]), at, line);
    }
  });

  it('a cluster target takes `reconnect every` on both clients (`reconnect-on-cluster` is gone), and idle connections', () => {
    const phase = (text: string) => clean(text).scenarios[0].points[0].phases[0];
    assert.equal(phase('### s\ncluster on\nclient ioredis\nreconnect every 5\nGET k').load.reconnectEvery, 5);
    assert.equal(phase('### s\ncluster on\nreconnect every 5\nGET k').load.reconnectEvery, 5);
    // Idle connections are fine on a cluster (they go to the seed).
    clean('### s\ncluster on\nidle-connections 10\nGET k');
  });

  it('completion offers `every` and `off` after `reconnect`; hover explains both settings', () => {
    const { text, position } = withCaret('### s\nreconnect ‸\nGET k');
    assert.deepEqual(
      completions(text, position)
        .map((item) => item.label)
        .sort(),
      ['every', 'off'],
    );
    const keyword = (marked: string) => {
      const at = withCaret(marked);
      return hover(at.text, at.position)?.contents ?? '';
    };
    assert.match(keyword('### s\nrecon‸nect every 5\nGET k'), /new connection per request, like valkey-benchmark's `-k 0`/);
    assert.match(keyword('### s\nidle-conn‸ections 5\nGET k'), /redis-benchmark's `-I`/);
  });

  it('`ramp clients A..B step S every T` sets the clients to B and the duration to its steps', () => {
    const plan = load('### s\nrequests 1000\nramp clients 10..55 step 10 every 2s\nGET k');
    assert.deepEqual(plan.ramp, { from: 10, to: 55, step: 10, everyMs: 2000 });
    assert.equal(plan.clients, 55);
    // 10, 20, 30, 40, 50, 55: six steps of 2 s.
    assert.equal(plan.durationMs, 12_000);
    assert.equal(plan.requests, undefined);
  });

  it('wrong ramps are named at their place', () => {
    const cases: [string, RegExp, [number, number, number]][] = [
      ['ramp 10..20 step 5 every 1s', /`clients` here, not `10..20`/, [1, 5, 11]],
      ['ramp clients 20..10 step 5 every 1s', /must climb/, [1, 13, 19]],
      ['ramp clients 10 step 5 every 1s', /a range `A..B`/, [1, 13, 15]],
      ['ramp clients 10..20 step 0 every 1s', /step is a count ≥ 1/, [1, 25, 26]],
      ['ramp clients 10..20 step 5 every 500ms', /whole seconds/, [1, 33, 38]],
      ['ramp clients 10..20 step 5', /`ramp` takes `ramp clients A..B step S every DURATION`/, [1, 5, 26]],
    ];
    for (const [line, message, at] of cases) {
      const found = errors(check(`### s\n${line}\nGET k`));
      assert.equal(found.length, 1, `${line}: ${JSON.stringify(found.map((d) => d.message))}`);
      assert.match(found[0].message, message, line);
      assert.deepEqual(span(found[0]), at, line);
    }
    const withRate = only(check('### s\nrate 1k/s\nramp clients 1..4 step 1 every 1s\nGET k'), 'ramp-with-rate');
    assert.match(withRate.message, /a ramp runs in the closed loop — remove `rate`/);
  });
});

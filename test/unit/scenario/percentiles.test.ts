// Issue 44: `percentiles 50, 99, 99.9, 99.99` in a scenario, and `expect` on any percentile (`p99.99`).
import assert from 'node:assert/strict';
import { check, clean, errors } from './helpers';

describe('percentiles and expect pN (issue 44)', () => {
  it('`percentiles` is read into the plan in the order written, each once', () => {
    const resolved = clean('percentiles 99.99, 50, 99, 50\n### s\nexpect p99.99 < 2ms\nexpect GET p75 <= 500us\nGET k\n');
    const plan = resolved.scenarios[0];
    assert.deepEqual(plan.percentiles, [99.99, 50, 99]);
    assert.deepEqual(
      plan.expects.map(({ metric, value, command }) => ({ metric, value, command })),
      [
        { metric: 'p99.99', value: 2000, command: undefined },
        { metric: 'p75', value: 500, command: 'GET' },
      ],
    );
  });

  it('a percentile past 100 or not a number is an error at the item', () => {
    for (const [line, item] of [
      ['percentiles 50, 101', '101'],
      ['percentiles 50, p99', 'p99'],
      ['percentiles 50,,99', ''],
    ]) {
      const [error] = errors(check(`### s\n${line}\nGET k\n`));
      assert.ok(error, line);
      assert.match(error.message, new RegExp(`not \`${item.replace('.', '\\.')}\``), line);
    }
  });

  it('`expect p100.5` and other non-percentiles are refused like any unknown metric', () => {
    for (const metric of ['p100.5', 'p99.9999999', 'pp99']) {
      const [error] = errors(check(`### s\nexpect ${metric} < 2ms\nGET k\n`));
      assert.ok(error, metric);
      assert.match(error.message, /`expect` takes/);
    }
  });
});

// The `expect` lines' pass/fail rule, pinned down case by case (bench/mutation.mjs --gate thresholds): which
// number each metric reads, each operator at its boundary, which results count, and the line that reports it.
import assert from 'node:assert/strict';
import type { CommandResult, LoadResult, LoadStatus } from '../../../src/engine/types';
import type { CompareOp, ExpectMetric } from '../../../src/scenario/plan';
import type { PointResult, ThresholdOutcome } from '../../../src/results/runFile';
import { summariseRepeats } from '../../../src/results/summary';
import { acceptsErrors, compare, evaluateThresholds, metricValue, thresholdLine } from '../../../src/results/thresholds';
import { commandResult, loadResult } from '../compare/fixtures';
import { planOf } from '../editor/fixtures';

/** A result whose every metric has its own value, so reading the wrong field shows. */
function distinct(command: string, overrides: Partial<CommandResult> = {}): CommandResult {
  return {
    ...commandResult(command, { ops: 4321, p99: 555 }),
    requests: 1000,
    errors: 25,
    misses: 195,
    latency: { count: 1000, minUs: 1, meanUs: 111, stddevUs: 7, p50Us: 222, p90Us: 333, p95Us: 444, p99Us: 555, p999Us: 666, maxUs: 777 },
    ...overrides,
  };
}

/** One point whose repeats are `repeats`, summarised as the runner does. */
function pointOf(repeats: LoadResult[][], label = ''): PointResult {
  return { label, sweep: {}, repeats, summary: summariseRepeats(repeats) };
}

/** The expectations of a scenario with these `expect` lines (through the real resolver). */
function expects(...lines: string[]) {
  return planOf(`### t\nrequests 1000\nGET k\nSET k v\ngroup reads\n  GET a\n  GET b\nend\n${lines.map((line) => `expect ${line}\n`).join('')}`).expects;
}

/** A GET load with `status`, whose total is `total`. */
function getLoad(total: CommandResult, status: LoadStatus = 'complete'): LoadResult {
  return { ...loadResult('main', 'GET', { ops: total.opsPerSec, p99: total.latency.p99Us }), status, total, commands: [{ ...total, command: 'GET' }] };
}

describe('thresholds: the number each metric reads', () => {
  const expected: Record<ExpectMetric, number> = {
    ops: 4321,
    mean: 111,
    p50: 222,
    p90: 333,
    p95: 444,
    p99: 555,
    'p99.9': 666,
    max: 777,
    errors: 25,
    'error-rate': 0.025,
    'miss-rate': 0.2,
    // Not a figure of a test: `expect keys` reads the count taken after the prefill.
    keys: Number.NaN,
  };
  for (const [metric, value] of Object.entries(expected) as [ExpectMetric, number][]) {
    it(`${metric} reads ${value}`, () => assert.equal(metricValue(distinct('GET'), metric), value));
  }

  it('error-rate is the share of requests that failed, and 0 (not NaN) for a command that got no requests', () => {
    assert.equal(metricValue(distinct('GET', { requests: 200, errors: 50 }), 'error-rate'), 0.25);
    assert.equal(metricValue(distinct('GET', { requests: 0, errors: 0 }), 'error-rate'), 0);
  });

  it('miss-rate is the share of the replies that were not errors that found nothing (issue 43)', () => {
    // 195 misses of the 975 replies that were not errors: 20 %, not 19.5 % of all requests.
    assert.equal(metricValue(distinct('GET', { requests: 1000, errors: 25, misses: 195 }), 'miss-rate'), 0.2);
    // No key looked up (no reply, or every transaction the read was queued in discarded: lookups 0) is no rate at all.
    assert.ok(Number.isNaN(metricValue(distinct('GET', { requests: 0, errors: 0, misses: 0 }), 'miss-rate')));
    assert.ok(Number.isNaN(metricValue(distinct('GET', { requests: 400, errors: 0, misses: 0, lookups: 0 }), 'miss-rate')));
  });

  it('`expect miss-rate` over a read that looked up no key is not measured, so it does not pass', () => {
    const discarded = distinct('GET', { requests: 400, errors: 0, misses: 0, lookups: 0 });
    const outcomes = evaluateThresholds(expects('GET miss-rate < 5%', 'GET miss-rate > 50%'), [pointOf([[getLoad(discarded)]])]);
    assert.deepEqual(
      outcomes.map((o) => [o.expectation, o.actual, o.passed]),
      [
        ['expect GET miss-rate < 5%', null, false],
        ['expect GET miss-rate > 50%', null, false],
      ],
    );
  });
});

describe('thresholds: each operator at its boundary', () => {
  // [op, passes below, passes at, passes above] the expected value 10.
  const table: [CompareOp, boolean, boolean, boolean][] = [
    ['<', true, false, false],
    ['<=', true, true, false],
    ['>', false, false, true],
    ['>=', false, true, true],
    ['=', false, true, false],
    ['!=', true, false, true],
  ];
  for (const [op, below, at, above] of table) {
    it(`${op}: 9 ${below}, 10 ${at}, 11 ${above}`, () => {
      assert.deepEqual([compare(9, op, 10), compare(10, op, 10), compare(11, op, 10)], [below, at, above]);
    });
  }

  it('an `expect` line at exactly its limit: `<` fails, `<=` passes', () => {
    const points = [pointOf([[getLoad(distinct('total'))]])];
    assert.deepEqual(
      evaluateThresholds(expects('p99 < 555us', 'p99 <= 555us', 'p99 > 555us', 'p99 >= 555us'), points).map((o) => [o.expectation, o.passed]),
      [
        ['expect p99 < 555us', false],
        ['expect p99 <= 555us', true],
        ['expect p99 > 555us', false],
        ['expect p99 >= 555us', true],
      ],
    );
  });
});

describe('thresholds: which result an expectation judges', () => {
  it('without a command the test total; with one, that command (any case), or a group by its name', () => {
    const load: LoadResult = {
      ...getLoad(distinct('total', { latency: { ...distinct('x').latency, p99Us: 900 } })),
      test: 'reads',
      commands: [distinct('GET', { latency: { ...distinct('x').latency, p99Us: 300 } })],
    };
    const outcomes = evaluateThresholds(expects('p99 < 1ms', 'GET p99 < 0.5ms', 'get p99 < 0.5ms', 'reads p99 < 0.5ms'), [pointOf([[load]])]);
    assert.deepEqual(
      outcomes.map((o) => [o.expectation, o.actual, o.passed]),
      [
        ['expect p99 < 1ms', 900, true],
        ['expect GET p99 < 0.5ms', 300, true],
        ['expect get p99 < 0.5ms', 300, true],
        ['expect reads p99 < 0.5ms', 900, false],
      ],
    );
  });

  it('a command no test ran is not measured: one failing outcome naming the command', () => {
    const outcomes = evaluateThresholds(expects('SET p99 < 1ms'), [pointOf([[getLoad(distinct('total'))]])]);
    assert.deepEqual(outcomes, [{ expectation: 'expect SET p99 < 1ms', metric: 'p99', point: '', test: 'SET', phase: '', actual: null, passed: false }]);
    assert.equal(thresholdLine(outcomes[0]), 'FAIL  expect SET p99 < 1ms  [SET]  (actual not measured)');
  });

  it('a run that measured nothing fails every expectation, each on its own', () => {
    const outcomes = evaluateThresholds(expects('p99 < 1ms', 'throughput > 1k/s'), []);
    assert.deepEqual(outcomes, [
      { expectation: 'expect p99 < 1ms', metric: 'p99', point: '', test: '', phase: '', actual: null, passed: false },
      { expectation: 'expect throughput > 1k/s', metric: 'ops', point: '', test: '', phase: '', actual: null, passed: false },
    ]);
    assert.equal(thresholdLine(outcomes[0]), 'FAIL  expect p99 < 1ms  (actual not measured)');
  });

  it('an expectation measured at one point only is still judged there, and one measured nowhere after it still gets its outcome', () => {
    const outcomes = evaluateThresholds(expects('p99 < 1ms', 'SET p99 < 1ms'), [pointOf([[getLoad(distinct('total'))]], 'clients=4')]);
    assert.deepEqual(
      outcomes.map((o) => [o.expectation, o.point, o.test, o.phase, o.passed]),
      [
        ['expect p99 < 1ms', 'clients=4', 'GET', 'main', true],
        ['expect SET p99 < 1ms', '', 'SET', '', false],
      ],
    );
  });

  it('a summary whose representative repeat is not in the file (a hand-edited run file) is skipped, not a crash', () => {
    const point = pointOf([[getLoad(distinct('total'))]]);
    const broken: PointResult = { ...point, summary: [{ ...point.summary[0], representative: 3 }] };
    assert.deepEqual(
      evaluateThresholds(expects('p99 < 1ms'), [broken]).map((o) => [o.actual, o.passed]),
      [[null, false]],
    );
  });

  it("over repeats the test's throughput is judged on its median, a command's and latency on the repeat closest to it", () => {
    // Two repeats: the median 2,000 ops/s lies between them; the representative is the first (1,000 ops/s).
    const at = (ops: number, p99: number) => getLoad(distinct('total', { opsPerSec: ops, latency: { ...distinct('x').latency, p99Us: p99 } }));
    const points = [pointOf([[at(1000, 400)], [at(3000, 800)]])];
    assert.deepEqual(
      evaluateThresholds(expects('throughput > 1.5k/s', 'GET throughput > 1.5k/s', 'p99 < 0.5ms'), points).map((o) => [o.actual, o.passed]),
      [
        [2000, true],
        [1000, false],
        [400, true],
      ],
    );
  });
});

describe('thresholds: which results can pass', () => {
  const judged = (load: LoadResult, ...lines: string[]) => evaluateThresholds(expects(...lines), [pointOf([[load]])]).map((o) => o.passed);

  it('a complete load and one complete with errors pass on their numbers; cancelled, failed or unknown statuses never pass', () => {
    const statuses = ['complete', 'complete-with-errors', 'cancelled', 'failed', 'stalled'] as LoadStatus[];
    assert.deepEqual(
      statuses.map((status) => judged(getLoad(distinct('total'), status), 'p99 < 1ms')[0]),
      [true, true, false, false, false],
    );
  });

  it('errors past the threshold still pass an error-rate expectation that accepts them, but a result where nothing succeeded never passes', () => {
    const some = getLoad(distinct('total', { requests: 10, errors: 9 }), 'complete-with-errors');
    assert.deepEqual(judged(some, 'error-rate < 95%', 'errors < 10'), [true, true]);
    const all = getLoad(distinct('total', { requests: 10, errors: 10 }), 'complete-with-errors');
    assert.deepEqual(judged(all, 'error-rate <= 100%', 'errors <= 10', 'p99 < 1ms'), [false, false, false]);
  });

  it('a result with no requests is not "nothing succeeded": it has no errors to judge', () => {
    const empty = getLoad(distinct('total', { requests: 0, errors: 0 }));
    assert.deepEqual(judged(empty, 'errors = 0', 'error-rate < 1%'), [true, true]);
  });
});

describe('thresholds: whether a scenario states the errors it accepts', () => {
  const table: [string[], boolean][] = [
    [['error-rate < 80%'], true],
    [['error-rate <= 80%'], true],
    [['errors < 100'], true],
    [['errors <= 100'], true],
    [['error-rate > 1%'], false],
    [['error-rate >= 1%'], false],
    [['errors = 0'], false],
    [['errors != 0'], false],
    [['p99 < 2ms'], false],
    [['throughput < 100k/s'], false],
    [['p99 < 2ms', 'error-rate < 5%'], true],
    [['errors < 10', 'p99 < 2ms'], true],
    [[], false],
  ];
  for (const [lines, accepts] of table) {
    it(`${lines.map((line) => `expect ${line}`).join(', ') || 'no expect line'}: ${accepts}`, () => {
      const expectations = lines.length > 0 ? expects(...lines) : [];
      assert.equal(acceptsErrors(expectations), accepts);
    });
  }
});

describe('thresholds: the line that reports an outcome', () => {
  const outcome = (overrides: Partial<ThresholdOutcome>): ThresholdOutcome => ({
    expectation: 'expect p99 < 2ms',
    metric: 'p99',
    point: '',
    test: '',
    phase: 'main',
    actual: 1520,
    passed: true,
    ...overrides,
  });

  it('names the point and the test it was judged on, with the measured value in the metric unit', () => {
    assert.equal(thresholdLine(outcome({ point: 'clients=4', test: 'GET' })), 'pass  expect p99 < 2ms  [clients=4 GET]  (actual 1.52 ms)');
    assert.equal(thresholdLine(outcome({ test: 'GET', passed: false })), 'FAIL  expect p99 < 2ms  [GET]  (actual 1.52 ms)');
    assert.equal(thresholdLine(outcome({ point: 'clients=4' })), 'pass  expect p99 < 2ms  [clients=4]  (actual 1.52 ms)');
    assert.equal(thresholdLine(outcome({})), 'pass  expect p99 < 2ms  (actual 1.52 ms)');
  });

  it('formats the actual value by its metric, and a value of 0 as measured', () => {
    assert.equal(
      thresholdLine(outcome({ expectation: 'expect error-rate < 1%', metric: 'error-rate', actual: 0.025 })),
      'pass  expect error-rate < 1%  (actual 2.500%)',
    );
    assert.equal(thresholdLine(outcome({ expectation: 'expect errors = 0', metric: 'errors', actual: 0 })), 'pass  expect errors = 0  (actual 0)');
    assert.equal(
      thresholdLine(outcome({ expectation: 'expect throughput > 1k/s', metric: 'ops', actual: 2000 })),
      'pass  expect throughput > 1k/s  (actual 2,000 ops/s)',
    );
  });
});

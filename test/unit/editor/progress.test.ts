import assert from 'node:assert/strict';
import type { LoadTick } from '../../../src/engine/types';
import { formatProgressMessage, progressLogger, ProgressIncrements, remainingMs, restOfRun, runPercent } from '../../../src/editor/progress';
import type { LoadPosition, RunProgress } from '../../../src/runner/runScenario';
import { loadResult, planOf } from './fixtures';

const AT: LoadPosition = { point: '', phase: 'main', test: 'GET', repeat: 0, measured: true, index: 1, total: 3 };

function tick(overrides: Partial<LoadTick> = {}): LoadTick {
  return {
    elapsedMs: 12_000,
    requests: 4_944_000,
    errors: 0,
    fraction: 0.2,
    warmingUp: false,
    lastSecond: { t: 11, ops: 412_345, errors: 0, p50Us: 700, p99Us: 1900, maxUs: 4000 },
    ...overrides,
  };
}

describe('editor: progress messages', () => {
  it('shows the load, last second’s ops/s and p99, elapsed and remaining time', () => {
    assert.equal(formatProgressMessage(AT, tick()), '[2/3] GET · 412k ops/s · p99 1.90 ms · 12s elapsed · 48s left');
  });

  it('counts the whole run in "left": a two-command 60 s run halfway through its first test has 1m30s left, not 30s', () => {
    const plan = planOf('### two\nduration 60s\nwarmup 0s\nGET k\nSET k v\n');
    const rest = restOfRun(plan);
    const first: LoadPosition = { point: '', phase: 'main', test: 'GET', repeat: 0, measured: true, index: 0, total: 2 };
    assert.equal(
      formatProgressMessage(first, tick({ elapsedMs: 30_000, fraction: 0.5 }), rest),
      '[1/2] GET · 412k ops/s · p99 1.90 ms · 30s elapsed · 1m30s left',
    );
    const second = { ...first, test: 'SET', index: 1 };
    assert.equal(
      formatProgressMessage(second, tick({ elapsedMs: 30_000, fraction: 0.5 }), rest),
      '[2/2] SET · 412k ops/s · p99 1.90 ms · 30s elapsed · 30s left',
    );
    // Tests that run a request count have no planned time: they are counted.
    const counted = restOfRun(planOf('### one\nduration 10s\nwarmup 0s\nGET k\n'));
    assert.deepEqual(counted(0), { timedMs: 0, countedTests: 0, currentMs: 10_000 });
    const mixed = restOfRun(planOf('### mixed\nwarmup 0s\nrequests 100\nGET k\nSET k v\n'));
    assert.deepEqual(mixed(0), { timedMs: 0, countedTests: 1, currentMs: undefined });
  });

  it('names the point and prefill, and says when it is warming up without guessing the time left', () => {
    const prefill: LoadPosition = { ...AT, point: 'value=100', measured: false };
    assert.equal(
      formatProgressMessage(prefill, tick({ warmingUp: true, lastSecond: undefined, elapsedMs: 900 })),
      '[2/3] value=100 GET (prefill) (warm-up) · 0.9s elapsed',
    );
  });

  it('leaves out the time left when the end is unknown', () => {
    assert.equal(remainingMs(tick({ fraction: undefined })), undefined);
    assert.equal(remainingMs(tick({ fraction: 0 })), undefined);
    assert.equal(remainingMs(tick({ fraction: 0.5, elapsedMs: 10_000 })), 10_000);
    assert.equal(remainingMs(tick({ fraction: 1 })), 0);
  });

  it('counts the whole run’s share done from finished loads and the current one', () => {
    assert.equal(runPercent({ ...AT, index: 0 }, undefined), 0);
    assert.equal(runPercent({ ...AT, index: 1 }, 0.5), 50);
    assert.equal(runPercent({ ...AT, index: 2 }, 1), 100);
    assert.equal(runPercent({ ...AT, index: 2, total: 4 }, 2), 75, 'a share above 1 is capped');
  });

  it('reports increments that add up to the percentage and never go back', () => {
    const increments = new ProgressIncrements();
    assert.deepEqual(
      [10, 25, 20, 60, 120].map((percent) => increments.advance(percent)),
      [10, 15, 0, 35, 40],
    );
  });
});

describe('editor: progress log lines', () => {
  it('writes each second once and a line per finished load', () => {
    const lines: string[] = [];
    const log = progressLogger((line) => lines.push(line));
    const events: RunProgress[] = [
      { kind: 'load-start', at: AT },
      { kind: 'tick', at: AT, tick: tick({ lastSecond: undefined, warmingUp: true }) },
      { kind: 'tick', at: AT, tick: tick() },
      // The engine's final tick repeats the last second.
      { kind: 'tick', at: AT, tick: tick() },
      { kind: 'load-end', at: AT, result: loadResult('GET', 400_000, 2000, 'cancelled') },
    ];
    events.forEach(log);
    assert.deepEqual(lines, ['[2/3] GET · 412k ops/s · p99 1.90 ms · 12s elapsed · 48s left', '[2/3] GET: 400k ops/s, p99 2.00 ms (cancelled)']);
  });
});

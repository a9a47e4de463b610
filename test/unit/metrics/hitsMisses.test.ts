// `--metrics` carries hits and misses per command (issue 43): a read's counters, an MGET's per key, none for a write;
// checked by value and by Prometheus' own linter (promtool).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { LoadResult } from '../../../src/engine';
import { renderOpenMetrics, renderPrometheusText } from '../../../src/runner/metrics/openMetrics';
import { RunMetrics } from '../../../src/runner/metrics/runMetrics';
import { at, samples } from './exposition';

describe('run metrics: hits and misses per command', () => {
  const metrics = new RunMetrics();
  metrics.observe('s', { kind: 'load-start', at: at('mix') });
  const result = {
    total: { command: 'total', requests: 3000, errors: 10 },
    commands: [
      { command: 'GET', requests: 1000, errors: 10, misses: 390 },
      // Two keys a request: 2,000 asked, 500 not found.
      { command: 'MGET', requests: 1000, errors: 0, misses: 500, lookups: 2000 },
      { command: 'SET', requests: 1000, errors: 0 },
    ],
    health: {},
  } as unknown as LoadResult;
  // Two loads of the same test add up.
  metrics.observe('s', { kind: 'load-end', at: at('mix'), result });
  metrics.observe('s', { kind: 'load-end', at: at('mix'), result });
  const labels = 'scenario="s",point="",phase="load",test="mix"';

  it('a read: hits are its answered replies that found something, misses the others; a per-key read counts keys', () => {
    const got = samples(renderOpenMetrics(metrics.families()));
    assert.equal(got.get(`rbench_command_hits_total{${labels},command="GET"}`), 2 * 600);
    assert.equal(got.get(`rbench_command_misses_total{${labels},command="GET"}`), 2 * 390);
    assert.equal(got.get(`rbench_command_hits_total{${labels},command="MGET"}`), 2 * 1500);
    assert.equal(got.get(`rbench_command_misses_total{${labels},command="MGET"}`), 2 * 500);
  });

  it('a write has no hit or miss series (absent, not 0)', () => {
    const got = samples(renderOpenMetrics(metrics.families()));
    assert.equal(got.get(`rbench_command_hits_total{${labels},command="SET"}`), undefined);
    assert.equal(got.get(`rbench_command_misses_total{${labels},command="SET"}`), undefined);
    assert.equal(got.get(`rbench_command_requests_total{${labels},command="SET"}`), 2000);
  });

  it("passes Prometheus' linter", () => {
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: renderPrometheusText(metrics.families()), encoding: 'utf8' });
    assert.equal(lint.error, undefined, 'promtool runs');
    assert.equal(lint.status, 0, lint.stdout + lint.stderr);
  });
});

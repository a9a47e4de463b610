// `--metrics` content (src/runner/metrics): what the runner's progress events become, checked by
// Prometheus' own linter (promtool, Debian's prometheus package) and by value.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { LatencyRecorder, type LoadResult } from '../../../src/engine';
import { renderOpenMetrics, renderPrometheusText } from '../../../src/runner/metrics/openMetrics';
import { MAX_SERIES, RunMetrics } from '../../../src/runner/metrics/runMetrics';
import { at, samples } from './exposition';

function latencies(values: [number, number][]) {
  const recorder = new LatencyRecorder();
  for (const [us, count] of values) recorder.record(us, count);
  return recorder.toSparse();
}

function result(requests: number, errors: number, commands: [string, number, number][], lateShare?: number): LoadResult {
  return {
    total: { command: 'total', requests, errors },
    commands: commands.map(([command, r, e]) => ({ command, requests: r, errors: e })),
    health: { lateShare },
  } as unknown as LoadResult;
}

describe('run metrics', () => {
  it("counts live, then takes the run file's counts when a test ends; latencies into cumulative buckets", () => {
    const metrics = new RunMetrics({ constant: { shard: '2/3' }, cpuUsage: () => ({ user: 1_500_000, system: 500_000 }) });
    metrics.scenarioStarted('SET "quoted"\nname', 'redis://127.0.0.1:6379');
    const scenario = 'SET "quoted"\nname';
    metrics.observe(scenario, { kind: 'load-start', at: at('SET') });
    metrics.observe(scenario, {
      kind: 'tick',
      at: at('SET'),
      tick: {
        elapsedMs: 1000,
        requests: 900,
        errors: 1,
        warmingUp: false,
        lastSecond: { t: 0, ops: 900, errors: 1, p50Us: 80, p99Us: 300, maxUs: 2000 },
        lastSecondLatency: latencies([
          [80, 600],
          [300, 299],
          [2000, 1],
        ]),
      },
    });
    let text = renderOpenMetrics(metrics.families());
    let got = samples(text);
    const labels = 'shard="2/3",scenario="SET \\"quoted\\"\\nname",point="",phase="load",test="SET"';
    assert.equal(got.get(`rbench_test_requests_total{${labels}}`), 900);
    assert.equal(got.get(`rbench_ops_per_second{${labels}}`), 900);
    assert.equal(got.get(`rbench_latency_seconds_bucket{${labels},le="0.0001"}`), 600);
    assert.equal(got.get(`rbench_latency_seconds_bucket{${labels},le="0.0005"}`), 899);
    assert.equal(got.get(`rbench_latency_seconds_bucket{${labels},le="0.0025"}`), 900);
    assert.equal(got.get(`rbench_latency_seconds_bucket{${labels},le="+Inf"}`), 900);
    assert.equal(got.get(`rbench_latency_seconds_count{${labels}}`), 900);
    assert.equal(got.get('rbench_client_cpu_seconds_total{shard="2/3",mode="user"}'), 1.5);

    metrics.observe(scenario, { kind: 'load-end', at: at('SET'), result: result(1000, 2, [['SET', 1000, 2]], 0.25) });
    got = samples((text = renderOpenMetrics(metrics.families())));
    assert.equal(got.get(`rbench_test_requests_total{${labels}}`), 1000, 'the final count replaces the live one');
    assert.equal(got.get(`rbench_test_errors_total{${labels}}`), 2);
    assert.equal(got.get(`rbench_command_requests_total{${labels},command="SET"}`), 1000);
    assert.equal(got.get(`rbench_late_send_ratio{${labels}}`), 0.25);
    assert.equal(got.get(`rbench_ops_per_second{${labels}}`), undefined, 'a finished test has no current rate');
    assert.ok(text.endsWith('# EOF\n'));
  });

  it('adds repeats of a test together, and keeps sweep points apart', () => {
    const metrics = new RunMetrics();
    for (const point of ['value=10', 'value=10', 'value=100']) {
      metrics.observe('s', { kind: 'load-start', at: at('GET', point) });
      metrics.observe('s', { kind: 'load-end', at: at('GET', point), result: result(500, 0, [['GET', 500, 0]]) });
    }
    const got = samples(renderOpenMetrics(metrics.families()));
    assert.equal(got.get('rbench_test_requests_total{scenario="s",point="value=10",phase="load",test="GET"}'), 1000);
    assert.equal(got.get('rbench_test_requests_total{scenario="s",point="value=100",phase="load",test="GET"}'), 500);
  });

  it('stays bounded: past the cap, new series are dropped and counted', () => {
    const metrics = new RunMetrics();
    for (let i = 0; i < MAX_SERIES + 10; i++) metrics.observe('s', { kind: 'load-start', at: at(`T${i}`) });
    const got = samples(renderOpenMetrics(metrics.families()));
    assert.equal([...got.keys()].filter((key) => key.startsWith('rbench_test_requests_total')).length, MAX_SERIES);
    assert.equal(got.get('rbench_metrics_series_dropped_total'), 10);
  });

  it("passes Prometheus' own linter (promtool check metrics), in the text format", () => {
    const metrics = new RunMetrics({ constant: { shard: '1/2' } });
    metrics.scenarioStarted('s', 'local');
    metrics.observe('s', { kind: 'load-start', at: at('GET') });
    metrics.observe('s', {
      kind: 'server-sample',
      sample: {
        t: 0,
        usedMemory: 1e6,
        keys: 10,
        connectedClients: 3,
        totalCommandsProcessed: 100,
        evictedKeys: 0,
        expiredKeys: 0,
        cpuUser: 1,
        cpuSys: 0.5,
      } as never,
    });
    metrics.observe('s', { kind: 'load-end', at: at('GET'), result: result(10, 0, [['GET', 10, 0]]) });
    // promtool reads the text format; the OpenMetrics side is parsed by a real Prometheus (test/unit/cli/metricsPrometheus.test.ts).
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: renderPrometheusText(metrics.families()), encoding: 'utf8' });
    assert.equal(lint.error, undefined, "promtool is missing: install Debian's prometheus package");
    assert.equal(lint.status, 0, `${lint.stdout}${lint.stderr}`);
  });
});

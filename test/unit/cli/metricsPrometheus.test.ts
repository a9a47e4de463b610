// `rbench run --metrics` scraped by a real Prometheus (Debian's prometheus package), started here on a free
// loopback port with a scrape config pointing at the run: the final counters it stored equal the run file's.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../../src/redis/localServer';
import { runCli, startCli, useScratch } from '../../helpers/cli';

interface PromVector {
  metric: Record<string, string>;
  value: [number, string];
}

async function query(port: number, expression: string): Promise<PromVector[]> {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(expression)}`);
  const body = (await response.json()) as { status: string; data: { result: PromVector[] } };
  assert.equal(body.status, 'success', JSON.stringify(body));
  return body.data.result;
}

async function startPrometheus(dir: string, target: string): Promise<{ port: number; child: ChildProcess; log: () => string }> {
  const port = await freePort();
  mkdirSync(join(dir, 'prometheus'), { recursive: true });
  const config = join(dir, 'prometheus', 'prometheus.yml');
  writeFileSync(
    config,
    `global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\nscrape_configs:\n  - job_name: rbench\n    static_configs:\n      - targets: ['${target}']\n`,
  );
  const child = spawn(
    'prometheus',
    [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'prometheus', 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout!.on('data', (chunk) => (log += chunk));
  child.stderr!.on('data', (chunk) => (log += chunk));
  const spawned = await new Promise<Error | undefined>((resolve) => {
    child.once('error', resolve);
    child.once('spawn', () => resolve(undefined));
  });
  assert.equal(spawned, undefined, "prometheus is missing: install Debian's prometheus package");
  for (let i = 0; i < 150; i++) {
    const ready = await fetch(`http://127.0.0.1:${port}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { port, child, log: () => log };
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`prometheus did not become ready on 127.0.0.1:${port}:\n${log}`);
}

describe('rbench run --metrics', function () {
  this.timeout(120_000);
  const scratch = useScratch();
  let prometheus: ChildProcess | undefined;
  let blocker: Server | undefined;

  afterEach(() => {
    prometheus?.kill('SIGKILL');
    prometheus = undefined;
    blocker?.close();
    blocker = undefined;
  });

  it("is scraped by Prometheus every second, and its final counters equal the run file's requests and errors", async () => {
    const metricsPort = await freePort();
    const started = await startPrometheus(scratch.dir, `127.0.0.1:${metricsPort}`);
    prometheus = started.child;
    // Two timed tests, one of them mostly WRONGTYPE errors (LPUSH on the string keys the first writes).
    const file = scratch.write(
      'metrics.rbench',
      '### metrics\nclients 4\nduration 3s\nkeys 100\nSET m:__key__ __value__\nLPUSH m:__key__ __value__\nexpect error-rate < 100%\n',
    );
    const run = startCli(['run', file, '--metrics', `127.0.0.1:${metricsPort}`, '--metrics-linger', '20s'], { cwd: scratch.dir });
    await run.waitFor(/Metrics: http:\/\/127\.0\.0\.1:\d+\/metrics/, 30_000);
    const result = await run.done;
    assert.ok(result.code === 0 || result.code === 1, `exit ${result.code}\n${result.stdout}${result.stderr}`);
    assert.match(result.stderr + result.stdout, /waiting up to 20s for a final scrape/);

    const [saved] = scratch.runFiles();
    assert.ok(saved, 'a run file');
    const loads = saved.points[0].repeats[0].filter((load) => load.measured);
    assert.deepEqual(
      loads.map((load) => load.test),
      ['SET', 'LPUSH'],
    );
    assert.ok(loads[1].total.errors > 0, 'the LPUSH test met WRONGTYPE errors');

    // Stale after rbench exited: read each series' last stored sample.
    const requests = await query(started.port, 'last_over_time(rbench_test_requests_total[5m])');
    const errors = await query(started.port, 'last_over_time(rbench_test_errors_total[5m])');
    const stored = (vector: PromVector[], test: string) => Number(vector.find((entry) => entry.metric.test === test)?.value[1]);
    for (const load of loads) {
      assert.equal(stored(requests, load.test), load.total.requests, `${load.test} requests (Prometheus vs run file)`);
      assert.equal(stored(errors, load.test), load.total.errors, `${load.test} errors`);
      assert.equal(requests.find((entry) => entry.metric.test === load.test)?.metric.scenario, 'metrics');
    }
    const scrapes = await query(started.port, 'count_over_time(rbench_test_requests_total{test="SET"}[5m])');
    // Scraped while it ran, not only at the end (every second; a loaded machine may let one slip).
    assert.ok(Number(scrapes[0]?.value[1]) >= 2, `scraped while running: ${JSON.stringify(scrapes)}`);
    const histogram = await query(started.port, 'last_over_time(rbench_latency_seconds_count{test="SET"}[5m])');
    assert.ok(Number(histogram[0]?.value[1]) > 0.9 * loads[0].total.requests, `latency histogram count ${JSON.stringify(histogram)}`);
    // The server's INFO counters as its last sample (a throwaway server's statistics restart at each test: RESETSTAT).
    const server = await query(started.port, 'last_over_time(rbench_server_commands_processed_total[5m])');
    const lastSample = saved.server?.samples.at(-1);
    assert.ok(lastSample, 'the run file has INFO samples');
    assert.equal(Number(server[0]?.value[1]), lastSample.totalCommandsProcessed, `server counters: ${JSON.stringify(server)}`);
  });

  it('stops before any load with a plain message when the port is in use', async () => {
    const port = await freePort();
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(port, '127.0.0.1', resolve));
    const file = scratch.write('busy.rbench', '### busy\nrequests 1000\nSET b:__key__ __value__\n');
    const result = await runCli(['run', file, '--metrics', `127.0.0.1:${port}`], { cwd: scratch.dir });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, new RegExp(`--metrics 127\\.0\\.0\\.1:${port}: the port is in use`));
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
    assert.deepEqual(scratch.runFiles(), [], 'nothing ran');
  });

  it('refuses a host name, and --metrics-linger without --metrics', async () => {
    const file = scratch.write('x.rbench', '### x\nrequests 10\nGET k\n');
    const named = await runCli(['run', file, '--metrics', 'example.com:9464'], { cwd: scratch.dir });
    assert.equal(named.code, 2);
    assert.match(named.stderr, /--metrics example\.com:9464: give an IP address/);
    const linger = await runCli(['run', file, '--metrics-linger', '1s'], { cwd: scratch.dir });
    assert.equal(linger.code, 2);
    assert.match(linger.stderr, /--metrics-linger needs --metrics/);
  });
});

#!/usr/bin/env node
// Blocking consumers (issue 43): how many jobs a second RBench's consumer group takes, and what each job costs the
// client, against the same queue driven by two redis-benchmarks side by side (one pushing with LPUSH, one popping with
// BRPOP: the way valkey #4029 ran concurrent loads by hand), on the same throwaway server, alternating A B A B.
//
//   node bench/queue.mjs [--pairs 3] [--jobs 200000] [--producers 4] [--consumers 8] [--before OLD/dist/cli.js]
//
// Per run: jobs/s (jobs over the consumers' window; for the redis-benchmark pair, jobs over the popping process's
// wall time from its start, so it includes its own start-up, ~1 ms), and client CPU (user + sys) per job: RBench's
// whole process (producers, consumers, the run's fixed cost), the two redis-benchmarks' sum. A third leg, RBench's
// producers alone, gives the consumers' own CPU per job by difference (RBench's consumers run on the CLI's main
// thread; the question the issue left open is whether that thread is the ceiling).
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, median, rbenchRun, startServer } from './lib.mjs';

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '3' },
    jobs: { type: 'string', default: '200000' },
    producers: { type: 'string', default: '4' },
    consumers: { type: 'string', default: '8' },
    before: { type: 'string' },
  },
});
const pairs = Number(values.pairs);
const jobs = Number(values.jobs);
const producers = Number(values.producers);
const consumers = Number(values.consumers);
const key = 'rbench:benchjobs';

const head = `### queue\ncleanup ${key}\nvalue 3\n`;
const producerGroup = `load producers\nclients ${producers}\nrequests ${jobs}\nLPUSH ${key} __now__:__value__\n`;
const queueScenario = `${head}${producerGroup}load workers\nclients ${consumers}\nBRPOP ${key} 1\n`;
const producersOnly = `${head}${producerGroup}`;

/** Spawns `command args` under /usr/bin/time; resolves with its CPU ms (user + sys), wall ms and exit status. */
function timedAsync(command, args) {
  const dir = mkdtempSync(join(tmpdir(), 'rbench-bench-queue-'));
  const out = join(dir, 'time');
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-f', '%U %S', '-o', out, command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdout.resume();
  return new Promise((resolve) => {
    child.on('close', (status) => {
      const wallMs = performance.now() - started;
      const [user, sys] = readFileSync(out, 'utf8').trim().split('\n').pop().split(' ').map(Number);
      rmSync(dir, { recursive: true, force: true });
      resolve({ status, wallMs, cpuMs: (user + sys) * 1000, stderr });
    });
  });
}

/** redis-benchmark popping with BRPOP while another pushes with LPUSH: jobs/s of the popping side, CPU of both. */
async function redisBenchmarkPair(port) {
  const common = ['-p', String(port), '-n', String(jobs), '-q'];
  const pop = timedAsync('redis-benchmark', [...common, '-c', String(consumers), 'BRPOP', key, '1']);
  const push = timedAsync('redis-benchmark', [...common, '-c', String(producers), '-d', '3', 'LPUSH', key, '__rand_int__']);
  const [popped, pushed] = await Promise.all([pop, push]);
  if (popped.status !== 0 || pushed.status !== 0) throw new Error(`redis-benchmark failed: ${popped.stderr}${pushed.stderr}`);
  return { jobsPerSec: jobs / (popped.wallMs / 1000), cpuPerJobUs: ((popped.cpuMs + pushed.cpuMs) * 1000) / jobs, popCpuPerJobUs: (popped.cpuMs * 1000) / jobs };
}

function rbenchQueue(url, cliPath) {
  const runs = rbenchRun(queueScenario, url, [], { timed: true, ...(cliPath ? { cliPath } : {}) });
  const loads = runs[0].points[0].repeats[0];
  const workers = loads.find((load) => load.consumer);
  if (!workers || workers.consumer.jobs !== jobs) throw new Error(`the consumers took ${workers?.consumer.jobs} of ${jobs} jobs`);
  return { jobsPerSec: workers.consumer.jobs / (workers.durationMs / 1000), cpuPerJobUs: (runs.cpuMs * 1000) / jobs };
}

function rbenchProducers(url, cliPath) {
  const runs = rbenchRun(producersOnly, url, [], { timed: true, ...(cliPath ? { cliPath } : {}) });
  return (runs.cpuMs * 1000) / jobs;
}

ensureBuilt();
const server = await startServer();
const builds = { 'this build': undefined, ...(values.before ? { '--before': values.before } : {}) };
const rows = {};
const push = (name, field, value) => ((rows[name] ??= {})[field] ??= []).push(value);
try {
  const url = `redis://127.0.0.1:${server.port}`;
  for (let pair = 0; pair < pairs; pair++) {
    const peer = await redisBenchmarkPair(server.port);
    push('redis-benchmark', 'jobsPerSec', peer.jobsPerSec);
    push('redis-benchmark', 'cpuPerJobUs', peer.cpuPerJobUs);
    push('redis-benchmark', 'consumerCpuPerJobUs', peer.popCpuPerJobUs);
    console.log(`pair ${pair + 1} redis-benchmark ×2: ${Math.round(peer.jobsPerSec)} jobs/s, ${peer.cpuPerJobUs.toFixed(2)} µs CPU/job (BRPOP side ${peer.popCpuPerJobUs.toFixed(2)})`);
    for (const [build, cliPath] of Object.entries(builds)) {
      const queue = rbenchQueue(url, cliPath);
      const alone = rbenchProducers(url, cliPath);
      push(build, 'jobsPerSec', queue.jobsPerSec);
      push(build, 'cpuPerJobUs', queue.cpuPerJobUs);
      push(build, 'consumerCpuPerJobUs', queue.cpuPerJobUs - alone);
      push(build, 'jobsRatio', queue.jobsPerSec / peer.jobsPerSec);
      push(build, 'cpuRatio', queue.cpuPerJobUs / peer.cpuPerJobUs);
      console.log(
        `pair ${pair + 1} ${build}: ${Math.round(queue.jobsPerSec)} jobs/s (${(queue.jobsPerSec / peer.jobsPerSec).toFixed(3)}× redis-benchmark), ${queue.cpuPerJobUs.toFixed(2)} µs CPU/job (${(queue.cpuPerJobUs / peer.cpuPerJobUs).toFixed(3)}×), consumers ${(queue.cpuPerJobUs - alone).toFixed(2)} µs/job`,
      );
    }
  }
  const list = (xs) => xs.map((x) => x.toFixed(2)).join(' ');
  for (const [name, row] of Object.entries(rows)) {
    const parts = [`${Math.round(median(row.jobsPerSec))} jobs/s`, `${median(row.cpuPerJobUs).toFixed(2)} µs CPU/job`, `consumers ${median(row.consumerCpuPerJobUs).toFixed(2)} µs/job`];
    if (row.jobsRatio) parts.push(`÷ redis-benchmark: jobs/s ${median(row.jobsRatio).toFixed(3)} [${list(row.jobsRatio)}], CPU/job ${median(row.cpuRatio).toFixed(3)} [${list(row.cpuRatio)}]`);
    console.log(`${name}: ${parts.join(', ')}`);
  }
} finally {
  await server.stop();
}

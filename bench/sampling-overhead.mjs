#!/usr/bin/env node
// What the server counters cost (issue 21): the same scenario with and without them, alternating A B A B on
// one throwaway server. "Without" sets RBENCH_BENCH_NO_SERVER_COUNTERS=1 (a switch for this bench only): the
// per-second INFO leaves out commandstats and cpu, and no counters are read before and after each test.
// Prints the median ratio with/without of throughput and of the run's wall time (which holds the per-test reads),
// and, robust on a loaded machine where single runs spread ±20 %, the server's own accounting: the share of its
// command time (INFO commandstats usec) that RBench's monitoring took (INFO, SLOWLOG, LATENCY), with and without.
//
//   node bench/sampling-overhead.mjs [--pairs 5] [--requests 300000] [--tests 3]
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { ensureBuilt, median, rbenchRun, startServer } from './lib.mjs';

const { values } = parseArgs({
  options: { pairs: { type: 'string', default: '5' }, requests: { type: 'string', default: '300000' }, tests: { type: 'string', default: '3' } },
});
const pairs = Number(values.pairs);
const requests = Number(values.requests);
const commands = ['SET key:__rand_int__ __value__', 'GET key:__rand_int__', 'INCR counter:__rand_int__', 'LPUSH list:__rand_int__ __value__'].slice(
  0,
  Number(values.tests),
);
const scenario = `### overhead\nclients 50\npipeline 1\nrequests ${requests}\nkeys 100000 uniform\nvalue 3\n${commands.join('\n')}\n`;

const MONITORING = /^(info|slowlog|latency)(\||$)/;

/** usec the server spent in all commands and in RBench's monitoring ones (INFO commandstats), and its CPU time in usec (INFO cpu). */
function serverUsec(port) {
  const text = spawnSync('redis-cli', ['-p', String(port), 'INFO', 'everything'], { encoding: 'utf8' }).stdout;
  const cpuSeconds = (name) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(text)?.[1] ?? NaN);
  const cpu = (cpuSeconds('used_cpu_user') + cpuSeconds('used_cpu_sys')) * 1e6;
  let all = 0;
  let monitoring = 0;
  for (const [, name, usec] of text.matchAll(/^cmdstat_([^:]+):calls=\d+,usec=(\d+)/gm)) {
    all += Number(usec);
    if (MONITORING.test(name)) monitoring += Number(usec);
  }
  return { all, monitoring, cpu };
}

function leg(port, withCounters) {
  if (withCounters) delete process.env.RBENCH_BENCH_NO_SERVER_COUNTERS;
  else process.env.RBENCH_BENCH_NO_SERVER_COUNTERS = '1';
  const started = performance.now();
  const usecBefore = serverUsec(port);
  const [run] = rbenchRun(scenario, `redis://127.0.0.1:${port}`);
  const usecAfter = serverUsec(port);
  const wallMs = performance.now() - started;
  const monitoring = usecAfter.monitoring - usecBefore.monitoring;
  const share = { ofCommands: monitoring / (usecAfter.all - usecBefore.all), ofCpu: monitoring / (usecAfter.cpu - usecBefore.cpu) };
  const loads = run.points[0].repeats[0];
  const counted = loads.every((load) => load.server !== undefined);
  if (counted !== withCounters) throw new Error(`the switch did not work: server counters ${counted ? 'present' : 'absent'}`);
  const ops = loads.reduce((sum, load) => sum + load.total.opsPerSec, 0) / loads.length;
  return { ops, wallMs, share };
}

ensureBuilt();
const server = await startServer();
console.log(
  `redis-server on ${server.port}; ${pairs} pairs, ${commands.length} tests of ${requests.toLocaleString('en-US')} requests, 50 clients, pipeline 1\n`,
);
const opsRatios = [];
const wallRatios = [];
const shares = { true: { ofCommands: [], ofCpu: [] }, false: { ofCommands: [], ofCpu: [] } };
try {
  for (let pair = 0; pair < pairs; pair++) {
    // A B in one pair, B A in the next: neither leg always runs on a warmer server.
    const order = pair % 2 === 0 ? [true, false] : [false, true];
    const results = new Map(order.map((withCounters) => [withCounters, leg(server.port, withCounters)]));
    const on = results.get(true);
    const off = results.get(false);
    opsRatios.push(on.ops / off.ops);
    wallRatios.push(on.wallMs / off.wallMs);
    for (const [key, result] of [
      ['true', on],
      ['false', off],
    ]) {
      shares[key].ofCommands.push(result.share.ofCommands);
      shares[key].ofCpu.push(result.share.ofCpu);
    }
    console.log(
      `pair ${pair + 1}: with ${Math.round(on.ops).toLocaleString('en-US')} ops/s, without ${Math.round(off.ops).toLocaleString('en-US')} ops/s` +
        ` (ratio ${(on.ops / off.ops).toFixed(3)}); wall ${(on.wallMs / 1000).toFixed(2)} s vs ${(off.wallMs / 1000).toFixed(2)} s`,
    );
  }
} finally {
  delete process.env.RBENCH_BENCH_NO_SERVER_COUNTERS;
  await server.stop();
}
const cost = (1 - median(opsRatios)) * 100;
console.log(
  `\nthroughput with/without: median ${median(opsRatios).toFixed(3)} (range ${Math.min(...opsRatios).toFixed(3)}–${Math.max(...opsRatios).toFixed(3)}),` +
    ` a cost of ${cost.toFixed(2)} %; wall time with/without: median ${median(wallRatios).toFixed(3)}`,
);
const percent = (values) => `${(median(values) * 100).toFixed(3)} %`;
const points = (a, b) => `${((median(a) - median(b)) * 100).toFixed(3)} points`;
for (const [of, what] of [
  ['ofCommands', 'its time in commands'],
  ['ofCpu', 'its CPU time'],
]) {
  console.log(
    `server time in RBench's monitoring (INFO, SLOWLOG, LATENCY), share of ${what}: with ${percent(shares.true[of])}, without ${percent(shares.false[of])}` +
      ` — the counters' cost is the difference, ${points(shares.true[of], shares.false[of])}`,
  );
}

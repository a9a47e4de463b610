#!/usr/bin/env node
// RBench's engine against redis-benchmark on the same machine and the same throwaway server:
// A B A B … with the same clients, pipeline, request count, key space and value size.
// Prints the median ratio rbench/redis-benchmark per configuration, for throughput and for client CPU
// per request (user + sys of each tool's process, from /usr/bin/time; process start-up included for both).
//
//   node bench/vs-redis-benchmark.mjs [--pairs 3] [--client fast|ioredis] [--only "SET P1,GET P1"] [--before OLD/dist/cli.js] [--fixed] [--floor]
//
// --fixed also measures each tool's fixed cost per run (the CPU of a run of a few requests: process start-up,
// for rbench also its worker threads, the server's facts and the run file) and prints the CPU per request with
// it taken out of both: what each request costs once the run is going, next to the whole-process figure.
//
// --floor adds a leg per round with bench/node-floor.mjs, the least a Node process spends on the same requests
// (one thread, no measuring): rbench's CPU above it is rbench's own, the floor's is Node's and the kernel's.
//
// --before adds a third leg to each round (A B C A B C): another build of rbench, e.g. a checkout of the
// commit before a refactor (`git worktree add --detach ../before <commit> && cd ../before && npm ci &&
// npm run build`), and prints this build's throughput and CPU as ratios to that one's.
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { ensureBuilt, median, rbenchRun, redisBenchmarkRun, root, spawnTimed, startServer } from './lib.mjs';

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '3' },
    client: { type: 'string', default: 'fast' },
    only: { type: 'string' },
    before: { type: 'string' },
    fixed: { type: 'boolean', default: false },
    floor: { type: 'boolean', default: false },
  },
});
const pairs = Number(values.pairs);

const configs = [
  { name: 'SET P1', test: 'set', clients: 50, pipeline: 1, size: 3, requests: 300_000 },
  { name: 'GET P1', test: 'get', clients: 50, pipeline: 1, size: 3, requests: 300_000 },
  { name: 'SET P10', test: 'set', clients: 50, pipeline: 10, size: 3, requests: 2_000_000 },
  { name: 'GET P10', test: 'get', clients: 50, pipeline: 10, size: 3, requests: 2_000_000 },
  { name: 'SET P100', test: 'set', clients: 50, pipeline: 100, size: 3, requests: 6_000_000 },
  { name: 'GET P100', test: 'get', clients: 50, pipeline: 100, size: 3, requests: 6_000_000 },
  { name: 'SET 748B c4', test: 'set', clients: 4, pipeline: 1, size: 748, requests: 300_000 },
].filter((c) => !values.only || values.only.toLowerCase().split(',').includes(c.name.toLowerCase()));

const KEYSPACE = 100_000;

/** A pair's ratios, as printed beside their median. */
const list = (ratios) => ratios.map((r) => r.toFixed(2)).join(' ');

function redisBenchmark(port, c) {
  const result = redisBenchmarkRun(port, { ...c, keyspace: KEYSPACE });
  return { ops: result.opsPerSec, cpuUs: (result.cpuMs * 1000) / c.requests, cpuMs: result.cpuMs };
}

function rbench(port, c, cliPath) {
  const command = c.test === 'set' ? 'SET key:__rand_int__ __value__' : 'GET key:__rand_int__';
  const scenario = `### ${c.name}\nclient ${values.client}\nclients ${c.clients}\npipeline ${c.pipeline}\nrequests ${c.requests}\nkeys ${KEYSPACE} uniform\nvalue ${c.size}\nvalue-fill redis-benchmark\n${command}\n`;
  const runs = rbenchRun(scenario, `redis://127.0.0.1:${port}`, [], { timed: true, cliPath });
  const load = runs[0].points[0].repeats[0][0];
  if (load.total.requests !== c.requests) throw new Error(`rbench counted ${load.total.requests} of ${c.requests} replies`);
  return { ops: load.total.opsPerSec, cpuUs: (runs.cpuMs * 1000) / c.requests, cpuMs: runs.cpuMs };
}

function nodeFloor(port, c) {
  const args = [join(root, 'bench', 'node-floor.mjs'), port, c.test, c.clients, c.pipeline, c.requests, KEYSPACE, c.size].map(String);
  const result = spawnTimed(process.execPath, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`node-floor failed (${result.status}): ${result.stderr}`);
  const { requests, opsPerSec } = JSON.parse(result.stdout);
  if (requests !== c.requests) throw new Error(`node-floor counted ${requests} of ${c.requests} replies`);
  return { ops: opsPerSec, cpuUs: (result.cpuMs * 1000) / c.requests, cpuMs: result.cpuMs };
}

/** CPU ms of a run of a few requests (two rounds of every client's pipeline): the least of three, a tool's fixed cost per run. */
function fixedCostMs(tool, port, c) {
  const few = { ...c, requests: c.clients * c.pipeline * 2 };
  return Math.min(...[0, 1, 2].map(() => tool(port, few).cpuMs));
}

ensureBuilt();
const server = await startServer();
console.log(`redis-server on ${server.port}; ${pairs} pairs per configuration, client path ${values.client}\n`);
console.log('configuration      redis-benchmark      rbench   ratio (median of pairs)        CPU µs/request: redis-benchmark  rbench  ratio');
try {
  for (const c of configs) {
    const ratios = [];
    const rb = [];
    const ours = [];
    const cpuRb = [];
    const cpuOurs = [];
    const cpuRatios = [];
    const againstBefore = [];
    const cpuAgainstBefore = [];
    const floorCpu = [];
    const cpuOverFloor = [];
    // GET needs the keys: fill them once with redis-benchmark's own SET.
    if (c.test === 'get') redisBenchmark(server.port, { ...c, test: 'set', requests: KEYSPACE * 3 });
    const fixed = values.fixed ? { rb: fixedCostMs(redisBenchmark, server.port, c), ours: fixedCostMs(rbench, server.port, c) } : undefined;
    const marginalRatios = [];
    const marginalRb = [];
    const marginalOurs = [];
    for (let i = 0; i < pairs; i++) {
      const a = redisBenchmark(server.port, c);
      const b = rbench(server.port, c);
      rb.push(a.ops);
      ours.push(b.ops);
      ratios.push(b.ops / a.ops);
      cpuRb.push(a.cpuUs);
      cpuOurs.push(b.cpuUs);
      cpuRatios.push(b.cpuUs / a.cpuUs);
      if (fixed) {
        const marginal = (run, fixedMs) => ((run.cpuMs - fixedMs) * 1000) / c.requests;
        marginalRb.push(marginal(a, fixed.rb));
        marginalOurs.push(marginal(b, fixed.ours));
        marginalRatios.push(marginal(b, fixed.ours) / marginal(a, fixed.rb));
      }
      if (values.floor) {
        const floor = nodeFloor(server.port, c);
        floorCpu.push(floor.cpuUs / a.cpuUs);
        cpuOverFloor.push(b.cpuUs / floor.cpuUs);
      }
      if (values.before) {
        const old = rbench(server.port, c, values.before);
        againstBefore.push(b.ops / old.ops);
        cpuAgainstBefore.push(b.cpuUs / old.cpuUs);
      }
    }
    console.log(
      `${c.name.padEnd(16)} ${Math.round(median(rb)).toLocaleString('en-US').padStart(13)}/s ${Math.round(median(ours)).toLocaleString('en-US').padStart(11)}/s   ${median(ratios).toFixed(2)}×  [${list(ratios)}]` +
        `   ${median(cpuRb).toFixed(3).padStart(8)} ${median(cpuOurs).toFixed(3).padStart(8)}  ${median(cpuRatios).toFixed(2)}× [${list(cpuRatios)}] (lower is better)`,
    );
    if (fixed) {
      console.log(
        `${''.padEnd(16)} fixed cost per run: redis-benchmark ${Math.round(fixed.rb)} ms, rbench ${Math.round(fixed.ours)} ms; CPU µs/request without it: ` +
          `${median(marginalRb).toFixed(3)} ${median(marginalOurs).toFixed(3)}  ${median(marginalRatios).toFixed(2)}× [${list(marginalRatios)}]`,
      );
    }
    if (values.floor) {
      console.log(
        `${''.padEnd(16)} Node's floor (bench/node-floor.mjs): CPU per request ${median(floorCpu).toFixed(2)}× redis-benchmark's [${list(floorCpu)}]; rbench ${median(cpuOverFloor).toFixed(2)}× the floor's [${list(cpuOverFloor)}]`,
      );
    }
    if (values.before) {
      console.log(
        `${''.padEnd(16)} this build / --before: throughput ${median(againstBefore).toFixed(2)}× [${list(againstBefore)}], CPU per request ${median(cpuAgainstBefore).toFixed(2)}× [${list(cpuAgainstBefore)}]`,
      );
    }
  }
} finally {
  await server.stop();
}

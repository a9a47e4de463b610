#!/usr/bin/env node
// Client groups must not slow the engine (issue 43, "Benchmarks"): a run of two groups of 25 clients each
// (GET) against one group of the same 50 clients, on the same throwaway server, alternating A B A B. Prints
// each pair's total throughput ratio two-groups / one-group and their median (1.00: the same throughput).
//
//   node bench/groups.mjs [--pairs 3] [--requests 300000] [--client fast|ioredis] [--before OLD/dist/cli.js]
//
// Each run is timed: CPU per request is the rbench process's CPU (user + sys, all its threads) over the requests,
// and the ratio two groups / one group of it is printed beside the throughput's. --before adds the same pair run
// by another build (A B A' B' per round), so a fix and the build before it are compared in one run on one machine.
//
// Total throughput = all groups' replies over the phase's span: from the first group's first send to the
// last group's end (each load's measuredFrom + durationMs), so a group that ends early is not counted twice.
import { parseArgs } from 'node:util';
import { ensureBuilt, median, rbenchRun, startServer } from './lib.mjs';

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '3' },
    requests: { type: 'string', default: '300000' },
    client: { type: 'string', default: 'fast' },
    before: { type: 'string' },
  },
});
const pairs = Number(values.pairs);
const requests = Number(values.requests);
const head = `client ${values.client}\nkeys 100000 uniform\nvalue 3\n`;

const scenarios = {
  'two groups (2×25)': `### two groups\n${head}load a\nclients 25\nrequests ${requests / 2}\nGET key:__key__\nload b\nclients 25\nrequests ${requests / 2}\nGET key:__key__\n`,
  'one group (50)': `### one group\n${head}load all\nclients 50\nrequests ${requests}\nGET key:__key__\n`,
};

/** All groups' replies over the span from the first group's measuring start to the last group's end, per second. */
function totalOps(loads) {
  const from = Math.min(...loads.map((load) => Date.parse(load.measuredFrom ?? load.startedAt)));
  const to = Math.max(...loads.map((load) => Date.parse(load.measuredFrom ?? load.startedAt) + load.durationMs));
  const replies = loads.reduce((sum, load) => sum + load.total.requests, 0);
  if (replies !== requests) throw new Error(`counted ${replies} of ${requests} replies`);
  return replies / ((to - from) / 1000);
}

ensureBuilt();
const server = await startServer();
const builds = { 'this build': undefined, ...(values.before ? { '--before': values.before } : {}) };
const list = (values) => values.map((r) => r.toFixed(3)).join(' ');
try {
  const url = `redis://127.0.0.1:${server.port}`;
  const [two, one] = Object.keys(scenarios);
  const ratios = Object.fromEntries(Object.keys(builds).map((build) => [build, { ops: [], cpu: [] }]));
  for (let pair = 0; pair < pairs; pair++) {
    for (const [build, cliPath] of Object.entries(builds)) {
      const ops = {};
      const cpu = {};
      for (const name of [two, one]) {
        const runs = rbenchRun(scenarios[name], url, [], { timed: true, ...(cliPath ? { cliPath } : {}) });
        ops[name] = totalOps(runs[0].points[0].repeats[0]);
        cpu[name] = (runs.cpuMs * 1000) / requests;
      }
      ratios[build].ops.push(ops[two] / ops[one]);
      ratios[build].cpu.push(cpu[two] / cpu[one]);
      console.log(
        `pair ${pair + 1} ${build}: ${two} ${Math.round(ops[two])} ops/s ${cpu[two].toFixed(2)} µs CPU/request, ${one} ${Math.round(ops[one])} ops/s ${cpu[one].toFixed(2)} µs CPU/request, ratio ${(ops[two] / ops[one]).toFixed(3)}`,
      );
    }
  }
  for (const [build, { ops, cpu }] of Object.entries(ratios)) {
    console.log(`${build}: median total throughput ratio, two groups / one group: ${median(ops).toFixed(3)} (pairs: ${list(ops)})`);
    console.log(`${build}: median CPU per request ratio, two groups / one group: ${median(cpu).toFixed(3)} (pairs: ${list(cpu)})`);
  }
} finally {
  await server.stop();
}

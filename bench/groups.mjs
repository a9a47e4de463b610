#!/usr/bin/env node
// Client groups must not slow the engine (issue 43, "Benchmarks"): a run of two groups of 25 clients each
// (GET) against one group of the same 50 clients, on the same throwaway server, alternating A B A B. Prints
// each pair's total throughput ratio two-groups / one-group and their median (1.00: the same throughput).
//
//   node bench/groups.mjs [--pairs 3] [--requests 300000] [--client fast|ioredis]
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
try {
  const url = `redis://127.0.0.1:${server.port}`;
  const [two, one] = Object.keys(scenarios);
  const ratios = [];
  for (let pair = 0; pair < pairs; pair++) {
    const ops = {};
    for (const name of [two, one]) {
      const runs = rbenchRun(scenarios[name], url);
      ops[name] = totalOps(runs[0].points[0].repeats[0]);
    }
    ratios.push(ops[two] / ops[one]);
    console.log(`pair ${pair + 1}: ${two} ${Math.round(ops[two])} ops/s, ${one} ${Math.round(ops[one])} ops/s, ratio ${(ops[two] / ops[one]).toFixed(3)}`);
  }
  console.log(`median total throughput ratio, two groups / one group: ${median(ratios).toFixed(3)} (pairs: ${ratios.map((r) => r.toFixed(3)).join(' ')})`);
} finally {
  await server.stop();
}

#!/usr/bin/env node
// RBench against `redis-benchmark --cluster` on the same local 3-master Redis Cluster, same machine, same
// clients, pipeline and request count: A B A B … pairs. Prints per configuration the median ops/s of each,
// the median of the pairs' ratios (RBench / redis-benchmark), the same for client CPU per request (user + sys
// of each tool's process from /usr/bin/time, start-up included for both: the figure least moved by other work
// on a shared machine), and the cluster's per-node split. RBench spreads its keys over all 16384 slots;
// redis-benchmark sends each node keys of one slot (a `{tag}` per node).
//
//   node bench/cluster.mjs [--pairs 3] [--client fast|ioredis] [--only "SET P16,GET P16"] [--one-node] [--before OLD/dist/cli.js]
//                          [--valkey PATH/valkey-benchmark] [--marginal]
//
// --one-node adds a leg on one redis-server with the same scenario (the routing's overhead: on one small
// machine the cluster's three servers and the client share the cores, so the cluster cannot scale here).
// --before adds a leg on the cluster with another build of rbench (as in vs-redis-benchmark.mjs) and
// prints this build's cluster throughput and CPU per request as ratios to that one's.
// --valkey adds a leg with `valkey-benchmark --cluster` (built from source outside the repo: `make valkey-benchmark`
// in valkey's src/; never in CI) and prints RBench's throughput and CPU per request as ratios to it, round by round.
// --marginal adds to each round a run of every tool at a fifth of the requests, and splits each tool's CPU into a
// fixed part per run and a part per request by the line through the two (runs of N and 5N): the per-request part
// (the worker's warm-up falls in the fixed part) is the engine's, the fixed part is start-up, the cluster's discovery,
// the servers' facts and the run file. The whole-process ratio is both together.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuilt, freePort, median, rbenchRun, redisBenchmarkRun, startServer } from './lib.mjs';

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '3' },
    client: { type: 'string', default: 'fast' },
    only: { type: 'string' },
    'one-node': { type: 'boolean', default: false },
    before: { type: 'string' },
    valkey: { type: 'string' },
    marginal: { type: 'boolean', default: false },
  },
});
const pairs = Number(values.pairs);

const configs = [
  { name: 'SET P1', test: 'set', command: 'SET key:__key__ __value__', clients: 50, pipeline: 1, requests: 300_000 },
  { name: 'SET P16', test: 'set', command: 'SET key:__key__ __value__', clients: 50, pipeline: 16, requests: 2_000_000 },
  { name: 'GET P16', test: 'get', command: 'GET key:__key__', clients: 50, pipeline: 16, requests: 2_000_000 },
  // Every key absent (the cluster flushed before each tool's run): each reply a nil, which RBench counts as a miss.
  { name: 'GET P16 miss', test: 'get', command: 'GET key:__key__', clients: 50, pipeline: 16, requests: 2_000_000, absent: true },
].filter((c) => !values.only || values.only.toLowerCase().split(',').includes(c.name.toLowerCase()));

const KEYSPACE = 100_000;

/**
 * --marginal: a tool's CPU split by the line through its run of `c` (5N requests) and one of N = a fifth as many,
 * `fifth` (the same round): µs per request once the run goes, and the fixed ms per run (the intercept).
 */
function cpuLine(whole, fifth, c) {
  const perRequestMs = (whole.cpuMs - fifth.cpuMs) / (c.requests - c.requests / 5);
  return { perRequestUs: perRequestMs * 1000, fixedMs: fifth.cpuMs - perRequestMs * (c.requests / 5) };
}

/** The peer: redis-benchmark --cluster on the same cluster (it sends each node keys of one slot). */
function redisBenchmarkCluster(port, c, binary) {
  if (c.absent) cluster.flush();
  const result = redisBenchmarkRun(port, { ...c, size: 3, keyspace: KEYSPACE }, ['--cluster', '-h', '127.0.0.1'], binary);
  return { opsPerSec: result.opsPerSec, cpuPerRequest: result.cpuMs / c.requests, cpuMs: result.cpuMs };
}

const portFree = (port) =>
  new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });

/** Empties the servers on `ports` (GET P16 miss: every key absent for each tool's run). */
function flushAll(ports) {
  for (const port of ports) {
    const flushed = spawnSync('redis-cli', ['-p', String(port), 'FLUSHALL'], { encoding: 'utf8' });
    if (flushed.stdout.trim() !== 'OK') throw new Error(`FLUSHALL on ${port} failed: ${flushed.stdout}${flushed.stderr}`);
  }
}

async function startCluster(masters) {
  const nodes = [];
  const stop = async () => {
    for (const node of nodes) {
      node.child.kill('SIGTERM');
      await new Promise((r) => (node.child.exitCode !== null ? r() : node.child.on('exit', r)));
      rmSync(node.dir, { recursive: true, force: true });
    }
  };
  try {
    while (nodes.length < masters) {
      const port = await freePort();
      if (port + 10000 >= 65536 || !(await portFree(port + 10000)) || nodes.some((n) => n.port === port)) continue;
      const dir = mkdtempSync(join(tmpdir(), 'rbench-bench-cluster-'));
      writeFileSync(join(dir, 'redis.conf'), `port ${port}\nbind 127.0.0.1\ndir ${dir}\ncluster-enabled yes\nsave ""\nappendonly no\n`);
      nodes.push({ port, dir, child: spawn('redis-server', [join(dir, 'redis.conf')], { stdio: 'ignore' }) });
    }
    for (const node of nodes) {
      for (let i = 0; i < 100 && spawnSync('redis-cli', ['-p', String(node.port), 'PING'], { encoding: 'utf8' }).stdout.trim() !== 'PONG'; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const create = spawnSync('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-yes'], { encoding: 'utf8' });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    for (let i = 0; i < 200; i++) {
      const states = nodes.map((n) => spawnSync('redis-cli', ['-p', String(n.port), 'CLUSTER', 'INFO'], { encoding: 'utf8' }).stdout);
      if (states.every((s) => s.includes('cluster_state:ok'))) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return { port: nodes[0].port, stop, flush: () => flushAll(nodes.map((n) => n.port)) };
  } catch (error) {
    await stop();
    throw error;
  }
}

function run(port, c, onCluster, cliPath) {
  if (c.absent && onCluster) cluster.flush();
  else if (c.absent) flushAll([port]);
  const scenario = `### ${c.name}\nclient ${values.client}\n${onCluster ? 'cluster on\n' : ''}clients ${c.clients}\npipeline ${c.pipeline}\nrequests ${c.requests}\nkeys ${KEYSPACE} uniform\nvalue 3\n${c.command}\n`;
  const runs = rbenchRun(scenario, `redis://127.0.0.1:${port}`, [], { timed: true, cliPath });
  const load = runs[0].points[0].repeats[0][0];
  if (load.status !== 'complete') throw new Error(`${c.name}: ${load.status} ${load.error ?? load.errorStatusReason ?? ''}`);
  if (load.total.requests !== c.requests) throw new Error(`${c.name}: rbench counted ${load.total.requests} of ${c.requests} replies`);
  return Object.assign(load, { cpuPerRequest: runs.cpuMs / load.total.requests, cpuMs: runs.cpuMs });
}

ensureBuilt();
const single = values['one-node'] ? await startServer() : undefined;
const cluster = await startCluster(3);
console.log(
  `a 3-master cluster seeded at ${cluster.port}${single ? `, one redis-server on ${single.port}` : ''}; ${pairs} pairs, client path ${values.client}\n`,
);
console.log(
  'configuration   redis-benchmark --cluster      rbench   throughput ratio (median of pairs)   CPU µs/request: redis-benchmark  rbench  ratio (lower is better)   rbench per node (last run)',
);
const list = (ratios) => ratios.map((r) => r.toFixed(2)).join(' ');
try {
  for (const c of configs) {
    const peer = [];
    const ours = [];
    const ratios = [];
    const cpuPeer = [];
    const cpuOurs = [];
    const cpuRatios = [];
    const oneNode = [];
    const againstBefore = [];
    const cpuAgainstBefore = [];
    const againstValkey = [];
    const cpuAgainstValkey = [];
    let split = '';
    // --marginal: per tool and round, the CPU line (cpuLine); ratios of ours to each peer's per-request part.
    const fifth = { ...c, requests: c.requests / 5 };
    const lines = { peer: [], ours: [], valkey: [] };
    const perRequestRatios = [];
    const perRequestValkeyRatios = [];
    for (let i = 0; i < pairs; i++) {
      const a = redisBenchmarkCluster(cluster.port, c);
      const b = run(cluster.port, c, true);
      peer.push(a.opsPerSec);
      ours.push(b.total.opsPerSec);
      ratios.push(b.total.opsPerSec / a.opsPerSec);
      cpuPeer.push(a.cpuPerRequest * 1000);
      cpuOurs.push(b.cpuPerRequest * 1000);
      cpuRatios.push(b.cpuPerRequest / a.cpuPerRequest);
      if (values.marginal) {
        lines.peer.push(cpuLine(a, redisBenchmarkCluster(cluster.port, fifth), c));
        lines.ours.push(cpuLine(b, run(cluster.port, fifth, true), c));
        perRequestRatios.push(lines.ours.at(-1).perRequestUs / lines.peer.at(-1).perRequestUs);
      }
      split = b.cluster.nodes.map((n) => `${Math.round(n.total.opsPerSec / 1000)}k`).join(' + ');
      if (single) oneNode.push(b.total.opsPerSec / run(single.port, c, false).total.opsPerSec);
      if (values.valkey) {
        const v = redisBenchmarkCluster(cluster.port, c, values.valkey);
        againstValkey.push(b.total.opsPerSec / v.opsPerSec);
        cpuAgainstValkey.push(b.cpuPerRequest / v.cpuPerRequest);
        if (values.marginal) {
          lines.valkey.push(cpuLine(v, redisBenchmarkCluster(cluster.port, fifth, values.valkey), c));
          perRequestValkeyRatios.push(lines.ours.at(-1).perRequestUs / lines.valkey.at(-1).perRequestUs);
        }
      }
      if (values.before) {
        const old = run(cluster.port, c, true, values.before);
        againstBefore.push(b.total.opsPerSec / old.total.opsPerSec);
        cpuAgainstBefore.push(b.cpuPerRequest / old.cpuPerRequest);
      }
    }
    console.log(
      `${c.name.padEnd(12)} ${Math.round(median(peer)).toLocaleString('en-US').padStart(17)}/s ${Math.round(median(ours)).toLocaleString('en-US').padStart(10)}/s   ${median(ratios).toFixed(2)}× [${list(ratios)}]`.padEnd(
        92,
      ) +
        `${median(cpuPeer).toFixed(3).padStart(8)} ${median(cpuOurs).toFixed(3).padStart(8)}  ${median(cpuRatios).toFixed(2)}× [${list(cpuRatios)}]   ${split}`,
    );
    if (values.marginal) {
      const us = (tool) => median(lines[tool].map((l) => l.perRequestUs)).toFixed(3);
      const ms = (tool) => Math.round(median(lines[tool].map((l) => l.fixedMs)));
      console.log(
        `${''.padEnd(12)} runs of N and 5N: CPU µs/request once running: redis-benchmark ${us('peer')}, rbench ${us('ours')}: ${median(perRequestRatios).toFixed(2)}× [${list(perRequestRatios)}]; ` +
          `fixed ms per run: redis-benchmark ${ms('peer')}, rbench ${ms('ours')}`,
      );
      if (values.valkey) {
        console.log(
          `${''.padEnd(12)} runs of N and 5N: valkey-benchmark ${us('valkey')} µs/request, rbench ${median(perRequestValkeyRatios).toFixed(2)}× [${list(perRequestValkeyRatios)}]; fixed ms per run: valkey-benchmark ${ms('valkey')}`,
        );
      }
    }
    if (single) console.log(`${''.padEnd(12)} cluster / one node (rbench): throughput ${median(oneNode).toFixed(2)}× [${list(oneNode)}]`);
    if (values.valkey) {
      console.log(
        `${''.padEnd(12)} rbench / valkey-benchmark --cluster: throughput ${median(againstValkey).toFixed(2)}× [${list(againstValkey)}], CPU per request ${median(cpuAgainstValkey).toFixed(2)}× [${list(cpuAgainstValkey)}]`,
      );
    }
    if (values.before) {
      console.log(
        `${''.padEnd(12)} cluster, this build / --before: throughput ${median(againstBefore).toFixed(2)}× [${list(againstBefore)}], CPU per request ${median(cpuAgainstBefore).toFixed(2)}× [${list(cpuAgainstBefore)}]`,
      );
    }
  }
} finally {
  await cluster.stop();
  await single?.stop();
}

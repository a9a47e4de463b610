#!/usr/bin/env node
// A 3-master Redis Cluster against one redis-server, same machine, same scenario: A B A B … pairs.
// Prints the median ops/s of each and their ratio per configuration, the ratio of client CPU per request
// (user + sys, start-up included), and the cluster's per-node split.
// On one small machine the cluster's three servers and the client share the cores, so the cluster
// cannot win here: this measures the routing's overhead, not the cluster's scaling (see bench/README.md).
//
//   node bench/cluster.mjs [--pairs 3] [--client fast|ioredis] [--seconds 3] [--before OLD/dist/cli.js]
//
// --before adds a leg on the cluster with another build of rbench (as in vs-redis-benchmark.mjs) and
// prints this build's cluster throughput and CPU per request as ratios to that one's.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuilt, freePort, median, rbenchRun, startServer } from './lib.mjs';

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '3' },
    client: { type: 'string', default: 'fast' },
    seconds: { type: 'string', default: '3' },
    before: { type: 'string' },
  },
});
const pairs = Number(values.pairs);

const configs = [
  { name: 'SET P1 c50', test: 'set', command: 'SET key:__key__ __value__', clients: 50, pipeline: 1 },
  { name: 'SET P16 c50', test: 'set', command: 'SET key:__key__ __value__', clients: 50, pipeline: 16 },
  { name: 'GET P16 c50', test: 'get', command: 'GET key:__key__', clients: 50, pipeline: 16 },
];

/** The peer for reference: redis-benchmark --cluster on the same cluster (it sends each node keys of one slot). */
function redisBenchmarkCluster(port, c, requests) {
  const args = ['--cluster', '-h', '127.0.0.1', '-p', String(port), '-t', c.test, '-n', String(requests), '-c', String(c.clients), '-P', String(c.pipeline), '-d', '3', '-r', '100000', '--csv'];
  const result = spawnSync('redis-benchmark', args, { encoding: 'utf8' });
  const line = result.stdout.trim().split('\n').find((l) => l.startsWith(`"${c.test.toUpperCase()}"`));
  return line ? Number(JSON.parse(`[${line}]`)[1]) : NaN;
}

const portFree = (port) =>
  new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });

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
    return { port: nodes[0].port, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function run(port, c, cluster, cliPath) {
  const scenario = `### ${c.name}\nclient ${values.client}\n${cluster ? 'cluster on\n' : ''}clients ${c.clients}\npipeline ${c.pipeline}\nduration ${values.seconds}s\nkeys 100000 uniform\nvalue 3\n${c.command}\n`;
  const runs = rbenchRun(scenario, `redis://127.0.0.1:${port}`, [], { timed: true, cliPath });
  const load = runs[0].points[0].repeats[0][0];
  if (load.status !== 'complete') throw new Error(`${c.name}: ${load.status} ${load.error ?? load.errorStatusReason ?? ''}`);
  return Object.assign(load, { cpuPerRequest: runs.cpuMs / load.total.requests });
}

ensureBuilt();
const single = await startServer();
const cluster = await startCluster(3);
console.log(`one redis-server on ${single.port}; a 3-master cluster seeded at ${cluster.port}; ${pairs} pairs, ${values.seconds} s each, client path ${values.client}\n`);
console.log('configuration        one node     cluster   ratio (median of pairs)   CPU/request ratio   cluster per node (last run)   redis-benchmark --cluster');
try {
  for (const c of configs) {
    const one = [];
    const many = [];
    const cpu = [];
    const peer = [];
    const againstBefore = [];
    const cpuAgainstBefore = [];
    let split = '';
    for (let i = 0; i < pairs; i++) {
      const alone = run(single.port, c, false);
      one.push(alone.total.opsPerSec);
      const load = run(cluster.port, c, true);
      many.push(load.total.opsPerSec);
      cpu.push(load.cpuPerRequest / alone.cpuPerRequest);
      split = load.cluster.nodes.map((n) => `${Math.round(n.total.opsPerSec / 1000)}k`).join(' + ');
      peer.push(redisBenchmarkCluster(cluster.port, c, Math.max(10_000, Math.round(load.total.requests))));
      if (values.before) {
        const old = run(cluster.port, c, true, values.before);
        againstBefore.push(load.total.opsPerSec / old.total.opsPerSec);
        cpuAgainstBefore.push(load.cpuPerRequest / old.cpuPerRequest);
      }
    }
    const ratios = many.map((m, i) => m / one[i]);
    console.log(
      `${c.name.padEnd(16)} ${Math.round(median(one)).toLocaleString('en-US').padStart(10)}/s ${Math.round(median(many)).toLocaleString('en-US').padStart(10)}/s   ${median(ratios).toFixed(2)}× [${ratios.map((r) => r.toFixed(2)).join(' ')}]   ${`${median(cpu).toFixed(2)}×`.padStart(17)}   ${split.padEnd(26)} ${Math.round(median(peer)).toLocaleString('en-US').padStart(10)}/s`,
    );
    if (values.before) {
      const list = (ratios) => ratios.map((r) => r.toFixed(2)).join(' ');
      console.log(
        `${''.padEnd(16)} cluster, this build / --before: throughput ${median(againstBefore).toFixed(2)}× [${list(againstBefore)}], CPU per request ${median(cpuAgainstBefore).toFixed(2)}× [${list(cpuAgainstBefore)}]`,
      );
    }
  }
} finally {
  await cluster.stop();
  await single.stop();
}

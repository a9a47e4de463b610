#!/usr/bin/env node
// Memory must stay flat however many requests a run makes, and near the C tools (issue 46: peak RSS ≤ 64 MiB
// for a single-thread run of any length): the peak RSS of `rbench run` (one engine thread, 50 clients) at each
// run length, beside redis-benchmark's on the same requests against the same throwaway server, both read by
// `/usr/bin/time -f %M` (the kernel's high-water mark of the whole process, threads included).
//
//   node bench/memory-flat.mjs [--lengths 100,1M,10M] [--test get|set] [--pipeline 16] [--rounds 1] [--before OLD/dist/cli.js]
//
// `--before` adds a leg with another build (main's dist/cli.js) on the same requests, alternating A B per round.
// Set RBENCH_MEMORY_PROBE=1 to also print, per thread, the peaks of process.memoryUsage() parts and V8's new
// space (a preload, bench/memory-probe.cjs): which part grows with the run's length.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cli, ensureBuilt, median, root, startServer } from './lib.mjs';

const { values } = parseArgs({
  options: {
    lengths: { type: 'string', default: '100,1M,10M' },
    test: { type: 'string', default: 'get' },
    pipeline: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '1' },
    before: { type: 'string' },
  },
});
const CLIENTS = 50;
const KEYS = 100_000;
const pipeline = Number(values.pipeline);
const test = values.test.toLowerCase();
const probe = process.env.RBENCH_MEMORY_PROBE === '1';

function count(text) {
  const match = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(text.trim());
  if (!match) throw new Error(`not a request count: ${text}`);
  return Math.round(Number(match[1]) * { '': 1, k: 1e3, K: 1e3, m: 1e6, M: 1e6 }[match[2]]);
}

/** Runs `command args` under /usr/bin/time; its peak RSS in KiB and CPU in ms. */
function timed(command, args, env = process.env) {
  const dir = mkdtempSync(join(tmpdir(), 'rbench-mem-time-'));
  try {
    const out = join(dir, 'time');
    const result = spawnSync('/usr/bin/time', ['-f', '%M %U %S', '-o', out, command, ...args], { encoding: 'utf8', env });
    if (result.status !== 0) throw new Error(`${command} exited with ${result.status}: ${result.stderr.slice(-2000)}`);
    const [kib, user, sys] = readFileSync(out, 'utf8').trim().split('\n').pop().split(' ').map(Number);
    return { kib, cpuMs: (user + sys) * 1000, stderr: result.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function rbench(requests, port, cliPath) {
  const dir = mkdtempSync(join(tmpdir(), 'rbench-mem-'));
  try {
    const file = join(dir, 'mem.rbench');
    const command = test === 'set' ? 'SET key:__key__ __value__' : 'GET key:__key__';
    writeFileSync(
      file,
      `### memory ${requests}\nthreads 1\nclients ${CLIENTS}\npipeline ${pipeline}\nrequests ${requests}\nkeys ${KEYS} uniform\n${command}\n`,
    );
    const env = probe ? { ...process.env, NODE_OPTIONS: `--require ${join(root, 'bench', 'memory-probe.cjs')}`, RBENCH_MEMORY_PROBE_DIR: dir } : process.env;
    const run = timed(process.execPath, [cliPath, 'run', file, '--url', `redis://127.0.0.1:${port}`, '--yes', '--out', join(dir, 'runs'), '--quiet'], env);
    if (probe) {
      for (const name of readdirSync(dir)
        .filter((n) => n.startsWith('probe-'))
        .sort())
        console.log(`    ${name.replace(/\.txt$/, '')}: ${readFileSync(join(dir, name), 'utf8').trim()}`);
    }
    return run;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function redisBenchmark(requests, port) {
  const args = ['-p', String(port), '-t', test, '-n', String(requests), '-c', String(CLIENTS), '-P', String(pipeline), '-r', String(KEYS), '-q'];
  return timed('redis-benchmark', args);
}

const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`;
// Each round's figure beside the median: a run's peak moves by about 1 MiB from run to run (its RSS rises in steps
// of 0.5–1.4 MiB at moments that differ between runs), more than many of the changes it is used to judge.
const rounds = (list) => (list.length > 1 ? ` [${list.map((kib) => (kib / 1024).toFixed(1)).join(' ')}]` : '');

ensureBuilt();
const server = await startServer();
try {
  // GET finds values: the keys exist before the first leg.
  spawnSync('redis-benchmark', ['-p', String(server.port), '-t', 'set', '-n', String(KEYS * 2), '-r', String(KEYS), '-P', '100', '-q']);
  const lengths = values.lengths.split(',').map(count);
  const rows = [];
  for (const requests of lengths) {
    const legs = { rbench: [], redisBenchmark: [], before: [] };
    for (let round = 0; round < Number(values.rounds); round++) {
      legs.rbench.push(rbench(requests, server.port, cli).kib);
      if (values.before) legs.before.push(rbench(requests, server.port, values.before).kib);
      legs.redisBenchmark.push(redisBenchmark(requests, server.port).kib);
    }
    const row = { requests, rbench: median(legs.rbench), redisBenchmark: median(legs.redisBenchmark), before: values.before ? median(legs.before) : undefined };
    rows.push(row);
    const before = row.before ? `, before ${mib(row.before)}${rounds(legs.before)} (${(row.rbench / row.before).toFixed(2)}× of it)` : '';
    console.log(
      `${test.toUpperCase()} P${pipeline}, ${requests} requests: rbench ${mib(row.rbench)}${rounds(legs.rbench)}, redis-benchmark ${mib(row.redisBenchmark)}, ratio ${(row.rbench / row.redisBenchmark).toFixed(1)}×${before}`,
    );
  }
  const [shortest, longest] = [rows.find((r) => r.requests >= 1e6) ?? rows[0], rows[rows.length - 1]];
  console.log(
    `flat: ${longest.requests} against ${shortest.requests} requests ${(longest.rbench / shortest.rbench).toFixed(2)}× (target ≤ 1.05×); goal ≤ 64 MiB at every length`,
  );
} finally {
  await server.stop();
}
